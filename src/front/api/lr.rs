//! Learning-rate schedules (SPEC §9.2) as Paddle 1.x's
//! `layers/learning_rate_scheduler.py` built them: a global step counter
//! (`@LR_DECAY_COUNTER@`, int64, incremented by an op prepended to the main
//! program), cast to float32, then ordinary Variable arithmetic
//! (`math_op_patch`), every main-program op with `op_role` LRSched. The
//! result is a Variable the optimizer takes as its learning rate.
//!
//! `piecewise_decay` is 1.x's Switch: a `learning_rate` global variable
//! filled in one conditional block per interval.
//!
//! `linear_lr_warmup` too: `learning_rate_warmup` is assigned in a case
//! block while the step is below `warmup_steps`, else the wrapped rate; and
//! `polynomial_decay(cycle=True)`, whose period restarts at step 0.
use fluidc_transpiler::backward::role;
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};
use rustpython_parser::ast::Operator;

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::math_op_patch::var_binary;
use super::tensor::cast_to;
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

const COUNTER: &str = "@LR_DECAY_COUNTER@";

/// `_decay_step_counter(begin)`: 1.x's `autoincreased_step_counter` on
/// `@LR_DECAY_COUNTER@` (see [`global_step_counter`]) as float32.
fn step_counter(i: &mut Host, begin: i64) -> VarRef {
    let counter = global_step_counter(i, COUNTER, begin, 1);
    cast_to(i, &counter, VarKind::Fp32)
}

/// `layers.autoincreased_step_counter(counter_name, begin, step)`: a
/// persistable int64 `[1]` global variable (created once per program,
/// initialized to `begin - 1` by a force_cpu `fill_constant` prepended to
/// the startup program, and increased by `step` by an `increment`
/// prepended to the main program, so first thing in every run).
fn global_step_counter(i: &mut Host, name: &str, begin: i64, step: i64) -> VarRef {
    let main = i.b.main;
    if !i.b.declares(main, 0, name) {
        global_var(i, name, VarKind::Int64, (begin - 1) as f64, true);
        i.b.prepend_to(
            main,
            0,
            Op::new("increment")
                .input("X", &[name])
                .output("Out", &[name])
                .attr("step", AttrValue::Float(step as f32)),
        );
    }
    VarRef {
        program: main,
        block: 0,
        name: name.into(),
    }
}

/// Runs `f` under `_lr_schedule_guard` (main-program ops get LRSched).
fn scheduled(i: &mut Host, f: impl FnOnce(&mut Host) -> Result<Value>) -> Result<Value> {
    i.b.op_guard = vec![("op_role".into(), AttrValue::Int(role::LR_SCHED))];
    let out = f(i);
    i.b.op_guard.clear();
    out
}

fn bin(i: &mut Host, a: &Args, op: Operator, l: Value, r: Value) -> Result<Value> {
    var_binary(i, op, l, r, a.call.clone())
}

fn num(a: &Args, name: &str) -> Result<Value> {
    Ok(Value::Float(a.float(name)?))
}

/// `global_step / decay_steps` of the exponential-family schedules,
/// floored with `staircase`.
fn div_res(i: &mut Host, a: &Args) -> Result<Value> {
    let step = step_counter(i, 0);
    let d = bin(
        i,
        a,
        Operator::Div,
        Value::Var(step),
        num(a, "decay_steps")?,
    )?;
    if a.bool("staircase")? {
        return var_unary(i, "floor", &d);
    }
    Ok(d)
}

