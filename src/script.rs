//! A Python script on the command line (README, "Run mode"): built (its programs
//! recorded, for `compile`, `dump`, `graph`, `check`) or run (`fluidc run
//! script.py`), both on the VM ([`crate::vm`]).
use fluidc_runtime::Tensor;
use fluidc_transpiler::{Program, Verified};

use crate::input::{display_name, read_bytes, CliError};
use crate::native::host::{Mode, RunConfig};
use crate::vm::{self, End, Outcome, Script};

/// The programs a script builds: what it runs first (or its default main
/// program), with its startup program.
#[derive(Debug)]
pub struct Built {
    pub main: Program,
    pub startup: Program,
    /// The run's feed and fetch targets (Paddle's feed and fetch ops).
    pub feed: Vec<String>,
    pub fetch: Vec<String>,
}

impl Built {
    /// One program: the startup program's ops first in block 0 (so it
    /// initializes its own parameters), then the feed and fetch ops, as
    /// Paddle's executor adds them.
    pub fn merged(self) -> Result<Program, String> {
        let mut p = vm::merge_startup(self.main, self.startup)?;
        vm::add_feed_fetch(&mut p, &self.feed, &self.fetch);
        Ok(p)
    }

    /// The main program with its feed and fetch ops, and the startup
    /// program apart (`--startup-out`).
    pub fn split(self) -> (Program, Program) {
        let mut main = self.main;
        vm::add_feed_fetch(&mut main, &self.feed, &self.fetch);
        (main, self.startup)
    }
}

/// Reads a script's source as CPython does (PEP 3120, PEP 263): UTF-8
/// (a BOM skipped), or the encoding a `coding:` comment on its first or
/// second line declares (2018-19 scripts saved on Windows declare `gbk`);
/// otherwise CPython's SyntaxError.
pub fn source(path: &str) -> Result<String, CliError> {
    let bytes = read_bytes(path)?;
    decode_source(&bytes, display_name(path))
        .map_err(|e| CliError::rendered(format!("SyntaxError: {e}")))
}

fn decode_source(bytes: &[u8], name: &str) -> Result<String, String> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let Some(label) = declared_encoding(bytes) else {
        return String::from_utf8(bytes.to_vec()).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            format!(
                "Non-UTF-8 code starting with '\\x{:02x}' in file {name} on line {line}, \
                 but no encoding declared; see https://peps.python.org/pep-0263/ for details",
                bytes[at]
            )
        });
    };
    let bad = || format!("(unicode error) '{label}' codec can't decode the source of {name}");
    // CPython's `get_normal_name`: its spellings of UTF-8 and Latin-1.
    let lower = label.to_ascii_lowercase().replace('_', "-");
    if lower == "utf-8" || lower.starts_with("utf-8-") {
        return String::from_utf8(bytes.to_vec()).map_err(|_| bad());
    }
    if ["latin-1", "iso-8859-1", "iso-latin-1"]
        .iter()
        .any(|l| lower == *l || lower.starts_with(&format!("{l}-")))
    {
        return Ok(bytes.iter().map(|&b| char::from(b)).collect());
    }
    let encoding = encoding_rs::Encoding::for_label(lower.as_bytes())
        .ok_or_else(|| format!("encoding problem: {label}"))?;
    encoding
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(|text| text.into_owned())
        .ok_or_else(bad)
}

/// The encoding a PEP 263 comment declares (`# -*- coding: gbk -*-`):
/// on the first line, or on the second when the first holds only a comment.
fn declared_encoding(bytes: &[u8]) -> Option<String> {
    let mut lines = bytes.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    if let Some(label) = coding_comment(first) {
        return Some(label);
    }
    let first = first.trim_ascii_start();
    if first.is_empty() || first.starts_with(b"#") {
        return coding_comment(lines.next().unwrap_or_default());
    }
    None
}

/// CPython's `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)` on one line.
fn coding_comment(line: &[u8]) -> Option<String> {
    let rest = line.trim_ascii_start().strip_prefix(b"#")?;
    let at = rest
        .windows(7)
        .position(|w| w.starts_with(b"coding") && matches!(w[6], b':' | b'='))?;
    let value = rest[at + 7..].trim_ascii_start();
    let len = value
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        .count();
    (len > 0).then(|| String::from_utf8_lossy(&value[..len]).into_owned())
}

