//! Where variables live while a program runs: a goroutine's own locals, and
//! scopes shared between goroutines.
//!
//! Every block is only ever run by an op of its parent block (`while`,
//! `conditional_block`, `select`, `go`), so the chain of block runs at run
//! time mirrors the chain of blocks, and the loader resolves every variable
//! name once to a [`VarRef`]. Persistable variables are owned by block 0.
//!
//! The loader also sorts each variable into one of two places:
//! - **Local**: no op in a goroutine other than the one running the owning
//!   block can name it (no `go` body lies between the block that owns it and
//!   any block that uses it). It lives in the running goroutine's `locals`, a
//!   stack with one window per frame, and is read and written with no lock and
//!   no reference count: most variables of most programs, and every one of a
//!   program without `go`.
//! - **Shared**: a goroutine started by `go` names it, so it must outlive the
//!   frame and be safe to touch from several workers. It lives in a [`Scope`]
//!   (`Arc`, a lock per slot) that the goroutine holds by reference: a scope
//!   lives as long as any frame of any goroutine uses it. A program that races
//!   on such a variable gets one of the values, never a torn one.
//!
//! Only blocks that own a shared variable (and block 0) make a scope; the
//! others use their parent's, so a loop body without one allocates nothing
//! per iteration.
//!
//! Channel variables are usually shared (a goroutine and its starter talk
//! through them) and read by every channel operation, so their reads skip
//! the lock: a shared slot also publishes the address of the channel it
//! holds, and a goroutine keeps the channels it used in a [`ChannelCache`].
//! A read that finds the published address in the cache uses the cached
//! channel: no lock and no reference count, where a locked read costs four
//! atomic instructions, most of a channel handoff. The address cannot be
//! another channel's: the cache's reference keeps that memory from reuse.
use std::ops::Deref;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use parking_lot::{Mutex, MutexGuard};
use smallvec::SmallVec;

use crate::error::KernelError;
use crate::tensor::{Scalar, Tensor};
use crate::value::{StepScope, TypedChannel, Value};

/// A variable resolved at load time. See the module docs.
#[derive(Debug, Clone)]
pub(crate) struct VarRef {
    pub(crate) place: Place,
    pub(crate) name: Arc<str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// In the locals of the frame `up` frames below the current one, at `slot`
    /// of its window.
    Local { up: u32, slot: u32 },
    /// In the scope `up` scopes above the current frame's scope, at `slot`.
    Shared { up: u32, slot: u32 },
}

/// The shared variables of one run of one block. See the module docs.
#[derive(Debug)]
pub(crate) struct Scope {
    parent: Option<Arc<Scope>>,
    slots: Box<[Slot]>,
}

/// One shared variable: its value under a lock, and the address of the
/// channel it holds (0 if none), written with the value under the lock and
/// read without it (see the module docs).
#[derive(Debug, Default)]
struct Slot {
    value: Mutex<Value>,
    channel: AtomicUsize,
}

fn channel_address(v: &Value) -> usize {
    match v {
        Value::Channel(c) => Arc::as_ptr(c) as usize,
        _ => 0,
    }
}

impl Slot {
    fn read(&self) -> MutexGuard<'_, Value> {
        self.value.lock()
    }

    /// Runs `f` on the value under the lock; every write goes through here.
    fn write<R>(&self, f: impl FnOnce(&mut Value) -> R) -> R {
        let mut v = self.value.lock();
        let r = f(&mut v);
        self.channel.store(channel_address(&v), Ordering::Release);
        r
    }
}

impl Scope {
    pub(crate) fn root(slots: usize) -> Arc<Scope> {
        Arc::new(Scope {
            parent: None,
            slots: (0..slots).map(|_| Slot::default()).collect(),
        })
    }

    pub(crate) fn child(parent: &Arc<Scope>, slots: usize) -> Arc<Scope> {
        Arc::new(Scope {
            parent: Some(parent.clone()),
            slots: (0..slots).map(|_| Slot::default()).collect(),
        })
    }

