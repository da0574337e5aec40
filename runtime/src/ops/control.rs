//! Control-flow and CSP ops: while, conditional_block, go, select,
//! channel_send, channel_recv, channel_close (run by the interpreter, see
//! `crate::interp`), and channel_create (an ordinary kernel).
use std::sync::Arc;

use fluidc_transpiler::VarKind;

use super::{compute, Exec, Registry};
use crate::channel::Channel;
use crate::load::OpLoader;
use crate::scope::VarRef;
use crate::tensor::{tensor_dtype, Tensor};
use crate::value::{TypedChannel, Value};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("while", while_op);
    r.add("conditional_block", conditional_block);
    r.add("go", go);
    r.add("select", select);
    r.add("channel_create", channel_create);
    r.add("channel_send", channel_send);
    r.add("channel_recv", channel_recv);
    r.add("channel_close", channel_close);
}

/// An op the interpreter carries out itself.
#[derive(Debug)]
pub(crate) enum Control {
    /// Runs `body` in a fresh child scope while `cond` is true.
    While {
        cond: VarRef,
        body: usize,
    },
    /// Runs `body` once in a child scope if the condition holds: the one bool
    /// of `conds[0]` (scalar), or every `conds` tensor non-empty.
    CondBlock {
        conds: Vec<VarRef>,
        scalar: bool,
        body: usize,
    },
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

/// The lowered select (SPEC §4).
#[derive(Debug)]
pub(crate) struct Select {
    /// The send and receive cases, in the order of `cases`.
    pub(crate) cases: Vec<SelectCase>,
    /// The index of the default case (as the int32 `[1]` tensor written to
    /// `case_to_execute`), if there is one.
    pub(crate) default: Option<Tensor>,
    pub(crate) case_to_execute: VarRef,
    /// The cases block.
    pub(crate) body: usize,
}

#[derive(Debug)]
pub(crate) struct SelectCase {
    /// The index written to `case_to_execute` when this case is chosen
    /// (made once at load time, shared at run time).
    pub(crate) index: Tensor,
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
    dtype: Option<VarKind>,
    shape: Vec<i64>,
}

impl ZeroValue {
    fn of(l: &OpLoader, block: usize, name: &str) -> ZeroValue {
        let var = l.program.find_var(block, name);
        let dtype = var
            .and_then(|v| v.dtype())
            .filter(|d| tensor_dtype(*d as i64).is_ok());
        let shape = var
            .and_then(|v| v.tensor_desc())
            .map(|t| t.dims.clone())
            .filter(|d| d.iter().all(|&x| x >= 0))
            .unwrap_or_else(|| vec![1]);
        ZeroValue { dtype, shape }
    }

    pub(crate) fn tensor(&self, chan: &TypedChannel) -> Tensor {
        let dtype = chan.elem_dtype().or(self.dtype).unwrap_or(VarKind::Fp32);
        Tensor::zeros(dtype, &self.shape)
            .or_else(|_| Tensor::zeros(dtype, &[1]))
            .unwrap_or_else(|_| Tensor::scalar(0.0f32))
    }
}

fn while_op(l: &OpLoader) -> Result<Exec, String> {
    Ok(Exec::Control(Control::While {
        cond: l.input("Condition")?,
        body: l.sub_block()?,
    }))
}

/// Reads both spellings: `Cond`/`Input` (Paddle 3) and `X`/`Params` (2018).
fn conditional_block(l: &OpLoader) -> Result<Exec, String> {
    let conds = if l.op.inputs.iter().any(|s| s.parameter == "Cond") {
        l.inputs("Cond")?
    } else {
        l.inputs("X")?
    };
    let scalar = l.bool("is_scalar_condition", false)?;
    if scalar && conds.len() != 1 {
        return Err(format!(
            "a scalar condition needs one condition variable, got {}",
            conds.len()
        ));
    }
    Ok(Exec::Control(Control::CondBlock {
        conds,
        scalar,
        body: l.sub_block()?,
    }))
}

fn go(l: &OpLoader) -> Result<Exec, String> {
    Ok(Exec::Control(Control::Go {
        body: l.sub_block()?,
    }))
}

fn channel_create(l: &OpLoader) -> Result<Exec, String> {
    let out = l.output("Out")?;
    let elem = l.int("data_type", VarKind::DenseTensor as i64)?;
    let elem = i32::try_from(elem).map_err(|_| format!("data_type {elem} is not a type number"))?;
    let capacity = l.int("capacity", 0)?;
    let capacity = usize::try_from(capacity)
        .map_err(|_| format!("capacity must be 0 or more, got {capacity}"))?;
    compute(move |s| {
        let chan = TypedChannel {
            chan: Channel::new(capacity),
            elem,
        };
        s.set(&out, Value::Channel(Arc::new(chan)));
        Ok(())
    })
}

fn channel_send(l: &OpLoader) -> Result<Exec, String> {
    Ok(Exec::Control(Control::Send {
        channel: l.input("Channel")?,
        x: l.input("X")?,
    }))
}

fn channel_recv(l: &OpLoader) -> Result<Exec, String> {
    let out = l.output("Out")?;
    Ok(Exec::Control(Control::Recv {
        channel: l.input("Channel")?,
        zero: ZeroValue::of(l, l.block, &out.name),
        out,
        status: l.opt_output("Status")?,
    }))
}

fn channel_close(l: &OpLoader) -> Result<Exec, String> {
    Ok(Exec::Control(Control::Close {
        channel: l.input("Channel")?,
    }))
}

/// Parses `cases` (`"<index>,<kind>,<channel>,<value>"`, kind 0 default,
/// 1 send, 2 receive) and resolves each case's variables.
fn select(l: &OpLoader) -> Result<Exec, String> {
    let body = l.sub_block()?;
    let case_to_execute = l.input("case_to_execute")?;
    let mut cases = Vec::new();
    let mut default = None;
    for (pos, text) in l.strings("cases")?.iter().enumerate() {
        let bad = |why: &str| format!("select case {pos} ({text:?}): {why}");
        let parts: Vec<&str> = text.split(',').collect();
        let [index, kind, channel, value] = parts[..] else {
            return Err(bad("expected \"<index>,<kind>,<channel>,<value>\""));
        };
        let index: i32 = index
            .trim()
            .parse()
            .map_err(|_| bad("the index is not a number"))?;
        let index = Tensor::scalar(index);
        match kind.trim() {
            "0" if default.is_some() => return Err(bad("a select can have only one default case")),
            "0" => default = Some(index),
            "1" => cases.push(SelectCase {
                index,
                channel: l.var(channel).map_err(|e| bad(&e))?,
                op: CaseOp::Send(l.var(value).map_err(|e| bad(&e))?),
            }),
            "2" => cases.push(SelectCase {
                index,
                channel: l.var(channel).map_err(|e| bad(&e))?,
                op: CaseOp::Recv {
                    value: l.var_in(body, value).map_err(|e| bad(&e))?,
                    zero: ZeroValue::of(l, body, value),
                },
            }),
            other => {
                return Err(bad(&format!(
                    "kind {other} is not 0 (default), 1 (send) or 2 (receive)"
                )))
            }
        }
    }
    Ok(Exec::Control(Control::Select(Select {
        cases,
        default,
        case_to_execute,
        body,
    })))
}
