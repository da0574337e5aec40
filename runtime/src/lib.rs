//! fluidc's embedded runtime: runs a verified program (docs/programs.md,
//! "The runtime").
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
//! # Layers
//! Two layers, and the lower never imports the upper, so a kernel can be
//! read, changed and tested without the machinery that runs it:
//! - the kernel layer: `tensor`, `error`, `value` (what a variable holds),
//!   `scope` (where it lives; goroutine frames), `layout`, `exec` (what a
//!   built op is), `kernel` (what a kernel builder reads of its op, and the
//!   registry it adds to), the kernels in `ops`, `random`, `channel`,
//!   `collective`, `feed`, `host` (the front end's callbacks, `py_func`);
//! - the driver layer: `load` (the program loader), `fuse`, `goroutine`,
//!   `interp`, `scheduler`, `steps`, `session`, `profile`, `constant` and
//!   this root.
//!
//! A type of the kernel layer that must hold one of the driver's holds it
//! opaquely (a channel parks a `value::ParkedGoroutine`). No modules import
//! each other in a cycle either; `runtime/tests/layers.rs` checks both.
//!
//! # Entry points
//! [`run`] runs block 0 of a program with feeds and returns the fetches;
//! [`parse_feed`] reads a `--feed` value. Errors are [`RuntimeError`]s whose
//! text names the op (type, block, index) and its source line.
mod channel;
mod collective;
mod constant;
mod error;
mod exec;
mod feed;
mod fuse;
mod goroutine;
mod host;
mod interp;
mod kernel;
mod layout;
mod load;
mod ops;
mod profile;
pub mod random;
mod recurrent;
mod scheduler;
mod scope;
mod session;
mod steps;
pub mod tensor;
mod value;

use fluidc_transpiler::Verified;

pub use collective::{Group, Member};
pub use constant::KernelEvaluator;
pub use error::{AllocError, KernelError, RuntimeError};
pub use feed::{parse_feed, shard, Batches};
pub use host::Host;
pub use profile::{format_table, OpEvent, OpProfile};
pub use session::{Prepared, Session, SessionOptions};
pub use tensor::{Data, Tensor};

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
    /// The most bytes one tensor may take; default:
    /// [`tensor::alloc::default_max_memory`].
    pub max_memory: Option<u64>,
}

/// The gradients whose optimizer update a session fuses into the op that
/// computes them, so it never writes them (unless
/// [`SessionOptions::no_fuse`]; see `fuse` for when a pair is fused). A
/// run that fetches one of them runs the program unfused.
pub fn fused_gradients(program: &Verified) -> Vec<String> {
    fuse::pairs(program).into_iter().map(|p| p.grad).collect()
}

/// Runs block 0 of `program` once, in a fresh session, and returns the
/// fetch targets: the program's own `fetch` ops in `col` order, then
/// `options.fetch`, each with its name.
pub fn run(program: &Verified, options: RunOptions) -> Result<Vec<(String, Tensor)>, RuntimeError> {
    let mut session = Session::new(SessionOptions {
        seed: options.seed,
        workers: options.workers,
        max_memory: options.max_memory,
        ..SessionOptions::default()
    });
    session.run_once(program, options.feeds, options.fetch)
}
