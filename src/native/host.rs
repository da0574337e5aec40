//! The command line's side of a script (`_fluidc.HOST`): what
//! `Executor.run` does in each mode (README, "Run mode"), and what the command reads
//! back when the script ends.
//!
//! - **Build** (`compile`, `dump`, `graph`, `check`): `Executor.run` of a
//!   program other than a startup program records the run (program, its
//!   startup program, feeds and fetch targets) and stops the script with
//!   [`build_stop_type`], a `BaseException` the host catches.
//! - **Run** (`fluidc run script.py`): each run executes in the scope's
//!   [`Session`], through the command line's passes, and its fetches come
//!   back as host arrays.
use std::collections::{BTreeSet, HashSet};
use std::sync::Arc;

use fluidc_runtime::{RuntimeError, SessionOptions, Tensor};
use fluidc_transpiler::passes::{self, Pass, Pipeline};
use fluidc_transpiler::{Program, Verified};
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyStrRef, PyType, PyTypeRef};
use rustpython_vm::common::static_cell;
use rustpython_vm::{pyclass, Py, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine};

use super::py_func::PyFuncs;
use super::session::{self, Session};
use super::ProgramDesc;
use crate::numpy::array_handle;
use crate::vm::sources;

/// `_fluidc.BuildStop`: what stops a script in build mode at its first
/// run (a `BaseException`, so the script's `except Exception` leaves it).
pub fn build_stop_type(vm: &VirtualMachine) -> &'static Py<PyType> {
    static_cell! {
        static TYPE: PyTypeRef;
    }
    TYPE.get_or_init(|| {
        vm.ctx.new_exception_type(
            "_fluidc",
            "BuildStop",
            Some(vec![vm.ctx.exceptions.base_exception_type.to_owned()]),
        )
    })
}

/// `paddle.fluid.core.EnforceNotMet`: a program's runtime error, as 1.x's
/// executor raised it (a script may catch it; uncaught, the command exits
/// 3 with the runtime's message).
pub fn enforce_type(vm: &VirtualMachine) -> &'static Py<PyType> {
    static_cell! {
        static TYPE: PyTypeRef;
    }
    TYPE.get_or_init(|| {
        vm.ctx.new_exception_type(
            "paddle.fluid.core",
            "EnforceNotMet",
            Some(vec![vm.ctx.exceptions.runtime_error.to_owned()]),
        )
    })
}

/// `_fluidc.Timeout`: the script ran past `--timeout` (a `BaseException`,
/// so the script's `except Exception` does not swallow it).
pub fn timeout_type(vm: &VirtualMachine) -> &'static Py<PyType> {
    static_cell! {
        static TYPE: PyTypeRef;
    }
    TYPE.get_or_init(|| {
        vm.ctx.new_exception_type(
            "_fluidc",
            "Timeout",
            Some(vec![vm.ctx.exceptions.base_exception_type.to_owned()]),
        )
    })
}

/// An op the model refuses when it is appended (inference found its
/// inputs inconsistent): a `ValueError`, as Paddle's `InvalidArgument`.
pub fn op_error(vm: &VirtualMachine, message: String) -> PyBaseExceptionRef {
    vm.new_value_error(message)
}

/// Whether a code object is the user's (a file), not a frozen module of
/// the standard library or the fluid package (those are named by module:
/// `paddle.fluid.layers.nn`, `contextlib`).
pub fn is_user_code(source_path: &str) -> bool {
    source_path.ends_with(".py")
        || source_path.contains('/')
        || source_path.starts_with('<')
        || !source_path
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// The Python call stack at this moment, the user's frames only,
/// outermost first, as Paddle's `op_callstack` lines:
/// `  File "model.py", line 12, in <module>` then `    <the line>`.
pub fn user_callstack(vm: &VirtualMachine) -> Vec<String> {
    let frames = vm.frames.borrow();
    let mut lines = Vec::with_capacity(frames.len() * 2);
    for f in frames.iter() {
        let path = f.code.source_path.as_str();
        if !is_user_code(path) {
            continue;
        }
        let (line, text) = sources::shown_line(path, f.current_location().row.to_usize());
        lines.push(format!(
            "  File \"{path}\", line {line}, in {}",
            f.code.obj_name.as_str()
        ));
        if let Some(text) = text {
            lines.push(format!("    {text}"));
        }
    }
    lines
}

/// What `Executor.run` does.
#[derive(Debug, Clone)]
pub enum Mode {
    /// Record the first run of a program other than a startup program,
    /// and stop there. `test`: the unittest test to build (`--test`).
    Build { test: Option<String> },
    /// Run every program as the script runs it.
    Run(RunConfig),
}

/// The command line's options for the runs of a script.
#[derive(Debug, Clone, Default)]
pub struct RunConfig {
    pub options: SessionOptions,
    pub passes: Vec<&'static Pass>,
    /// `--feed NAME=VALUE`: values that replace what the script feeds.
    pub cli_feeds: Vec<(String, String)>,
    /// `--fetch NAME`: fetched from every run, shown after the last run's
    /// own fetches.
    pub extra_fetch: Vec<String>,
}

/// A run build mode recorded.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub main: Program,
    /// Its startup program (`None`: the script paired none).
    pub startup: Option<Program>,
    pub feed: Vec<String>,
    pub fetch: Vec<String>,
}