    /// A fresh scope like `scope` (same parent, every slot empty) for the
    /// next iteration of a loop body. Reuses `scope` in place when nothing
    /// else holds it, which is the case unless a goroutine started in the
    /// iteration captured it.
    pub(crate) fn renew(scope: &mut Arc<Scope>) {
        if let Some(s) = Arc::get_mut(scope) {
            for slot in s.slots.iter_mut() {
                *slot.value.get_mut() = Value::Empty;
                *slot.channel.get_mut() = 0;
            }
            return;
        }
        let parent = scope
            .parent
            .as_ref()
            .expect("a loop body's scope has a parent");
        *scope = Scope::child(parent, scope.slots.len());
    }

    fn cell(&self, up: u32, slot: u32) -> &Slot {
        let mut scope = self;
        for _ in 0..up {
            scope = scope
                .parent
                .as_deref()
                .expect("the loader resolves variables only to enclosing scopes");
        }
        &scope.slots[slot as usize]
    }
}

/// One run of one block: a goroutine's frame stack (`crate::goroutine`) is
/// a list of these, and [`Vars`] finds a frame's variables through them, so
/// frames live here with the variables rather than with the goroutine.
#[derive(Debug)]
pub(crate) struct Frame {
    pub(crate) block: usize,
    pub(crate) pc: usize,
    /// Where this frame's window starts in the goroutine's locals.
    pub(crate) base: usize,
    /// The frame's scope: its own if its block owns shared variables, the
    /// spawning frame's for a goroutine's first frame that has none, else
    /// `None` (the frame uses the one at `scope_frame`).
    pub(crate) scope: Option<Arc<Scope>>,
    /// The frame (this one or an enclosing one) whose scope this frame uses.
    pub(crate) scope_frame: usize,
    pub(crate) kind: FrameKind,
}

#[derive(Debug)]
pub(crate) enum FrameKind {
    /// Runs its block once (a goroutine's body, a conditional block, a
    /// select's cases block, block 0).
    Once,
    /// A `while` body: at its end the condition is read again (by the
    /// `while` op at `op`, in the enclosing frame), and a true one restarts
    /// the body with fresh variables.
    While { op: (usize, usize) },
    /// A step of a `recurrent` op's block (the op at `op`): at its end the
    /// step's outputs and states are taken, and the next of `steps` starts
    /// with fresh variables.
    Recurrent {
        op: (usize, usize),
        step: usize,
        steps: usize,
    },
    /// A conditional block whose run is kept for its grad (by the op at
    /// `op`): at its end its variables go to the op's `Scope`.
    Branch { op: (usize, usize) },
    /// A grad block run by the grad op at `op`, on top of a frame holding
    /// a restored run of its forward block: `steps` are the runs still to
    /// go (a loop's, last first), `first` whether this is the first.
    Grad {
        op: (usize, usize),
        steps: Vec<StepScope>,
        first: bool,
    },
}

/// The variables one frame of a goroutine sees: its own and its enclosing
/// frames' locals, and the scopes above. What kernels read and write.
#[derive(Debug)]
pub(crate) struct Vars<'a> {
    frames: &'a [Frame],
    locals: &'a mut [Value],
    /// The frame whose view this is (an index into `frames`).
    top: usize,
}

/// A tensor read from a variable: borrowed from a local, or a copy (a
/// reference-count increment, or one element) taken under a shared slot's
/// lock.
#[derive(Debug)]
pub(crate) enum TensorRef<'a> {
    Borrowed(&'a Tensor),
    Owned(Tensor),
}

impl Deref for TensorRef<'_> {
    type Target = Tensor;

    #[inline]
    fn deref(&self) -> &Tensor {
        match self {
            TensorRef::Borrowed(t) => t,
            TensorRef::Owned(t) => t,
        }
    }
}

