//! Control-flow and CSP ops: while, conditional_block, go, select,
//! channel_send, channel_recv, channel_close (built here as the
//! `crate::exec::Control` the interpreter carries out), and channel_create
//! (an ordinary kernel).
use std::sync::Arc;

use fluidc_transpiler::{Op, VarKind};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::exec::{
    CaseOp, CondBlockGrad, Control, GradOut, KeepSteps, Recurrent, Select, SelectCase, WhileGrad,
    ZeroValue,
};
use crate::kernel::{is_placeholder, OpReader, Registry};
use crate::layout::{forward_of, step_copies};
use crate::scope::{Place, VarRef};
use crate::tensor::tensor_dtype;
use crate::value::{TypedChannel, Value};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("while", while_op);
    r.add("conditional_block", conditional_block);
    r.add("recurrent", recurrent);
    r.add("while_grad", while_grad);
    r.add("conditional_block_grad", conditional_block_grad);
    r.add("go", go);
    r.add("select", select);
    r.add("channel_create", channel_create);
    r.add("channel_send", channel_send);
    r.add("channel_recv", channel_recv);
    r.add("channel_close", channel_close);
}

/// The zero value of variable `name` as seen from `block` (see [`ZeroValue`]).
fn zero_value(l: &OpReader, block: usize, name: &str) -> ZeroValue {
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

fn while_op(l: &OpReader) -> Result<Exec, KernelError> {
    let body = l.sub_block()?;
    let keep = match kept_for(l, "StepScopes")? {
        Some(scopes) => {
            let copies = step_copies(l.program, body, l.op.inputs_of("X"))
                .iter()
                .map(|n| l.var(n))
                .collect::<Result<_, _>>()?;
            Some(Box::new(KeepSteps { scopes, copies }))
        }
        None => None,
    };
    Ok(Exec::Control(Control::While {
        cond: l.input("Condition")?,
        body,
        keep,
    }))
}

/// The op's scopes output `slot`, if a grad op reads it (then the op keeps
/// its runs there; otherwise nothing needs them).
fn kept_for(l: &OpReader, slot: &str) -> Result<Option<VarRef>, KernelError> {
    match l.op.outputs_of(slot).first() {
        Some(name) if !is_placeholder(name) && l.is_kept(name) => l.var(name).map(Some),
        _ => Ok(None),
    }
}

/// The grad op's block and the forward block it runs over.
fn grad_blocks(l: &OpReader) -> Result<(usize, usize), KernelError> {
    let body = l.sub_block()?;
    let forward = forward_of(l.program, body).ok_or_else(|| {
        KernelError::Program(format!(
            "block {body} is not a grad block of a block beside it (its forward_block_idx)"
        ))
    })?;
    Ok((body, forward))
}

fn while_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (body, forward) = grad_blocks(l)?;
    let xs = l.op.inputs_of("X");
    let copies = step_copies(l.program, forward, xs)
        .iter()
        .map(|n| l.var_in(body, n))
        .collect::<Result<_, _>>()?;
    let ogs = l.op.inputs_of("Out@GRAD");
    let inside_ogs = l.strings("original_output_grad")?;
    let mut links = Vec::new();
    for (og, inside) in ogs.iter().zip(&inside_ogs) {
        // An undeclared output gradient is one nothing produces (the
        // verifier allows it here): Paddle's kernel skips it too.
        if is_placeholder(og) || l.program.find_var_recursive(l.block, og).is_none() {
            continue;
        }
        if matches!(l.owner(body, inside), Some(o) if o == body || o == forward) {
            links.push((l.var(og)?, l.var_in(body, inside)?));
        }
    }
    let mut zero_ogs = Vec::new();
    for og in ogs.iter().filter(|n| !is_placeholder(n)) {
        let declared = l.program.find_var_recursive(l.block, og).map(|(_, v)| v);
        if let Some(v) = declared.filter(|v| v.kind() == Some(VarKind::DenseTensor)) {
            let dims = v.tensor_desc().map(|t| t.dims.clone()).unwrap_or_default();
            if let (Some(dtype), true) = (v.dtype(), dims.iter().all(|&d| d >= 0)) {
                zero_ogs.push((l.var(og)?, dtype, dims));
            }
        }
    }
    let pgs = l.op.outputs_of("X@GRAD");
    if pgs.len() != xs.len() {
        return Err(KernelError::Program(format!(
            "X@GRAD has {} arguments but X has {}; they pair up",
            pgs.len(),
            xs.len()
        )));
    }
    let mut grads = Vec::new();
    for (x, pg) in xs.iter().zip(pgs) {
        if is_placeholder(pg) {
            continue;
        }
        let inside = format!("{x}@GRAD");
        let carried = ogs.contains(pg);
        let local = matches!(l.owner(body, &inside), Some(o) if o == body || o == forward);
        if !carried && !local {
            return Err(KernelError::Program(format!(
                "the gradient `{inside}` of `{x}` is not a variable of the grad block {body} \
                 or of the loop body {forward}"
            )));
        }
        grads.push(GradOut {
            outside: l.var(pg)?,
            inside: l.var_in(body, &inside)?,
            carried,
        });
    }
    Ok(Exec::Control(Control::WhileGrad(Box::new(WhileGrad {
        scopes: l.input("StepScopes")?,
        body,
        forward,
        copies,
        links,
        zero_ogs,
        grads,
    }))))
}

