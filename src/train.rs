//! Training from the command line (docs/training.md): `fluidc run main.pb
//! --startup startup.pb --steps N [--batch-size B] --feed x=x.npy ...` runs
//! the main program N times in one session (the startup program ran first,
//! so parameters carry from step to step) and prints each step's fetches as
//! a line, or as a JSON line; on a terminal a progress bar goes to stderr.
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use fluidc_runtime::{Batches, Group, Member, Session, SessionOptions, Tensor};
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

impl Training<'_> {
    /// What step `step` feeds (the whole batch).
    fn step_feeds(&self, step: u64) -> Vec<(String, Tensor)> {
        self.feeds
            .iter()
            .map(|(n, f)| {
                let t = match f {
                    StepFeed::Whole(t) => t.clone(),
                    StepFeed::Batched(b) => b.get(step),
                };
                (n.clone(), t)
            })
            .collect()
    }
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
    let mut out = StepWriter::new(&training);
    for step in 0..training.steps {
        let fetched = session
            .run_prepared(&prepared, training.step_feeds(step), training.fetch.clone())
            .map_err(|e| error(Some(step), e))?;
        out.write(step, &fetched)?;
    }
    Ok(())
}

/// Starts one rank's session from its options: the parameters loaded and
/// the startup program run, as for a single process.
pub type StartSession<'a> = dyn Fn(SessionOptions) -> Result<Session, CliError> + Sync + 'a;

/// Data-parallel training in one process (`--nranks N`, docs/distributed.md):
/// N sessions on N threads, rank r of a [`Group`], each fed rank r's shard
/// of every step's feeds. Each step's line shows the mean over the ranks
/// of each fetched value (for a loss, the whole batch's loss). Rank r's
/// random engine is seeded with `--seed + r`, as Paddle's trainers differ
/// in seed; the startup program's broadcasts make their parameters equal.
pub fn train_ranks(
    start: &StartSession,
    options: &SessionOptions,
    nranks: usize,
    training: Training,
) -> Result<(), CliError> {
    let group = Group::new(nranks);
    let (tx, rx) = std::sync::mpsc::channel::<Report>();
    let training = &training;
    std::thread::scope(|s| {
        for rank in 0..nranks {
            let tx = tx.clone();
            let group = group.clone();
            s.spawn(move || {
                let mut rank_options = options.clone();
                rank_options.rank = Some(Member {
                    group: group.clone(),
                    rank,
                });
                rank_options.seed = options.seed.map(|seed| seed.wrapping_add(rank as u64));
                let result = run_rank(start, rank_options, (rank, nranks), training, &tx);
                if let Err(e) = result {
                    // The first rank to fail stopped the others: its error is the cause.
                    let first = group.abort(&e.message);
                    let _ = tx.send((rank, 0, Err((first, e))));
                }
            });
        }
        drop(tx);
        collect_ranks(rx, nranks, training)
    })
}

/// What a rank tells the collector: (rank, step, its fetches), or its
/// error with whether it was the first rank to fail.
type Report = (usize, u64, Result<Vec<(String, Tensor)>, (bool, CliError)>);

/// One rank's steps, each step's fetches sent to the collector.
fn run_rank(
    start: &StartSession,
    options: SessionOptions,
    (rank, nranks): (usize, usize),
    training: &Training,
    tx: &std::sync::mpsc::Sender<Report>,
) -> Result<(), CliError> {
    let in_rank = |e: CliError| CliError {
        code: e.code,
        message: e
            .message
            .replacen("error: ", &format!("error: rank {rank}: "), 1),
    };
    let error = |step, e| {
        in_rank(runtime_error(
            training.path,
            step,
            &e,
            training.startup_given,
        ))
    };
    let mut session = start(options).map_err(in_rank)?;
    let prepared = session
        .prepare(training.program)
        .map_err(|e| error(None, e))?;
    for step in 0..training.steps {
        let feeds = training
            .step_feeds(step)
            .into_iter()
            .map(|(name, t)| {
                fluidc_runtime::shard(&t, rank, nranks)
                    .map(|t| (name.clone(), t))
                    .map_err(|e| in_rank(CliError::user(format!("--feed {name}: {e}"))))
            })
            .collect::<Result<_, _>>()?;
        let fetched = session
            .run_prepared(&prepared, feeds, training.fetch.clone())
            .map_err(|e| error(Some(step), e))?;
        if tx.send((rank, step, Ok(fetched))).is_err() {
            // The collector stopped (an error, or its output failed): stop
            // the others too, which may be waiting for this rank.
            return Err(CliError::user(format!(
                "rank {rank}: stopped at step {step}"
            )));
        }
    }
    Ok(())
}

