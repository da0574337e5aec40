//! The M:N scheduler: a few worker threads run many goroutines.
//!
//! Runnable goroutines wait in one FIFO queue; each worker also has a
//! `next` slot (Go's `runnext`): a goroutine woken by the one a worker is
//! running goes there, so a channel handoff between goroutines continues on
//! the same worker with no syscall, and an idle worker is only signalled when
//! work lands in the shared queue. A goroutine that runs long without
//! blocking yields after a time slice of ops, so one busy loop cannot starve
//! the others (also with one worker). With one worker and a seed, a run is
//! deterministic: the queue is FIFO and select's random choice uses the
//! worker's seeded generator.
//!
//! Deadlock: `active` counts goroutines that are running or runnable. A
//! goroutine that parks or exits decrements it, one that wakes another
//! increments it first, so it reaches 0 only when every live goroutine is
//! parked and nobody can wake them. Then the run stops at once with a report
//! of every blocked goroutine. The main goroutine's end ends the run, as in Go.
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicIsize, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::Arc;

use parking_lot::{Condvar, Mutex};
use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::error::RuntimeError;
use crate::goroutine::{Frame, GInfo, Goroutine};
use crate::load::Runnable;

/// Ops a goroutine runs before it yields to others waiting.
pub(crate) const TIME_SLICE: u32 = 256;

pub(crate) struct Sched<'r> {
    pub(crate) prog: &'r Runnable,
    queue: Mutex<Queue>,
    wakeup: Condvar,
    queued: AtomicUsize,
    active: AtomicIsize,
    done: AtomicBool,
    error: Mutex<Option<RuntimeError>>,
    live: Mutex<HashMap<u64, Arc<GInfo>>>,
    next_id: AtomicU64,
}

struct Queue {
    runnable: VecDeque<Box<Goroutine>>,
    idle_workers: usize,
}

/// One worker thread's state.
pub(crate) struct Worker<'s, 'r> {
    pub(crate) sched: &'s Sched<'r>,
    pub(crate) next: Option<Box<Goroutine>>,
    pub(crate) rng: SmallRng,
}

impl<'r> Sched<'r> {
    pub(crate) fn new(prog: &'r Runnable) -> Self {
        Sched {
            prog,
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
        }
    }

    /// Runs the program from `main` (goroutine 0) on `workers` threads
    /// (the calling thread is one of them) until main ends or the run fails.
    pub(crate) fn run(&self, main: Frame, workers: usize, seed: u64) -> Result<(), RuntimeError> {
        self.spawn(main);
        let worker = |i: u64| Worker {
            sched: self,
            next: None,
            rng: SmallRng::seed_from_u64(seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        };
        std::thread::scope(|s| {
            for i in 1..workers {
                let w = worker(i as u64);
                s.spawn(move || w.run());
            }
            worker(0).run();
        });
        self.free_blocked();
        self.error.lock().take().map_or(Ok(()), Err)
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

    /// Starts a goroutine running `frame`.
    pub(crate) fn spawn(&self, frame: Frame) {
        let g = Goroutine::new(self.next_id.fetch_add(1, SeqCst), frame);
        self.live.lock().insert(g.id, g.info.clone());
        self.active.fetch_add(1, SeqCst);
        self.push(g);
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

    /// The next runnable goroutine; sleeps while there is none; `None` once
    /// the run is over.
    fn pop_or_wait(&self) -> Option<Box<Goroutine>> {
        let mut q = self.queue.lock();
        loop {
            if self.is_done() {
                return None;
            }
            if let Some(g) = q.runnable.pop_front() {
                self.queued.fetch_sub(1, SeqCst);
                return Some(g);
            }
            q.idle_workers += 1;
            self.wakeup.wait(&mut q);
            q.idle_workers -= 1;
        }
    }

    /// Counts a wake-up: `g` is runnable again.
    pub(crate) fn woken(&self, g: &Goroutine) {
        *g.info.blocked.lock() = None;
        self.active.fetch_add(1, SeqCst);
    }

    /// Counts a park; the last runnable goroutine parking is a deadlock.
    pub(crate) fn parked(&self) {
        if self.active.fetch_sub(1, SeqCst) == 1 {
            self.deadlock();
        }
    }

    /// A goroutine ran off the end of its first frame.
    pub(crate) fn exited(&self, g: &Goroutine) {
        self.live.lock().remove(&g.id);
        if g.id == 0 {
            self.finish(None);
        } else if self.active.fetch_sub(1, SeqCst) == 1 {
            self.deadlock();
        }
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
            match &*info.blocked.lock() {
                Some(b) => {
                    let op = &self.prog.blocks[b.block].ops[b.op].info;
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
        let blocked: Vec<Box<Goroutine>> = live
            .values()
            .filter_map(|info| info.blocked.lock().take())
            .filter_map(|b| b.waiter.take_parked())
            .collect();
        drop(blocked);
        self.queue.lock().runnable.clear();
    }
}

impl Worker<'_, '_> {
    fn run(mut self) {
        loop {
            let g = match self.next.take() {
                Some(g) => g,
                None => match self.sched.pop_or_wait() {
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

    /// Makes `g` runnable: it runs next on this worker, and the goroutine
    /// that was to run next moves to the shared queue.
    pub(crate) fn wake(&mut self, g: Box<Goroutine>) {
        self.sched.woken(&g);
        if let Some(old) = self.next.replace(g) {
            self.sched.push(old);
        }
    }
}
