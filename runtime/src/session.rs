//! A session: programs loaded once and run many times against one scope
//! (README, "Run mode"), as Paddle's `Executor` runs programs against its scope.
//!
//! The session's scope holds the persistable variables (parameters,
//! optimizer state, global variables, channels of block 0): a run starts
//! with them in its root scope and hands them back when it ends, so they
//! keep their values from run to run and several programs (startup and
//! main) share them. Values move in and out, they are not copied: a buffer
//! that has one owner stays uniquely owned, so kernels may update it in
//! place. Other variables live for one run, as in Paddle's executor, which
//! runs a program in a local scope it drops afterwards.
//!
//! A loaded program ([`Runnable`]) is cached by the program's content, so a
//! script that runs the same program in a loop loads it once.
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, VecDeque};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

use fluidc_transpiler::{Program, Verified};

use crate::error::RuntimeError;
use crate::load::Runnable;
use crate::profile::{OpEvent, OpProfile, Profile};
use crate::random;
use crate::scheduler::{Limits, Sched};
use crate::scope::{Frame, FrameKind, Scope, TensorRef, VarRef, Vars};
use crate::tensor::alloc::{self, LimitGuard};
use crate::tensor::Tensor;
use crate::value::Value;

/// How a session runs programs.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    /// Seeds select's random choice; runs with one worker and the same seed
    /// are identical.
    pub seed: Option<u64>,
    /// Worker threads; default: the number of cores.
    pub workers: Option<usize>,
    /// The most bytes one tensor may take (see `crate::tensor::alloc`);
    /// default: [`crate::tensor::alloc::default_max_memory`].
    pub max_memory: Option<u64>,
    /// The most ops one run of a program may execute (`--max-steps`): every
    /// op of every goroutine, each loop iteration's ops again, and a
    /// `while` once per check of its condition. A run that needs more
    /// stops with an error naming the op it stopped at. Default: no limit.
    pub max_ops: Option<u64>,
    /// How long the session may run programs (`--timeout`), counted from
    /// [`Session::new`]; a run still going then stops with an error.
    /// Default: no limit.
    pub timeout: Option<Duration>,
    /// Time every op, by type, for [`Session::profile`] (`--profile`).
    pub profile: bool,
    /// Run a lowered select's cases block op by op, as Paddle would,
    /// instead of jumping to the chosen case's body (`--select-dispatch
    /// ops`; see `ops::control::case_dispatch`). For measuring what the
    /// lowered ops cost; the results are the same.
    pub select_ops: bool,
    /// The session is this rank of a data-parallel group (`--nranks`):
    /// its `all_reduce` and `broadcast` ops exchange tensors with the
    /// group's other sessions. Default: none, and they are the identity.
    pub rank: Option<crate::collective::Member>,
    /// Run every op by its own kernel: no optimizer update fused into the
    /// op computing its gradient (`crate::fuse`; the CLI sets it from
    /// `FLUIDC_NO_FUSE=1`). The results are the same bit for bit; for
    /// measuring and testing the fusion.
    pub no_fuse: bool,
}

/// A program loaded once to be run many times ([`Session::prepare`]): a
/// training loop runs the same program every step without looking it up.
#[derive(Debug, Clone)]
pub struct Prepared(Arc<Runnable>);

/// How many loaded programs a session keeps (a script's startup, main and
/// test programs, with room to spare); the least recently loaded goes first.
const CACHED_PROGRAMS: usize = 16;

/// Programs run against one persistent scope. See the module docs.
#[derive(Debug, Default)]
pub struct Session {
    options: SessionOptions,
    /// When runs must stop (`SessionOptions::timeout` after the start).
    deadline: Option<Instant>,
    /// The persistable variables between runs, by name.
    scope: HashMap<String, Value>,
    /// Loaded programs by content fingerprint, oldest first.
    cache: VecDeque<(u64, Arc<Runnable>)>,
    /// The engine random ops with seed 0 draw from (Paddle's global
    /// generator): seeded as `paddle.seed(options.seed)` seeds Paddle's,
    /// or at random; its draws continue from run to run.
    engine: Option<random::SharedEngine>,
    /// Op times of the profiled runs (shared with siblings).
    profile: Profile,
    /// What the program's `py_func` ops call (shared with siblings).
    host: Option<Arc<dyn crate::host::Host>>,
}

