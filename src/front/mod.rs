//! The front end: a Fluid `model.py` to a program, without running Python.
//!
//! The script is parsed ([`parse`]) and evaluated at compile time ([`eval`]):
//! plain Python is computed, and every fluid call appends ops and variables
//! through the [`builder::ProgramBuilder`], as Paddle's Python would.
//!
//! The output is the program the script runs (`exe.run(main, feed=...,
//! fetch_list=...)`; the default main program if it runs none), with:
//! - its startup program's ops first in block 0, so parameters and
//!   `create_global_var` values are initialized by the one program fluidc
//!   writes (Paddle would run the startup program separately first);
//! - a `feed` op per fed name (column = position) and a `fetch` op per
//!   fetch target, on the persistable `feed`/`fetch` holders, as Paddle's
//!   executor adds them.
pub mod api;
mod builder;
pub mod diag;
mod eval;
mod host;
mod parse;
pub mod run;
pub mod sources;
mod value;

use fluidc_transpiler::{AttrValue, Op, Program, Var, VarKind};

use diag::Diagnostic;

/// A compiled script and the warnings its compile gave.
#[derive(Debug)]
pub struct Compiled {
    pub program: Program,
    /// The startup program on its own, when asked for (`--startup-out`);
    /// otherwise it is merged into `program`'s block 0.
    pub startup: Option<Program>,
    pub warnings: Vec<Diagnostic>,
}

/// Compiles a script. On failure, every independent error found (and the
/// warnings).
pub fn compile(path: &str, source: &str) -> Result<Compiled, Vec<Diagnostic>> {
    compile_with(path, source, false)
}

fn compile_with(path: &str, source: &str, split: bool) -> Result<Compiled, Vec<Diagnostic>> {
    // The evaluator recurses on the syntax tree (bounded by parse::MAX_DEPTH),
    // so it runs on a thread with a stack sized for that bound.
    let (path, source) = (path.to_string(), source.to_string());
    let worker = std::thread::Builder::new()
        .name("fluidc-front".into())
        .stack_size(1 << 30)
        .spawn(move || compile_here(&path, &source, split));
    match worker.map(|h| h.join()) {
        Ok(Ok(result)) => result,
        _ => Err(vec![Diagnostic::new(
            0..0,
            "internal error: the compiler thread failed; please report this file",
        )]),
    }
}

/// What running a script (run mode, SPEC §8.1) gave.
#[derive(Debug)]
pub struct ScriptRun {
    /// The run state at the end: what the script printed, the last run's
    /// fetches, a runtime error that stopped it.
    pub run: run::RunMode,
    pub warnings: Vec<Diagnostic>,
    /// The script's exit status, when it ended with `sys.exit` (or
    /// `unittest.main()`, which exits 1 when a test failed).
    pub exit_code: Option<i32>,
    /// Program variable name -> the script's global name bound to it.
    pub var_names: std::collections::HashMap<String, String>,
}

/// Runs a script (`fluidc run script.py`): every `exe.run` executes. On a
/// Python error, the diagnostics; a runtime error is in the result's
/// [`run::RunMode::error`] (with its diagnostic among the errors).
pub fn run_script(
    path: &str,
    source: &str,
    args: Vec<String>,
    mode: run::RunMode,
) -> Result<ScriptRun, (Vec<Diagnostic>, Box<run::RunMode>)> {
    let (path, source) = (path.to_string(), source.to_string());
    let worker = std::thread::Builder::new()
        .name("fluidc-run".into())
        .stack_size(1 << 30)
        .spawn(move || run_here(&path, &source, args, mode));
    match worker.map(|h| h.join()) {
        Ok(result) => result.unwrap_or_else(|_| {
            Err((
                vec![Diagnostic::new(
                    0..0,
                    "internal error: the script thread failed; please report this file",
                )],
                Box::new(run::RunMode::new(Default::default(), Vec::new())),
            ))
        }),
        Err(_) => Err((
            vec![Diagnostic::new(
                0..0,
                "internal error: no thread for the script",
            )],
            Box::new(run::RunMode::new(Default::default(), Vec::new())),
        )),
    }
}

