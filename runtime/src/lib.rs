//! fluidc's embedded runtime: runs a verified program (SPEC §6).
//!
//! # Shape
//! - `load`: the program resolved once into a `Runnable` (immutable,
//!   shared): each op bound to its kernel from the registry in `ops`, each
//!   variable name to a place: a slot in the running goroutine's locals, or
//!   in a scope shared with goroutines. Unknown ops are reported here,
//!   before anything runs.
//! - `scope`: where variables live. Those only their own goroutine can name
//!   are frame locals, read and written with no lock; those a `go` body
//!   names live in scopes shared by reference, one per run of a block that
//!   owns one.
//! - `goroutine`, `interp`, `scheduler`: a goroutine is a stack of
//!   interpreter frames, not a thread; a few workers run many goroutines;
//!   blocked ones park in channels; a deadlock is detected as soon as nothing
//!   can run.
//! - `channel`: Go channels and select over one waiter mechanism.
//! - [`tensor`]: dense tensors with Paddle's dtypes and broadcast rule;
//!   one-element tensors (the scalars loops run on) have an inline element
//!   and kernels take a fast path for them.
//!
//! # Entry points
//! [`run`] runs block 0 of a program with feeds and returns the fetches;
//! [`parse_feed`] reads a `--feed` value. Errors are [`RuntimeError`]s whose
//! text names the op (type, block, index) and its source line.
mod channel;
mod constant;
mod error;
mod feed;
mod goroutine;
mod interp;
mod load;
mod ops;
mod scheduler;
mod scope;
pub mod tensor;
mod value;

use std::collections::HashMap;

use fluidc_transpiler::Verified;

pub use constant::KernelEvaluator;
pub use error::RuntimeError;
pub use feed::parse_feed;
pub use tensor::{Data, Tensor};

use goroutine::{Frame, FrameKind};
use load::Runnable;
use scheduler::Sched;
use scope::{Scope, TensorRef, Vars};
use value::Value;

/// How to run a program.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Values for variables of block 0: read by the program's `feed` ops, or
    /// set in the root scope before the run for names no feed op reads
    /// (parameters are fed this way).
    pub feeds: Vec<(String, Tensor)>,
    /// Variables of block 0 to return after the program's own fetch targets.
    pub fetch: Vec<String>,
    /// Seeds select's random choice; runs with one worker and the same seed
    /// are identical.
    pub seed: Option<u64>,
    /// Worker threads; default: the number of cores.
    pub workers: Option<usize>,
}

/// Runs block 0 of `program` and returns the fetch targets: the program's own
/// `fetch` ops in `col` order, then `options.fetch`, each with its name.
pub fn run(program: &Verified, options: RunOptions) -> Result<Vec<(String, Tensor)>, RuntimeError> {
    let prog = Runnable::load(program)?;
    // Block 0's variables: the shared ones in the root scope, the others in
    // main's locals (see `scope`).
    let root = Scope::root(prog.blocks[0].shared);
    let root_frame = || Frame {
        block: 0,
        pc: 0,
        base: 0,
        scope: Some(root.clone()),
        scope_frame: 0,
        kind: FrameKind::Once,
    };
    let mut locals = vec![Value::Empty; prog.blocks[0].locals];
    let frames = [root_frame()];
    feed(
        &prog,
        &mut Vars::new(&frames, &mut locals, 0),
        options.feeds,
    )?;

    // A program that starts no goroutine runs on the calling thread alone.
    let workers = match options.workers {
        _ if !prog.starts_goroutines => 1,
        Some(n) => n.max(1),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let seed = options.seed.unwrap_or_else(rand::random);
    let mut locals = Sched::new(&prog).run(root_frame(), locals, workers, seed)?;
    let mut root = Vars::new(&frames, &mut locals, 0);

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
        out.push((name.clone(), t));
    }
    for name in options.fetch {
        let r = prog.root_var(&name).ok_or_else(|| {
            RuntimeError::new(format!(
                "cannot fetch `{name}`: it is not a variable of block 0 (nor a persistable one)"
            ))
        })?;
        let t = root
            .tensor(&r)
            .map(TensorRef::into_owned)
            .map_err(|e| RuntimeError::new(format!("cannot fetch `{name}`: {e}")))?;
        out.push((name, t));
    }
    Ok(out)
}

/// Puts feeds where the program reads them: the `feed` holder's columns for
/// names a `feed` op reads, the root scope for the others.
fn feed(
    prog: &Runnable,
    root: &mut Vars,
    feeds: Vec<(String, Tensor)>,
) -> Result<(), RuntimeError> {
    let by_feed_op: HashMap<&str, (usize, &scope::VarRef)> = prog
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