fn conditional_block_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (body, forward) = grad_blocks(l)?;
    let (conds, scalar) = branch_condition(l)?;
    let mut grads = Vec::new();
    // 1.x's grad also gives a float condition the gradient the block
    // computed for it (`Cond@GRAD`, which 3.3.1 dropped).
    let pairs = ["Input", "Cond"].into_iter().flat_map(|slot| {
        l.op.inputs_of(slot)
            .iter()
            .zip(l.op.outputs_of(&format!("{slot}@GRAD")))
    });
    for (x, ig) in pairs {
        if is_placeholder(ig) {
            continue;
        }
        let inside = format!("{x}@GRAD");
        let local = matches!(l.owner(body, &inside), Some(o) if o == body || o == forward);
        let inside = if local {
            Some(l.var_in(body, &inside)?)
        } else {
            None
        };
        grads.push((l.var(ig)?, l.var(x)?, inside));
    }
    Ok(Exec::Control(Control::CondBlockGrad(Box::new(
        CondBlockGrad {
            conds,
            scalar,
            scope: l.input("Scope")?,
            body,
            forward,
            grads,
        },
    ))))
}

/// The condition of a conditional block or its grad. Reads both
/// spellings: `Cond` (Paddle 3) and `X` (2018).
fn branch_condition(l: &OpReader) -> Result<(Vec<VarRef>, bool), KernelError> {
    let conds = if l.op.inputs.iter().any(|s| s.parameter == "Cond") {
        l.inputs("Cond")?
    } else {
        l.inputs("X")?
    };
    let scalar = l.bool_or("is_scalar_condition", false)?;
    if scalar && conds.len() != 1 {
        return Err(KernelError::Program(format!(
            "a scalar condition needs one condition variable, got {}",
            conds.len()
        )));
    }
    Ok((conds, scalar))
}

/// 1.x's `recurrent` (see [`Recurrent`]). Its `step_scopes` are for its
/// grad op, which fluidc does not run (1.x programs saved with one are
/// inference models), so they stay empty.
fn recurrent(l: &OpReader) -> Result<Exec, KernelError> {
    let body = l.sub_block()?;
    let outside_inside = |names: &[String]| -> Result<Vec<(VarRef, VarRef)>, KernelError> {
        names
            .iter()
            .map(|n| Ok((l.var(n)?, l.var_in(body, n)?)))
            .collect()
    };
    let inputs = outside_inside(l.op.inputs_of("inputs"))?;
    if inputs.is_empty() {
        return Err(KernelError::Program(
            "recurrent has no inputs to take its steps from".into(),
        ));
    }
    let outputs = outside_inside(l.op.outputs_of("outputs"))?;
    let initial = l.op.inputs_of("initial_states");
    let (ex_states, states) = (l.strings("ex_states")?, l.strings("states")?);
    if initial.len() != ex_states.len() || states.len() != ex_states.len() {
        return Err(KernelError::Program(format!(
            "recurrent has {} initial_states, {} ex_states and {} states; they pair up",
            initial.len(),
            ex_states.len(),
            states.len()
        )));
    }
    let states = initial
        .iter()
        .zip(&ex_states)
        .zip(&states)
        .map(|((i, e), s)| Ok((l.var(i)?, l.var_in(body, e)?, l.var_in(body, s)?)))
        .collect::<Result<_, KernelError>>()?;
    Ok(Exec::Control(Control::Recurrent(Box::new(Recurrent {
        body,
        inputs,
        states,
        outputs,
        reverse: l.bool_or("reverse", false)?,
    }))))
}

