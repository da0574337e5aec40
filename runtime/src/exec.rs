//! What a loaded op does when it runs: a compute [`Kernel`], or a
//! [`Control`] op that the interpreter (`crate::interp`) carries out itself
//! because it pushes frames, starts goroutines or blocks on channels.
//!
//! The kernel builders in `crate::ops` make these at load time and the
//! interpreter runs them; this module is what the two share, so neither
//! depends on the other.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::scope::{VarRef, Vars};
use crate::tensor::Tensor;
use crate::value::TypedChannel;

/// A compute kernel: reads its inputs from the frame's variables, writes its outputs.
pub(crate) type Kernel = Box<dyn Fn(&mut Vars) -> Result<(), KernelError> + Send + Sync>;

/// What running an op means.
pub(crate) enum Exec {
    Compute(Kernel),
    Control(Control),
}

/// Wraps a closure as a compute kernel.
pub(crate) fn compute(
    k: impl Fn(&mut Vars) -> Result<(), KernelError> + Send + Sync + 'static,
) -> Result<Exec, KernelError> {
    Ok(Exec::Compute(Box::new(k)))
}

/// An op the interpreter carries out itself.
#[derive(Debug)]
pub(crate) enum Control {
    /// Runs `body` in a fresh child scope while `cond` is true; with
    /// `keep`, each run's variables are kept for a `while_grad`.
    While {
        cond: VarRef,
        body: usize,
        keep: Option<Box<KeepSteps>>,
    },
    /// Runs `body` once in a child scope if the condition holds: the one bool
    /// of `conds[0]` (scalar), or every `conds` tensor non-empty. With
    /// `keep` (its `Scope` output), the run's variables are kept there for
    /// a `conditional_block_grad`.
    CondBlock {
        conds: Vec<VarRef>,
        scalar: bool,
        body: usize,
        keep: Option<VarRef>,
    },
    /// 1.x's `recurrent` (a `StaticRNN` as 1.x saved it): runs `body`
    /// once per step of its inputs' first dim.
    Recurrent(Box<Recurrent>),
    /// Runs a loop's grad block once per kept step, last step first.
    WhileGrad(Box<WhileGrad>),
    /// Runs a branch's grad block over the kept run, if the branch ran.
    CondBlockGrad(Box<CondBlockGrad>),
    /// Starts a goroutine running `body` in a child scope.
    Go {
        body: usize,
    },
    Send {
        channel: VarRef,
        x: VarRef,
    },
    Recv {
        channel: VarRef,
        out: VarRef,
        status: Option<VarRef>,
        zero: ZeroValue,
    },
    Close {
        channel: VarRef,
    },
    Select(Select),
}

/// What a `while` keeps of each step for its grad (Paddle's step scopes):
/// the STEP_SCOPES variable it fills, and the inputs each step copies when
/// it starts (`crate::layout::step_copies`).
#[derive(Debug)]
pub(crate) struct KeepSteps {
    pub(crate) scopes: VarRef,
    pub(crate) copies: Vec<VarRef>,
}

/// A `recurrent` op (Paddle 1.x's RecurrentOp, forward only). Its step
/// block declares variables under the names of the op's inputs and
/// outputs, which hide the outer ones there: step `t` sees row `t` of each
/// outer input under the input's own name, its `ex_states` hold the
/// `initial_states` at the first step and the `states` of the step before
/// after it, and row `t` of each outer output is the step's variable of
/// that name. With `reverse`, the steps run from the last row to the first.
#[derive(Debug)]
pub(crate) struct Recurrent {
    pub(crate) body: usize,
    /// Per input: the sequence outside, its step inside.
    pub(crate) inputs: Vec<(VarRef, VarRef)>,
    /// Per state: the initial value outside, the previous step's value
    /// inside (`ex_states`), the step's new value inside (`states`).
    pub(crate) states: Vec<(VarRef, VarRef, VarRef)>,
    /// Per output: the stacked steps outside, the step's value inside.
    pub(crate) outputs: Vec<(VarRef, VarRef)>,
    pub(crate) reverse: bool,
}

impl Recurrent {
    /// The row of the sequences step `step` of `steps` reads and writes.
    pub(crate) fn row(&self, step: usize, steps: usize) -> usize {
        if self.reverse {
            steps - 1 - step
        } else {
            step
        }
    }
}