fn run_here(
    path: &str,
    source: &str,
    args: Vec<String>,
    mode: run::RunMode,
) -> Result<ScriptRun, (Vec<Diagnostic>, Box<run::RunMode>)> {
    let body = match parse::parse_module(source, path) {
        Ok(body) => body,
        Err(d) => return Err((vec![d], Box::new(mode))),
    };
    let mut interp = eval::Interp::new(path, source);
    interp.argv.extend(args);
    let mut b = builder::ProgramBuilder::new();
    b.run = Some(mode);
    interp.run_module(&mut b, &body);
    drop(body);
    let exit_code = interp.exit_code;
    let var_names = interp.global_var_names();
    let mut mode = b
        .run
        .take()
        .unwrap_or_else(|| run::RunMode::new(Default::default(), Vec::new()));
    let mut diags = interp.diags;
    diags.sort_by_key(|d| d.span.start);
    if diags.iter().any(|d| !d.warning) {
        return Err((diags, Box::new(mode)));
    }
    // A script that builds a program but runs none (a one-shot fluidc
    // program) runs it once, as `fluidc compile` writes it: the default main
    // program with its startup program merged in.
    if mode.runs == 0 && exit_code.is_none() {
        let program = match finish(&mut b) {
            Ok(p) => p,
            Err(d) => return Err((vec![d], Box::new(mode))),
        };
        if let Err(message) = mode.run(program, Vec::new(), &[], 0) {
            if mode.error.is_none() {
                return Err((vec![Diagnostic::new(0..0, message)], Box::new(mode)));
            }
        }
    }
    Ok(ScriptRun {
        run: mode,
        warnings: diags,
        exit_code,
        var_names,
    })
}

/// The test of a unittest file that build mode builds (`--test NAME`),
/// set once by the command line.
static TEST_SELECT: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Picks the test method of a unittest file that `compile`, `dump` and
/// `graph` build (`--test NAME`: `method` or `Class.method`).
pub fn set_test_select(test: Option<String>) {
    if let Ok(mut t) = TEST_SELECT.lock() {
        *t = test;
    }
}

fn test_select() -> Option<String> {
    TEST_SELECT.lock().ok().and_then(|t| t.clone())
}

/// The tests of a unittest file (`Class.method`, in the order
/// `unittest.main()` runs them), or `None` for a script that is not one.
pub fn list_tests(path: &str, source: &str) -> Option<Vec<String>> {
    let (path, source) = (path.to_string(), source.to_string());
    let worker = std::thread::Builder::new()
        .name("fluidc-tests".into())
        .stack_size(1 << 30)
        .spawn(move || {
            let body = parse::parse_module(&source, &path).ok()?;
            let mut interp = eval::Interp::new(&path, &source);
            let mut b = builder::ProgramBuilder::new();
            interp.run_module(&mut b, &body);
            drop(body);
            interp.tests_found.take().map(|(t, _)| t)
        });
    worker.ok()?.join().ok().flatten()
}

fn compile_here(path: &str, source: &str, split: bool) -> Result<Compiled, Vec<Diagnostic>> {
    if let Err(e) = api::check_registry() {
        return Err(vec![Diagnostic::new(
            0..0,
            format!("internal error: {e}; please report this"),
        )]);
    }
    let body = parse::parse_module(source, path).map_err(|d| vec![d])?;
    let mut interp = eval::Interp::new(path, source);
    interp.test_select = test_select();
    let mut b = builder::ProgramBuilder::new();
    interp.run_module(&mut b, &body);
    let mut diags = interp.diags;
    if let Some((tests, at)) = interp.tests_found.take() {
        // A unittest file builds one program per test: the user picks one.
        diags.push(
            Diagnostic::new(
                at,
                format!(
                    "this is a unittest file with {} tests, each building its own program",
                    tests.len()
                ),
            )
            .help(format!(
                "pick the test to build with --test NAME (a method, or Class.method); `fluidc check` lists them: {}",
                tests.join(", ")
            )),
        );
    }
    diags.sort_by_key(|d| d.span.start);
    if diags.iter().any(|d| !d.warning) {
        return Err(diags);
    }
    let startup = split.then(|| take_startup(&mut b));
    let program = finish(&mut b).map_err(|d| {
        diags.push(d);
        std::mem::take(&mut diags)
    })?;
    // The tree is at most MAX_DEPTH deep (parse refuses deeper ones), so
    // it drops on this thread's large stack; forgetting it leaked it in
    // every caller that compiles more than once (the fuzzers, tests).
    drop(body);
    Ok(Compiled {
        program,
        startup,
        warnings: diags,
    })
}