fn var_unary(i: &mut Host, ty: &str, x: &Value) -> Result<Value> {
    let Value::Var(x) = x else {
        return Ok(x.clone());
    };
    super::layer::simple(i, ty, &[("X", x)], &[])
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.autoincreased_step_counter"],
        [("counter_name", Nil), ("begin", Int(1)), ("step", Int(1))],
        Rest::No,
        |i, a| {
            let name = a
                .opt_string("counter_name")?
                .unwrap_or_else(|| "@STEP_COUNTER@".to_string());
            let (begin, step) = (a.int("begin")?, a.int("step")?);
            Ok(Value::Var(global_step_counter(i, &name, begin, step)))
        }
    ),
    builtin!(
        ["fluid.layers.exponential_decay"],
        [
            ("learning_rate", Req),
            ("decay_steps", Req),
            ("decay_rate", Req),
            ("staircase", Bool(false))
        ],
        Rest::No,
        |i, a| scheduled(i, |i| {
            let d = div_res(i, a)?;
            let p = bin(i, a, Operator::Pow, num(a, "decay_rate")?, d)?;
            bin(i, a, Operator::Mult, num(a, "learning_rate")?, p)
        })
    ),
    builtin!(
        ["fluid.layers.natural_exp_decay"],
        [
            ("learning_rate", Req),
            ("decay_steps", Req),
            ("decay_rate", Req),
            ("staircase", Bool(false))
        ],
        Rest::No,
        |i, a| scheduled(i, |i| {
            let d = div_res(i, a)?;
            // `-1 * decay_rate * div_res`: the numbers multiply in Python.
            let c = Value::Float(-a.float("decay_rate")?);
            let e = bin(i, a, Operator::Mult, c, d)?;
            let e = var_unary(i, "exp", &e)?;
            bin(i, a, Operator::Mult, num(a, "learning_rate")?, e)
        })
    ),
    builtin!(
        ["fluid.layers.inverse_time_decay"],
        [
            ("learning_rate", Req),
            ("decay_steps", Req),
            ("decay_rate", Req),
            ("staircase", Bool(false))
        ],
        Rest::No,
        |i, a| scheduled(i, |i| {
            let d = div_res(i, a)?;
            let t = bin(i, a, Operator::Mult, num(a, "decay_rate")?, d)?;
            let t = bin(i, a, Operator::Add, Value::Int(1), t)?;
            bin(i, a, Operator::Div, num(a, "learning_rate")?, t)
        })
    ),
    builtin!(
        ["fluid.layers.polynomial_decay"],
        [
            ("learning_rate", Req),
            ("decay_steps", Req),
            ("end_learning_rate", Float(0.0001)),
            ("power", Float(1.0)),
            ("cycle", Bool(false))
        ],
        Rest::No,
        |i, a| {
            if a.bool("cycle")? {
                return polynomial_cycle(i, a);
            }
            scheduled(i, |i| {
                let step = step_counter(i, 0);
                let steps = a.float("decay_steps")?;
                let limit =
                    super::tensor::fill_constant(i, vec![1], VarKind::Fp32, steps, false, None);
                let step = super::math::elementwise(i, "elementwise_min", &step, &limit, -1, None);
                let (lr, end) = (a.float("learning_rate")?, a.float("end_learning_rate")?);
                let f = bin(i, a, Operator::Div, Value::Var(step), Value::Float(steps))?;
                let f = bin(i, a, Operator::Sub, Value::Int(1), f)?;
                let f = bin(i, a, Operator::Pow, f, num(a, "power")?)?;
                let f = bin(i, a, Operator::Mult, Value::Float(lr - end), f)?;
                bin(i, a, Operator::Add, f, Value::Float(end))
            })
        }
    ),
    builtin!(
        ["fluid.layers.noam_decay"],
        [
            ("d_model", Req),
            ("warmup_steps", Req),
            ("learning_rate", Float(1.0))
        ],
        Rest::No,
        |i, a| scheduled(i, |i| {
            let step = Value::Var(step_counter(i, 1));
            let x = bin(i, a, Operator::Pow, step.clone(), Value::Float(-0.5))?;
            let warm = a.float("warmup_steps")?.powf(-1.5);
            let y = bin(i, a, Operator::Mult, Value::Float(warm), step)?;
            let (Value::Var(x), Value::Var(y)) = (&x, &y) else {
                return Err(a.err("d_model", "noam_decay: internal error"));
            };
            let m = super::math::elementwise(i, "elementwise_min", x, y, -1, None);
            let c = a.float("learning_rate")? * a.float("d_model")?.powf(-0.5);
            bin(i, a, Operator::Mult, Value::Float(c), Value::Var(m))
        })
    ),
    builtin!(
        ["fluid.layers.piecewise_decay"],
        [("boundaries", Req), ("values", Req)],
        Rest::No,
        piecewise_decay
    ),
    builtin!(
        ["fluid.layers.cosine_decay"],
        [
            ("learning_rate", Req),
            ("step_each_epoch", Req),
            ("epochs", Req)
        ],
        Rest::No,
        |i, a| scheduled(i, |i| {
            let step = step_counter(i, 0);
            let e = bin(
                i,
                a,
                Operator::Div,
                Value::Var(step),
                num(a, "step_each_epoch")?,
            )?;
            let epoch = var_unary(i, "floor", &e)?;
            let x = bin(
                i,
                a,
                Operator::Mult,
                epoch,
                Value::Float(std::f64::consts::PI),
            )?;
            let x = bin(i, a, Operator::Div, x, num(a, "epochs")?)?;
            let c = var_unary(i, "cos", &x)?;
            let c = bin(i, a, Operator::Add, c, Value::Int(1))?;
            let lr = a.float("learning_rate")? * 0.5;
            bin(i, a, Operator::Mult, Value::Float(lr), c)
        })
    ),
    builtin!(
        ["fluid.layers.linear_lr_warmup"],
        [
            ("learning_rate", Req),
            ("warmup_steps", Req),
            ("start_lr", Req),
            ("end_lr", Req)
        ],
        Rest::No,
        linear_lr_warmup
    ),
];