impl Session {
    pub fn new(options: SessionOptions) -> Session {
        Session {
            deadline: options.timeout.and_then(|t| Instant::now().checked_add(t)),
            engine: Some(random::seeded_engine(
                options.seed.unwrap_or_else(rand::random),
            )),
            options,
            ..Session::default()
        }
    }

    /// A session with a scope of its own that shares this one's deadline
    /// and random engine: Paddle's `fluid.Scope()` beside the global scope
    /// (one process, one generator, one `--timeout`).
    pub fn sibling(&self) -> Session {
        Session {
            options: self.options.clone(),
            deadline: self.deadline,
            engine: self.engine.clone(),
            profile: self.profile.clone(),
            host: self.host.clone(),
            ..Session::default()
        }
    }

    /// Gives the session (and the siblings made from it afterwards) the
    /// host its programs' `py_func` ops call: the script's interpreter.
    pub fn set_host(&mut self, host: Option<Arc<dyn crate::host::Host>>) {
        self.host = host;
    }

    /// Runs block 0 of `program`: `feeds` set variables (through the
    /// program's `feed` ops, or directly in the root scope), and the result
    /// is the program's own fetch targets in `col` order, then `fetch`.
    pub fn run(
        &mut self,
        program: &Verified,
        feeds: Vec<(String, Tensor)>,
        fetch: Vec<String>,
    ) -> Result<Vec<(String, Tensor)>, RuntimeError> {
        let _limit = self.limit();
        let prog = self.load(program)?;
        self.run_loaded(&prog, feeds, fetch)
    }

    /// Sets the memory limit of this thread (and so of the run's workers)
    /// while the guard lives.
    fn limit(&self) -> LimitGuard {
        alloc::limit_to(
            self.options
                .max_memory
                .unwrap_or_else(alloc::default_max_memory),
        )
    }

    /// [`Session::run`] of a program that is run once: it is not cached (a
    /// one-shot `fluidc run` need not fingerprint it).
    pub fn run_once(
        &mut self,
        program: &Verified,
        feeds: Vec<(String, Tensor)>,
        fetch: Vec<String>,
    ) -> Result<Vec<(String, Tensor)>, RuntimeError> {
        let _limit = self.limit();
        let loaded = self.load_runnable(program)?;
        self.run_loaded(&loaded, feeds, fetch)
    }

    /// Loads `program` for [`Session::run_prepared`]; an op with no kernel
    /// is reported here, before anything runs.
    pub fn prepare(&self, program: &Verified) -> Result<Prepared, RuntimeError> {
        let _limit = self.limit();
        Ok(Prepared(Arc::new(self.load_runnable(program)?)))
    }

    /// [`Session::run`] of a program [`Session::prepare`] loaded.
    pub fn run_prepared(
        &mut self,
        program: &Prepared,
        feeds: Vec<(String, Tensor)>,
        fetch: Vec<String>,
    ) -> Result<Vec<(String, Tensor)>, RuntimeError> {
        let _limit = self.limit();
        self.run_loaded(&program.0, feeds, fetch)
    }

