//! A goroutine is data, not a thread: a stack of interpreter frames.
//!
//! Each frame ([`Frame`], defined with the variables it holds in
//! `crate::scope`) is one run of one block: the block, the index of the
//! next op, its window of the goroutine's locals, the scope of its shared
//! variables. `while`, `conditional_block`, `select` and `go` push
//! a frame (or start a goroutine with one) instead of recursing on the Rust
//! stack, so program nesting never grows the Rust stack and a goroutine
//! blocked on a channel is just this struct parked in the channel's waiter;
//! tens of thousands cost only their frames and locals.
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use smallvec::SmallVec;

use crate::channel::Waiter;
use crate::load::LoadedBlock;
use crate::scope::{ChannelCache, Frame, FrameKind, Scope};
use crate::value::{ParkedGoroutine, TypedChannel, Value};

/// The waiter a goroutine parks in.
pub(crate) type GWaiter = Waiter<Value, ParkedGoroutine>;

#[derive(Debug)]
pub(crate) struct Goroutine {
    pub(crate) id: u64,
    pub(crate) info: Arc<GInfo>,
    /// The frame stack: `frames[..depth]`, innermost last. Frames above
    /// `depth` are spares, rewritten field by field by the next push (a
    /// frame built elsewhere and moved in whole would stall on store
    /// forwarding, and pushes are frequent: every conditional block and
    /// select runs one).
    pub(crate) frames: Vec<Frame>,
    pub(crate) depth: usize,
    /// The local variables of every frame, one window per frame, innermost
    /// last (see `crate::scope`): `locals[..used]`. Slots above `used` are
    /// empty spares, so the vector's length changes only when it grows:
    /// every push and pop of a frame writing the length that the next op
    /// reads back with the pointer would stall on store forwarding.
    pub(crate) locals: Vec<Value>,
    pub(crate) used: usize,
    /// Set while the goroutine waits in a channel operation; the op, run
    /// again after the wake-up, finishes with the waiter's completion.
    pub(crate) parked: Option<Parked>,
    /// The channels its channel operations read lately.
    pub(crate) channels: ChannelCache,
}

/// A blocked channel operation: the channels its waiter is registered on
/// (to unregister a select's other cases afterwards, and for a receive's
/// zero value).
#[derive(Debug)]
pub(crate) struct Parked {
    pub(crate) channels: SmallVec<[Arc<TypedChannel>; 2]>,
}

/// What the scheduler keeps of every live goroutine, for the deadlock report
/// and to free blocked goroutines when the program ends.
#[derive(Debug)]
pub(crate) struct GInfo {
    pub(crate) id: u64,
    /// The goroutine's waiter, reused by all its blocking operations (see
    /// `crate::channel::waiter`): a parked goroutine is found in it.
    pub(crate) waiter: Arc<GWaiter>,
    /// Where the goroutine last parked (block and op, see [`GInfo::park_at`]),
    /// or [`GInfo::NEVER`]. Set on every park and not cleared on wake-up:
    /// it is read only when every live goroutine is parked, so each has
    /// just set it.
    at: AtomicU64,
}

impl GInfo {
    const NEVER: u64 = u64::MAX;

    /// Records that the goroutine parks in op `op` of block `block`.
    pub(crate) fn park_at(&self, block: usize, op: usize) {
        self.at
            .store(((block as u64) << 32) | op as u64, Ordering::Release);
    }

    /// Where the goroutine last parked: (block, op).
    pub(crate) fn parked_at(&self) -> Option<(usize, usize)> {
        match self.at.load(Ordering::Acquire) {
            GInfo::NEVER => None,
            at => Some(((at >> 32) as usize, (at & 0xffff_ffff) as usize)),
        }
    }
}

/// The first frame of a goroutine running `block` (of the loaded program,
/// number `index`) started from a frame whose scope is `spawner`, with its
/// locals.
pub(crate) fn first_frame(
    block: &LoadedBlock,
    index: usize,
    spawner: &Arc<Scope>,
) -> (Frame, Vec<Value>) {
    let scope = if block.has_scope {
        Scope::child(spawner, block.shared)
    } else {
        spawner.clone()
    };
    let frame = Frame {
        block: index,
        pc: 0,
        base: 0,
        scope: Some(scope),
        scope_frame: 0,
        kind: FrameKind::Once,
    };
    (frame, vec![Value::Empty; block.locals])
}

impl Goroutine {
    /// The goroutine as a channel's waiter holds it while it is parked.
    pub(crate) fn parked(self: Box<Goroutine>) -> ParkedGoroutine {
        ParkedGoroutine::new(self)
    }

    /// The goroutine a channel woke (or a waiter gave back).
    pub(crate) fn woken(p: ParkedGoroutine) -> Box<Goroutine> {
        p.take()
            .expect("only goroutines park in the runtime's channels (Goroutine::parked)")
    }

    /// The scope the innermost frame uses.
    pub(crate) fn scope(&self) -> &Arc<Scope> {
        let top = &self.frames[self.depth - 1];
        self.frames[top.scope_frame]
            .scope
            .as_ref()
            .expect("a frame's scope_frame has a scope")
    }

    /// Pops the innermost frame and its variables.
    pub(crate) fn pop(&mut self) {
        let top = self.depth - 1;
        let frame = &mut self.frames[top];
        let base = frame.base;
        frame.scope = None;
        self.depth = top;
        for v in &mut self.locals[base..self.used] {
            std::mem::take(v).discard();
        }
        self.used = base;
    }

    /// Runs the innermost frame's block again from its first op with fresh
    /// variables (the next run of a loop body or of a recurrent step).
    pub(crate) fn restart_top(&mut self) {
        let frame = &mut self.frames[self.depth - 1];
        for v in &mut self.locals[frame.base..self.used] {
            std::mem::take(v).discard();
        }
        if let Some(scope) = &mut frame.scope {
            Scope::renew(scope);
        }
        frame.pc = 0;
    }

    /// Pushes a frame running `block` (number `index`, a child of the
    /// innermost frame's block) with fresh variables.
    pub(crate) fn push(&mut self, block: &LoadedBlock, index: usize, kind: FrameKind) {
        let base = self.used;
        self.used += block.locals;
        if self.locals.len() < self.used {
            // Each slot written in place (pushing one by one builds each
            // `Empty` on the stack and copies it out, which stalls on store
            // forwarding).
            let more = self.used - self.locals.len();
            self.locals
                .extend(std::iter::repeat_with(|| Value::Empty).take(more));
        }
        let depth = self.depth;
        let (scope, scope_frame) = if block.has_scope {
            (Some(Scope::child(self.scope(), block.shared)), depth)
        } else {
            (None, self.frames[depth - 1].scope_frame)
        };
        if depth == self.frames.len() {
            self.frames.push(Frame {
                block: index,
                pc: 0,
                base,
                scope,
                scope_frame,
                kind,
            });
        } else {
            let f = &mut self.frames[depth];
            f.block = index;
            f.pc = 0;
            f.base = base;
            f.scope = scope;
            f.scope_frame = scope_frame;
            f.kind = kind;
        }
        self.depth = depth + 1;
    }

    pub(crate) fn new(id: u64, frame: Frame, locals: Vec<Value>) -> Box<Goroutine> {
        Box::new(Goroutine {
            id,
            info: Arc::new(GInfo {
                id,
                waiter: Arc::new(GWaiter::default()),
                at: AtomicU64::new(GInfo::NEVER),
            }),
            frames: vec![frame],
            depth: 1,
            used: locals.len(),
            locals,
            parked: None,
            channels: ChannelCache::default(),
        })
    }
}
