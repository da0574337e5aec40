//! The Python VM scripts run on (SPEC §1): RustPython, with its standard
//! library and fluidc's Python package (`paddle`, `numpy`, `PIL`, from
//! `src/python/`) frozen into the binary, and the native modules `_fluidc`
//! ([`crate::native`]) and `_numpy` ([`crate::numpy`]).
//!
//! [`execute`] runs a script as CPython runs `python script.py ARGS`: as
//! the `__main__` module, with `sys.argv` and the script's directory first
//! on `sys.path`. Nothing is read from disk but the script and what it
//! opens or imports itself; the environment (`PYTHONPATH`) is ignored, so
//! a CPython installation's packages never shadow fluidc's.
pub mod programs;
pub mod traceback;

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

/// The fluid package, compiled to bytecode when fluidc is built.
fn frozen_package() -> impl Iterator<Item = (&'static str, rustpython_vm::frozen::FrozenModule)> {
    static LIB: &rustpython_vm::frozen::FrozenLib =
        rustpython_vm::py_freeze!(dir = "src/python", crate_name = "rustpython_vm");
    LIB.decode()
}

/// A script to run.
#[derive(Debug, Clone)]
pub struct Script {
    /// The path as the user gave it (`op_callstack` and tracebacks show it).
    pub path: String,
    pub source: String,
    /// `sys.argv[1:]`.
    pub args: Vec<String>,
}

/// How a script ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// It ran to its end (or, in build mode, to its first run).
    Finished,
    /// `sys.exit(code)` (`unittest.main()` after a failure: 1).
    Exit(u8),
    /// An uncaught exception, rendered as CPython renders it. `runtime`:
    /// it was a program's runtime error (`EnforceNotMet`), which the
    /// command reports with exit code 3.
    Error { text: String, runtime: bool },
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
    /// Whether the script printed anything to stdout.
    pub printed: bool,
    /// What it printed, when the caller asked to capture stdout.
    pub stdout: Option<String>,
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
                runtime: false,
            },
            state,
            defaults: None,
            printed: false,
            stdout: None,
        },
    }
}

/// A new interpreter with the standard library, the fluid package and the
/// native modules.
pub fn interpreter(argv: Vec<String>) -> Interpreter {
    let mut settings = Settings::default();
    settings.argv = argv;
    settings.ignore_environment = true;
    settings.import_site = false;
    settings.install_signal_handlers = false;
    settings.path_list = Vec::new();
    Interpreter::with_init(settings, |vm| {
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
    })
}

fn run_on_vm(script: Script, host: Host, capture: bool) -> Outcome {
    let state = host.state.clone();
    let mut argv = vec![script.path.clone()];
    argv.extend(script.args.iter().cloned());
    host::register_source(&script.path, &script.source);
    let interp = interpreter(argv);
    let (end, defaults, printed, stdout) = interp.enter(|vm| {
        let tap = match prepare(vm, host, &script, capture) {
            Ok(tap) => tap,
            Err(e) => {
                let text = traceback::render(vm, &e);
                return (
                    End::Error {
                        text,
                        runtime: false,
                    },
                    None,
                    false,
                    None,
                );
            }
        };
        let end = match run_main(vm, &script) {
            Ok(()) => End::Finished,
            Err(e) => ending(vm, e, &state),
        };
        let _ = run_atexit(vm);
        flush_std(vm);
        let defaults = default_programs(vm);
        let printed = tap
            .as_object()
            .get_attr("written", vm)
            .and_then(|w| w.try_to_bool(vm))
            .unwrap_or(false);
        let stdout = capture.then(|| {
            vm.call_method(&tap, "getvalue", ())
                .ok()
                .and_then(|v| v.downcast::<PyStr>().ok())
                .map(|s| s.as_str().to_string())
                .unwrap_or_default()
        });
        (end, defaults, printed, stdout)
    });
    Outcome {
        end,
        state,
        defaults,
        printed,
        stdout,
    }
}

/// Sets `_fluidc.HOST`, `sys.path[0]` and the stdout tap; returns the tap.
fn prepare(
    vm: &VirtualMachine,
    host: Host,
    script: &Script,
    capture: bool,
) -> PyResult<PyObjectRef> {
    let core = vm.import(crate::native::MODULE, 0)?;
    core.set_attr("HOST", host.into_ref(&vm.ctx), vm)?;
    let dir = std::path::Path::new(&script.path)
        .parent()
        .map(|p| {
            if p.as_os_str().is_empty() {
                std::path::Path::new(".")
            } else {
                p
            }
        })
        .and_then(|p| std::fs::canonicalize(p).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    vm.insert_sys_path(vm.ctx.new_str(dir).into())?;
    let boot = vm.import("_fluidc_boot", 0)?;
    vm.call_method(&boot, "install_stdout", (capture,))
}

/// Runs the script as `__main__`.
fn run_main(vm: &VirtualMachine, script: &Script) -> PyResult<()> {
    let code = vm
        .compile(&script.source, CompileMode::Exec, script.path.clone())
        .map_err(|err| vm.new_syntax_error(&err, Some(&script.source)))?;
    let dict = vm.ctx.new_dict();
    let module = vm.new_module("__main__", dict.clone(), None);
    let file = std::fs::canonicalize(&script.path)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| script.path.clone());
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
    let runtime = e.fast_isinstance(host::enforce_type(vm)) && state.lock().error.is_some();
    End::Error {
        text: traceback::render(vm, &e),
        runtime,
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