/// Gathers the ranks' fetches and writes each step's line (the mean over
/// ranks) once every rank has finished that step.
fn collect_ranks(
    rx: std::sync::mpsc::Receiver<Report>,
    nranks: usize,
    training: &Training,
) -> Result<(), CliError> {
    let mut out = StepWriter::new(training);
    let mut steps: std::collections::BTreeMap<u64, Vec<Vec<(String, Tensor)>>> = Default::default();
    let mut next = 0;
    let mut failure: Option<(bool, CliError)> = None;
    for (_, step, result) in rx {
        match result {
            Ok(fetched) => steps.entry(step).or_default().push(fetched),
            Err((first, e)) => {
                if failure
                    .as_ref()
                    .is_none_or(|(was_first, _)| first && !was_first)
                {
                    failure = Some((first, e));
                }
                continue;
            }
        }
        while steps.get(&next).is_some_and(|r| r.len() == nranks) {
            let ranks = steps.remove(&next).unwrap_or_default();
            if failure.is_none() {
                out.write(next, &mean_over_ranks(ranks)?)?;
            }
            next += 1;
        }
    }
    match failure {
        Some((_, e)) => Err(e),
        None => Ok(()),
    }
}

/// Each fetched value's elementwise mean over the ranks (in float64, then
/// the value's dtype).
fn mean_over_ranks(ranks: Vec<Vec<(String, Tensor)>>) -> Result<Vec<(String, Tensor)>, CliError> {
    let n = ranks.len() as f64;
    let mut ranks = ranks.into_iter();
    let first = ranks.next().unwrap_or_default();
    let rest: Vec<Vec<(String, Tensor)>> = ranks.collect();
    let as_f64 = |t: &Tensor| -> Result<Vec<f64>, CliError> {
        let t = t
            .cast(fluidc_transpiler::VarKind::Fp64)
            .map_err(|e| CliError::user(format!("cannot average a fetch over ranks: {e}")))?;
        Ok(t.values::<f64>().unwrap_or_default().to_vec())
    };
    first
        .iter()
        .enumerate()
        .map(|(i, (name, t))| {
            let mut sum = as_f64(t)?;
            for other in &rest {
                let o = other.get(i).map(|(_, t)| t).ok_or_else(|| {
                    CliError::user(format!("the ranks fetched different values than `{name}`"))
                })?;
                if o.shape() != t.shape() {
                    return Err(CliError::user(format!(
                        "`{name}` has shape {:?} on rank 0 but {:?} on another rank; only values \
                         of one shape on every rank can be averaged",
                        t.shape(),
                        o.shape()
                    )));
                }
                for (s, v) in sum.iter_mut().zip(as_f64(o)?) {
                    *s += v;
                }
            }
            let mean: Vec<f64> = sum.into_iter().map(|s| s / n).collect();
            let mean = Tensor::from_vec(t.shape(), mean)
                .and_then(|m| m.cast(t.dtype()))
                .map_err(|e| CliError::user(format!("cannot average `{name}` over ranks: {e}")))?;
            Ok((name.clone(), mean))
        })
        .collect()
}

/// Writes each step's fetches to standard output, with the progress bar
/// on a terminal.
struct StepWriter {
    json: bool,
    progress: Option<Progress>,
}

impl StepWriter {
    fn new(training: &Training) -> StepWriter {
        StepWriter {
            json: training.json,
            progress: Progress::on_terminal(training.steps),
        }
    }

    fn write(&mut self, step: u64, fetched: &[(String, Tensor)]) -> Result<(), CliError> {
        let line = if self.json {
            let list: Vec<serde_json::Value> = fetched.iter().map(|(n, t)| t.to_json(n)).collect();
            // Written by hand so that `step` comes first (serde_json sorts keys).
            format!(
                "{{\"step\":{step},\"fetch\":{}}}",
                serde_json::Value::Array(list)
            )
        } else {
            step_line(step, fetched)
        };
        if let Some(p) = &mut self.progress {
            p.clear_for_output();
        }
        input::write_output("-", format!("{line}\n").as_bytes())?;
        if let Some(p) = &mut self.progress {
            p.done(step + 1);
        }
        Ok(())
    }
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
