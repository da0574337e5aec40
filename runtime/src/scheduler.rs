//! The M:N scheduler: a few worker threads run many goroutines.
//!
//! Each worker has a `next` slot (Go's `runnext`) and a local FIFO queue,
//! and all share one FIFO queue. A goroutine woken by the one a worker is
//! running goes to `next`, one it displaces from there and one it starts go
//! to the local queue, so channel handoffs stay on the worker that made them, with no lock, no syscall and no idle worker woken to race for them
//! (on this machine a cross-thread wake-up costs tens of microseconds, a
//! handoff a few hundred nanoseconds). A goroutine that runs long without
//! blocking yields after a time slice of ops to the shared queue, where an
//! idle worker picks it up, so one busy loop cannot starve the others (also
//! with one worker) and busy goroutines spread over the workers. With one
//! worker and a seed, a run is deterministic: the queues are FIFO and
//! select's random choice uses the worker's seeded generator.
//!
//! Work stealing: a goroutine in a worker's local queue waits while that
//! worker runs another, which may sit in a kernel for milliseconds. So an
//! idle worker does not sleep for good: every [`STEAL_INTERVAL`] it looks at
//! the other workers' local queues and takes the older half of one, as Go's
//! idle Ps do. The `next` slot is never taken: a handoff stays where it was
//! made.
//!
//! Deadlock: `active` counts goroutines that are running or runnable. A
//! goroutine that parks or exits decrements it, one that wakes another
//! increments it first, so it reaches 0 only when every live goroutine is
//! parked and nobody can wake them. Then the run stops at once with a report
//! of every blocked goroutine. The main goroutine's end ends the run, as in Go.
//!
//! A worker keeps the wake-ups made by the goroutine it runs in a count of
//! its own (`woken`) and adds them when that goroutine stops running; if it
//! stops by parking or exiting, one of them takes over its place in
//! `active`, so the usual channel handoff (wake the partner, then park)
//! changes `active` not at all. The shared count is never too low to
//! matter: the running goroutine is itself in it until it stops, and the
//! goroutines another worker may steal (in a local queue) are counted
//! before they get there; only the one in `next` may be uncounted.
//!
//! Limits (`--max-steps`, `--timeout`): a goroutine runs its time slice on
//! a grant of ops taken from the run's op budget (a whole slice when there
//! is no budget), and gives back what it did not use when it stops; the
//! deadline is checked at every grant. A grant refused ends the run with an
//! error, as a failed op does: blocked goroutines are freed as after any
//! error. With one worker the budget is exact: the run executes exactly the
//! ops it allows, then stops at the next.
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::error::RuntimeError;
use crate::goroutine::{GInfo, Goroutine};
use crate::load::Runnable;
use crate::profile::OpTimes;
use crate::scope::Frame;
use crate::value::{ParkedGoroutine, Value};

/// Ops a goroutine runs before it yields to others waiting.
pub(crate) const TIME_SLICE: u32 = 256;

/// How often an idle worker looks for goroutines to steal (module docs):
/// short beside a kernel that takes milliseconds, long beside the few
/// microseconds a look costs.
const STEAL_INTERVAL: Duration = Duration::from_millis(1);

/// A worker's local queue: goroutines woken or started there.
type LocalQueue = Mutex<VecDeque<Box<Goroutine>>>;

/// When a run must stop (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Limits {
    /// The most ops the run may execute.
    pub(crate) max_ops: Option<u64>,
    /// The instant the run must stop by, and the timeout it came from.
    pub(crate) deadline: Option<(Instant, Duration)>,
    /// Time every op (`--profile`; see `crate::profile`).
    pub(crate) profile: bool,
    /// Keep each op call's start and end too (`fluid.profiler`).
    pub(crate) timeline: bool,
}