/// The script's path as Python sees it (`<stdin>` for `-`).
fn script(path: &str, source: String, args: Vec<String>) -> Script {
    Script {
        path: display_name(path).to_string(),
        source,
        args,
        limits: vm::Limits::default(),
    }
}

/// What a build of a unittest file without `--test` found: its tests.
#[derive(Debug)]
pub enum BuildResult {
    Built(Built),
    Tests(Vec<String>),
}

/// Builds a script (build mode): runs it to its first `exe.run` of a
/// program other than a startup program.
pub fn build(path: &str, test: Option<String>) -> Result<BuildResult, CliError> {
    let src = source(path)?;
    build_source(script(path, src, Vec::new()), test)
}

/// [`build`] of a script's text.
pub fn build_source(script: Script, test: Option<String>) -> Result<BuildResult, CliError> {
    let out = vm::execute(script, Mode::Build { test }, false);
    match &out.end {
        End::Error {
            text,
            kind: vm::ErrorKind::Internal,
        } => {
            return Err(CliError {
                code: 101,
                message: format!(
                    "internal error in fluidc's package; please report this script:\n{text}"
                ),
            })
        }
        End::Error { text, .. } => return Err(CliError::rendered(text.clone())),
        // What `sys.exit` said is printed already.
        End::Exit(code) if *code != 0 => {
            return Err(CliError {
                code: 1,
                message: String::new(),
            })
        }
        _ => {}
    }
    let mut state = out.state.lock();
    if let Some(tests) = state.tests.take() {
        return Ok(BuildResult::Tests(tests));
    }
    if let Some(r) = state.recorded.take() {
        return Ok(BuildResult::Built(Built {
            main: r.main,
            startup: r.startup.unwrap_or_else(empty_program),
            feed: r.feed,
            fetch: r.fetch,
        }));
    }
    let (main, startup) = out
        .defaults
        .clone()
        .unwrap_or_else(|| (empty_program(), empty_program()));
    Ok(BuildResult::Built(Built {
        main,
        startup,
        feed: Vec::new(),
        fetch: Vec::new(),
    }))
}

fn empty_program() -> Program {
    Program {
        blocks: vec![fluidc_transpiler::Block::new(0, -1)],
        ..Default::default()
    }
}

/// The unittest message: pick a test with `--test`.
fn unittest_error(path: &str, tests: &[String]) -> CliError {
    CliError::user(format!(
        "{}: this is a unittest file with {} tests, each building its own program; pick the \
         test to build with --test NAME (a method, or Class.method); `fluidc check` lists \
         them: {}",
        display_name(path),
        tests.len(),
        tests.join(", ")
    ))
}

/// Builds a script into one program: the startup program's ops merged
/// first into block 0, so it initializes its own parameters.
pub fn compile(path: &str, test: Option<String>) -> Result<Program, CliError> {
    match build(path, test)? {
        BuildResult::Built(b) => b
            .merged()
            .map_err(|e| CliError::user(format!("{}: {e}", display_name(path)))),
        BuildResult::Tests(tests) => Err(unittest_error(path, &tests)),
    }
}

/// Builds a script into its main and startup programs apart
/// (`--startup-out`), both verified.
pub fn compile_split(path: &str, test: Option<String>) -> Result<(Verified, Verified), CliError> {
    match build(path, test)? {
        BuildResult::Built(b) => {
            let verify = |p: Program| {
                Verified::new(p).map_err(|e| CliError::user(crate::input::verify_message(path, &e)))
            };
            let (main, startup) = b.split();
            Ok((verify(main)?, verify(startup)?))
        }
        BuildResult::Tests(tests) => Err(unittest_error(path, &tests)),
    }
}

/// The tests of a unittest file (`Class.method`, in unittest's order), or
/// `None` for a script that is not one.
pub fn list_tests(path: &str) -> Result<Option<Vec<String>>, CliError> {
    match build(path, None)? {
        BuildResult::Tests(t) => Ok(Some(t)),
        BuildResult::Built(_) => Ok(None),
    }
}

/// A script run (`fluidc run script.py`).
#[derive(Debug)]
pub struct Ran {
    pub outcome: Outcome,
    /// The last run's fetches.
    pub last: Vec<(String, Tensor)>,
}