fn conditional_block(l: &OpReader) -> Result<Exec, KernelError> {
    let (conds, scalar) = branch_condition(l)?;
    Ok(Exec::Control(Control::CondBlock {
        conds,
        scalar,
        body: l.sub_block()?,
        keep: kept_for(l, "Scope")?,
    }))
}

fn go(l: &OpReader) -> Result<Exec, KernelError> {
    Ok(Exec::Control(Control::Go {
        body: l.sub_block()?,
    }))
}

fn channel_create(l: &OpReader) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    let elem = l.int_or("data_type", VarKind::DenseTensor as i64)?;
    let elem = i32::try_from(elem)
        .map_err(|_| KernelError::Attribute(format!("data_type {elem} is not a type number")))?;
    let capacity = l.int("capacity")?;
    let capacity = usize::try_from(capacity).map_err(|_| {
        KernelError::Attribute(format!("capacity must be 0 or more, got {capacity}"))
    })?;
    compute(move |s| {
        let chan = TypedChannel::new(capacity, elem);
        s.set(&out, Value::Channel(Arc::new(chan)));
        Ok(())
    })
}

fn channel_send(l: &OpReader) -> Result<Exec, KernelError> {
    Ok(Exec::Control(Control::Send {
        channel: l.input("Channel")?,
        x: l.input("X")?,
    }))
}

fn channel_recv(l: &OpReader) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    Ok(Exec::Control(Control::Recv {
        channel: l.input("Channel")?,
        zero: zero_value(l, l.block, &out.name),
        out,
        status: l.opt_output("Status")?,
    }))
}

fn channel_close(l: &OpReader) -> Result<Exec, KernelError> {
    Ok(Exec::Control(Control::Close {
        channel: l.input("Channel")?,
    }))
}

/// Parses `cases` (`"<index>,<kind>,<channel>,<value>"`, kind 0 default,
/// 1 send, 2 receive) and resolves each case's variables.
fn select(l: &OpReader) -> Result<Exec, KernelError> {
    let body = l.sub_block()?;
    let case_to_execute = l.input("case_to_execute")?;
    let mut cases = Vec::new();
    let mut default = None;
    for (pos, text) in l.strings("cases")?.iter().enumerate() {
        let why = |why: &str| format!("select case {pos} ({text:?}): {why}");
        let bad = |w: &str| KernelError::Attribute(why(w));
        let parts: Vec<&str> = text.split(',').collect();
        let [index, kind, channel, value] = parts[..] else {
            return Err(bad("expected \"<index>,<kind>,<channel>,<value>\""));
        };
        let index: i32 = index
            .trim()
            .parse()
            .map_err(|_| bad("the index is not a number"))?;
        match kind.trim() {
            "0" if default.is_some() => return Err(bad("a select can have only one default case")),
            "0" => default = Some(index),
            "1" => cases.push(SelectCase {
                index,
                channel: l.var(channel).map_err(|e| e.map_message(why))?,
                op: CaseOp::Send(l.var(value).map_err(|e| e.map_message(why))?),
            }),
            "2" => cases.push(SelectCase {
                index,
                channel: l.var(channel).map_err(|e| e.map_message(why))?,
                op: CaseOp::Recv {
                    value: l.var_in(body, value).map_err(|e| e.map_message(why))?,
                    zero: zero_value(l, body, value),
                },
            }),
            other => {
                return Err(bad(&format!(
                    "kind {other} is not 0 (default), 1 (send) or 2 (receive)"
                )))
            }
        }
    }
    let dispatch = case_dispatch(l, body, &case_to_execute);
    Ok(Exec::Control(Control::Select(Select {
        cases,
        default,
        case_to_execute,
        body,
        dispatch,
    })))
}