/// What the host knows of the script so far.
#[derive(Debug, Default)]
pub struct HostState {
    pub recorded: Option<Recorded>,
    /// The last run's fetches (run mode), with their names.
    pub last: Vec<(String, Tensor)>,
    /// How many programs the script ran.
    pub runs: usize,
    /// The runtime error that a run raised last (exit 3 if uncaught).
    pub error: Option<RuntimeError>,
    /// The global scope's session (`fluid.global_scope()`).
    pub global: Option<Arc<Mutex<fluidc_runtime::Session>>>,
    /// The tests of a unittest file (build mode, when the script listed
    /// them instead of running one).
    pub tests: Option<Vec<String>>,
    /// The `--feed` names some run fed and the `--fetch` names some run's
    /// program declared; every global variable of the programs run (for
    /// "did you mean" hints).
    pub used_names: HashSet<String>,
    pub seen_vars: BTreeSet<String>,
    /// The script's `py_func` callables, which its sessions call.
    pub py_funcs: Arc<PyFuncs>,
}

/// `_fluidc.HOST`: the mode and the state the command reads back.
#[pyclass(module = "_fluidc", name = "Host")]
#[derive(Debug, PyPayload)]
pub struct Host {
    pub mode: Mode,
    pub state: Arc<Mutex<HostState>>,
}

impl Host {
    pub fn new(mode: Mode) -> Host {
        Host {
            mode,
            state: Arc::new(Mutex::new(HostState::default())),
        }
    }

    /// The global scope's session, made on first use with the run's
    /// options.
    fn global_session(&self) -> Arc<Mutex<fluidc_runtime::Session>> {
        let mut st = self.state.lock();
        let options = self.config().map(|c| c.options.clone()).unwrap_or_default();
        let py_funcs: Arc<dyn fluidc_runtime::Host> = st.py_funcs.clone();
        st.global
            .get_or_insert_with(|| {
                let mut session = fluidc_runtime::Session::new(options);
                session.set_host(Some(py_funcs));
                Arc::new(Mutex::new(session))
            })
            .clone()
    }

    /// `f` on the global scope's session (see [`Session::lock`]).
    fn with_global<R>(
        &self,
        vm: &VirtualMachine,
        f: impl FnOnce(&mut fluidc_runtime::Session) -> R,
    ) -> PyResult<R> {
        let g = Session::wrap(self.global_session());
        let mut s = g.lock(vm)?;
        Ok(f(&mut s))
    }

    fn config(&self) -> Option<&RunConfig> {
        match &self.mode {
            Mode::Run(c) => Some(c),
            Mode::Build { .. } => None,
        }
    }
}

/// The pipeline of a run mode's passes.
pub fn pipeline(config: &RunConfig) -> Pipeline<'_> {
    Pipeline {
        passes: config.passes.clone(),
        options: passes::Options {
            fetch: config.extra_fetch.clone(),
            evaluator: Some(passes::EvaluatorRef(Arc::new(
                fluidc_runtime::KernelEvaluator,
            ))),
        },
        ..Pipeline::default()
    }
}

#[pyclass]
impl Host {
    /// Whether `Executor.run` records (build mode).
    #[pygetset]
    fn build(&self) -> bool {
        matches!(self.mode, Mode::Build { .. })
    }

