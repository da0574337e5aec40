//! Training from the command line (docs/training.md): `fluidc run main.pb
//! --startup startup.pb --steps N [--batch-size B] --feed x=x.npy ...` runs
//! the main program N times in one session (the startup program ran first,
//! so parameters carry from step to step) and prints each step's fetches as
//! a line, or as a JSON line; on a terminal a progress bar goes to stderr.
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use fluidc_runtime::{Batches, Session, Tensor};
use fluidc_transpiler::Verified;

use crate::input::{self, CliError};

/// What one `--feed` gives every step.
#[derive(Debug)]
pub enum StepFeed {
    /// The same value each step.
    Whole(Tensor),
    /// One batch of rows per step (`--batch-size`).
    Batched(Batches),
}

/// Reads the `--feed NAME=VALUE` arguments for `program`. With `batch`,
/// each `.npy` value is cut into batches of that many rows (they must all
/// have the same number of rows); literals are fed whole every step.
pub fn read_feeds(
    program: &Verified,
    args: &[String],
    batch: Option<usize>,
) -> Result<Vec<(String, StepFeed)>, CliError> {
    let mut feeds = Vec::with_capacity(args.len());
    let mut rows: Option<(&str, usize)> = None;
    for f in args {
        let (name, value) = split_feed(f)?;
        let feed = match batch {
            Some(b) if value.ends_with(".npy") => {
                let batches = Batches::new(program, name, value, b)
                    .map_err(|e| CliError::user(format!("--feed {name}: {e}")))?;
                match rows {
                    Some((first, n)) if n != batches.rows() => {
                        return Err(CliError::user(format!(
                            "--batch-size: {first} has {n} rows but {value} has {}; the batched \
                             feeds need the same number of rows, so that each step takes the \
                             same rows of every one",
                            batches.rows()
                        )))
                    }
                    _ => rows = Some((value, batches.rows())),
                }
                StepFeed::Batched(batches)
            }
            _ => StepFeed::Whole(
                fluidc_runtime::parse_feed(program, name, value)
                    .map_err(|e| CliError::user(format!("--feed {name}: {e}")))?,
            ),
        };
        feeds.push((name.to_string(), feed));
    }
    if batch.is_some() && rows.is_none() {
        return Err(CliError {
            code: 2,
            message: "error: --batch-size cuts .npy feeds into batches, and no --feed is a \
                      .npy file; give one (--feed x=x.npy) or drop --batch-size"
                .into(),
        });
    }
    Ok(feeds)
}

/// `NAME=VALUE`, or a usage error.
pub fn split_feed(f: &str) -> Result<(&str, &str), CliError> {
    f.split_once('=').ok_or_else(|| CliError {
        code: 2,
        message: format!("error: --feed {f}: write NAME=VALUE"),
    })
}

/// A training run: the program, what it is fed and fetches, how often.
#[derive(Debug)]
pub struct Training<'a> {
    /// The main program's file, for messages.
    pub path: &'a str,
    pub program: &'a Verified,
    pub feeds: Vec<(String, StepFeed)>,
    /// Variables to print after the program's own fetch targets.
    pub fetch: Vec<String>,
    pub steps: u64,
    /// One JSON object a line instead of text.
    pub json: bool,
    /// Whether a startup program ran first (`--startup`).
    pub startup_given: bool,
}

/// The error (exit 3) of a run of the program in `path` (at training step
/// `step`). A variable no op has written, when no startup program ran, is
/// probably one the startup program initializes: the message says so.
pub fn runtime_error(
    path: &str,
    step: Option<u64>,
    e: &fluidc_runtime::RuntimeError,
    startup_given: bool,
) -> CliError {
    let at = step.map(|s| format!("step {s}: ")).unwrap_or_default();
    let hint = match e.kernel_error() {
        Some(fluidc_runtime::KernelError::MissingInput(_)) if !startup_given => {
            "\nhint: no startup program ran; if it initializes this variable, give it with \
             --startup startup.pb (`fluidc compile SCRIPT.py -o main.pb --startup-out \
             startup.pb` writes both)"
        }
        _ => "",
    };
    CliError {
        code: 3,
        message: format!("error: {}: {at}{e}{hint}", input::display_name(path)),
    }
}

