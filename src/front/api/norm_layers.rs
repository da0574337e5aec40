//! 1.x's normalizing and loss layers beyond `batch_norm`: `layer_norm`,
//! `l2_normalize`, `prelu`, `label_smooth`, `huber_loss`, and `pad`. Each
//! makes its temporaries in the order 1.x's layer does, so they get 1.x's
//! names (`layer_norm_0.tmp_2` is `Y`).
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::conv::append_inferred;
use super::layer::{activation, dims, dtype_of, layer_helper};
use super::param::{create_parameter, param_attr, Init, ParamAttr};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::Value;

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.layer_norm"],
        [
            ("input", Req),
            ("scale", Bool(true)),
            ("shift", Bool(true)),
            ("begin_norm_axis", Int(1)),
            ("epsilon", Float(1e-5)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("act", Nil),
            ("name", Nil)
        ],
        Rest::No,
        layer_norm
    ),
    builtin!(
        ["fluid.layers.l2_normalize"],
        [
            ("x", Req),
            ("axis", Req),
            ("epsilon", Float(1e-12)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let rank = dims(i, &x).len();
            // 1.x: a vector is normalized along its one axis; None is 1.
            let axis = if rank == 1 {
                0
            } else if a.is_none("axis") {
                1
            } else {
                a.int32("axis")?
            };
            let helper = layer_helper(i, a, "l2_normalize")?;
            let dtype = dtype_of(i, &x);
            let out = i.b.tmp_var(&helper, dtype, vec![]);
            let norm = i.b.tmp_var(&helper, dtype, vec![]);
            let op = Op::new("norm")
                .input("X", &[&x.name])
                .output("Out", &[&out.name])
                .output("Norm", &[&norm.name])
                .attr("axis", AttrValue::Int(axis))
                .attr("epsilon", AttrValue::Float(a.float("epsilon")? as f32));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.prelu"],
        [
            ("x", Req),
            ("mode", Req),
            ("param_attr", Nil),
            ("name", Nil)
        ],
        Rest::No,
        prelu
    ),
    builtin!(
        ["fluid.layers.label_smooth"],
        [
            ("label", Req),
            ("prior_dist", Nil),
            ("epsilon", Float(0.1)),
            ("dtype", Str("float32")),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let label = a.var("label")?;
            let eps = a.float("epsilon")?;
            if !(0.0..=1.0).contains(&eps) {
                return Err(a.err(
                    "epsilon",
                    format!("epsilon is {eps}; it must be between 0 and 1"),
                ));
            }
            let prior = a.opt_var("prior_dist")?;
            let dtype = dtype_of(i, &label);
            if a.dtype("dtype")? != dtype {
                return Err(a.err(
                    "dtype",
                    format!(
                        "label_smooth's result has the label's dtype, {}; pass dtype='{0}' or cast the label first",
                        fluidc_transpiler::model::dtype_name(dtype)
                    ),
                ));
            }
            i.b.var_mut(&label).stop_gradient = Some(true);
            let helper = layer_helper(i, a, "label_smooth")?;
            let out = i.b.tmp_var(&helper, dtype, vec![]);
            let mut op = Op::new("label_smooth")
                .input("X", &[&label.name])
                .output("Out", &[&out.name])
                .attr("epsilon", AttrValue::Float(eps as f32));
            if let Some(p) = &prior {
                op = op.input("PriorDist", &[&p.name]);
            }
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.huber_loss"],
        [("input", Req), ("label", Req), ("delta", Req)],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("huber_loss");
            let dtype = dtype_of(i, &x);
            let residual = i.b.tmp_var(&helper, dtype, vec![]);
            let out = i.b.tmp_var(&helper, dtype, vec![]);
            let op = Op::new("huber_loss")
                .input("X", &[&x.name])
                .input("Y", &[&label.name])
                .output("Out", &[&out.name])
                .output("Residual", &[&residual.name])
                .attr("delta", AttrValue::Float(a.float("delta")? as f32));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.pad"],
        [
            ("x", Req),
            ("paddings", Req),
            ("pad_value", Float(0.0)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let paddings = a.ints("paddings")?;
            let helper = layer_helper(i, a, "pad")?;
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            let op = Op::new("pad")
                .input("X", &[&x.name])
                .output("Out", &[&out.name])
                .attr(
                    "paddings",
                    AttrValue::Ints(paddings.iter().map(|&p| p as i32).collect()),
                )
                .attr("pad_value", AttrValue::Float(a.float("pad_value")? as f32));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
];

/// A layer's parameter attribute; `False` (no parameter) is refused with
/// `why`.
fn required_attr(a: &Args, name: &str, why: &str) -> Result<ParamAttr> {
    param_attr(a, name)?.ok_or_else(|| a.err(name, why.to_string()))
}

fn layer_norm(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let xd = dims(i, &x);
    let axis = a.int("begin_norm_axis")?;
    if axis < 1 || axis as usize >= xd.len().max(1) {
        return Err(a.err(
            "begin_norm_axis",
            format!(
                "begin_norm_axis is {axis}; it must be in [1, {}) for input {xd:?}",
                xd.len()
            ),
        ));
    }
    let tail = &xd[axis as usize..];
    if tail.iter().any(|&d| d < 0) {
        return Err(a.err(
            "input",
            format!(
                "layer_norm needs the dims from begin_norm_axis {axis} known, but input is {xd:?}"
            ),
        ));
    }
    let shape = vec![tail.iter().product::<i64>()];
    let helper = layer_helper(i, a, "layer_norm")?;
    let dtype = dtype_of(i, &x);
    let mut op = Op::new("layer_norm").input("X", &[&x.name]);
    if a.bool("scale")? {
        let attr = required_attr(
            a,
            "param_attr",
            "layer_norm(scale=True) needs a scale; param_attr cannot be False",
        )?;
        let scale = create_parameter(
            i,
            &helper,
            &attr,
            shape.clone(),
            dtype,
            false,
            Some(Init::Constant(1.0)),
        );
        op = op.input("Scale", &[&scale.name]);
    }
    if a.bool("shift")? {
        let attr = required_attr(
            a,
            "bias_attr",
            "layer_norm(shift=True) needs a bias; bias_attr cannot be False",
        )?;
        let bias = create_parameter(i, &helper, &attr, shape, dtype, true, None);
        op = op.input("Bias", &[&bias.name]);
    }
    let mean = i.b.tmp_var(&helper, dtype, vec![]);
    i.b.var_mut(&mean).stop_gradient = Some(true);
    let variance = i.b.tmp_var(&helper, dtype, vec![]);
    i.b.var_mut(&variance).stop_gradient = Some(true);
    let out = i.b.tmp_var(&helper, dtype, vec![]);
    let op = op
        .output("Y", &[&out.name])
        .output("Mean", &[&mean.name])
        .output("Variance", &[&variance.name])
        .attr("epsilon", AttrValue::Float(a.float("epsilon")? as f32))
        .attr("begin_norm_axis", AttrValue::Int(axis as i32));
    append_inferred(i, op, a)?;
    activation(i, a, out, &helper)
}

fn prelu(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("x")?;
    let xd = dims(i, &x);
    let mode = a.string("mode")?;
    // 1.x's alpha shapes; `element` takes one sample's dims (1.x wrote
    // x.shape, whose unknown batch dim no parameter can have).
    let shape = match mode.as_str() {
        "all" => vec![1],
        "channel" if xd.len() >= 2 => vec![1, xd[1], 1, 1],
        "element" if !xd.is_empty() => [&[1][..], &xd[1..]].concat(),
        _ => {
            return Err(a.err(
                "mode",
                format!("prelu's mode is '{mode}'; it must be 'all', 'channel' or 'element' (the last two for input of rank 2 or more, it is {xd:?})"),
            ))
        }
    };
    let attr = required_attr(
        a,
        "param_attr",
        "prelu needs its alpha; param_attr cannot be False",
    )?;
    let helper = layer_helper(i, a, "prelu")?;
    let alpha = create_parameter(
        i,
        &helper,
        &attr,
        shape,
        VarKind::Fp32,
        false,
        Some(Init::Constant(1.0)),
    );
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
    let op = Op::new("prelu")
        .input("X", &[&x.name])
        .input("Alpha", &[&alpha.name])
        .output("Out", &[&out.name])
        .attr("mode", AttrValue::String(mode));
    append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}