/// The limit that stopped a run.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stop {
    Ops(u64),
    Timeout(Duration),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hint = "else look for a `while` whose condition never changes";
        match self {
            Stop::Ops(n) => write!(
                f,
                "stopped after {n} ops, the most one run of a program may execute \
                 (--max-steps {n}); if it needs more, raise the limit (--max-steps N), {hint}"
            ),
            Stop::Timeout(t) => {
                let t = t.as_secs_f64();
                write!(
                    f,
                    "stopped after {t} seconds, the time limit of the whole command \
                     (--timeout {t}); if it needs longer, raise the limit (--timeout SECONDS), \
                     {hint}"
                )
            }
        }
    }
}

pub(crate) struct Sched<'r> {
    pub(crate) prog: &'r Runnable,
    limits: Limits,
    /// What is left of `limits.max_ops` (ungranted).
    ops_left: AtomicU64,
    queue: Mutex<Queue>,
    wakeup: Condvar,
    queued: AtomicUsize,
    active: AtomicIsize,
    done: AtomicBool,
    error: Mutex<Option<RuntimeError>>,
    live: Mutex<HashMap<u64, Arc<GInfo>>>,
    next_id: AtomicU64,
    /// Main's locals once it has ended.
    main_locals: Mutex<Option<Vec<Value>>>,
    /// The workers' op times, added up as each worker stops (profiling).
    times: Option<Mutex<OpTimes>>,
}

struct Queue {
    runnable: VecDeque<Box<Goroutine>>,
    idle_workers: usize,
}

/// One worker thread's state.
pub(crate) struct Worker<'s, 'r> {
    pub(crate) sched: &'s Sched<'r>,
    /// Runs next: the goroutine most recently woken by this worker.
    next: Option<Box<Goroutine>>,
    /// Wake-ups made by the running goroutine, not yet in `Sched::active`
    /// (see the module docs).
    woken: isize,
    /// Every worker's local queue (goroutines woken here earlier and
    /// displaced from `next`, or started here), indexed by worker.
    locals: &'s [LocalQueue],
    /// This worker's index in `locals`.
    id: usize,
    pub(crate) rng: SmallRng,
    /// This worker's op times, when the run is profiled.
    pub(crate) times: Option<OpTimes>,
}

impl<'r> Sched<'r> {
    pub(crate) fn new(prog: &'r Runnable, limits: Limits) -> Self {
        Sched {
            prog,
            limits,
            ops_left: AtomicU64::new(limits.max_ops.unwrap_or(u64::MAX)),
            queue: Mutex::new(Queue {
                runnable: VecDeque::new(),
                idle_workers: 0,
            }),
            wakeup: Condvar::new(),
            queued: AtomicUsize::new(0),
            active: AtomicIsize::new(0),
            done: AtomicBool::new(false),
            error: Mutex::new(None),
            live: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
            main_locals: Mutex::new(None),
            times: (limits.profile || limits.timeline)
                .then(|| Mutex::new(OpTimes::new(prog, limits.timeline))),
        }
    }

    /// The op times of a profiled run, once it has ended.
    pub(crate) fn take_times(&self) -> Option<OpTimes> {
        self.times.as_ref().map(|t| std::mem::take(&mut *t.lock()))
    }

