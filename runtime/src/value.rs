//! What a variable holds at run time.
use std::sync::Arc;

use fluidc_transpiler::VarKind;

use crate::channel::Channel;
use crate::goroutine::Goroutine;
use crate::tensor::{dtype_name, tensor_dtype, Tensor};

/// The value of one variable in a scope.
#[derive(Debug, Clone, Default)]
pub(crate) enum Value {
    /// Declared but never written (also STEP_SCOPES variables, which the
    /// runtime does not need: each block run gets its own scope anyway).
    #[default]
    Empty,
    Tensor(Tensor),
    Channel(Arc<TypedChannel>),
    /// The `feed` holder: column `col` is what the feed op of that column reads.
    FeedList(Vec<Option<Tensor>>),
    /// The `fetch` holder: column `col` is what the fetch op of that column wrote.
    FetchList(Vec<Option<Tensor>>),
}

impl Value {
    /// A short description for error messages ("a channel", "nothing").
    pub(crate) fn describe(&self) -> &'static str {
        match self {
            Value::Empty => "nothing (no op has written it yet)",
            Value::Tensor(_) => "a tensor",
            Value::Channel(_) => "a channel",
            Value::FeedList(_) => "the feed list",
            Value::FetchList(_) => "the fetch list",
        }
    }
}

/// A channel of tensors whose goroutines park in it, with the element type
/// `channel_create` declared (a `VarType.Type` number).
#[derive(Debug)]
pub(crate) struct TypedChannel {
    pub(crate) chan: Channel<Tensor, Box<Goroutine>>,
    pub(crate) elem: i32,
}

impl TypedChannel {
    /// The element dtype when the channel was declared for one dtype (BOOL,
    /// INT32, ...); `None` for DENSE_TENSOR (2018's LOD_TENSOR), which
    /// carries tensors of any dtype.
    pub(crate) fn elem_dtype(&self) -> Option<VarKind> {
        tensor_dtype(i64::from(self.elem)).ok()
    }

    /// Go checks a channel's element type at compile time; here it is
    /// checked on send.
    pub(crate) fn check(&self, t: &Tensor) -> Result<(), String> {
        match self.elem_dtype() {
            Some(d) if d != t.dtype() => Err(format!(
                "the channel carries {} but the value sent is {}",
                dtype_name(d),
                dtype_name(t.dtype())
            )),
            _ => Ok(()),
        }
    }
}
