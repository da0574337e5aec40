//! Control flow: `While`, `ConditionalBlock`, `Switch` and `cond`, and the
//! ops that complete their blocks (`while`, `conditional_block`).
//!
//! A block's op lists what the block reads from outside (`X`, `Input`) and
//! what it writes that enclosing blocks see (`Out`), by the rule in
//! `fluidc_transpiler::dataflow`.
use std::ops::Range;
use std::rc::Rc;

use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::blocks::{block_io, guard, parent_of, step_scopes, strs, visible};
use super::builtin::{builtin, recv_object, Args, Builtin, Rest, D};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{GuardKind, Object, SwitchState, Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.While"],
        [("cond", Req), ("is_test", Bool(false)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let cond = a.var("cond")?;
            let var = i.b.var(&cond);
            // 1.x raises TypeError for both, so `assertRaises(TypeError)`
            // catches them.
            if var.dtype() != Some(VarKind::Bool) {
                return Err(a.err(
                    "cond",
                    format!(
                        "TypeError: the condition of While must be a bool Variable; `{}` is not",
                        cond.name
                    ),
                ));
            }
            let dims = var
                .tensor_desc()
                .map(|t| t.dims.clone())
                .unwrap_or_default();
            if dims.iter().all(|&d| d >= 0) && dims.iter().product::<i64>() != 1 {
                return Err(a.err(
                    "cond",
                    format!(
                        "TypeError: the condition of While must hold one bool; `{}` has shape {dims:?} (reduce it with reduce_all or reduce_any)",
                        cond.name
                    ),
                ));
            }
            Ok(Value::object(Object::While {
                cond,
                is_test: a.bool("is_test")?,
            }))
        }
    ),
    builtin!(["While.block"], [], Rest::No, |_, a| {
        let Object::While { cond, is_test } = &*recv_object(a) else {
            unreachable!("bound to While")
        };
        Ok(guard(GuardKind::While {
            cond: cond.clone(),
            is_test: *is_test,
        }))
    }),
    builtin!(
        ["fluid.layers.ConditionalBlock"],
        [
            ("inputs", Req),
            ("is_scalar_condition", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        |_, a| Ok(Value::object(Object::ConditionalBlock {
            inputs: a.var_list("inputs")?,
            is_scalar: a.bool("is_scalar_condition")?
        }))
    ),
    builtin!(["ConditionalBlock.block"], [], Rest::No, |_, a| {
        let Object::ConditionalBlock { inputs, is_scalar } = &*recv_object(a) else {
            unreachable!("bound to ConditionalBlock")
        };
        Ok(guard(GuardKind::Conditional {
            inputs: inputs.clone(),
            is_scalar: *is_scalar,
        }))
    }),
    builtin!(
        ["fluid.layers.Switch"],
        [("name", Nil)],
        Rest::No,
        |_, _| {
            Ok(Value::object(Object::Switch(std::cell::RefCell::new(
                SwitchState::default(),
            ))))
        }
    ),
    builtin!(["Switch.case"], [("condition", Req)], Rest::No, switch_case),
    builtin!(["Switch.default"], [], Rest::No, switch_default),
    builtin!(
        ["fluid.layers.cond"],
        [
            ("pred", Req),
            ("true_fn", Nil),
            ("false_fn", Nil),
            ("name", Nil)
        ],
        Rest::No,
        cond
    ),
    builtin!(
        ["fluid.layers.IfElse"],
        [("cond", Req), ("name", Nil)],
        Rest::No,
        |_, a| {
            Err(Diagnostic::new(a.call.clone(), "layers.IfElse is not supported by fluidc")
            .help("its split_lod_tensor/merge_lod_tensor ops are gone from Paddle 3; write layers.cond(pred, true_fn, false_fn) or use layers.Switch"))
        }
    ),
];

pub fn complete_while(i: &mut Host, program: usize, block: usize, cond: &VarRef, is_test: bool) {
    let parent = parent_of(i, program, block);
    let (reads, produced) = block_io(i, program, block, &[&cond.name]);
    let x = visible(i, program, parent, &reads);
    let out = visible(i, program, parent, &produced);
    let scopes = step_scopes(i, program, parent);
    i.b.append_to(
        program,
        parent,
        Op::new("while")
            .input("X", &strs(&x))
            .input("Condition", &[&cond.name])
            .output("Out", &strs(&out))
            .output("StepScopes", &[&scopes])
            .attr("sub_block", AttrValue::Block(block as i32))
            .attr("is_test", AttrValue::Bool(is_test)),
    );
}

/// Appends the `conditional_block` op for a finished block (Paddle 3 slots
/// `Cond`/`Input`).
pub fn complete_conditional(
    i: &mut Host,
    program: usize,
    block: usize,
    inputs: &[VarRef],
    is_scalar: bool,
) {
    let parent = parent_of(i, program, block);
    let (reads, produced) = block_io(i, program, block, &[]);
    let cond_names: Vec<&str> = inputs.iter().map(|v| &*v.name).collect();
    let params: Vec<String> = reads
        .into_iter()
        .filter(|r| !cond_names.contains(&r.as_str()))
        .collect();
    let params = visible(i, program, parent, &params);
    let out = visible(i, program, parent, &produced);
    let scope = step_scopes(i, program, parent);
    i.b.append_to(
        program,
        parent,
        Op::new("conditional_block")
            .input("Cond", &cond_names)
            .input("Input", &strs(&params))
            .output("Out", &strs(&out))
            .output("Scope", &[&scope])
            .attr("sub_block", AttrValue::Block(block as i32))
            .attr("is_scalar_condition", AttrValue::Bool(is_scalar)),
    );
}

fn switch_state(a: &Args) -> Result<Rc<Object>> {
    let obj = recv_object(a);
    let Object::Switch(s) = obj.as_ref() else {
        unreachable!("bound to Switch")
    };
    if !s.borrow().inside {
        return Err(Diagnostic::new(
            a.call.clone(),
            "a Switch case must be inside `with layers.Switch() as switch:`",
        ));
    }
    if s.borrow().has_default {
        return Err(Diagnostic::new(
            a.call.clone(),
            "no case may follow the default case of a Switch",
        ));
    }
    Ok(obj.clone())
}

/// `switch.case(c)`: runs when `c` holds and no earlier case did.
fn switch_case(i: &mut Host, a: &mut Args) -> Result<Value> {
    let c = a.var("condition")?;
    let obj = switch_state(a)?;
    let Object::Switch(s) = obj.as_ref() else {
        unreachable!("checked")
    };
    let previous = s.borrow().pre_not_conditions.last().cloned();
    let cond = match previous {
        None => {
            let not_c = super::logic::logical_not(i, &c, None);
            s.borrow_mut().pre_not_conditions.push(not_c);
            c
        }
        Some(pre_not) => {
            let not_c = super::logic::logical_not(i, &c, None);
            let new_not = super::logic::logical_and(i, &pre_not, &not_c);
            s.borrow_mut().pre_not_conditions.push(new_not);
            super::logic::logical_and(i, &pre_not, &c)
        }
    };
    Ok(guard(GuardKind::Conditional {
        inputs: vec![cond],
        is_scalar: true,
    }))
}

thread_local! {
    /// Switches a `case(...)` of which failed to evaluate (its error was
    /// reported): their default is not checked for a case before it.
    static FAILED_CASES: std::cell::RefCell<Vec<std::rc::Weak<Object>>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A call the evaluator skipped because an argument failed (SPEC §8.5):
/// a `switch.case(<failed>)` marks its Switch, so that the default after it
/// is no second error.
pub fn call_skipped(func: &Value) {
    if let Value::Builtin(b, Some(recv)) = func {
        if let (["Switch.case"], Value::Object(obj)) = (b.paths, recv.as_ref()) {
            FAILED_CASES.with(|f| {
                let mut f = f.borrow_mut();
                f.retain(|w| w.strong_count() > 0);
                f.push(Rc::downgrade(obj));
            });
        }
    }
}

fn had_failed_case(obj: &Rc<Object>) -> bool {
    FAILED_CASES.with(|f| {
        f.borrow()
            .iter()
            .any(|w| w.upgrade().is_some_and(|o| Rc::ptr_eq(&o, obj)))
    })
}

/// `switch.default()`: runs when no case did.
fn switch_default(_: &mut Host, a: &mut Args) -> Result<Value> {
    let obj = switch_state(a)?;
    let Object::Switch(s) = obj.as_ref() else {
        unreachable!("checked")
    };
    let last = s.borrow().pre_not_conditions.last().cloned();
    let Some(cond) = last else {
        if had_failed_case(&obj) {
            return Ok(Value::Poison);
        }
        return Err(Diagnostic::new(
            a.call.clone(),
            "a Switch needs a case before its default",
        ));
    };
    s.borrow_mut().has_default = true;
    Ok(guard(GuardKind::Conditional {
        inputs: vec![cond],
        is_scalar: true,
    }))
}

/// Runs one branch of `cond` in a scalar conditional block; what the branch
/// returns is copied to new variables of the enclosing block.
fn cond_branch(i: &mut Host, pred: &VarRef, f: &Value, sp: Range<usize>) -> Result<Option<Value>> {
    let program = i.b.main;
    let parent = i.b.current_block();
    let block = i.b.enter_block();
    let result = i.call(f.clone(), sp.clone());
    let copied = match &result {
        Ok(Value::None) => Ok(None),
        Ok(out) => copy_to_parent(i, out, parent, sp.clone()).map(Some),
        Err(e) => Err(e.clone()),
    };
    i.b.exit_block();
    complete_conditional(i, program, block, std::slice::from_ref(pred), true);
    copied
}

fn copy_to_parent(i: &mut Host, out: &Value, parent: usize, sp: Range<usize>) -> Result<Value> {
    match out {
        Value::Var(v) => {
            // As Paddle's copy_var_to_parent_block: an unnamed variable of the
            // parent block with the value's dtype, shape and type only, filled
            // by the `assign` layer.
            let src = i.b.var(v).clone();
            let name = i.b.unique("_generated_var");
            let var = Var {
                name,
                ty: src.ty,
                ..Var::plain("", VarKind::DenseTensor)
            };
            let program = i.b.main;
            let target = i.b.declare_in(program, parent, var);
            i.b.helper_name("assign");
            i.b.append(
                Op::new("assign")
                    .input("X", &[&v.name])
                    .output("Out", &[&target.name]),
            );
            Ok(Value::Var(target))
        }
        Value::List(_) | Value::Tuple(_) => {
            let items = out.items().unwrap_or_default();
            let mut copied = Vec::with_capacity(items.len());
            for it in &items {
                copied.push(copy_to_parent(i, it, parent, sp.clone())?);
            }
            Ok(if matches!(out, Value::Tuple(_)) {
                Value::tuple(copied)
            } else {
                Value::list(copied)
            })
        }
        other => Err(Diagnostic::new(
            sp,
            format!(
                "a branch of cond must return Variables (or None), not {}",
                other.type_name()
            ),
        )),
    }
}

/// `select_input([false, true], mask)`: the merge of both branches.
fn merge(i: &mut Host, f: &Value, t: &Value, mask: &VarRef, sp: Range<usize>) -> Result<Value> {
    match (f, t) {
        (Value::Var(fv), Value::Var(tv)) => {
            // Paddle's select_input: LayerHelper('select_input') creates an
            // unnamed variable shaped like the true branch's.
            i.b.helper_name("select_input");
            let mut var = i.b.var(tv).clone();
            var.name = i.b.unique("_generated_var");
            var.persistable = Some(false);
            var.need_check_feed = None;
            let out = i.b.declare(var);
            i.b.append(
                Op::new("select_input")
                    .input("X", &[&fv.name, &tv.name])
                    .input("Mask", &[&mask.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
        _ => match (f.items(), t.items()) {
            (Some(fs), Some(ts)) if fs.len() == ts.len() => {
                let mut merged = Vec::new();
                for (a, b) in fs.iter().zip(&ts) {
                    merged.push(merge(i, a, b, mask, sp.clone())?);
                }
                Ok(if matches!(t, Value::Tuple(_)) {
                    Value::tuple(merged)
                } else {
                    Value::list(merged)
                })
            }
            _ => Err(Diagnostic::new(
                sp,
                "true_fn and false_fn of cond must return the same structure of Variables",
            )),
        },
    }
}

/// `layers.cond(pred, true_fn, false_fn)` as Paddle's static graph builds it.
fn cond(i: &mut Host, a: &mut Args) -> Result<Value> {
    let pred = a.var("pred")?;
    let (tf, ff) = (a.get("true_fn").clone(), a.get("false_fn").clone());
    let sp = a.call.clone();
    let t = if matches!(tf, Value::None) {
        None
    } else {
        cond_branch(i, &pred, &tf, a.span("true_fn"))?
    };
    let f = if matches!(ff, Value::None) {
        None
    } else {
        let not_pred = super::logic::logical_not(i, &pred, None);
        cond_branch(i, &not_pred, &ff, a.span("false_fn"))?
    };
    match (t, f) {
        (None, None) => Ok(Value::None),
        (Some(t), Some(f)) => {
            let helper = i.b.helper_name("cast");
            let mask =
                i.b.tmp_var(&helper, VarKind::Int32, super::layer::dims(i, &pred));
            i.b.append(
                Op::new("cast")
                    .input("X", &[&pred.name])
                    .output("Out", &[&mask.name])
                    .attr("in_dtype", AttrValue::Int(VarKind::Bool as i32))
                    .attr("out_dtype", AttrValue::Int(VarKind::Int32 as i32)),
            );
            merge(i, &f, &t, &mask, sp)
        }
        _ => Err(Diagnostic::new(
            sp,
            "cond: true_fn and false_fn must both return Variables, or both return None",
        )),
    }
}