    /// Runs the program from `main` (goroutine 0, with its locals) on
    /// `workers` threads (the calling thread is one of them) until main ends
    /// or the run fails. Returns main's locals as it left them.
    pub(crate) fn run(
        &self,
        main: Frame,
        locals: Vec<Value>,
        workers: usize,
        seed: u64,
    ) -> Result<Vec<Value>, RuntimeError> {
        self.push(self.new_goroutine(main, locals));
        let queues: Vec<LocalQueue> = (0..workers).map(|_| Mutex::new(VecDeque::new())).collect();
        let worker = |i: usize| Worker {
            sched: self,
            next: None,
            woken: 0,
            locals: &queues,
            id: i,
            rng: SmallRng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)),
            times: self
                .times
                .as_ref()
                .map(|_| OpTimes::new(self.prog, self.limits.timeline)),
        };
        // Kernels on every worker allocate under the caller's memory limit.
        let limit = crate::tensor::alloc::current();
        // Random kernels on every worker draw from the session's engine.
        let engine = crate::random::session_engine();
        // Collectives on every worker join the session's group.
        let member = crate::collective::member();
        std::thread::scope(|s| {
            for i in 1..workers {
                let w = worker(i);
                let engine = engine.clone();
                let member = member.clone();
                s.spawn(move || {
                    let _limit = crate::tensor::alloc::limit_to(limit);
                    let _engine = crate::random::use_engine(engine);
                    let _member = crate::collective::use_member(member);
                    w.run()
                });
            }
            worker(0).run();
        });
        drop(queues);
        self.free_blocked();
        if let Some(e) = self.error.lock().take() {
            return Err(e);
        }
        Ok(self.main_locals.lock().take().unwrap_or_default())
    }

    /// The ops a goroutine may run before it asks again: a time slice, or
    /// less when the op budget is nearly spent; `Err` when a limit is reached.
    pub(crate) fn grant(&self) -> Result<u32, Stop> {
        if let Some((deadline, timeout)) = self.limits.deadline {
            if Instant::now() >= deadline {
                return Err(Stop::Timeout(timeout));
            }
        }
        let Some(max) = self.limits.max_ops else {
            return Ok(TIME_SLICE);
        };
        let slice = u64::from(TIME_SLICE);
        let left = match self
            .ops_left
            .fetch_update(SeqCst, SeqCst, |left| Some(left.saturating_sub(slice)))
        {
            Ok(left) | Err(left) => left,
        };
        match left.min(slice) {
            0 => Err(Stop::Ops(max)),
            // At most TIME_SLICE, so it fits.
            n => Ok(n as u32),
        }
    }

    /// Gives back the part of a grant a goroutine did not use.
    pub(crate) fn refund(&self, unused: u32) {
        if self.limits.max_ops.is_some() && unused > 0 {
            self.ops_left.fetch_add(u64::from(unused), SeqCst);
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        self.done.load(SeqCst)
    }

    /// Ends the run: with `Some(error)` it fails. The first call wins.
    pub(crate) fn finish(&self, error: Option<RuntimeError>) {
        if !self.done.swap(true, SeqCst) {
            *self.error.lock() = error;
        }
        let _q = self.queue.lock();
        self.wakeup.notify_all();
    }

    /// A new goroutine running `frame` with its `locals`, counted as live
    /// and runnable; the caller queues it.
    fn new_goroutine(&self, frame: Frame, locals: Vec<Value>) -> Box<Goroutine> {
        let g = Goroutine::new(self.next_id.fetch_add(1, SeqCst), frame, locals);
        self.live.lock().insert(g.id, g.info.clone());
        self.active.fetch_add(1, SeqCst);
        g
    }

    /// Puts a runnable goroutine at the end of the shared queue.
    pub(crate) fn push(&self, g: Box<Goroutine>) {
        let mut q = self.queue.lock();
        q.runnable.push_back(g);
        self.queued.fetch_add(1, SeqCst);
        if q.idle_workers > 0 {
            self.wakeup.notify_one();
        }
    }

    pub(crate) fn has_queued(&self) -> bool {
        self.queued.load(SeqCst) > 0
    }

    /// The next runnable goroutine, from the shared queue or else from
    /// `steal`; sleeps while there is none, trying `steal` again every
    /// [`STEAL_INTERVAL`] when there are other workers; `None` once the run
    /// is over.
    fn pop_or_wait(
        &self,
        others: bool,
        mut steal: impl FnMut() -> Option<Box<Goroutine>>,
    ) -> Option<Box<Goroutine>> {
        let mut q = self.queue.lock();
        loop {
            if self.is_done() {
                return None;
            }
            if let Some(g) = q.runnable.pop_front() {
                self.queued.fetch_sub(1, SeqCst);
                return Some(g);
            }
            if let Some(g) = steal() {
                return Some(g);
            }
            q.idle_workers += 1;
            if others {
                self.wakeup.wait_for(&mut q, STEAL_INTERVAL);
            } else {
                self.wakeup.wait(&mut q);
            }
            q.idle_workers -= 1;
        }
    }

    /// Counts `n` wake-ups: parked goroutines that are runnable again.
    fn woken(&self, n: isize) {
        self.active.fetch_add(n, SeqCst);
    }

    /// Counts a goroutine that stopped running (parked or exited); the last
    /// runnable one parking is a deadlock.
    fn stopped(&self) {
        if self.active.fetch_sub(1, SeqCst) == 1 {
            self.deadlock();
        }
    }

    /// A goroutine ran off the end of its first frame. Main's end ends the
    /// run; for another, returns true: it must be counted as stopped.
    pub(crate) fn exited(&self, g: Goroutine) -> bool {
        self.live.lock().remove(&g.id);
        if g.id == 0 {
            let mut locals = g.locals;
            locals.truncate(g.used);
            *self.main_locals.lock() = Some(locals);
            self.finish(None);
            return false;
        }
        true
    }

    fn deadlock(&self) {
        let live = self.live.lock();
        let mut ids: Vec<&u64> = live.keys().collect();
        ids.sort();
        let mut report = String::from("deadlock: all goroutines are asleep");
        for id in ids {
            let info = &live[id];
            let name = if info.id == 0 {
                "goroutine 0 (main)".to_string()
            } else {
                format!("goroutine {}", info.id)
            };
            match info.parked_at() {
                Some((block, op)) => {
                    let op = &self.prog.blocks[block].ops[op].info;
                    report.push_str(&format!(
                        "\n  {name} is blocked in {}{}",
                        op.location(),
                        op.source_suffix("      ")
                    ));
                }
                None => report.push_str(&format!("\n  {name} is not blocked")),
            }
        }
        drop(live);
        self.finish(Some(RuntimeError::new(report)));
    }

    /// After the run: takes every still-blocked goroutine out of its waiter
    /// and drops them together. A parked goroutine is owned by a channel its
    /// own scopes may hold, a cycle nothing else would break; taking them all
    /// out first also keeps the drops from nesting.
    fn free_blocked(&self) {
        let live = std::mem::take(&mut *self.live.lock());
        let blocked: Vec<ParkedGoroutine> = live
            .values()
            .filter_map(|info| info.waiter.take_parked())
            .collect();
        drop(blocked);
        self.queue.lock().runnable.clear();
    }
}