impl TensorRef<'_> {
    pub(crate) fn into_owned(self) -> Tensor {
        match self {
            TensorRef::Borrowed(t) => t.clone(),
            TensorRef::Owned(t) => t,
        }
    }
}

#[inline(always)]
fn scalar_of(v: &Value) -> Option<(Scalar, usize)> {
    match v {
        Value::Scalar(s, rank) => Some((*s, usize::from(*rank))),
        Value::Tensor(t) => tensor_scalar(t),
        _ => None,
    }
}

#[inline(never)]
fn tensor_scalar(t: &Tensor) -> Option<(Scalar, usize)> {
    t.as_scalar()
}

fn not_a_tensor(r: &VarRef, v: &Value) -> KernelError {
    KernelError::MissingInput(format!(
        "`{}` must hold a tensor but holds {}",
        r.name,
        v.describe()
    ))
}

impl<'a> Vars<'a> {
    /// The view of frame `top`.
    pub(crate) fn new(frames: &'a [Frame], locals: &'a mut [Value], top: usize) -> Self {
        Vars {
            frames,
            locals,
            top,
        }
    }

    /// The scope shared variables are found from (the current frame's own,
    /// or the nearest enclosing one); also the parent of child scopes.
    #[inline]
    pub(crate) fn scope(&self) -> &'a Arc<Scope> {
        let at = self.frames[self.top].scope_frame;
        self.frames[at]
            .scope
            .as_ref()
            .expect("a frame's scope_frame has a scope")
    }

    #[inline(always)]
    fn local_index(&self, up: u32, slot: u32) -> usize {
        self.frames[self.top - up as usize].base + slot as usize
    }

    #[inline]
    fn shared(&self, up: u32, slot: u32) -> &'a Slot {
        self.scope().cell(up, slot)
    }

    #[inline]
    pub(crate) fn get(&self, r: &VarRef) -> Value {
        match r.place {
            Place::Local { up, slot } => self.locals[self.local_index(up, slot)].clone(),
            Place::Shared { up, slot } => self.shared(up, slot).read().clone(),
        }
    }

    #[inline]
    pub(crate) fn set(&mut self, r: &VarRef, value: Value) {
        match r.place {
            Place::Local { up, slot } => {
                let i = self.local_index(up, slot);
                std::mem::replace(&mut self.locals[i], value).discard();
            }
            Place::Shared { up, slot } => self.set_shared(up, slot, value),
        }
    }

    /// Runs `f` on the variable (under its lock if shared).
    pub(crate) fn with<R>(&mut self, r: &VarRef, f: impl FnOnce(&mut Value) -> R) -> R {
        match r.place {
            Place::Local { up, slot } => {
                let i = self.local_index(up, slot);
                f(&mut self.locals[i])
            }
            Place::Shared { up, slot } => self.shared(up, slot).write(f),
        }
    }

    pub(crate) fn tensor(&self, r: &VarRef) -> Result<TensorRef<'_>, KernelError> {
        let read = |v: &Value| match v {
            Value::Scalar(s, rank) => Ok(Tensor::from_scalar(*s, usize::from(*rank))),
            Value::Tensor(t) => Ok((**t).clone()),
            other => Err(not_a_tensor(r, other)),
        };
        match r.place {
            Place::Local { up, slot } => match &self.locals[self.local_index(up, slot)] {
                Value::Tensor(t) => Ok(TensorRef::Borrowed(t)),
                other => read(other).map(TensorRef::Owned),
            },
            Place::Shared { up, slot } => read(&self.shared(up, slot).read()).map(TensorRef::Owned),
        }
    }

    /// The value of a tensor variable (a copy: a reference-count increment
    /// or one element), as a channel send passes it.
    #[inline(always)]
    pub(crate) fn tensor_value(&self, r: &VarRef) -> Result<Value, KernelError> {
        match self.scalar(r) {
            Some((v, rank)) => Ok(Value::Scalar(v, rank as u8)),
            None => self.any_tensor_value(r),
        }
    }

    /// [`Vars::tensor_value`] written into `out`.
    #[inline(always)]
    pub(crate) fn tensor_value_into(
        &self,
        r: &VarRef,
        out: &mut Option<Value>,
    ) -> Result<(), KernelError> {
        match self.scalar(r) {
            Some((v, rank)) => *out = Some(Value::Scalar(v, rank as u8)),
            None => *out = Some(self.any_tensor_value(r)?),
        }
        Ok(())
    }

    #[inline(never)]
    fn any_tensor_value(&self, r: &VarRef) -> Result<Value, KernelError> {
        match self.get(r) {
            v @ (Value::Tensor(_) | Value::Scalar(..)) => Ok(v),
            other => Err(not_a_tensor(r, &other)),
        }
    }

    #[inline]
    pub(crate) fn set_tensor(&mut self, r: &VarRef, t: Tensor) {
        self.set(r, Value::tensor(t));
    }

    /// Takes the tensor a local variable holds (leaving it empty) for a
    /// kernel to write its result into: a buffer nobody else shares is
    /// reused (see `Buffer::refill`). `None` for a shared variable (another
    /// goroutine may read it meanwhile) or one that holds no multi-element
    /// tensor.
    #[inline]
    pub(crate) fn take_output(&mut self, r: &VarRef) -> Option<Box<Tensor>> {
        let Place::Local { up, slot } = r.place else {
            return None;
        };
        let v = &mut self.locals[self.local_index(up, slot)];
        if !matches!(v, Value::Tensor(_)) {
            return None;
        }
        match std::mem::take(v) {
            Value::Tensor(t) => Some(t),
            _ => None,
        }
    }

    /// [`Vars::set_tensor`] of a boxed tensor (one [`Vars::take_output`]
    /// gave, updated in place), keeping its box.
    pub(crate) fn set_boxed(&mut self, r: &VarRef, t: Box<Tensor>) {
        let v = match t.as_scalar() {
            Some((s, rank)) => Value::Scalar(s, rank as u8),
            None => Value::Tensor(t),
        };
        self.set(r, v);
    }

    /// The element and rank of a one-element tensor variable (see
    /// `crate::tensor::scalar`); `None` for anything else.
    #[inline(always)]
    pub(crate) fn scalar(&self, r: &VarRef) -> Option<(Scalar, usize)> {
        match r.place {
            Place::Local { up, slot } => scalar_of(&self.locals[self.local_index(up, slot)]),
            Place::Shared { up, slot } => self.shared_scalar(up, slot),
        }
    }

    /// The elements of two one-element tensor variables of one rank, and
    /// the rank: the operands of a scalar fast path.
    #[inline(always)]
    pub(crate) fn scalar_pair(&self, x: &VarRef, y: &VarRef) -> Option<(Scalar, Scalar, usize)> {
        let (a, rank) = self.scalar(x)?;
        let (b, rank_b) = self.scalar(y)?;
        (rank == rank_b).then_some((a, b, rank))
    }

    #[inline(never)]
    fn shared_scalar(&self, up: u32, slot: u32) -> Option<(Scalar, usize)> {
        scalar_of(&self.shared(up, slot).read())
    }

    /// Writes a one-element tensor of `rank` (at most 4, as
    /// [`Vars::scalar`] gives).
    #[inline(always)]
    pub(crate) fn set_scalar(&mut self, r: &VarRef, v: Scalar, rank: usize) {
        match r.place {
            Place::Local { up, slot } => {
                let i = self.local_index(up, slot);
                match &mut self.locals[i] {
                    Value::Scalar(s, k) => (*s, *k) = (v, rank as u8),
                    other => std::mem::replace(other, Value::Scalar(v, rank as u8)).discard(),
                }
            }
            Place::Shared { up, slot } => self.set_shared(up, slot, Value::Scalar(v, rank as u8)),
        }
    }

    #[inline(never)]
    fn set_shared(&self, up: u32, slot: u32, value: Value) {
        let old = self.shared(up, slot).write(|v| std::mem::replace(v, value));
        old.discard();
    }

    /// The channel variable `r` holds, as an entry of `cache` (see the
    /// module docs); the entry stays valid until `cache`'s next
    /// [`ChannelCache::start`].
    #[inline]
    pub(crate) fn channel(
        &self,
        r: &VarRef,
        cache: &mut ChannelCache,
    ) -> Result<usize, KernelError> {
        let address = match r.place {
            Place::Local { up, slot } => channel_address(&self.locals[self.local_index(up, slot)]),
            Place::Shared { up, slot } => self.shared(up, slot).channel.load(Ordering::Acquire),
        };
        if address != 0 {
            if let Some(i) = cache.find(address) {
                return Ok(i);
            }
        }
        let found = match r.place {
            Place::Local { up, slot } => match &self.locals[self.local_index(up, slot)] {
                Value::Channel(c) => Some(c.clone()),
                _ => None,
            },
            Place::Shared { up, slot } => match &*self.shared(up, slot).read() {
                Value::Channel(c) => Some(c.clone()),
                _ => None,
            },
        };
        match found {
            Some(c) => Ok(cache.insert(c)),
            None => Err(self.not_a_channel(r)),
        }
    }

    #[cold]
    fn not_a_channel(&self, r: &VarRef) -> KernelError {
        KernelError::MissingInput(format!(
            "`{}` must hold a channel (made by channel_create) but holds {}",
            r.name,
            self.get(r).describe()
        ))
    }

    /// The one bool of a condition variable (`while`, scalar `conditional_block`).
    #[inline(always)]
    pub(crate) fn condition(&self, r: &VarRef) -> Result<bool, KernelError> {
        match self.scalar(r) {
            Some((Scalar::Bool(b), _)) => Ok(b),
            _ => self.tensor_condition(r),
        }
    }

    /// The general path of [`Vars::condition`].
    #[inline(never)]
    fn tensor_condition(&self, r: &VarRef) -> Result<bool, KernelError> {
        let t = self.tensor(r)?;
        match t.values::<bool>() {
            Some([b]) => Ok(*b),
            _ => Err(KernelError::Invalid(format!(
                "condition `{}` must be a bool tensor with one element, got {} of shape {:?}",
                r.name,
                crate::tensor::dtype_name(t.dtype()),
                t.shape()
            ))),
        }
    }
}