/// A number or a list of numbers as floats.
fn floats(a: &Args, name: &str) -> Result<Vec<f64>> {
    let items = match a.get(name) {
        Value::List(l) => l.borrow().clone(),
        Value::Tuple(t) => t.to_vec(),
        other => {
            return Err(a.err(
                name,
                format!(
                    "{name} must be a list of numbers, not {}",
                    other.type_name()
                ),
            ))
        }
    };
    items
        .iter()
        .map(|v| match v {
            Value::Int(n) => Ok(*n as f64),
            Value::Float(f) => Ok(*f),
            other => Err(a.err(
                name,
                format!("{name} holds numbers, not {}", other.type_name()),
            )),
        })
        .collect()
}

/// 1.x `piecewise_decay(boundaries, values)`: `learning_rate` (a global
/// `[1]` variable) is `values[k]` while the step is below `boundaries[k]`,
/// built as a Switch: one conditional block per case, then the default.
fn piecewise_decay(i: &mut Host, a: &mut Args) -> Result<Value> {
    let boundaries = floats(a, "boundaries")?;
    let values = floats(a, "values")?;
    if values.len() != boundaries.len() + 1 {
        return Err(a.err("values", "len(values) - len(boundaries) should be 1"));
    }
    scheduled(i, |i| {
        let step = step_counter(i, 0);
        let main = i.b.main;
        i.b.helper_name("global_var");
        let lr = global_var(i, "learning_rate", VarKind::Fp32, 0.0, false);
        let mut pre_not: Option<VarRef> = None;
        let case = |i: &mut Host, cond: VarRef, value: f64| {
            let block = i.b.enter_block();
            super::tensor::fill_constant(i, vec![1], VarKind::Fp32, value, false, Some(lr.clone()));
            i.b.exit_block();
            super::control::complete_conditional(i, main, block, &[cond], true);
        };
        for (b, v) in boundaries.iter().zip(&values) {
            let bound = super::tensor::fill_constant(i, vec![1], VarKind::Fp32, *b, true, None);
            let c = super::math_op_patch::var_compare(
                i,
                rustpython_parser::ast::CmpOp::Lt,
                Value::Var(step.clone()),
                Value::Var(bound),
                a.call.clone(),
            )?;
            let Value::Var(c) = c else {
                return Err(a.err("boundaries", "piecewise_decay: internal error"));
            };
            let not_c = super::logic::logical_not(i, &c, None);
            let cond = match pre_not.take() {
                None => {
                    pre_not = Some(not_c);
                    c
                }
                Some(prev) => {
                    pre_not = Some(super::logic::logical_and(i, &prev, &not_c));
                    super::logic::logical_and(i, &prev, &c)
                }
            };
            case(i, cond, *v);
        }
        if let (Some(cond), Some(last)) = (pre_not, values.last()) {
            case(i, cond, *last);
        }
        Ok(Value::Var(lr))
    })
}

/// A persistable `[1]` global variable `name` (main and startup), set to
/// `value` by a `fill_constant` prepended to the startup program, outside
/// the LRSched guard: 1.x's `create_global_var` and the step counter's
/// `create_or_get_global_variable` with its initializer.
fn global_var(i: &mut Host, name: &str, dtype: VarKind, value: f64, force_cpu: bool) -> VarRef {
    let (main, startup) = (i.b.main, i.b.startup);
    let mut var = Var::dense(name, dtype, vec![1]);
    var.persistable = Some(true);
    var.stop_gradient = Some(true);
    let r = i.b.declare_in(main, 0, var.clone());
    i.b.declare_in(startup, 0, var);
    let text = if dtype == VarKind::Int64 {
        format!("{}", value as i64)
    } else {
        format!("{value:?}")
    };
    let guard = std::mem::take(&mut i.b.op_guard);
    i.b.prepend_to(
        startup,
        0,
        Op::new("fill_constant")
            .output("Out", &[name])
            .attr("shape", AttrValue::Longs(vec![1]))
            .attr("dtype", AttrValue::Int(dtype as i32))
            .attr("value", AttrValue::Float(value as f32))
            .attr("str_value", AttrValue::String(text))
            .attr("force_cpu", AttrValue::Bool(force_cpu)),
    );
    i.b.op_guard = guard;
    r
}

/// `assign(x, out)` of a Variable (the `assign` layer helper's op).
fn assign(i: &mut Host, x: &VarRef, out: &VarRef) {
    i.b.helper_name("assign");
    i.b.append(
        Op::new("assign")
            .input("X", &[&x.name])
            .output("Out", &[&out.name]),
    );
}

