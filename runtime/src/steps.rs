//! Step scopes: what a `while` or `conditional_block` keeps of its runs for
//! its grad op, and how the grad ops run their grad blocks over them, as
//! Paddle's WhileGradOp and ConditionalBlockGradOp do.
//!
//! Paddle keeps each run's scope; fluidc keeps each run's frame variables
//! (a [`StepScope`]) in the op's STEP_SCOPES variable, and only when a
//! grad op reads that variable (the loader decides). A grad op pushes a
//! frame of the forward block with a kept run's variables restored, then a
//! frame of the grad block on top (its names resolve through the forward
//! block, see `crate::layout`); at the grad block's end the gradients go
//! out to the grad op's block and both frames are popped. A loop's grad
//! does this for each step, last first.
use crate::error::KernelError;
use crate::exec::{Control, Exec, KeepSteps};
use crate::goroutine::Goroutine;
use crate::load::{LoadedOp, Runnable};
use crate::ops::elementwise::add_values;
use crate::scope::{FrameKind, VarRef, Vars};
use crate::tensor::Tensor;
use crate::value::{StepScope, Value};
use fluidc_transpiler::VarKind;

/// A loop step starts: a new kept step holding the inputs it copies.
pub(crate) fn start(outer: &mut Vars, k: &KeepSteps) {
    let copies = k.copies.iter().map(|r| outer.get(r)).collect();
    outer.with(&k.scopes, |v| {
        if let Value::Steps(list) = v {
            list.push(StepScope {
                locals: Vec::new(),
                copies,
            });
        }
    });
}

/// The variables of frame `top`, taken out of it.
fn take_locals(g: &mut Goroutine, top: usize) -> Vec<Value> {
    let base = g.frames[top].base;
    g.locals[base..g.used]
        .iter_mut()
        .map(std::mem::take)
        .collect()
}

/// A loop step ends: its variables go to the step it started.
pub(crate) fn keep_step(g: &mut Goroutine, top: usize, k: &KeepSteps) {
    let locals = take_locals(g, top);
    let mut outer = Vars::new(&g.frames, &mut g.locals, top - 1);
    outer.with(&k.scopes, |v| {
        if let Value::Steps(list) = v {
            if let Some(last) = list.last_mut() {
                last.locals = locals;
            }
        }
    });
}

/// A kept branch ends: its variables go to its `Scope`.
pub(crate) fn keep_branch(g: &mut Goroutine, top: usize, scope: &VarRef) {
    let locals = take_locals(g, top);
    let kept = StepScope {
        locals,
        copies: Vec::new(),
    };
    Vars::new(&g.frames, &mut g.locals, top - 1).set(scope, Value::Steps(Box::new(vec![kept])));
}

/// Output gradients nothing wrote become zeros of their declared shape
/// (WhileGradOp does so before the last step's grad).
pub(crate) fn zero_unwritten(
    vars: &mut Vars,
    ogs: &[(VarRef, VarKind, Vec<i64>)],
) -> Result<(), KernelError> {
    for (r, dtype, dims) in ogs {
        if vars.with(r, |v| matches!(v, Value::Empty)) {
            vars.set_tensor(r, Tensor::zeros(*dtype, dims)?);
        }
    }
    Ok(())
}

/// Zeros shaped like `v` (an empty or unwritten value has none; a tensor
/// array gets zeros for each element written).
fn zeros_like(v: &Value) -> Result<Option<Value>, KernelError> {
    Ok(match v {
        Value::Scalar(s, rank) => Some(Value::tensor(Tensor::zeros(
            s.dtype(),
            &vec![1; usize::from(*rank)],
        )?)),
        Value::Tensor(t) if t.numel() > 0 => {
            Some(Value::tensor(Tensor::zeros(t.dtype(), t.shape())?))
        }
        Value::TensorArray(items) => {
            let zeros = items
                .iter()
                .map(|i| Ok(zeros_like(i)?.unwrap_or_default()))
                .collect::<Result<Vec<_>, KernelError>>()?;
            Some(Value::TensorArray(std::sync::Arc::new(zeros)))
        }
        _ => None,
    })
}

/// Each (gradient, input) pair: the gradient becomes zeros shaped like the
/// input (a branch that did not run passes no gradient through).
pub(crate) fn zero_grads<'a>(
    vars: &mut Vars,
    grads: impl Iterator<Item = (&'a VarRef, &'a VarRef)>,
) -> Result<(), KernelError> {
    for (grad, x) in grads {
        if let Some(z) = zeros_like(&vars.get(x))? {
            vars.set(grad, z);
        }
    }
    Ok(())
}