/// Runs a script as Python would (run mode). `capture`: keep what it
/// prints (for `--format json`) instead of writing it through.
pub fn run(
    path: &str,
    args: Vec<String>,
    config: RunConfig,
    capture: bool,
) -> Result<Ran, CliError> {
    let src = source(path)?;
    let mut s = script(path, src, args);
    s.limits.time = config.options.timeout;
    let mut out = vm::execute(s, Mode::Run(config.clone()), capture);
    if out.end == End::Finished && out.state.lock().runs == 0 {
        if let Some((main, startup)) = out.defaults.take() {
            run_once(&mut out, main, startup, &config);
        }
    }
    let last = std::mem::take(&mut out.state.lock().last);
    Ok(Ran { outcome: out, last })
}

/// Whether an op of `main` reads a non-persistable variable that no op of
/// `main` or `startup` writes.
fn wants_feeds(main: &Program, startup: &Program) -> bool {
    let written: std::collections::HashSet<&str> = main
        .blocks
        .iter()
        .chain(&startup.blocks)
        .flat_map(|b| &b.ops)
        .flat_map(|op| op.output_names())
        .collect();
    main.blocks.iter().any(|b| {
        b.ops.iter().flat_map(|op| op.input_names()).any(|n| {
            !written.contains(n)
                && b.vars
                    .iter()
                    .find(|v| v.name == n)
                    .is_some_and(|v| v.persistable != Some(true))
        })
    })
}

/// A script that builds a program but runs none (a one-shot fluidc
/// program) runs its default main program once at the end, with its
/// startup program merged in, as `fluidc compile` writes it. Not when an
/// op reads a variable no op writes (a `layers.data` input): that needs a
/// feed the script never gave, and CPython would just have ended there.
fn run_once(out: &mut Outcome, main: Program, startup: Program, config: &RunConfig) {
    if main.blocks.iter().all(|b| b.ops.is_empty()) || wants_feeds(&main, &startup) {
        return;
    }
    let mut state = out.state.lock();
    let program = vm::merge_startup(main, startup).and_then(|p| {
        let verified = Verified::new(p).map_err(|e| e.to_string())?;
        crate::native::host::pipeline(config)
            .run(verified)
            .map_err(|e| e.to_string())
    });
    let program = match program {
        Ok(p) => p,
        Err(e) => {
            out.end = End::Error {
                text: format!("error: {e}\n"),
                kind: vm::ErrorKind::User,
            };
            return;
        }
    };
    let session = state
        .global
        .get_or_insert_with(|| {
            std::sync::Arc::new(parking_lot::Mutex::new(fluidc_runtime::Session::new(
                config.options.clone(),
            )))
        })
        .clone();
    let extra: Vec<String> = config
        .extra_fetch
        .iter()
        .filter(|n| program.blocks[0].var(n).is_some())
        .cloned()
        .collect();
    state.runs += 1;
    for n in &extra {
        state.used_names.insert(format!("--fetch {n}"));
    }
    let result = session.lock().run_once(&program, Vec::new(), extra);
    match result {
        Ok(fetched) => state.last = fetched,
        Err(e) => {
            out.end = End::Error {
                text: e.to_string(),
                kind: vm::ErrorKind::Runtime,
            };
            state.error = Some(e);
        }
    }
}

/// Warnings for `--feed`/`--fetch` names no run used (a `--feed` the
/// script never feeds, a `--fetch` no program declares), with the
/// closest variable name.
pub fn unused_cli_names(config: &RunConfig, state: &crate::native::host::HostState) -> Vec<String> {
    let feeds = config.cli_feeds.iter().map(|(n, _)| ("--feed", n));
    let fetches = config.extra_fetch.iter().map(|n| ("--fetch", n));
    feeds
        .chain(fetches)
        .filter(|(flag, n)| !state.used_names.contains(&format!("{flag} {n}")))
        .map(|(flag, n)| {
            let what = if flag == "--feed" {
                "the script never feeds it"
            } else {
                "no program the script ran declares it"
            };
            let hint = crate::check::closest(state.seen_vars.iter().map(String::as_str), n)
                .map_or(String::new(), |c| format!("; did you mean `{c}`?"));
            format!("warning: {flag} {n}: ignored, {what}{hint}")
        })
        .collect()
}
