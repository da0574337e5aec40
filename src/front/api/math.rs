//! Arithmetic layers: `elementwise_*` (with broadcasting `axis`), `scale`,
//! `increment`, `sums`, `sum` and the unary math ops (`square`, `sqrt`, `abs`,
//! `exp`, `log`). [`elementwise`] and [`scale_op`] are also what operator
//! overloading on Variables appends.
use fluidc_transpiler::{AttrValue, Op};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{activation, append_sum, broadcast_dims, dims, dtype_of, simple, unary_layer};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

/// Declares `fluid.layers.<name>(x, y, axis=-1, act=None, name=None)`.
macro_rules! elementwise_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [
                ("x", Req),
                ("y", Req),
                ("axis", Int(-1)),
                ("act", Nil),
                ("name", Nil)
            ],
            Rest::No,
            |i, a| {
                let (x, y) = (a.var("x")?, a.var("y")?);
                let axis = a.int32("axis")?;
                let helper = i.b.helper_name($name);
                let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
                let out = i.b.tmp_var(&helper, dtype_of(i, &x), d);
                elementwise(i, $name, &x, &y, axis, Some(out.clone()));
                activation(i, a, out, &helper)
            }
        )
    };
}

pub const BUILTINS: &[Builtin] = &[
    elementwise_layer!("elementwise_add"),
    elementwise_layer!("elementwise_sub"),
    elementwise_layer!("elementwise_mul"),
    elementwise_layer!("elementwise_div"),
    elementwise_layer!("elementwise_max"),
    elementwise_layer!("elementwise_min"),
    elementwise_layer!("elementwise_pow"),
    elementwise_layer!("elementwise_mod"),
    elementwise_layer!("elementwise_floordiv"),
    builtin!(
        ["fluid.layers.scale"],
        [
            ("x", Req),
            ("scale", Float(1.0)),
            ("bias", Float(0.0)),
            ("bias_after_scale", Bool(true)),
            ("act", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let helper = i.b.helper_name("scale");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            scale_op(
                i,
                &x,
                &out,
                a.float("scale")?,
                a.float("bias")?,
                a.bool("bias_after_scale")?,
            );
            activation(i, a, out, &helper)
        }
    ),
    builtin!(
        ["fluid.layers.increment"],
        [("x", Req), ("value", Float(1.0)), ("in_place", Bool(true))],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let helper = i.b.helper_name("increment");
            let out = if a.bool("in_place")? {
                x.clone()
            } else {
                i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x))
            };
            i.b.append(
                Op::new("increment")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name])
                    .attr("step", AttrValue::Float(a.float("value")? as f32)),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.sums"],
        [("input", Req), ("out", Nil)],
        Rest::No,
        |i, a| {
            let out = a.opt_var("out")?;
            sum_layer(i, a, "input", out)
        }
    ),
    // 1.x's `sum(x)`: `sums` without `out`.
    builtin!(["fluid.layers.sum"], [("x", Req)], Rest::No, |i, a| {
        sum_layer(i, a, "x", None)
    }),
    unary_layer!("square"),
    unary_layer!("sqrt"),
    unary_layer!("abs"),
    unary_layer!("exp"),
    unary_layer!("log"),
];

/// `sums`/`sum`: the `sum` op of the Variables in argument `arg` (one, or
/// a list) into `out` or a new `sum_N.tmp_0`.
fn sum_layer(i: &mut Host, a: &Args, arg: &str, out: Option<VarRef>) -> Result<Value> {
    let xs = a.var_list(arg)?;
    let first = xs.first().ok_or_else(|| {
        a.err(
            arg,
            format!("{}() needs at least one Variable", a.short_name()),
        )
    })?;
    let helper = i.b.helper_name("sum");
    let out = match out {
        Some(o) => o,
        None => i.b.tmp_var(&helper, dtype_of(i, first), dims(i, first)),
    };
    append_sum(i, &xs, &out);
    Ok(Value::Var(out))
}

/// `elementwise_<kind>` into `out` (or a new `<kind>_N.tmp_0`).
pub fn elementwise(
    i: &mut Host,
    ty: &str,
    x: &VarRef,
    y: &VarRef,
    axis: i32,
    out: Option<VarRef>,
) -> VarRef {
    let out = out.unwrap_or_else(|| {
        let helper = i.b.helper_name(ty);
        let d = broadcast_dims(&dims(i, x), &dims(i, y));
        i.b.tmp_var(&helper, dtype_of(i, x), d)
    });
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name])
            .attr("axis", AttrValue::Int(axis)),
    );
    out
}

pub fn scale_op(
    i: &mut Host,
    x: &VarRef,
    out: &VarRef,
    scale: f64,
    bias: f64,
    bias_after_scale: bool,
) {
    i.b.append(
        Op::new("scale")
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr("scale", AttrValue::Float(scale as f32))
            .attr("bias", AttrValue::Float(bias as f32))
            .attr("bias_after_scale", AttrValue::Bool(bias_after_scale)),
    );
}
