//! The Python VM scripts run on (docs/python-package.md): RustPython, with its standard
//! library and fluidc's Python package (`paddle`, `numpy`, `PIL`, from
//! `src/python/`) frozen into the binary, and the native modules `_fluidc`
//! ([`crate::native`]) and `_numpy` ([`crate::numpy`]).
//!
//! [`execute`] runs a script as CPython runs `python script.py ARGS`: as
//! the `__main__` module, with `sys.argv` and the script's directory first
//! on `sys.path`. Nothing is read from disk but the script and what it
//! opens or imports itself; the environment (`PYTHONPATH`) is ignored, so
//! a CPython installation's packages never shadow fluidc's.
mod float_repr;
pub mod programs;
pub mod sources;
pub mod traceback;
mod type_setattr;

use std::sync::Arc;

use fluidc_transpiler::Program;
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyStr};
use rustpython_vm::compiler::Mode as CompileMode;
use rustpython_vm::scope::Scope;
use rustpython_vm::{
    AsObject, Interpreter, PyObjectRef, PyPayload, PyResult, Settings, VirtualMachine,
};

use crate::native::host::{self, Host, HostState, Mode};
use crate::native::ProgramDesc;

pub use programs::{add_feed_fetch, merge_startup};

type Frozen = (&'static str, rustpython_vm::frozen::FrozenModule);

/// The fluid package, compiled to bytecode when fluidc is built; or, for
/// development, compiled at start-up from the sources in the directory
/// `FLUIDC_PYTHON_DIR` names (so a change to them needs no rebuild).
fn frozen_package() -> Vec<Frozen> {
    if let Some(dir) = std::env::var_os("FLUIDC_PYTHON_DIR") {
        return dev_package(std::path::Path::new(&dir));
    }
    static LIB: &rustpython_vm::frozen::FrozenLib =
        rustpython_vm::py_freeze!(dir = "src/python", crate_name = "rustpython_vm");
    LIB.decode().collect()
}

/// `py_freeze!` at start-up: each `.py` under `dir` compiled as the module
/// its path names (a package for `__init__.py`). The modules live as long
/// as the process, as frozen ones do.
fn dev_package(dir: &std::path::Path) -> Vec<Frozen> {
    use rustpython_vm::frozen::{FrozenCodeObject, FrozenModule};
    fn walk(dir: &std::path::Path, prefix: &str, out: &mut Vec<Frozen>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            eprintln!("FLUIDC_PYTHON_DIR: cannot read {}", dir.display());
            std::process::exit(2);
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let join = |name: &str| {
                if prefix.is_empty() {
                    name.to_string()
                } else if name.is_empty() {
                    prefix.to_string()
                } else {
                    format!("{prefix}.{name}")
                }
            };
            if path.is_dir() {
                walk(&path, &join(stem), out);
            } else if path.extension().is_some_and(|e| e == "py") {
                let package = stem == "__init__";
                let module = join(if package { "" } else { stem });
                let source = std::fs::read_to_string(&path).unwrap_or_default();
                let code = match rustpython_vm::compiler::compile(
                    &source,
                    CompileMode::Exec,
                    module.clone(),
                    Default::default(),
                ) {
                    Ok(code) => code,
                    Err(e) => {
                        eprintln!("{}: {e}", path.display());
                        std::process::exit(2);
                    }
                };
                let bytes = FrozenCodeObject::encode(&code).bytes.leak();
                let name: &'static str = module.leak();
                out.push((
                    name,
                    FrozenModule {
                        code: FrozenCodeObject { bytes: &*bytes },
                        package,
                    },
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out);
    out
}

/// A script to run.
#[derive(Debug, Clone)]
pub struct Script {
    /// The path as the user gave it (`op_callstack` and tracebacks show it).
    pub path: String,
    pub source: String,
    /// `sys.argv[1:]`.
    pub args: Vec<String>,
    /// When to stop it: `--timeout` (with `_fluidc.Timeout`, which
    /// `except Exception` does not catch), and a memory bound.
    pub limits: Limits,
}

/// How a script ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// It ran to its end (or, in build mode, to its first run).
    Finished,
    /// `sys.exit(code)` (`unittest.main()` after a failure: 1).
    Exit(u8),
    /// An uncaught exception, rendered as CPython renders it.
    Error { text: String, kind: ErrorKind },
}

/// What kind of exception ended a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The user's: a Python error, or a fluid API misuse.
    User,
    /// A program's runtime error (`EnforceNotMet`): the command exits 3.
    Runtime,
    /// An uncaught KeyboardInterrupt (Ctrl-C): CPython dies of SIGINT, so
    /// the command exits 130 as a shell reports that.
    Interrupted,
    /// One that escaped fluidc's own package unintended (an
    /// AttributeError, NameError or KeyError raised by its code): a
    /// fluidc bug, which the fuzzer looks for.
    Internal,
}

/// What running a script left.
#[derive(Debug)]
pub struct Outcome {
    pub end: End,
    /// The host's state: the recorded run (build), the last fetches and
    /// runtime error (run).
    pub state: Arc<Mutex<HostState>>,
    /// The default main and startup programs at the end, if the script
    /// imported the fluid package.
    pub defaults: Option<(Program, Program)>,
    /// Whether the script printed anything, to stdout or stderr.
    pub printed: bool,
    /// What it printed, when the caller asked to capture stdout.
    pub stdout: Option<String>,
    /// Program variable name -> the script's global name bound to it
    /// (`result (fill_constant_1.tmp_0) = [1234.0]`).
    pub var_names: std::collections::HashMap<String, String>,
}

/// The stack the script's thread gets: the VM recurses on it for Python
/// calls (up to `sys.getrecursionlimit()` deep).
const STACK: usize = 1 << 30;

/// Runs `script` in `mode` on a thread of its own. `capture`: keep stdout
/// (for `--format json`) instead of writing it through.
pub fn execute(script: Script, mode: Mode, capture: bool) -> Outcome {
    let host = Host::new(mode);
    let state = host.state.clone();
    let worker = std::thread::Builder::new()
        .name("fluidc-python".into())
        .stack_size(STACK)
        .spawn(move || run_on_vm(script, host, capture));
    match worker.map(|h| h.join()) {
        Ok(Ok(outcome)) => outcome,
        _ => Outcome {
            end: End::Error {
                text: "internal error: the Python VM failed; please report this script\n".into(),
                kind: ErrorKind::Internal,
            },
            state,
            defaults: None,
            printed: false,
            stdout: None,
            var_names: Default::default(),
        },
    }
}

/// A new interpreter with the standard library, the fluid package and the
/// native modules.
pub fn interpreter(argv: Vec<String>) -> Interpreter {
    interpreter_with(argv, None)
}

/// [`interpreter`], with a channel to interrupt the script (the watchdog
/// of `--timeout`).
fn interpreter_with(
    argv: Vec<String>,
    signals: Option<rustpython_vm::signal::UserSignalReceiver>,
) -> Interpreter {
    let mut settings = Settings::default();
    settings.argv = argv;
    settings.ignore_environment = true;
    settings.import_site = false;
    settings.install_signal_handlers = false;
    settings.path_list = Vec::new();
    // A fixed str hash secret (CPython's PYTHONHASHSEED set): sets iterate
    // in hash-table order, as CPython's, so with a secret drawn per process
    // a set of names would come out in another order on every run, and so
    // might the programs built from one. fluidc builds the same program
    // every time.
    settings.hash_seed = Some(0);
    Interpreter::with_init(settings, |vm| {
        type_setattr::install(vm);
        float_repr::install(vm);
        vm.add_native_modules(rustpython_stdlib::get_module_inits());
        vm.add_frozen(rustpython_pylib::FROZEN_STDLIB);
        vm.add_frozen(frozen_package());
        vm.add_native_module(
            crate::native::MODULE.to_owned(),
            Box::new(crate::native::make_module),
        );
        vm.add_native_module(
            crate::numpy::MODULE.to_owned(),
            Box::new(crate::numpy::make_module),
        );
        vm.add_native_module(
            crate::imaging::MODULE.to_owned(),
            Box::new(crate::imaging::make_module),
        );
        vm.add_native_module(
            crate::zlib::MODULE.to_owned(),
            Box::new(crate::zlib::make_module),
        );
        vm.add_native_module(
            crate::float_format::MODULE.to_owned(),
            Box::new(crate::float_format::make_module),
        );
        vm.add_native_module(
            crate::py_math::MODULE.to_owned(),
            Box::new(crate::py_math::make_module),
        );
        // Replaces RustPython's `_random`, added above (a later module of
        // the same name wins).
        vm.add_native_module(
            crate::py_random::MODULE.to_owned(),
            Box::new(crate::py_random::make_module),
        );
        if let Some(rx) = signals {
            vm.set_user_signal_channel(rx);
        }
    })
}

/// What a script may use before it is stopped (`None`: no limit).
#[derive(Debug, Clone, Copy, Default)]
pub struct Limits {
    /// Wall-clock time (`--timeout`): `_fluidc.Timeout`.
    pub time: Option<std::time::Duration>,
    /// The process's resident memory: `MemoryError`, as CPython raises
    /// when it cannot allocate. The fuzzer and the tests set it; a Python
    /// loop that grows a list without end is stopped between two
    /// instructions (one allocation larger than the machine still aborts
    /// the process in the VM, which does not raise MemoryError).
    pub memory: Option<u64>,
}

/// Watches a running script through the VM's signal channel `tx` and
/// stops it when it passes a limit, until the returned sender is dropped
/// (the script ended). Started once the VM is initialized: its start-up
/// cannot be interrupted.
fn watchdog(
    limits: Limits,
    tx: rustpython_vm::signal::UserSignalSender,
) -> std::sync::mpsc::Sender<()> {
    use std::sync::mpsc::RecvTimeoutError;
    let (done, ended) = std::sync::mpsc::channel::<()>();
    let start = std::time::Instant::now();
    std::thread::spawn(move || loop {
        let tick =
            std::time::Duration::from_millis(if limits.memory.is_some() { 10 } else { 1000 });
        let wait = match limits.time {
            Some(t) => t.saturating_sub(start.elapsed()).min(tick),
            None => tick,
        };
        match ended.recv_timeout(wait) {
            Err(RecvTimeoutError::Timeout) => {}
            _ => return,
        }
        if let Some(t) = limits.time.filter(|t| start.elapsed() >= *t) {
            let secs = t.as_secs_f64();
            let _ = tx.send(Box::new(move |vm| {
                Err(vm.new_exception_msg(
                    host::timeout_type(vm).to_owned(),
                    format!(
                        "stopped after {secs} seconds, the time limit of the whole command \
                         (--timeout {secs}); if it needs longer, raise the limit \
                         (--timeout SECONDS), else look for a Python loop that never ends"
                    ),
                ))
            }));
            return;
        }
        if let (Some(max), Some(rss)) = (limits.memory, resident_bytes()) {
            if rss > max {
                let _ = tx.send(Box::new(move |vm| {
                    Err(vm.new_exception_msg(
                        vm.ctx.exceptions.memory_error.to_owned(),
                        format!("the script's memory passed its limit of {max} bytes"),
                    ))
                }));
                return;
            }
        }
    });
    done
}

/// The process's resident set, from `/proc/self/statm` (Linux).
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn run_on_vm(script: Script, host: Host, capture: bool) -> Outcome {
    let state = host.state.clone();
    let mut argv = vec![script.path.clone()];
    argv.extend(script.args.iter().cloned());
    sources::register(&main_file(&script.path), &script.source);
    let (tx, rx) = rustpython_vm::signal::user_signal_channel();
    let interp = interpreter_with(argv, Some(rx));
    let limits = script.limits;
    let _done = (limits.time.is_some() || limits.memory.is_some()).then(|| watchdog(limits, tx));
    let (end, defaults, printed, stdout, var_names) = interp.enter(|vm| {
        let tap = match prepare(vm, host, &script, capture) {
            Ok(tap) => tap,
            Err(e) => {
                // A limit can stop start-up too; anything else is ours.
                return (ending(vm, e, &state), None, false, None, Default::default());
            }
        };
        let end = match run_main(vm, &script) {
            Ok(()) => End::Finished,
            Err(e) => ending(vm, e, &state),
        };
        let _ = run_atexit(vm);
        flush_std(vm);
        crate::numpy::forget_classes();
        let defaults = default_programs(vm);
        let printed = tap
            .as_object()
            .get_attr("printed", vm)
            .and_then(|w| w.try_to_bool(vm))
            .unwrap_or(false);
        let stdout = capture.then(|| {
            vm.call_method(&tap, "getvalue", ())
                .ok()
                .and_then(|v| v.downcast::<PyStr>().ok())
                .map(|s| s.as_str().to_string())
                .unwrap_or_default()
        });
        (end, defaults, printed, stdout, global_var_names(vm))
    });
    Outcome {
        end,
        state,
        defaults,
        printed,
        stdout,
        var_names,
    }
}

/// The script's global names of program variables: variable name ->
/// the first global bound to it.
fn global_var_names(vm: &VirtualMachine) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    let found = (|| -> Option<()> {
        let modules = vm.sys_module.get_attr("modules", vm).ok()?;
        let framework = modules.get_item("paddle.fluid.framework", vm).ok()?;
        let variable = framework.get_attr("Variable", vm).ok()?;
        let main = modules.get_item("__main__", vm).ok()?;
        let dict = main.dict()?;
        for (k, v) in &dict {
            let Some(global) = k.downcast_ref::<PyStr>() else {
                continue;
            };
            if !v.is_instance(&variable, vm).unwrap_or(false) {
                continue;
            }
            let Some(name) = v
                .get_attr("name", vm)
                .ok()
                .and_then(|n| n.downcast::<PyStr>().ok())
            else {
                continue;
            };
            out.entry(name.as_str().to_string())
                .or_insert_with(|| global.as_str().to_string());
        }
        Some(())
    })();
    let _ = found;
    out
}

/// Sets `_fluidc.HOST`, `sys.path[0]` and the stdout tap; returns the tap.
fn prepare(
    vm: &VirtualMachine,
    host: Host,
    script: &Script,
    capture: bool,
) -> PyResult<PyObjectRef> {
    let build = matches!(host.mode, Mode::Build { .. });
    let core = vm.import(crate::native::MODULE, 0)?;
    core.set_attr("HOST", host.into_ref(&vm.ctx), vm)?;
    let file = main_file(&script.path);
    let dir = match file.rfind('/') {
        Some(0) => "/".to_string(),
        Some(k) => file[..k].to_string(),
        None => abspath("."),
    };
    vm.insert_sys_path(vm.ctx.new_str(dir).into())?;
    let boot = vm.import("_fluidc_boot", 0)?;
    vm.call_method(&boot, "install_vm_fixes", ())?;
    if build {
        vm.call_method(&boot, "install_build_hooks", ())?;
    }
    vm.call_method(&boot, "install_stdout", (capture, build))
}

/// Runs `f` on a VM with the fluid package importable (a build-mode
/// host): for what the command line asks of the package itself (`fluidc
/// api`, `check`'s lookups of module attributes).
pub fn with_package<R>(f: impl FnOnce(&VirtualMachine) -> R + Send) -> R
where
    R: Send,
{
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .stack_size(STACK)
            .spawn_scoped(s, move || {
                let interp = interpreter(vec!["fluidc".into()]);
                interp.enter(|vm| {
                    if let Ok(core) = vm.import(crate::native::MODULE, 0) {
                        let host = Host::new(Mode::Build { test: None });
                        let _ = core.set_attr("HOST", host.into_ref(&vm.ctx), vm);
                    }
                    f(vm)
                })
            });
        match worker {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(e) => panic!("no thread for the VM: {e}"),
        }
    })
}