    /// The unittest test build mode builds (`--test NAME`), or None.
    #[pygetset]
    fn test(&self) -> Option<String> {
        match &self.mode {
            Mode::Build { test } => test.clone(),
            Mode::Run(_) => None,
        }
    }

    /// Build mode: records the run of `main` (with its startup program,
    /// if the script paired one) and returns; the caller then raises
    /// `BuildStop`.
    #[pymethod]
    fn record(
        &self,
        main: PyRef<ProgramDesc>,
        startup: Option<PyRef<ProgramDesc>>,
        feed: PyObjectRef,
        fetch: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let feed = super::convert::names(&feed, vm)?;
        let fetch = super::convert::names(&fetch, vm)?;
        let main = main.state.lock().program.clone();
        let startup = startup.map(|s| s.state.lock().program.clone());
        self.state.lock().recorded = Some(Recorded {
            main,
            startup,
            feed,
            fetch,
        });
        Ok(())
    }

    /// `core._append_python_callable_object_and_return_id`: registers a
    /// `py_func` callable; a `py_func` op names it by the id returned.
    #[pymethod]
    fn append_python_callable(&self, callable: PyObjectRef) -> usize {
        let funcs = self.state.lock().py_funcs.clone();
        funcs.append(callable)
    }

    /// Build mode: the tests of a unittest file, when none was chosen.
    #[pymethod]
    fn set_tests(&self, tests: Vec<PyStrRef>) {
        self.state.lock().tests = Some(tests.iter().map(|t| t.as_str().to_string()).collect());
    }

    /// The session of the global scope (`global=True`) or of a new
    /// `fluid.Scope()`, sharing the global one's engine and deadline.
    #[pymethod]
    fn session(&self, global: bool, vm: &VirtualMachine) -> PyResult<Session> {
        let g = Session::wrap(self.global_session());
        if global {
            Ok(g)
        } else {
            let sibling = g.lock(vm)?.sibling();
            Ok(Session::wrap(Arc::new(Mutex::new(sibling))))
        }
    }

    /// `fluid.profiler`: starts or stops keeping the timeline of every op
    /// the script's scopes run (process-wide, as 1.x's profiler was).
    #[pymethod]
    fn profiler_enable(&self, vm: &VirtualMachine) -> PyResult<()> {
        self.with_global(vm, |s| s.set_timeline(true))
    }

    #[pymethod]
    fn profiler_disable(&self, vm: &VirtualMachine) -> PyResult<()> {
        self.with_global(vm, |s| s.set_timeline(false))
    }

    #[pymethod]
    fn profiler_enabled(&self, vm: &VirtualMachine) -> PyResult<bool> {
        self.with_global(vm, |s| s.timeline_on())
    }

    #[pymethod]
    fn profiler_reset(&self, vm: &VirtualMachine) -> PyResult<()> {
        self.with_global(vm, |s| s.clear_timeline())
    }

    /// The op calls timed since the profiler started or was reset, as
    /// `(op_type, start_ns, end_ns)` (Unix-epoch nanoseconds), in the
    /// order they ended.
    #[pymethod]
    fn profiler_records(&self, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let events = self.with_global(vm, |s| s.timeline())?;
        Ok(vm
            .ctx
            .new_list(
                events
                    .into_iter()
                    .map(|e| {
                        vm.ctx
                            .new_tuple(vec![
                                vm.ctx.new_str(e.op).into(),
                                vm.ctx.new_int(e.start_ns).into(),
                                vm.ctx.new_int(e.end_ns).into(),
                            ])
                            .into()
                    })
                    .collect(),
            )
            .into())
    }

    /// Run mode: runs `program` in `session` with `feeds` (`(name, array,
    /// lod)`: converted to each variable's declared dtype, as Paddle
    /// converts numpy arrays) and returns the fetch targets' `(array,
    /// lod)` in order. A runtime error raises `EnforceNotMet`.
    #[pymethod]
    fn run(
        &self,
        session: PyRef<Session>,
        program: PyRef<ProgramDesc>,
        feeds: Vec<PyObjectRef>,
        fetch: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        let fetch = super::convert::names(&fetch, vm)?;
        let (verified, mut tensors, extra) = self.prepare_run(&program, vec![feeds], &fetch, vm)?;
        let result = {
            let mut s = session.lock(vm)?;
            s.run(&verified, tensors.remove(0), extra)
        };
        let fetched = result.map_err(|e| self.failed(e, vm))?;
        let out = fetched_to_py(&fetched, fetch.len(), vm)?;
        self.succeeded(fetched);
        Ok(out)
    }