/// Runs `training.program` `training.steps` times in `session`, writing
/// each step's fetches to standard output as it ends.
pub fn train(session: &mut Session, training: Training) -> Result<(), CliError> {
    let error = |step, e| runtime_error(training.path, step, &e, training.startup_given);
    let prepared = session
        .prepare(training.program)
        .map_err(|e| error(None, e))?;
    let mut progress = Progress::on_terminal(training.steps);
    let stdout = std::io::stdout();
    for step in 0..training.steps {
        let feeds = training
            .feeds
            .iter()
            .map(|(n, f)| {
                let t = match f {
                    StepFeed::Whole(t) => t.clone(),
                    StepFeed::Batched(b) => b.get(step),
                };
                (n.clone(), t)
            })
            .collect();
        let fetched = session
            .run_prepared(&prepared, feeds, training.fetch.clone())
            .map_err(|e| error(Some(step), e))?;
        let line = if training.json {
            let list: Vec<serde_json::Value> = fetched.iter().map(|(n, t)| t.to_json(n)).collect();
            // Written by hand so that `step` comes first (serde_json sorts keys).
            format!(
                "{{\"step\":{step},\"fetch\":{}}}",
                serde_json::Value::Array(list)
            )
        } else {
            step_line(step, &fetched)
        };
        if let Some(p) = &mut progress {
            p.clear_for_output();
        }
        writeln!(stdout.lock(), "{line}")
            .map_err(|e| CliError::user(format!("<stdout>: cannot write: {e}")))?;
        if let Some(p) = &mut progress {
            p.done(step + 1);
        }
    }
    Ok(())
}

/// `step 3: mean_0.tmp_0 = 11.210728, fc_0.tmp_1 = [[2.1], [4.0]]`.
pub fn step_line(step: u64, fetched: &[(String, Tensor)]) -> String {
    let values: Vec<String> = fetched
        .iter()
        .map(|(n, t)| format!("{n} = {}", t.to_short_text()))
        .collect();
    if values.is_empty() {
        format!("step {step}")
    } else {
        format!("step {step}: {}", values.join(", "))
    }
}

/// The progress bar on standard error: steps done of all, and steps/s. It
/// is the terminal's last line; lines written to a terminal standard
/// output go above it. Dropped, it clears its line.
#[derive(Debug)]
struct Progress {
    total: u64,
    start: Instant,
    last_drawn: Option<Instant>,
    visible: bool,
    /// Standard output is the same terminal: clear the bar before a line.
    stdout_tty: bool,
}

/// How often the bar is redrawn at most (unless stdout lines clear it).
const REDRAW: Duration = Duration::from_millis(100);
const BAR_WIDTH: u64 = 30;

impl Progress {
    /// A bar when standard error is a terminal; none when it is piped.
    fn on_terminal(total: u64) -> Option<Progress> {
        std::io::stderr().is_terminal().then(|| Progress {
            total,
            start: Instant::now(),
            last_drawn: None,
            visible: false,
            stdout_tty: std::io::stdout().is_terminal(),
        })
    }

    fn clear_for_output(&mut self) {
        if self.visible && self.stdout_tty {
            self.clear();
        }
    }

    fn clear(&mut self) {
        eprint!("\r\x1b[K");
        self.visible = false;
    }

    fn done(&mut self, done: u64) {
        let due = self.last_drawn.is_none_or(|t| t.elapsed() >= REDRAW);
        if self.visible && !due && done < self.total {
            return;
        }
        let elapsed = self.start.elapsed().as_secs_f64();
        let rate = if elapsed > 0.0 {
            format!("{:.1} steps/s", done as f64 / elapsed)
        } else {
            String::new()
        };
        let filled = (done.saturating_mul(BAR_WIDTH) / self.total.max(1)).min(BAR_WIDTH);
        let bar = format!(
            "{}{}",
            "#".repeat(filled as usize),
            "-".repeat((BAR_WIDTH - filled) as usize)
        );
        eprint!("\r\x1b[K[{bar}] {done}/{} steps  {rate}", self.total);
        let _ = std::io::stderr().flush();
        self.visible = true;
        self.last_drawn = Some(Instant::now());
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.visible {
            self.clear();
        }
    }
}