impl Worker<'_, '_> {
    fn run(mut self) {
        self.run_goroutines();
        if let (Some(mine), Some(all)) = (self.times.take(), &self.sched.times) {
            all.lock().add(mine);
        }
    }

    fn run_goroutines(&mut self) {
        loop {
            let g = match self.next.take().or_else(|| self.local().lock().pop_front()) {
                Some(g) => g,
                None => match self
                    .sched
                    .pop_or_wait(self.locals.len() > 1, || self.steal())
                {
                    Some(g) => g,
                    None => return,
                },
            };
            self.run_goroutine(g);
            if self.sched.is_done() {
                return;
            }
        }
    }

    fn local(&self) -> &LocalQueue {
        &self.locals[self.id]
    }

    /// Takes the older half (at least one) of the first other worker's
    /// local queue that has any; runs the first and queues the rest here.
    fn steal(&self) -> Option<Box<Goroutine>> {
        let n = self.locals.len();
        for other in (1..n).map(|k| &self.locals[(self.id + k) % n]) {
            let taken: Vec<Box<Goroutine>> = {
                let Some(mut q) = other.try_lock() else {
                    continue;
                };
                let half = q.len().div_ceil(2);
                q.drain(..half).collect()
            };
            let mut taken = taken.into_iter();
            if let Some(first) = taken.next() {
                self.local().lock().extend(taken);
                return Some(first);
            }
        }
        None
    }