/// The channels a goroutine used lately (see the module docs). One channel
/// operation reads its channels into it and uses them by index.
#[derive(Debug, Default)]
pub(crate) struct ChannelCache {
    channels: SmallVec<[Arc<TypedChannel>; 2]>,
}

impl ChannelCache {
    /// How many channels it keeps between operations; more are dropped at
    /// the next one's start.
    const KEEP: usize = 8;

    /// Starts a channel operation: entries found or inserted from now on
    /// stay until the next start.
    #[inline]
    pub(crate) fn start(&mut self) {
        if self.channels.len() > Self::KEEP {
            self.channels.clear();
        }
    }

    #[inline]
    fn find(&self, address: usize) -> Option<usize> {
        self.channels
            .iter()
            .position(|c| Arc::as_ptr(c) as usize == address)
    }

    #[inline(never)]
    fn insert(&mut self, c: Arc<TypedChannel>) -> usize {
        self.channels.push(c);
        self.channels.len() - 1
    }

    #[inline]
    pub(crate) fn get(&self, i: usize) -> &Arc<TypedChannel> {
        &self.channels[i]
    }

    /// The channel of a send, receive or close: starts an operation and
    /// reads `r`'s channel into the cache.
    #[inline]
    pub(crate) fn one(
        &mut self,
        vars: &Vars,
        r: &VarRef,
    ) -> Result<&Arc<TypedChannel>, KernelError> {
        self.start();
        let i = vars.channel(r, self)?;
        Ok(self.get(i))
    }
}
