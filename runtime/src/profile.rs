//! `fluidc run --profile`: time spent per op type, as Paddle's profiler or
//! `tract --profile` report it.
//!
//! Each worker times the kernels it runs into its own table, indexed by
//! block and op (no lock per op); a run adds the workers' tables up by op
//! type into the session's [`Profile`], which siblings share, so a script's
//! scopes and a training run's steps all land in one table. A control op
//! (`while`, `conditional_block`, channel ops) counts its own dispatch, not
//! the ops of the block it runs, which count under their own types.
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;

use crate::load::Runnable;

/// One op type's line: how often its ops ran and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpProfile {
    pub op: String,
    pub calls: u64,
    pub total: Duration,
}

/// Calls and nanoseconds per (block, op index) of one program.
pub(crate) type OpTimes = Vec<Vec<(u64, u64)>>;

pub(crate) fn empty_times(prog: &Runnable) -> OpTimes {
    prog.blocks
        .iter()
        .map(|b| vec![(0, 0); b.ops.len()])
        .collect()
}

pub(crate) fn add_times(into: &mut OpTimes, from: &OpTimes) {
    for (a, b) in into.iter_mut().zip(from) {
        for (x, y) in a.iter_mut().zip(b) {
            x.0 += y.0;
            x.1 += y.1;
        }
    }
}

/// The per-type totals of every profiled run of a session.
#[derive(Debug, Clone, Default)]
pub(crate) struct Profile(Arc<Mutex<HashMap<String, (u64, u64)>>>);

impl Profile {
    /// Adds one run's times, by the op types of `prog`.
    pub(crate) fn add(&self, prog: &Runnable, times: &OpTimes) {
        let mut table = self.0.lock();
        for (block, ops) in prog.blocks.iter().zip(times) {
            for (op, &(calls, nanos)) in block.ops.iter().zip(ops) {
                if calls > 0 {
                    let e = table.entry(op.info.ty.clone()).or_default();
                    e.0 += calls;
                    e.1 += nanos;
                }
            }
        }
    }

    pub(crate) fn clear(&self) {
        self.0.lock().clear();
    }

    /// The table, the op type that took longest first.
    pub(crate) fn report(&self) -> Vec<OpProfile> {
        let mut rows: Vec<OpProfile> = self
            .0
            .lock()
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