    /// Makes `g` runnable: it runs next on this worker, and the goroutine
    /// that was to run next waits in the local queue, counted as runnable
    /// first, since another worker may steal it from there (module docs).
    pub(crate) fn wake(&mut self, g: Box<Goroutine>) {
        self.woken += 1;
        if let Some(old) = self.next.replace(g) {
            self.count_woken();
            self.local().lock().push_back(old);
        }
    }

    /// The running goroutine parked or exited: one of its wake-ups takes
    /// its place in the count of runnable goroutines, or it leaves it.
    pub(crate) fn stopped(&mut self) {
        if self.woken > 0 {
            self.woken -= 1;
        } else {
            self.sched.stopped();
        }
    }

    /// The running goroutine is off the worker: its wake-ups join the count.
    pub(crate) fn count_woken(&mut self) {
        if self.woken > 0 {
            self.sched.woken(std::mem::take(&mut self.woken));
        }
    }

    /// Starts a goroutine running `frame` with its `locals`. It waits in
    /// this worker's local queue, as Go puts it in the spawning P's: a
    /// goroutine that starts others and then blocks hands them to its own
    /// worker without waking another; they spread when the spawner is
    /// preempted to the shared queue.
    pub(crate) fn spawn(&mut self, frame: Frame, locals: Vec<Value>) {
        let g = self.sched.new_goroutine(frame, locals);
        self.local().lock().push_back(g);
    }

    /// Whether another goroutine waits for a worker (this one's or any).
    pub(crate) fn others_wait(&self) -> bool {
        self.next.is_some() || !self.local().lock().is_empty() || self.sched.has_queued()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::FrameKind;
    use fluidc_transpiler::{Block, Program, Verified};

    fn frame() -> Frame {
        Frame {
            block: 0,
            pc: 0,
            base: 0,
            scope: None,
            scope_frame: 0,
            kind: FrameKind::Once,
        }
    }

    /// An idle worker takes the older half (rounded up) of a busy worker's
    /// local queue, runs the oldest and queues the rest in its own; the
    /// busy worker keeps the newer half and its `next`.
    #[test]
    fn an_idle_worker_steals_the_older_half_of_a_local_queue() {
        let program = Verified::new(Program {
            blocks: vec![Block::new(0, -1)],
            ..Default::default()
        })
        .unwrap();
        let prog = Runnable::load(&program, true).unwrap();
        let sched = Sched::new(&prog, Limits::default());
        let queues: Vec<LocalQueue> = (0..3).map(|_| Mutex::new(VecDeque::new())).collect();
        let worker = |id: usize| Worker {
            sched: &sched,
            next: None,
            woken: 0,
            locals: &queues,
            id,
            rng: SmallRng::seed_from_u64(0),
            times: None,
        };
        let mut busy = worker(1);
        let idle = worker(2);
        assert!(idle.steal().is_none(), "nothing to steal yet");
        for _ in 0..5 {
            busy.spawn(frame(), Vec::new());
        }
        assert_eq!(
            sched.active.load(SeqCst),
            5,
            "started goroutines count at once"
        );
        // Two parked goroutines (ids 10 and 11) woken in turn: the second
        // takes `next` and displaces the first to the local queue.
        busy.wake(Goroutine::new(10, frame(), Vec::new()));
        assert_eq!(sched.active.load(SeqCst), 5, "a wake-up into `next` waits");
        busy.wake(Goroutine::new(11, frame(), Vec::new()));
        assert_eq!(
            sched.active.load(SeqCst),
            7,
            "a goroutine in the local queue, where it may be stolen, is counted"
        );
        let ids = |q: &LocalQueue| q.lock().iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(ids(&queues[1]), [0, 1, 2, 3, 4, 10]);

        let first = idle.steal().expect("a goroutine to run");
        assert_eq!(first.id, 0);
        assert_eq!(ids(&queues[2]), [1, 2]);
        assert_eq!(ids(&queues[1]), [3, 4, 10]);
        assert_eq!(
            busy.next.as_ref().map(|g| g.id),
            Some(11),
            "`next` is never stolen"
        );
    }
}