/// `fluidc api`: the package's modules, classes and functions.
pub fn api_listing() -> String {
    with_package(|vm| {
        let listed = vm
            .import("_fluidc_boot", 0)
            .and_then(|boot| vm.call_method(&boot, "api_listing", ()))
            .and_then(|s| s.str(vm));
        match listed {
            Ok(s) => s.as_str().to_string(),
            Err(e) => traceback::render(vm, &e),
        }
    })
}

/// Python's `os.path.abspath`: joined to the working directory and
/// normalized (`.`, `..`, `//`), without resolving links.
pub fn abspath(path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_string()
    } else {
        let cwd = std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{cwd}/{path}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The main script's file as CPython names it (its code objects'
/// filename, `__file__`, tracebacks, `op_callstack`): absolute, as
/// CPython 3.9+ makes it; `<stdin>` stays.
pub fn main_file(path: &str) -> String {
    if path.starts_with('<') {
        path.to_string()
    } else {
        abspath(path)
    }
}

/// Runs the script as `__main__`.
fn run_main(vm: &VirtualMachine, script: &Script) -> PyResult<()> {
    let file = main_file(&script.path);
    let code = vm
        .compile(&script.source, CompileMode::Exec, file.clone())
        .map_err(|err| vm.new_syntax_error(&err, Some(&script.source)))?;
    let dict = vm.ctx.new_dict();
    let module = vm.new_module("__main__", dict.clone(), None);
    dict.set_item("__file__", vm.ctx.new_str(file).into(), vm)?;
    dict.set_item("__builtins__", vm.builtins.clone().into(), vm)?;
    let modules = vm.sys_module.get_attr("modules", vm)?;
    modules.set_item("__main__", module.into(), vm)?;
    let scope = Scope::with_builtins(None, dict, vm);
    vm.run_code_obj(code, scope).map(|_| ())
}

/// How an exception ended the script.
fn ending(vm: &VirtualMachine, e: PyBaseExceptionRef, state: &Arc<Mutex<HostState>>) -> End {
    if e.fast_isinstance(host::build_stop_type(vm)) {
        return End::Finished;
    }
    if e.fast_isinstance(vm.ctx.exceptions.system_exit) {
        return exit_code(vm, &e);
    }
    if e.fast_isinstance(host::timeout_type(vm)) {
        // Reported as a runtime limit, as a program run past --timeout is.
        let text = e
            .as_object()
            .str(vm)
            .map(|s| s.as_str().to_string())
            .unwrap_or_default();
        return End::Error {
            text,
            kind: ErrorKind::Runtime,
        };
    }
    let runtime = e.fast_isinstance(host::enforce_type(vm)) && state.lock().error.is_some();
    let kind = if runtime {
        ErrorKind::Runtime
    } else if e.fast_isinstance(vm.ctx.exceptions.keyboard_interrupt) {
        ErrorKind::Interrupted
    } else if e.fast_isinstance(vm.ctx.exceptions.memory_error) {
        // The script's allocations (or the memory watchdog), wherever
        // the last straw fell: not a fault of the package.
        ErrorKind::User
    } else if traceback::escaped_package(vm, &e) {
        ErrorKind::Internal
    } else {
        ErrorKind::User
    };
    End::Error {
        text: traceback::render(vm, &e),
        kind,
    }
}

/// `sys.exit(arg)`: None is 0, an int its status, anything else is
/// printed to stderr with status 1 (CPython's rules).
fn exit_code(vm: &VirtualMachine, e: &PyBaseExceptionRef) -> End {
    let args = e.args();
    match args.as_slice() {
        [] => End::Exit(0),
        [arg] if vm.is_none(arg) => End::Exit(0),
        [arg] => match arg
            .try_index(vm)
            .and_then(|i| i.try_to_primitive::<i64>(vm))
        {
            Ok(code) => End::Exit(code.rem_euclid(256) as u8),
            Err(_) => {
                let text = arg
                    .str(vm)
                    .map(|s| s.as_str().to_string())
                    .unwrap_or_default();
                eprintln!("{text}");
                End::Exit(1)
            }
        },
        _ => {
            let text = args
                .as_object()
                .repr(vm)
                .map(|s| s.as_str().to_string())
                .unwrap_or_default();
            eprintln!("{text}");
            End::Exit(1)
        }
    }
}

/// Flushes `sys.stdout` and `sys.stderr`, as CPython does at exit.
fn flush_std(vm: &VirtualMachine) {
    for name in ["stdout", "stderr"] {
        if let Ok(f) = vm.sys_module.get_attr(name, vm) {
            let _ = vm.call_method(&f, "flush", ());
        }
    }
}

fn run_atexit(vm: &VirtualMachine) -> PyResult<()> {
    let atexit = vm.import("atexit", 0)?;
    vm.call_method(&atexit, "_run_exitfuncs", ())?;
    Ok(())
}

/// The default main and startup programs (`fluid.default_main_program()`)
/// at the end of the script, if it imported the fluid package.
fn default_programs(vm: &VirtualMachine) -> Option<(Program, Program)> {
    let modules = vm.sys_module.get_attr("modules", vm).ok()?;
    let framework = modules.get_item("paddle.fluid.framework", vm).ok()?;
    let pair = vm.call_method(&framework, "_host_programs", ()).ok()?;
    let items = crate::native::convert::sequence(&pair)?;
    let desc = |o: &PyObjectRef| -> Option<Program> {
        let d = o.downcast_ref::<ProgramDesc>()?;
        let p = d.state.lock().program.clone();
        Some(p)
    };
    Some((desc(items.first()?)?, desc(items.get(1)?)?))
}