/// One case block of a Switch writing `out`: `body` builds its ops.
fn case_block(
    i: &mut Host,
    cond: &VarRef,
    body: impl FnOnce(&mut Host) -> Result<()>,
) -> Result<()> {
    let program = i.b.main;
    let block = i.b.enter_block();
    let r = body(i);
    i.b.exit_block();
    r?;
    super::control::complete_conditional(i, program, block, std::slice::from_ref(cond), true);
    Ok(())
}

/// 1.x `linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr)`.
fn linear_lr_warmup(i: &mut Host, a: &mut Args) -> Result<Value> {
    let wrapped = a.get("learning_rate").clone();
    let dtype = match &wrapped {
        Value::Var(v) => super::layer::dtype_of(i, v),
        Value::Int(_) | Value::Float(_) => VarKind::Fp32,
        other => {
            return Err(a.err(
                "learning_rate",
                format!(
                    "learning_rate must be a number or a Variable, not {}",
                    other.type_name()
                ),
            ))
        }
    };
    let (start, end) = (a.float("start_lr")?, a.float("end_lr")?);
    let warmup = a.get("warmup_steps").clone();
    let warmup_f = a.float("warmup_steps")?;
    scheduled(i, |i| {
        i.b.helper_name("global_var");
        let lr = global_var(i, "learning_rate_warmup", dtype, 0.0, false);
        let step = step_counter(i, 0);
        let below = super::math_op_patch::var_compare(
            i,
            rustpython_parser::ast::CmpOp::Lt,
            Value::Var(step.clone()),
            warmup,
            a.call.clone(),
        )?;
        let Value::Var(below) = below else {
            return Err(a.err("warmup_steps", "warmup_steps must be a number"));
        };
        let not_below = super::logic::logical_not(i, &below, None);
        case_block(i, &below, |i| {
            let f = bin(
                i,
                a,
                Operator::Div,
                Value::Var(step.clone()),
                Value::Float(warmup_f),
            )?;
            let f = bin(i, a, Operator::Mult, Value::Float(end - start), f)?;
            let f = bin(i, a, Operator::Add, Value::Float(start), f)?;
            if let Value::Var(v) = f {
                assign(i, &v, &lr);
            }
            Ok(())
        })?;
        case_block(i, &not_below, |i| {
            let source = match wrapped {
                Value::Var(v) => v,
                _ => {
                    let value = a.float("learning_rate")?;
                    super::tensor::fill_constant(i, vec![1], dtype, value, false, None)
                }
            };
            assign(i, &source, &lr);
            Ok(())
        })?;
        Ok(Value::Var(lr))
    })
}

/// 1.x `polynomial_decay(..., cycle=True)`: the decay period is
/// `decay_steps * ceil(step / decay_steps)` (at least one period).
fn polynomial_cycle(i: &mut Host, a: &mut Args) -> Result<Value> {
    scheduled(i, |i| {
        let step = step_counter(i, 0);
        let d = bin(
            i,
            a,
            Operator::Div,
            Value::Var(step.clone()),
            num(a, "decay_steps")?,
        )?;
        let Value::Var(div_res) = var_unary(i, "ceil", &d)? else {
            return Err(a.err("decay_steps", "polynomial_decay: internal error"));
        };
        let zero = super::tensor::fill_constant(i, vec![1], VarKind::Fp32, 0.0, false, None);
        let one = super::tensor::fill_constant(i, vec![1], VarKind::Fp32, 1.0, false, None);
        let at_zero = super::math_op_patch::var_compare(
            i,
            rustpython_parser::ast::CmpOp::Eq,
            Value::Var(step.clone()),
            Value::Var(zero),
            a.call.clone(),
        )?;
        let Value::Var(at_zero) = at_zero else {
            return Err(a.err("decay_steps", "polynomial_decay: internal error"));
        };
        // The Switch's one case (its negation is made for a default that
        // never comes, as 1.x's Switch makes it).
        super::logic::logical_not(i, &at_zero, None);
        case_block(i, &at_zero, |i| {
            assign(i, &one, &div_res);
            Ok(())
        })?;
        let period = bin(
            i,
            a,
            Operator::Mult,
            num(a, "decay_steps")?,
            Value::Var(div_res),
        )?;
        let (lr, end) = (a.float("learning_rate")?, a.float("end_learning_rate")?);
        let f = bin(i, a, Operator::Div, Value::Var(step), period)?;
        let f = bin(i, a, Operator::Sub, Value::Int(1), f)?;
        let f = bin(i, a, Operator::Pow, f, num(a, "power")?)?;
        let f = bin(i, a, Operator::Mult, Value::Float(lr - end), f)?;
        bin(i, a, Operator::Add, f, Value::Float(end))
    })
}