/// The lowered select's cases block (docs/programs.md) holds, for each case, three
/// ops: `fill_constant` [1] INT32 k, `equal`(that, case_to_execute), and a
/// scalar `conditional_block` on the result running the case's body. Once
/// the select has set case_to_execute, they run exactly the body of the case
/// whose k it holds, and the other ops only compute temporaries nothing else
/// reads. So when the block is exactly that (and no op in the case bodies
/// can see those temporaries or change case_to_execute), the interpreter
/// runs the chosen body directly instead of some six ops per select: this
/// returns, per k, the body's block. `None` for anything else (the block
/// then runs op by op, as always).
fn case_dispatch(l: &OpReader, body: usize, case_to_execute: &VarRef) -> Option<Vec<(i32, usize)>> {
    let p = l.program;
    let ops = &p.blocks.get(body)?.ops;
    let selector = case_to_execute.name.as_ref();
    // case_to_execute must be a local variable of an enclosing block (no
    // other goroutine can write it), the same one from the cases block.
    let seen_from_body = l.var_in(body, selector).ok()?;
    if !matches!(seen_from_body.place, Place::Local { up, .. } if up >= 1) {
        return None;
    }
    let owned_by_body = |name: &str| {
        matches!(
            l.var_in(body, name).map(|r| r.place),
            Ok(Place::Local { up: 0, .. })
        )
    };
    let one = |op: &Op, slot: &str, input: bool| -> Option<String> {
        let reader = l.for_op(body, op);
        match reader.var_names(slot, input).ok()?.as_slice() {
            [name] => Some(name.clone()),
            _ => None,
        }
    };
    let mut table = Vec::new();
    let mut temporaries = Vec::new();
    if ops.len() % 3 != 0 {
        return None;
    }
    for triple in ops.chunks(3) {
        let [fill, equal, cond] = triple else {
            return None;
        };
        // fill_constant [1] INT32 k, from attributes only.
        let fl = l.for_op(body, fill);
        if fill.ty != "fill_constant"
            || fill.input_names().any(|n| !n.is_empty() && n != "@EMPTY@")
            || fl.dtype("dtype", VarKind::Fp32).ok()? != VarKind::Int32
            || fl.ints("shape").ok()?? != [1]
        {
            return None;
        }
        let k = match fl.string("str_value").ok()?.filter(|s| !s.is_empty()) {
            Some(s) => s.trim().parse::<i32>().ok()?,
            None => {
                let v = fl.float_or("value", 0.0).ok()?;
                (v.fract() == 0.0 && v.abs() < 1e9).then_some(v as i32)?
            }
        };
        let t = one(fill, "Out", false)?;
        // equal(t, case_to_execute), either way round.
        let (x, y) = (one(equal, "X", true)?, one(equal, "Y", true)?);
        let e = one(equal, "Out", false)?;
        if equal.ty != "equal"
            || !((x == t && y == selector) || (x == selector && y == t))
            || l.for_op(body, equal).int_or("axis", -1).ok()? != -1
        {
            return None;
        }
        // A scalar conditional_block on e.
        let cl = l.for_op(body, cond);
        let cond_slot = if cond.inputs.iter().any(|s| s.parameter == "Cond") {
            "Cond"
        } else {
            "X"
        };
        if cond.ty != "conditional_block"
            || !cl.bool_or("is_scalar_condition", false).ok()?
            || one(cond, cond_slot, true)? != e
        {
            return None;
        }
        if !owned_by_body(&t) || !owned_by_body(&e) || table.iter().any(|(v, _)| *v == k) {
            return None;
        }
        table.push((k, cl.sub_block().ok()?));
        temporaries.extend([t, e]);
    }
    // Nothing below the cases block names a temporary or writes
    // case_to_execute.
    for (b, block) in p.blocks.iter().enumerate() {
        if b == body || !p.scope_chain(b).contains(&body) {
            continue;
        }
        for op in &block.ops {
            let names_temporary = op
                .input_names()
                .chain(op.output_names())
                .any(|n| temporaries.iter().any(|t| t == n));
            if names_temporary || op.output_names().any(|n| n == selector) {
                return None;
            }
        }
    }
    Some(table)
}
