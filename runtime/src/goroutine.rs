//! A goroutine is data, not a thread: a stack of interpreter frames.
//!
//! Each frame is one run of one block: the block, the index of the next op,
//! the scope. `while`, `conditional_block`, `select` and `go` push a frame (or
//! start a goroutine with one) instead of recursing on the Rust stack, so
//! program nesting never grows the Rust stack and a goroutine blocked on a
//! channel is just this struct parked in the channel's waiter; tens of
//! thousands cost only their frames.
use std::sync::Arc;

use parking_lot::Mutex;
use smallvec::SmallVec;

use crate::channel::Waiter;
use crate::scope::{Scope, VarRef};
use crate::tensor::Tensor;
use crate::value::TypedChannel;

/// The waiter a goroutine parks in.
pub(crate) type GWaiter = Waiter<Tensor, Box<Goroutine>>;

#[derive(Debug)]
pub(crate) struct Goroutine {
    pub(crate) id: u64,
    pub(crate) info: Arc<GInfo>,
    pub(crate) frames: Vec<Frame>,
    /// Set while the goroutine waits in a channel operation; the op, run
    /// again after the wake-up, finishes with the waiter's completion.
    pub(crate) parked: Option<Parked>,
}

/// A blocked channel operation: its waiter and the channels it is
/// registered on (to unregister a select's other cases afterwards).
#[derive(Debug)]
pub(crate) struct Parked {
    pub(crate) waiter: Arc<GWaiter>,
    pub(crate) channels: SmallVec<[Arc<TypedChannel>; 2]>,
}

/// One run of one block.
#[derive(Debug)]
pub(crate) struct Frame {
    pub(crate) block: usize,
    pub(crate) pc: usize,
    pub(crate) scope: Arc<Scope>,
    pub(crate) kind: FrameKind,
}

#[derive(Debug)]
pub(crate) enum FrameKind {
    /// Runs its block once (a goroutine's body, a conditional block, a
    /// select's cases block, block 0).
    Once,
    /// A `while` body: at its end the condition (seen from the body's scope)
    /// is read again, and a true one restarts the body in a fresh scope.
    While { cond: VarRef, op: (usize, usize) },
}

/// What the scheduler keeps of every live goroutine, for the deadlock report
/// and to free blocked goroutines when the program ends.
#[derive(Debug)]
pub(crate) struct GInfo {
    pub(crate) id: u64,
    pub(crate) blocked: Mutex<Option<Blocked>>,
}

/// Where a goroutine waits: the op (block, index) and its waiter.
#[derive(Debug)]
pub(crate) struct Blocked {
    pub(crate) block: usize,
    pub(crate) op: usize,
    pub(crate) waiter: Arc<GWaiter>,
}

impl Goroutine {
    pub(crate) fn new(id: u64, frame: Frame) -> Box<Goroutine> {
        Box::new(Goroutine {
            id,
            info: Arc::new(GInfo {
                id,
                blocked: Mutex::new(None),
            }),
            frames: vec![frame],
            parked: None,
        })
    }
}