    fn run_loaded(
        &mut self,
        prog: &Runnable,
        feeds: Vec<(String, Tensor)>,
        fetch: Vec<String>,
    ) -> Result<Vec<(String, Tensor)>, RuntimeError> {
        let prog = prog.for_fetch(&fetch)?;
        let _engine = random::use_engine(self.engine.clone());
        let _member = crate::collective::use_member(self.options.rank.clone());
        let _host = crate::host::use_host(self.host.clone());
        let root = Scope::root(prog.blocks[0].shared);
        let frames = [root_frame(&root)];
        let mut locals = vec![Value::Empty; prog.blocks[0].locals];
        {
            let mut vars = Vars::new(&frames, &mut locals, 0);
            for (name, r) in &prog.persistables {
                if let Some(v) = self.scope.remove(name.as_str()) {
                    vars.set(r, v);
                }
            }
            feed(prog, &mut vars, feeds)?;
        }
        // A program that starts no goroutine runs on the calling thread alone.
        let workers = match self.options.workers {
            _ if !prog.starts_goroutines || prog.calls_host => 1,
            Some(n) => n.max(1),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let seed = self.options.seed.unwrap_or_else(rand::random);
        let limits = Limits {
            max_ops: self.options.max_ops,
            deadline: self.deadline.zip(self.options.timeout),
            profile: self.options.profile,
            timeline: self.profile.timeline_on(),
        };
        let sched = Sched::new(prog, limits);
        let result = sched.run(root_frame(&root), locals, workers, seed);
        if let Some(times) = sched.take_times() {
            self.profile.add(prog, times);
        }
        let mut locals = result?;
        let mut vars = Vars::new(&frames, &mut locals, 0);
        let out = fetches(prog, &mut vars, fetch);
        for (name, r) in &prog.persistables {
            let v = vars.with(r, std::mem::take);
            if !matches!(
                v,
                Value::Empty | Value::FeedList(_) | Value::FetchList(_) | Value::Steps(_)
            ) {
                self.scope.insert(name.clone(), v);
            }
        }
        out
    }

    /// Time per op type of the runs so far, longest first, when the
    /// session profiles ([`SessionOptions::profile`]; this session's and
    /// its siblings' runs).
    pub fn profile(&self) -> Vec<OpProfile> {
        self.profile.report()
    }

    /// Forgets the runs profiled so far (a training run's startup program).
    pub fn reset_profile(&self) {
        self.profile.clear();
    }

    /// Starts or stops keeping every op call's start and end, for this
    /// session and its siblings (`fluid.profiler`, process-wide as 1.x's).
    pub fn set_timeline(&self, on: bool) {
        self.profile.set_timeline(on);
    }

    pub fn timeline_on(&self) -> bool {
        self.profile.timeline_on()
    }

    /// The op calls since the timeline was started or cleared, in the order
    /// they ended (within a run; runs in the order they ended).
    pub fn timeline(&self) -> Vec<OpEvent> {
        self.profile.timeline()
    }

    /// Forgets the timeline's calls so far (`fluid.profiler.reset_profiler`).
    pub fn clear_timeline(&self) {
        self.profile.clear_timeline();
    }

    /// Makes the session a rank of `member`'s group for the runs that
    /// follow (`None`: alone again): 1.x's ParallelExecutor runs one
    /// session per CPU place, joined by the program's `all_reduce` ops.
    pub fn set_rank(&mut self, member: Option<crate::collective::Member>) {
        self.options.rank = member;
    }

    /// The tensor a persistable variable holds between runs
    /// (`global_scope().find_var(name).get_tensor()`).
    pub fn tensor(&self, name: &str) -> Option<Tensor> {
        self.scope.get(name)?.to_tensor()
    }

    /// The elements of the tensor array the scope holds for `name` (`None`
    /// where no write reached), or `None` when it holds no tensor array
    /// (`find_var(name).get_lod_tensor_array()`).
    pub fn tensor_array(&self, name: &str) -> Option<Vec<Option<Tensor>>> {
        match self.scope.get(name)? {
            Value::TensorArray(a) => Some(a.iter().map(Value::to_tensor).collect()),
            _ => None,
        }
    }

    /// The (sequence index, length) items of the rank table the scope holds
    /// for `name`, longest first (`find_var(name).get_lod_rank_table()`).
    pub fn rank_table(&self, name: &str) -> Option<Vec<(usize, usize)>> {
        match self.scope.get(name)? {
            Value::RankTable(t) => Some(t.items().to_vec()),
            _ => None,
        }
    }

    /// Whether the scope holds a variable `name` (without copying it).
    pub fn holds(&self, name: &str) -> bool {
        self.scope.contains_key(name)
    }

    /// Sets a tensor array of the scope (one a script built element by
    /// element: `get_lod_tensor_array().append(t)`).
    pub fn set_tensor_array(&mut self, name: &str, items: Vec<Tensor>) {
        let items = items.into_iter().map(Value::tensor).collect();
        self.scope
            .insert(name.to_string(), Value::TensorArray(Arc::new(items)));
    }

    /// Sets a variable of the scope (a parameter loaded from a file, a
    /// tensor a script sets); programs that declare it persistable see it.
    pub fn set_tensor(&mut self, name: &str, t: Tensor) {
        self.scope.insert(name.to_string(), Value::tensor(t));
    }

    /// The names of the variables the scope holds, sorted.
    pub fn names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.scope.keys().map(String::as_str).collect();
        names.sort_unstable();
        names
    }

    /// How many loaded programs the session keeps.
    pub fn cached_programs(&self) -> usize {
        self.cache.len()
    }