    /// 1.x's ParallelExecutor on `len(sessions)` CPU places: runs
    /// `program` (made data-parallel: its `all_reduce` ops join the
    /// places) on every session at once, place `i` with `feeds[i]`, and
    /// returns each place's fetches. The first place to fail stops the
    /// others, and its error is raised.
    #[pymethod]
    fn run_places(
        &self,
        sessions: Vec<PyRef<Session>>,
        program: PyRef<ProgramDesc>,
        feeds: Vec<Vec<PyObjectRef>>,
        fetch: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<PyObjectRef> {
        if sessions.len() != feeds.len() || sessions.len() < 2 {
            return Err(vm.new_value_error(format!(
                "run_places: {} sessions and {} feed lists (one per place, at least 2)",
                sessions.len(),
                feeds.len()
            )));
        }
        let fetch = super::convert::names(&fetch, vm)?;
        let (verified, tensors, extra) = self.prepare_run(&program, feeds, &fetch, vm)?;
        let group = fluidc_runtime::Group::new(sessions.len());
        let inners: Vec<_> = sessions.iter().map(|s| s.inner.clone()).collect();
        let results: Vec<_> = std::thread::scope(|scope| {
            let places: Vec<_> = inners
                .into_iter()
                .zip(tensors)
                .enumerate()
                .map(|(rank, (inner, tensors))| {
                    let (group, verified, extra) = (group.clone(), verified.clone(), extra.clone());
                    scope.spawn(move || {
                        let mut s = inner.lock();
                        s.set_rank(Some(fluidc_runtime::Member {
                            group: group.clone(),
                            rank,
                        }));
                        let result = s.run(&verified, tensors, extra);
                        s.set_rank(None);
                        // The first place to fail is the cause of the others' errors.
                        result.map_err(|e| (group.abort(&e.to_string()), e))
                    })
                })
                .collect();
            places.into_iter().map(|p| p.join()).collect()
        });
        let mut fetched = Vec::with_capacity(results.len());
        let mut cause = None;
        for result in results {
            match result {
                Ok(Ok(f)) => fetched.push(f),
                Ok(Err((first, e))) => {
                    if first || cause.is_none() {
                        cause = Some(e);
                    }
                }
                Err(_) => {
                    return Err(vm.new_runtime_error("a place's thread panicked".to_owned()));
                }
            }
        }
        if let Some(e) = cause {
            return Err(self.failed(e, vm));
        }
        let out = fetched
            .iter()
            .map(|f| fetched_to_py(f, fetch.len(), vm))
            .collect::<PyResult<Vec<_>>>()?;
        self.succeeded(fetched.swap_remove(0));
        Ok(vm.ctx.new_list(out).into())
    }
}

/// The fetch targets' `(array, lod)` of a run's results (its first
/// `count`: the rest are `--fetch`'s).
fn fetched_to_py(
    fetched: &[(String, Tensor)],
    count: usize,
    vm: &VirtualMachine,
) -> PyResult<PyObjectRef> {
    let out = fetched
        .iter()
        .take(count)
        .map(|(_, t)| session::tensor_to_py(t, vm))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(vm.ctx.new_list(out).into())
}

/// One place's feed tensors, by variable name.
type Feeds = Vec<(String, Tensor)>;

impl Host {
    /// What a run needs: the program prepared for these feeds and
    /// fetches, each place's feed tensors (`--feed` values in place of the
    /// script's), and the `--fetch` names the program declares.
    fn prepare_run(
        &self,
        program: &ProgramDesc,
        places: Vec<Vec<PyObjectRef>>,
        fetch: &[String],
        vm: &VirtualMachine,
    ) -> PyResult<(Arc<Verified>, Vec<Feeds>, Vec<String>)> {
        let Some(config) = self.config() else {
            return Err(vm.new_runtime_error("Executor.run in build mode".into()));
        };
        let mut fed_places = Vec::with_capacity(places.len());
        for feeds in &places {
            let mut fed = Vec::with_capacity(feeds.len());
            for f in feeds {
                let t = super::convert::sequence(f)
                    .filter(|t| t.len() == 3 || t.len() == 4)
                    .ok_or_else(|| {
                        vm.new_type_error("a feed is (name, array, lod[, keep_dtype])".into())
                    })?;
                let name: PyStrRef = t[0].clone().try_into_value(vm)?;
                let array = array_handle(&t[1], vm)?;
                let lod = session::lod_from_py(&t[2], vm)?;
                let keep_dtype = match t.get(3) {
                    Some(k) => k.clone().try_to_bool(vm)?,
                    None => false,
                };
                fed.push((name.as_str().to_string(), array, lod, keep_dtype));
            }
            fed_places.push(fed);
        }
        let feed_names: Vec<String> = fed_places
            .first()
            .map(|fed| fed.iter().map(|(n, ..)| n.clone()).collect())
            .unwrap_or_default();
        if fed_places
            .iter()
            .any(|fed| !fed.iter().map(|(n, ..)| n).eq(feed_names.iter()))
        {
            return Err(vm.new_value_error("every place must be fed the same variables".into()));
        }
        let verified =
            prepare(program, &feed_names, fetch, config).map_err(|e| vm.new_value_error(e))?;
        let mut st = self.state.lock();
        st.runs += 1;
        if !config.cli_feeds.is_empty() || !config.extra_fetch.is_empty() {
            let names: Vec<String> = verified.blocks[0]
                .vars
                .iter()
                .map(|v| v.name.clone())
                .collect();
            st.seen_vars.extend(names);
        }
        let mut tensors = Vec::with_capacity(fed_places.len());
        for fed in fed_places {
            let mut place = Vec::with_capacity(fed.len());
            for (name, array, lod, keep_dtype) in fed {
                let t = match config.cli_feeds.iter().find(|(n, _)| *n == name) {
                    Some((_, text)) => {
                        st.used_names.insert(format!("--feed {name}"));
                        fluidc_runtime::parse_feed(&verified, &name, text)
                            .map_err(|e| vm.new_value_error(format!("--feed {name}: {e}")))?
                    }
                    None => session::feed_tensor(&verified, &name, &array.read(), lod, keep_dtype)
                        .map_err(|e| vm.new_value_error(e))?,
                };
                place.push((name, t));
            }
            tensors.push(place);
        }
        let extra: Vec<String> = config
            .extra_fetch
            .iter()
            .filter(|n| verified.blocks[0].var(n).is_some())
            .cloned()
            .collect();
        for n in &extra {
            st.used_names.insert(format!("--fetch {n}"));
        }
        Ok((verified, tensors, extra))
    }