/// The startup program of the program the script runs, taken out of the
/// builder (so [`finish`] merges nothing).
fn take_startup(b: &mut builder::ProgramBuilder) -> Program {
    let main = b.runs.last().map_or(0, |r| r.program);
    let startup = b.startup_of.get(&main).copied().unwrap_or(1);
    let empty = Program {
        blocks: vec![fluidc_transpiler::Block::new(0, -1)],
        ..Default::default()
    };
    std::mem::replace(&mut b.programs[startup].program, empty)
}

/// The program to write: the one the script ran, with its startup program
/// merged in and its feed/fetch ops added.
fn finish(b: &mut builder::ProgramBuilder) -> Result<Program, Diagnostic> {
    let run = b.runs.last().cloned();
    let main = match &run {
        Some(r) => r.program,
        None => 0,
    };
    let startup = b.startup_of.get(&main).copied().unwrap_or(1);
    let mut program = std::mem::take(&mut b.programs[main].program);
    let init = std::mem::take(&mut b.programs[startup].program);
    if init.blocks.len() > 1 {
        return Err(Diagnostic::new(
            0..0,
            "the startup program has control flow; fluidc merges only a flat startup program",
        ));
    }
    if let Some(init_block) = init.blocks.into_iter().next() {
        let global = &mut program.blocks[0];
        for v in init_block.vars {
            if global.var(&v.name).is_none() {
                global.vars.push(v);
            }
        }
        global.ops.splice(0..0, init_block.ops);
    }
    if let Some(run) = run {
        add_feed_fetch(&mut program, &run.feed, &run.fetch);
    }
    Ok(program)
}

/// Adds Paddle's feed and fetch ops and their holder variables. Paddle's
/// executor adds them to the op descs directly, so they carry `col` only
/// (no defaults filled, unlike ops the Python API appends).
pub fn add_feed_fetch(program: &mut Program, feed: &[String], fetch: &[String]) {
    let global = &mut program.blocks[0];
    if !feed.is_empty() {
        let mut holder = Var::plain("feed", VarKind::FeedMinibatch);
        holder.persistable = Some(true);
        global.vars.insert(0, holder);
        // Paddle's executor prepends each feed op in turn, so the last
        // column comes first.
        for (col, name) in feed.iter().enumerate() {
            let op = Op::new("feed")
                .input("X", &["feed"])
                .output("Out", &[name])
                .attr("col", AttrValue::Int(col as i32));
            global.ops.insert(0, op);
        }
    }
    if !fetch.is_empty() {
        let mut holder = Var::plain("fetch", VarKind::FetchList);
        holder.persistable = Some(true);
        global.vars.insert(0, holder);
        for (col, name) in fetch.iter().enumerate() {
            let op = Op::new("fetch")
                .input("X", &[name])
                .output("Out", &["fetch"])
                .attr("col", AttrValue::Int(col as i32));
            global.ops.push(op);
        }
    }
}

/// A whole file's bytes to a program; non-UTF-8 input is a diagnostic.
/// Also gives the source text the diagnostics point into.
pub fn compile_bytes(path: &str, bytes: &[u8]) -> (String, Result<Compiled, Vec<Diagnostic>>) {
    compile_bytes_with(path, bytes, false)
}

/// [`compile_bytes`], with the startup program apart when `split`.
pub fn compile_bytes_with(
    path: &str,
    bytes: &[u8],
    split: bool,
) -> (String, Result<Compiled, Vec<Diagnostic>>) {
    match std::str::from_utf8(bytes) {
        Ok(source) => (source.to_string(), compile_with(path, source, split)),
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            let lossy_at = String::from_utf8_lossy(&bytes[..at]).len();
            (
                text,
                Err(vec![Diagnostic::new(
                    lossy_at..lossy_at + 1,
                    format!(
                        "the file is not UTF-8 text (invalid byte 0x{:02x})",
                        bytes[at]
                    ),
                )
                .help("save the script as UTF-8")]),
            )
        }
    }
}