/// A `while_grad` (Paddle's WhileGradOp). Variables of the op's block
/// unless said otherwise.
#[derive(Debug)]
pub(crate) struct WhileGrad {
    /// The steps the forward loop kept.
    pub(crate) scopes: VarRef,
    /// The grad block, and the loop body it runs on top of.
    pub(crate) body: usize,
    pub(crate) forward: usize,
    /// Where the grad block sees each step's copied inputs.
    pub(crate) copies: Vec<VarRef>,
    /// Output gradients the grad block holds a variable of its own for:
    /// (outside, inside), the inside one set from the outside one at each
    /// step's start.
    pub(crate) links: Vec<(VarRef, VarRef)>,
    /// Output gradients that are zeros when nothing wrote them: each with
    /// its declared dtype and shape.
    pub(crate) zero_ogs: Vec<(VarRef, VarKind, Vec<i64>)>,
    pub(crate) grads: Vec<GradOut>,
}

/// How one input gradient leaves a step of a grad block.
#[derive(Debug)]
pub(crate) struct GradOut {
    /// The gradient outside (in the op's block).
    pub(crate) outside: VarRef,
    /// `X@GRAD` as the grad block sees it.
    pub(crate) inside: VarRef,
    /// The variable is also an output gradient the loop carries from step
    /// to step: the outside one becomes the inside one (else each step's
    /// is added to it).
    pub(crate) carried: bool,
}

/// A `conditional_block_grad` (Paddle's ConditionalBlockGradOp).
#[derive(Debug)]
pub(crate) struct CondBlockGrad {
    pub(crate) conds: Vec<VarRef>,
    pub(crate) scalar: bool,
    pub(crate) scope: VarRef,
    pub(crate) body: usize,
    pub(crate) forward: usize,
    /// Per wanted input gradient: the outside gradient, the input it is the
    /// gradient of (for zeros of its shape), and the gradient the grad
    /// block computed, if the branch's scope holds one.
    pub(crate) grads: Vec<(VarRef, VarRef, Option<VarRef>)>,
}

/// The lowered select (docs/programs.md, "Select and its lowering").
#[derive(Debug)]
pub(crate) struct Select {
    /// The send and receive cases, in the order of `cases`.
    pub(crate) cases: Vec<SelectCase>,
    /// The index of the default case (written to `case_to_execute` as an
    /// int32 `[1]`), if there is one.
    pub(crate) default: Option<i32>,
    pub(crate) case_to_execute: VarRef,
    /// The cases block.
    pub(crate) body: usize,
    /// When the cases block is exactly the lowered dispatch (see
    /// [`case_dispatch`]): for each case index, the block of that case's
    /// body, which the interpreter then runs directly.
    pub(crate) dispatch: Option<Vec<(i32, usize)>>,
}

#[derive(Debug)]
pub(crate) struct SelectCase {
    /// The index written to `case_to_execute` (an int32 `[1]`) when this
    /// case is chosen.
    pub(crate) index: i32,
    pub(crate) channel: VarRef,
    pub(crate) op: CaseOp,
}

#[derive(Debug)]
pub(crate) enum CaseOp {
    /// Sends the value of this variable.
    Send(VarRef),
    /// Receives into this variable, resolved from the cases block's scope.
    Recv { value: VarRef, zero: ZeroValue },
}

/// What a receive from a closed, drained channel writes: Go's zero value.
/// The dtype is the channel's element dtype if it has one, else the
/// receiving variable's declared dtype (else float32); the shape is the
/// declared one if fully known, else `[1]`.
#[derive(Debug, Clone)]
pub(crate) struct ZeroValue {
    pub(crate) dtype: Option<VarKind>,
    pub(crate) shape: Vec<i64>,
}

impl ZeroValue {
    pub(crate) fn tensor(&self, chan: &TypedChannel) -> Tensor {
        let dtype = chan.elem_dtype().or(self.dtype).unwrap_or(VarKind::Fp32);
        Tensor::zeros(dtype, &self.shape)
            .or_else(|_| Tensor::zeros(dtype, &[1]))
            .unwrap_or_else(|_| Tensor::scalar(0.0f32))
    }
}