/// Pushes the grad block `body` of the grad op at `op` for the last of
/// `steps`, on top of a restored run of `forward`: the step's variables
/// back in place, its copied inputs where the grad block sees them
/// (`copies`), and each output gradient of `links` (outside, inside)
/// shared in.
#[allow(clippy::too_many_arguments)]
pub(crate) fn push_grad_step(
    g: &mut Goroutine,
    prog: &Runnable,
    op: (usize, usize),
    forward: usize,
    body: usize,
    copies: &[VarRef],
    links: &[(VarRef, VarRef)],
    mut steps: Vec<StepScope>,
    first: bool,
) -> Result<(), KernelError> {
    let Some(step) = steps.pop() else {
        return Ok(());
    };
    let fwd = &prog.blocks[forward];
    if fwd.has_scope {
        return Err(KernelError::Invalid(
            "gradients through a block that starts goroutines are not supported".into(),
        ));
    }
    g.push(fwd, forward, FrameKind::Once);
    let base = g.frames[g.depth - 1].base;
    for (slot, v) in g.locals[base..g.used].iter_mut().zip(step.locals) {
        *slot = v;
    }
    g.push(
        &prog.blocks[body],
        body,
        FrameKind::Grad { op, steps, first },
    );
    let top = g.depth - 1;
    let linked: Vec<Value> = {
        let outer = Vars::new(&g.frames, &mut g.locals, top - 2);
        links
            .iter()
            .map(|(outside, _)| outer.get(outside))
            .collect()
    };
    let mut vars = Vars::new(&g.frames, &mut g.locals, top);
    for (r, v) in copies.iter().zip(step.copies) {
        vars.set(r, v);
    }
    for ((_, inside), v) in links.iter().zip(linked) {
        vars.set(inside, v);
    }
    Ok(())
}

/// The grad block of `grad_op` (the innermost frame) ended: its gradients
/// go out, its frame and the restored forward frame go, and a loop's grad
/// goes on with the step before.
pub(crate) fn end_grad_step(
    g: &mut Goroutine,
    prog: &Runnable,
    grad_op: &LoadedOp,
) -> Result<(), KernelError> {
    let top = g.depth - 1;
    let FrameKind::Grad { op, steps, first } =
        std::mem::replace(&mut g.frames[top].kind, FrameKind::Once)
    else {
        unreachable!("called at the end of a grad block");
    };
    match &grad_op.exec {
        Exec::Control(Control::WhileGrad(wg)) => {
            let inside: Vec<Value> = {
                let vars = Vars::new(&g.frames, &mut g.locals, top);
                wg.grads.iter().map(|o| vars.get(&o.inside)).collect()
            };
            let mut outer = Vars::new(&g.frames, &mut g.locals, top - 2);
            for (o, v) in wg.grads.iter().zip(inside) {
                if matches!(v, Value::Empty) {
                    continue;
                }
                let dense = matches!(v, Value::Tensor(_) | Value::Scalar(..));
                // The first step's sum starts from zeros (dense gradients)
                // or from what the gradient held (arrays), as Paddle's.
                if o.carried || (first && dense) {
                    outer.set(&o.outside, v);
                } else {
                    let old = outer.with(&o.outside, std::mem::take);
                    outer.set(&o.outside, add_values(old, v)?);
                }
            }
            g.pop();
            g.pop();
            push_grad_step(
                g, prog, op, wg.forward, wg.body, &wg.copies, &wg.links, steps, false,
            )
        }
        Exec::Control(Control::CondBlockGrad(cg)) => {
            let inside: Vec<Option<Value>> = {
                let vars = Vars::new(&g.frames, &mut g.locals, top);
                cg.grads
                    .iter()
                    .map(|(_, _, i)| i.as_ref().map(|r| vars.get(r)))
                    .collect()
            };
            let mut outer = Vars::new(&g.frames, &mut g.locals, top - 2);
            for ((grad, x, _), v) in cg.grads.iter().zip(inside) {
                match v {
                    Some(v) if !matches!(v, Value::Empty) => outer.set(grad, v),
                    _ => zero_grads(&mut outer, [(grad, x)].into_iter())?,
                }
            }
            g.pop();
            g.pop();
            Ok(())
        }
        _ => unreachable!("a grad frame is pushed by a grad op"),
    }
}