    /// `program` loaded as the options ask.
    fn load_runnable(&self, program: &Verified) -> Result<Runnable, RuntimeError> {
        let mut loaded = Runnable::load(program, !self.options.no_fuse)?;
        if self.options.select_ops {
            loaded.without_select_dispatch();
        }
        Ok(loaded)
    }

    /// The loaded form of `program`, from the cache when it was loaded before.
    fn load(&mut self, program: &Verified) -> Result<Arc<Runnable>, RuntimeError> {
        let key = fingerprint(program);
        if let Some((_, prog)) = self.cache.iter().find(|(k, _)| *k == key) {
            return Ok(prog.clone());
        }
        let prog = Arc::new(self.load_runnable(program)?);
        if self.cache.len() == CACHED_PROGRAMS {
            self.cache.pop_front();
        }
        self.cache.push_back((key, prog.clone()));
        Ok(prog)
    }
}

/// A fingerprint of a program's content: its `Debug` form hashed, which
/// covers every field (the model has no `Hash`, and encoding it would need
/// a verified copy).
fn fingerprint(program: &Program) -> u64 {
    let mut h = DefaultHasher::new();
    format!("{program:?}").hash(&mut h);
    h.finish()
}

fn root_frame(root: &Arc<Scope>) -> Frame {
    Frame {
        block: 0,
        pc: 0,
        base: 0,
        scope: Some(root.clone()),
        scope_frame: 0,
        kind: FrameKind::Once,
    }
}

/// Puts feeds where the program reads them: the `feed` holder's columns for
/// names a `feed` op reads, the root scope for the others.
fn feed(
    prog: &Runnable,
    root: &mut Vars,
    feeds: Vec<(String, Tensor)>,
) -> Result<(), RuntimeError> {
    let by_feed_op: HashMap<&str, (usize, &VarRef)> = prog
        .feeds
        .iter()
        .map(|(col, name, holder)| (name.as_str(), (*col, holder)))
        .collect();
    for (name, t) in feeds {
        if let Some(&(col, holder)) = by_feed_op.get(name.as_str()) {
            root.with(holder, |v| {
                if !matches!(v, Value::FeedList(_)) {
                    *v = Value::FeedList(Vec::new());
                }
                if let Value::FeedList(cols) = v {
                    if cols.len() <= col {
                        cols.resize(col + 1, None);
                    }
                    cols[col] = Some(t);
                }
            });
            continue;
        }
        let r = prog.root_var(&name).ok_or_else(|| {
            RuntimeError::new(format!(
                "cannot feed `{name}`: it is not a variable of block 0 (nor a persistable one)"
            ))
        })?;
        root.set_tensor(&r, t);
    }
    Ok(())
}

/// The program's fetch targets in `col` order, then the variables `extra` names.
fn fetches(
    prog: &Runnable,
    root: &mut Vars,
    extra: Vec<String>,
) -> Result<Vec<(String, Tensor)>, RuntimeError> {
    let mut out = Vec::new();
    for (col, name, holder) in &prog.fetches {
        let t = root.with(holder, |v| match v {
            Value::FetchList(cols) => cols.get(*col).cloned().flatten(),
            _ => None,
        });
        let t = t.ok_or_else(|| {
            RuntimeError::new(format!(
                "fetch target `{name}` (column {col}) was never written"
            ))
        })?;
        out.push((name.clone(), as_declared(prog, name, t)));
    }
    for name in extra {
        let r = prog.root_var(&name).ok_or_else(|| {
            RuntimeError::new(format!(
                "cannot fetch `{name}`: it is not a variable of block 0 (nor a persistable one)"
            ))
        })?;
        let t = root
            .tensor(&r)
            .map(TensorRef::into_owned)
            .map_err(|e| RuntimeError::with_kernel(format!("cannot fetch `{name}`: {e}"), e))?;
        let t = as_declared(prog, &name, t);
        out.push((name, t));
    }
    Ok(out)
}

/// A fetched 0-D value of a variable declared `[1]`, as shape `(1,)`
/// ([`Runnable::declared_one`]).
fn as_declared(prog: &Runnable, name: &str, t: Tensor) -> Tensor {
    if t.shape().is_empty() && prog.declared_one.contains(name) {
        t.reshaped(&[1]).unwrap_or(t)
    } else {
        t
    }
}
