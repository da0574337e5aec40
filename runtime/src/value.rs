//! What a variable holds at run time.
use std::any::Any;
use std::sync::Arc;

use fluidc_transpiler::VarKind;

use crate::channel::Channel;
use crate::error::KernelError;
use crate::tensor::{dtype_name, tensor_dtype, Lod, Scalar, Tensor};

/// The value of one variable in a scope.
#[derive(Debug, Clone, Default)]
pub(crate) enum Value {
    /// Declared but never written (also STEP_SCOPES variables of loops and
    /// branches no grad op reads: each block run gets its own scope anyway).
    #[default]
    Empty,
    /// Boxed so that a value stays three words: frames hold many variables,
    /// mostly scalars, and a parked goroutine holds its frames.
    Tensor(Box<Tensor>),
    /// A one-element tensor of rank `.1` (every dim 1) kept as its element:
    /// how [`Value::tensor`] stores one, so scalar kernels read and write it
    /// with no shape to build or drop (see `crate::tensor::scalar`).
    Scalar(Scalar, u8),
    Channel(Arc<TypedChannel>),
    /// A `LOD_RANK_TABLE` (see `crate::ops::lod`).
    RankTable(Arc<RankTable>),
    /// A tensor array (`LOD_TENSOR_ARRAY`): tensor values, [`Value::Empty`]
    /// where no write reached; shared copy-on-write.
    TensorArray(Arc<Vec<Value>>),
    /// The `feed` holder: column `col` is what the feed op of that column reads.
    FeedList(Vec<Option<Tensor>>),
    /// The `fetch` holder: column `col` is what the fetch op of that column wrote.
    FetchList(Vec<Option<Tensor>>),
    /// A STEP_SCOPES variable a grad op reads: what each run of the loop
    /// body (or the one run of a branch) left, for its grad block.
    // Boxed so that every other value stays small.
    #[allow(clippy::box_collection)]
    Steps(Box<Vec<StepScope>>),
}

/// A `LOD_RANK_TABLE` value: the sequences of LoD level `level` of a
/// tensor, longest first, and that tensor's whole LoD (to find each
/// sequence's rows). `lod_rank_table` makes one; the kernels' queries of it
/// are in `crate::ops::lod`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RankTable {
    pub(crate) level: usize,
    /// (index of the sequence in the level, its length), longest first.
    pub(crate) items: Vec<(usize, usize)>,
    pub(crate) lod: Lod,
}

impl RankTable {
    /// (index of the sequence in the level, its length), longest first:
    /// 1.x's `LoDRankTable.items()`.
    pub(crate) fn items(&self) -> &[(usize, usize)] {
        &self.items
    }
}

/// What one run of a block keeps for its grad block (Paddle keeps the
/// run's scope): the block's variables at its end, and the values of the
/// inputs the run copied when it started (see `crate::layout::step_copies`).
#[derive(Debug, Clone, Default)]
pub(crate) struct StepScope {
    pub(crate) locals: Vec<Value>,
    pub(crate) copies: Vec<Value>,
}

impl Value {
    /// Drops the value, skipping the (out-of-line) drop glue when there is
    /// nothing to free: an empty slot or a one-element tensor is forgotten,
    /// which is the same as dropping it. Frames clear all their variables
    /// each time a loop body restarts or a block ends, mostly such values.
    #[inline]
    pub(crate) fn discard(self) {
        match &self {
            Value::Empty | Value::Scalar(..) => std::mem::forget(self),
            _ => drop(self),
        }
    }

    /// A tensor value, one-element tensors as [`Value::Scalar`].
    #[inline]
    pub(crate) fn tensor(t: Tensor) -> Value {
        match t.as_scalar() {
            Some((v, rank)) => Value::Scalar(v, rank as u8),
            None => Value::Tensor(Box::new(t)),
        }
    }

    /// The tensor a tensor value holds (a one-element one rebuilt).
    pub(crate) fn to_tensor(&self) -> Option<Tensor> {
        match self {
            Value::Tensor(t) => Some((**t).clone()),
            Value::Scalar(s, rank) => Some(Tensor::from_scalar(*s, usize::from(*rank))),
            _ => None,
        }
    }

    /// The dtype of a tensor value.
    pub(crate) fn dtype(&self) -> Option<VarKind> {
        match self {
            Value::Scalar(s, _) => Some(s.dtype()),
            Value::Tensor(t) => Some(t.dtype()),
            _ => None,
        }
    }

    /// A short description for error messages ("a channel", "nothing").
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Value::Empty => "nothing (no op has written it yet)",
            Value::Tensor(_) | Value::Scalar(..) => "a tensor",
            Value::Channel(_) => "a channel",
            Value::TensorArray(_) => "a tensor array",
            Value::RankTable(_) => "a rank table",
            Value::FeedList(_) => "the feed list",
            Value::FetchList(_) => "the fetch list",
            Value::Steps(_) => "the scopes of a loop's steps",
        }
    }
}

/// A channel of tensor values (one-element ones as [`Value::Scalar`]) whose
/// goroutines park in it, with the element type `channel_create` declared.
#[derive(Debug)]
pub(crate) struct TypedChannel {
    pub(crate) chan: Channel<Value, ParkedGoroutine>,
    /// The element dtype when the channel was declared for one dtype (BOOL,
    /// INT32, ...); `None` for DENSE_TENSOR (2018's LOD_TENSOR), which
    /// carries tensors of any dtype.
    elem: Option<VarKind>,
}

impl TypedChannel {
    /// A channel of `capacity` declared with element type `elem` (a
    /// `VarType.Type` number).
    pub(crate) fn new(capacity: usize, elem: i32) -> Self {
        TypedChannel {
            chan: Channel::new(capacity),
            elem: tensor_dtype(i64::from(elem)).ok(),
        }
    }

    pub(crate) fn elem_dtype(&self) -> Option<VarKind> {
        self.elem
    }

    /// Go checks a channel's element type at compile time; here it is
    /// checked on send.
    pub(crate) fn check(&self, v: &Value) -> Result<(), KernelError> {
        match (self.elem, v.dtype()) {
            (Some(d), Some(t)) if d != t => Err(KernelError::Dtype(format!(
                "the channel carries {} but the value sent is {}",
                dtype_name(d),
                dtype_name(t)
            ))),
            _ => Ok(()),
        }
    }
}

/// A goroutine parked in a channel, as the channel holds it. A goroutine
/// (`crate::goroutine`) holds values and a value can be a channel, so the
/// types are recursive; naming the goroutine here would make this module,
/// which every kernel reads, import the interpreter's. The channel never
/// looks at what it parks: the goroutine layer puts its goroutine in and
/// takes it out (`Goroutine::parked`, `Goroutine::woken`).
pub(crate) struct ParkedGoroutine(Box<dyn Any + Send>);

impl ParkedGoroutine {
    pub(crate) fn new<G: Any + Send>(g: Box<G>) -> ParkedGoroutine {
        ParkedGoroutine(g)
    }

    /// The parked `G`, or `None` if what was parked is not a `G`.
    pub(crate) fn take<G: Any + Send>(self) -> Option<Box<G>> {
        self.0.downcast().ok()
    }
}

impl std::fmt::Debug for ParkedGoroutine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParkedGoroutine")
    }
}
