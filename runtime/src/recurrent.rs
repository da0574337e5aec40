//! 1.x's `recurrent` op, one step per run of its block's frame (see
//! [`Recurrent`]): the interpreter pushes the frame, and at each end of it
//! takes the step's outputs and states and starts the next step in the same
//! frame, as a `while` restarts its body.
//!
//! The outer outputs hold a tensor array while the steps run (row by row,
//! in the order the rows are reached) and their stacked rows after the last.
use std::sync::Arc;

use crate::error::KernelError;
use crate::exec::Recurrent;
use crate::goroutine::Goroutine;
use crate::ops::lod::take_rows;
use crate::ops::manip::stacked;
use crate::scope::Vars;
use crate::tensor::Tensor;
use crate::value::Value;

/// The op's number of steps: the first dim its inputs share.
fn steps(outer: &Vars, r: &Recurrent) -> Result<usize, KernelError> {
    let mut steps = None;
    for (x, _) in &r.inputs {
        let t = outer.tensor(x)?;
        let n = t.shape().first().copied().unwrap_or(1).max(0) as usize;
        match steps {
            Some(m) if m != n => {
                return Err(KernelError::Shape(format!(
                    "recurrent's inputs have {m} and {n} steps (their first dims); they must agree"
                )))
            }
            _ => steps = Some(n),
        }
    }
    match steps {
        Some(0) | None => Err(KernelError::Shape(
            "recurrent's inputs have no steps (a first dim of 0)".into(),
        )),
        Some(n) => Ok(n),
    }
}

/// Row `row` of `x`, without the first dim (a sequence of scalars gives
/// one-element rows).
fn row_of(x: &Tensor, row: usize) -> Result<Tensor, KernelError> {
    let rows = take_rows(x, &[(row, row + 1)])?;
    let shape = if x.shape().len() > 1 {
        &x.shape()[1..]
    } else {
        &[1][..]
    };
    rows.reshaped(shape)
}

/// Prepares the op's run before its frame is pushed (`outer` is the
/// frame running the op): the outputs become arrays of the steps' rows.
/// Returns the number of steps.
pub(crate) fn start(outer: &mut Vars, r: &Recurrent) -> Result<usize, KernelError> {
    let steps = steps(outer, r)?;
    for (o, _) in &r.outputs {
        outer.set(o, Value::TensorArray(Arc::new(vec![Value::Empty; steps])));
    }
    Ok(steps)
}

/// Starts step `step` of `steps` in the op's frame `top`: the inputs'
/// rows, and the states it starts from (`prev`, the states of the step
/// before, or the initial states at the first step).
pub(crate) fn begin(
    g: &mut Goroutine,
    top: usize,
    r: &Recurrent,
    step: usize,
    steps: usize,
    prev: Option<Vec<Value>>,
) -> Result<(), KernelError> {
    let row = r.row(step, steps);
    let outer = Vars::new(&g.frames, &mut g.locals, top - 1);
    let rows = r
        .inputs
        .iter()
        .map(|(x, _)| row_of(&*outer.tensor(x)?, row))
        .collect::<Result<Vec<_>, _>>()?;
    let ex = match prev {
        Some(states) => states,
        None => r
            .states
            .iter()
            .map(|(init, _, _)| outer.tensor_value(init))
            .collect::<Result<_, _>>()?,
    };
    let mut inner = Vars::new(&g.frames, &mut g.locals, top);
    for ((_, inside), t) in r.inputs.iter().zip(rows) {
        inner.set_tensor(inside, t);
    }
    for ((_, ex_state, _), v) in r.states.iter().zip(ex) {
        inner.set(ex_state, v);
    }
    Ok(())
}

/// Ends step `step` of `steps` in the op's frame `top`: its outputs go to
/// their rows of the outer arrays; returns its states for the next step.
pub(crate) fn end(
    g: &mut Goroutine,
    top: usize,
    r: &Recurrent,
    step: usize,
    steps: usize,
) -> Result<Vec<Value>, KernelError> {
    let inner = Vars::new(&g.frames, &mut g.locals, top);
    let outs = r
        .outputs
        .iter()
        .map(|(_, inside)| inner.tensor_value(inside))
        .collect::<Result<Vec<_>, _>>()?;
    let states = r
        .states
        .iter()
        .map(|(_, _, state)| inner.tensor_value(state))
        .collect::<Result<Vec<_>, _>>()?;
    let row = r.row(step, steps);
    let mut outer = Vars::new(&g.frames, &mut g.locals, top - 1);
    for ((o, _), v) in r.outputs.iter().zip(outs) {
        outer.with(o, |arr| match arr {
            Value::TensorArray(items) => Arc::make_mut(items)[row] = v,
            _ => unreachable!("`start` made each output an array"),
        });
    }
    Ok(states)
}

/// After the last step (`outer` is the frame running the op): each output
/// becomes its rows stacked along a new first dim.
pub(crate) fn finish(outer: &mut Vars, r: &Recurrent) -> Result<(), KernelError> {
    for (o, _) in &r.outputs {
        let rows = match outer.with(o, std::mem::take) {
            Value::TensorArray(items) => Arc::unwrap_or_clone(items),
            _ => unreachable!("`start` made each output an array"),
        };
        let rows = rows
            .into_iter()
            .map(|v| match v {
                Value::Tensor(t) => Ok(*t),
                Value::Scalar(s, rank) => Ok(Tensor::from_scalar(s, usize::from(rank))),
                _ => Err(KernelError::Invalid(format!(
                    "recurrent's output `{}` was not written by every step",
                    o.name
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        outer.set_tensor(o, stacked(&rows, 0)?);
    }
    Ok(())
}
