//! `fluidc run --profile` and `fluid.profiler`: time spent per op type, as
//! Paddle's profiler or `tract --profile` report it, and each op call's
//! start and end (the timeline 1.x's profiler printed its report from).
//!
//! Each worker times the kernels it runs into its own [`OpTimes`], indexed
//! by block and op (no lock per op); a run adds the workers' tables up by op
//! type into the session's [`Profile`], which siblings share, so a script's
//! scopes and a training run's steps all land in one table. A control op
//! (`while`, `conditional_block`, channel ops) counts its own dispatch, not
//! the ops of the block it runs, which count under their own types. The
//! timeline is kept only while it is switched on ([`Profile::set_timeline`]):
//! a long `--profile` run keeps its totals, not one event per call.
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use parking_lot::Mutex;

use crate::load::Runnable;

/// One op type's line: how often its ops ran and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpProfile {
    pub op: String,
    pub calls: u64,
    pub total: Duration,
}

/// One op call of the timeline: its type, and when it started and ended,
/// in nanoseconds since the Unix epoch (the clock Python's `time.time()`
/// reads, so a script can bracket the calls).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpEvent {
    pub op: String,
    pub start_ns: u64,
    pub end_ns: u64,
}

/// One worker's or one run's op times.
#[derive(Debug, Default)]
pub(crate) struct OpTimes {
    /// Calls and nanoseconds per (block, op index).
    per_op: Vec<Vec<(u64, u64)>>,
    /// Each call as (block, op, start, end), when the timeline is on.
    events: Option<Vec<(usize, usize, Instant, Instant)>>,
}

impl OpTimes {
    pub(crate) fn new(prog: &Runnable, timeline: bool) -> OpTimes {
        OpTimes {
            per_op: prog
                .blocks
                .iter()
                .map(|b| vec![(0, 0); b.ops.len()])
                .collect(),
            events: timeline.then(Vec::new),
        }
    }

    /// One call of op `at` (block, index), from `start` until now.
    pub(crate) fn record(&mut self, (block, op): (usize, usize), start: Instant) {
        let end = Instant::now();
        let e = &mut self.per_op[block][op];
        e.0 += 1;
        e.1 += u64::try_from(end.duration_since(start).as_nanos()).unwrap_or(u64::MAX);
        if let Some(events) = &mut self.events {
            events.push((block, op, start, end));
        }
    }

    /// Adds `other` (another worker's times of the same program) in.
    pub(crate) fn add(&mut self, other: OpTimes) {
        for (a, b) in self.per_op.iter_mut().zip(other.per_op) {
            for (x, y) in a.iter_mut().zip(b) {
                x.0 += y.0;
                x.1 += y.1;
            }
        }
        if let (Some(mine), Some(theirs)) = (&mut self.events, other.events) {
            mine.extend(theirs);
        }
    }
}

/// An `Instant` as nanoseconds since the Unix epoch, through one pair of
/// readings of both clocks taken at the first call.
fn epoch_ns(at: Instant) -> u64 {
    static ANCHOR: OnceLock<(Instant, Duration)> = OnceLock::new();
    let (instant, since_epoch) = *ANCHOR.get_or_init(|| {
        let now = Instant::now();
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        (now, wall)
    });
    let t = match at.checked_duration_since(instant) {
        Some(after) => since_epoch + after,
        None => since_epoch.saturating_sub(instant - at),
    };
    u64::try_from(t.as_nanos()).unwrap_or(u64::MAX)
}

#[derive(Debug, Default)]
struct Tables {
    /// Calls and nanoseconds per op type.
    by_type: HashMap<String, (u64, u64)>,
    /// The calls in the order they ended, while the timeline is on.
    timeline: Option<Vec<OpEvent>>,
}

/// The per-type totals of every profiled run of a session, and the
/// timeline while it is on.
#[derive(Debug, Clone, Default)]
pub(crate) struct Profile(Arc<Mutex<Tables>>);

impl Profile {
    /// Adds one run's times, by the op types of `prog`.
    pub(crate) fn add(&self, prog: &Runnable, times: OpTimes) {
        let mut tables = self.0.lock();
        for (block, ops) in prog.blocks.iter().zip(&times.per_op) {
            for (op, &(calls, nanos)) in block.ops.iter().zip(ops) {
                if calls > 0 {
                    let e = tables.by_type.entry(op.info.ty.clone()).or_default();
                    e.0 += calls;
                    e.1 += nanos;
                }
            }
        }
        if let (Some(timeline), Some(mut events)) = (&mut tables.timeline, times.events) {
            events.sort_by_key(|e| e.3);
            timeline.extend(events.into_iter().map(|(b, o, start, end)| OpEvent {
                op: prog.blocks[b].ops[o].info.ty.clone(),
                start_ns: epoch_ns(start),
                end_ns: epoch_ns(end),
            }));
        }
    }

    pub(crate) fn clear(&self) {
        self.0.lock().by_type.clear();
    }

    /// Starts (with no events) or stops keeping the timeline.
    pub(crate) fn set_timeline(&self, on: bool) {
        let mut tables = self.0.lock();
        match (on, tables.timeline.is_some()) {
            (true, false) => tables.timeline = Some(Vec::new()),
            (false, _) => tables.timeline = None,
            (true, true) => {}
        }
    }

    pub(crate) fn timeline_on(&self) -> bool {
        self.0.lock().timeline.is_some()
    }

    /// The timeline so far (empty when it is off).
    pub(crate) fn timeline(&self) -> Vec<OpEvent> {
        self.0.lock().timeline.clone().unwrap_or_default()
    }

    /// Forgets the timeline's events, keeping it on if it was.
    pub(crate) fn clear_timeline(&self) {
        if let Some(t) = &mut self.0.lock().timeline {
            t.clear();
        }
    }

    /// The table, the op type that took longest first.
    pub(crate) fn report(&self) -> Vec<OpProfile> {
        let mut rows: Vec<OpProfile> = self
            .0
            .lock()
            .by_type
            .iter()
            .map(|(op, &(calls, nanos))| OpProfile {
                op: op.clone(),
                calls,
                total: Duration::from_nanos(nanos),
            })
            .collect();
        rows.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.op.cmp(&b.op)));
        rows
    }
}

/// The table as text: calls, total and mean time and share per op type,
/// and the total.
pub fn format_table(rows: &[OpProfile]) -> String {
    let total: Duration = rows.iter().map(|r| r.total).sum();
    let width = rows.iter().map(|r| r.op.len()).max().unwrap_or(0).max(7);
    let mut out = format!(
        "{:<width$} {:>10} {:>12} {:>12} {:>7}\n",
        "op", "calls", "total ms", "mean µs", "share"
    );
    for r in rows {
        let ms = r.total.as_secs_f64() * 1e3;
        let mean = r.total.as_secs_f64() * 1e6 / r.calls.max(1) as f64;
        let share = if total.is_zero() {
            0.0
        } else {
            r.total.as_secs_f64() / total.as_secs_f64() * 100.0
        };
        out += &format!(
            "{:<width$} {:>10} {:>12.3} {:>12.3} {:>6.1}%\n",
            r.op, r.calls, ms, mean, share
        );
    }
    let calls: u64 = rows.iter().map(|r| r.calls).sum();
    out += &format!(
        "{:<width$} {:>10} {:>12.3}\n",
        "total",
        calls,
        total.as_secs_f64() * 1e3
    );
    out
}