    /// A run's error: kept for the command's exit status, raised as
    /// `EnforceNotMet`; or the exception a `py_func`'s function raised.
    fn failed(&self, e: RuntimeError, vm: &VirtualMachine) -> PyBaseExceptionRef {
        let message = e.to_string();
        let mut st = self.state.lock();
        // A py_func's Python function raised: the script sees that
        // exception, as 1.x's pybind11 raised it again from `run`.
        if let Some(raised) = st.py_funcs.take_raised() {
            st.error = None;
            return raised;
        }
        st.error = Some(e);
        drop(st);
        vm.new_exception_msg(enforce_type(vm).to_owned(), message)
    }

    /// A run's results (the first place's), kept for `--fetch`.
    fn succeeded(&self, fetched: Vec<(String, Tensor)>) {
        let mut st = self.state.lock();
        st.last = fetched;
        st.error = None;
    }
}

/// The program as a run executes it: feed and fetch ops added, verified,
/// through the command line's passes. Reused while the program is the
/// same version with the same feeds and fetches (a training loop).
fn prepare(
    program: &ProgramDesc,
    feed: &[String],
    fetch: &[String],
    config: &RunConfig,
) -> Result<Arc<Verified>, String> {
    let mut s = program.state.lock();
    let key = (s.version, feed.to_vec(), fetch.to_vec());
    if let Some((k, v)) = &s.prepared {
        if *k == key {
            return Ok(v.clone());
        }
    }
    let mut p = s.program.clone();
    crate::vm::add_feed_fetch(&mut p, feed, fetch);
    let verified = Verified::new(p).map_err(|e| e.to_string())?;
    let verified = Arc::new(pipeline(config).run(verified).map_err(|e| e.to_string())?);
    s.prepared = Some((key, verified.clone()));
    Ok(verified)
}
