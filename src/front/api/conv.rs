//! The layers of training scripts beyond `fc` (SPEC §9.2), built as Paddle
//! 1.x built them: `embedding` (`lookup_table`), `conv2d`, `pool2d`,
//! `batch_norm`, `dropout`, `concat`, `stack`, `expand`, `flatten`
//! (`flatten2`), `reshape` (`reshape2`), `transpose`
//! (`transpose2`). Output variables are declared with the dtype and dims
//! the op's definition infers (one definition per op), as Paddle's
//! InferShape declares them.
use fluidc_transpiler::ops::{self, InferCtx, TensorType};
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{activation, dims, dtype_of, layer_helper};
use super::math::elementwise;
use super::param::{create_parameter, param_attr, Init, ParamAttr};
use crate::front::diag::{Diagnostic, Result};
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

/// Appends `op` (its outputs bound to `outs`, already declared) and
/// re-declares each output with the dtype and dims the definition infers.
pub(super) fn append_inferred(i: &mut Host, op: Op, a: &Args) -> Result<()> {
    append_inferred_at(i, op, a.call.clone())
}

/// [`append_inferred`] for ops a construct appends (an error names `sp`).
pub(super) fn append_inferred_at(i: &mut Host, op: Op, sp: std::ops::Range<usize>) -> Result<()> {
    let def = ops::def(&op.ty);
    let types = |name: &str| {
        let r = i.b.lookup(name)?;
        let v = i.b.var(&r);
        Some(TensorType::new(
            v.dtype()?,
            v.tensor_desc().map(|t| t.dims.clone()).unwrap_or_default(),
        ))
    };
    let mut full = op.clone();
    ops::fill_defaults(&mut full);
    let inferred = match def.behaviour.infer {
        Some(infer) => infer(&InferCtx::new(&full, def, types))
            .map_err(|e| Diagnostic::new(sp, format!("{}: {e}", op.ty)))?,
        None => Vec::new(),
    };
    for (slot, t) in inferred {
        for name in op.outputs_of(slot).to_vec() {
            if let Some(r) = i.b.lookup(&name) {
                let var = i.b.var_mut(&r);
                if let Some(d) = var.ty.dense_tensor.as_mut() {
                    d.tensor.dims = t.dims.clone();
                    d.tensor.data_type = t.dtype as i32;
                }
            }
        }
    }
    i.b.append(op);
    Ok(())
}

/// `reshape2(x, shape)` as the `reshape` layer appends it (StaticRNN's
/// step inputs and outputs too): the output and the helper's name.
pub(super) fn reshape2(
    i: &mut Host,
    x: &VarRef,
    shape: &[i64],
    sp: std::ops::Range<usize>,
) -> Result<(VarRef, String)> {
    let helper = i.b.helper_name("reshape2");
    let dtype = dtype_of(i, x);
    let out = tmp(i, &helper, dtype);
    let xshape = tmp(i, &helper, dtype);
    let op = Op::new("reshape2")
        .input("X", &[&x.name])
        .output("Out", &[&out.name])
        .output("XShape", &[&xshape.name])
        .attr(
            "shape",
            AttrValue::Ints(shape.iter().map(|&d| d as i32).collect()),
        );
    append_inferred_at(i, op, sp)?;
    Ok((out, helper))
}

/// 1.x `convert_to_list`: an int repeated, or a list of `n`.
fn pair(a: &Args, name: &str) -> Result<Vec<i64>> {
    match a.get(name) {
        Value::Int(n) => Ok(vec![*n, *n]),
        _ => {
            let v = a.ints(name)?;
            if v.len() != 2 {
                return Err(a.err(name, format!("{name} must be an int or a list of 2 ints")));
            }
            Ok(v)
        }
    }
}

/// 1.x `_update_padding` for 2-D: `[ph, pw]`, or `[t, b, l, r]` when
/// asymmetric; "SAME"/"VALID".
fn padding(a: &Args, name: &str) -> Result<(Vec<i64>, &'static str)> {
    match a.get(name) {
        Value::Str(s) => match s.to_uppercase().as_str() {
            "SAME" => Ok((vec![0, 0], "SAME")),
            "VALID" => Ok((vec![0, 0], "VALID")),
            _ => Err(a.err(
                name,
                format!("unknown padding '{s}': use SAME, VALID or ints"),
            )),
        },
        Value::Int(n) => Ok((vec![*n, *n], "EXPLICIT")),
        _ => {
            let v = a.ints(name)?;
            match v.len() {
                2 => Ok((v, "EXPLICIT")),
                4 if v[0] == v[1] && v[2] == v[3] => Ok((vec![v[0], v[2]], "EXPLICIT")),
                4 => Ok((v, "EXPLICIT")),
                _ => Err(a.err(
                    name,
                    format!("{name} must be an int or a list of 2 or 4 ints"),
                )),
            }
        }
    }
}

fn tmp(i: &mut Host, helper: &str, dtype: VarKind) -> VarRef {
    i.b.tmp_var(helper, dtype, vec![])
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.embedding", "fluid.embedding"],
        [
            ("input", Req),
            ("size", Req),
            ("is_sparse", Bool(false)),
            ("is_distributed", Bool(false)),
            ("padding_idx", Nil),
            ("param_attr", Nil),
            ("dtype", Str("float32"))
        ],
        Rest::No,
        embedding
    ),
    builtin!(
        ["fluid.layers.conv2d"],
        [
            ("input", Req),
            ("num_filters", Req),
            ("filter_size", Req),
            ("stride", Int(1)),
            ("padding", Int(0)),
            ("dilation", Int(1)),
            ("groups", Nil),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("use_cudnn", Bool(true)),
            ("act", Nil),
            ("name", Nil),
            ("data_format", Str("NCHW"))
        ],
        Rest::No,
        conv2d
    ),
    builtin!(
        ["fluid.layers.pool2d"],
        [
            ("input", Req),
            ("pool_size", Int(-1)),
            ("pool_type", Str("max")),
            ("pool_stride", Int(1)),
            ("pool_padding", Int(0)),
            ("global_pooling", Bool(false)),
            ("use_cudnn", Bool(true)),
            ("ceil_mode", Bool(false)),
            ("name", Nil),
            ("exclusive", Bool(true)),
            ("data_format", Str("NCHW"))
        ],
        Rest::No,
        pool2d
    ),
    builtin!(
        ["fluid.layers.batch_norm"],
        [
            ("input", Req),
            ("act", Nil),
            ("is_test", Bool(false)),
            ("momentum", Float(0.9)),
            ("epsilon", Float(1e-5)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("data_layout", Str("NCHW")),
            ("in_place", Bool(false)),
            ("name", Nil),
            ("moving_mean_name", Nil),
            ("moving_variance_name", Nil),
            ("do_model_average_for_mean_and_var", Bool(true)),
            ("use_global_stats", Bool(false))
        ],
        Rest::No,
        batch_norm
    ),
    builtin!(
        ["fluid.layers.dropout"],
        [
            ("x", Req),
            ("dropout_prob", Req),
            ("is_test", Bool(false)),
            ("seed", Nil),
            ("name", Nil),
            ("dropout_implementation", Str("downgrade_in_infer"))
        ],
        Rest::No,
        dropout
    ),
    builtin!(
        ["fluid.layers.concat"],
        [("input", Req), ("axis", Int(0)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let xs = a.var_list("input")?;
            let Some(first) = xs.first() else {
                return Err(a.err("input", "concat needs at least one Variable"));
            };
            let helper = i.b.helper_name("concat");
            let out = tmp(i, &helper, dtype_of(i, first));
            let names: Vec<&str> = xs.iter().map(|v| &*v.name).collect();
            let op = Op::new("concat")
                .input("X", &names)
                .output("Out", &[&out.name])
                .attr("axis", AttrValue::Int(a.int32("axis")?));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.reshape"],
        [
            ("x", Req),
            ("shape", Req),
            ("actual_shape", Nil),
            ("act", Nil),
            ("inplace", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            if !a.is_none("actual_shape") {
                return Err(a.err("actual_shape", "reshape's actual_shape is not supported"));
            }
            let shape = a.ints("shape")?;
            let (out, helper) = reshape2(i, &x, &shape, a.call.clone())?;
            activation(i, a, out, &helper)
        }
    ),
    builtin!(
        ["fluid.layers.stack"],
        [("x", Req), ("axis", Int(0))],
        Rest::No,
        |i, a| {
            let xs = a.var_list("x")?;
            let Some(first) = xs.first() else {
                return Err(a.err("x", "stack needs at least one Variable"));
            };
            let helper = i.b.helper_name("stack");
            let out = tmp(i, &helper, dtype_of(i, first));
            let names: Vec<&str> = xs.iter().map(|v| &*v.name).collect();
            let op = Op::new("stack")
                .input("X", &names)
                .output("Y", &[&out.name])
                .attr("axis", AttrValue::Int(a.int32("axis")?));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.expand"],
        [("x", Req), ("expand_times", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let times = a.ints("expand_times")?;
            let helper = i.b.helper_name("expand");
            let out = tmp(i, &helper, dtype_of(i, &x));
            let op = Op::new("expand")
                .input("X", &[&x.name])
                .output("Out", &[&out.name])
                .attr(
                    "expand_times",
                    AttrValue::Ints(times.iter().map(|&t| t as i32).collect()),
                );
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.flatten"],
        [("x", Req), ("axis", Int(1)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let axis = a.int("axis")?;
            let rank = dims(i, &x).len() as i64;
            if !(0..=rank).contains(&axis) {
                return Err(a.err(
                    "axis",
                    format!("axis {axis} must be between 0 and the rank of x, {rank}"),
                ));
            }
            let helper = i.b.helper_name("flatten");
            let dtype = dtype_of(i, &x);
            let out = tmp(i, &helper, dtype);
            let xshape = tmp(i, &helper, dtype);
            let op = Op::new("flatten2")
                .input("X", &[&x.name])
                .output("Out", &[&out.name])
                .output("XShape", &[&xshape.name])
                .attr("axis", AttrValue::Int(axis as i32));
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.transpose"],
        [("x", Req), ("perm", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let perm = a.ints("perm")?;
            let helper = i.b.helper_name("transpose");
            let dtype = dtype_of(i, &x);
            let out = tmp(i, &helper, dtype);
            let xshape = tmp(i, &helper, dtype);
            let op = Op::new("transpose2")
                .input("X", &[&x.name])
                .output("Out", &[&out.name])
                .output("XShape", &[&xshape.name])
                .attr(
                    "axis",
                    AttrValue::Ints(perm.iter().map(|&d| d as i32).collect()),
                );
            append_inferred(i, op, a)?;
            Ok(Value::Var(out))
        }
    ),
];

fn embedding(i: &mut Host, a: &mut Args) -> Result<Value> {
    let ids = a.var("input")?;
    let size = a.ints("size")?;
    if size.len() != 2 {
        return Err(a.err("size", "size must be [vocabulary size, embedding size]"));
    }
    let attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "embedding needs its table; param_attr cannot be False",
        )
    })?;
    let dtype = a.dtype("dtype")?;
    let is_sparse = a.bool("is_sparse")?;
    let is_distributed = a.bool("is_distributed")?;
    let padding_idx = match a.get("padding_idx") {
        Value::None => -1,
        _ => {
            let p = a.int("padding_idx")?;
            if p >= 0 {
                p
            } else {
                size[0] + p
            }
        }
    };
    let helper = i.b.helper_name("embedding");
    let w = create_parameter(i, &helper, &attr, size, dtype, false, None);
    let out = tmp(i, &helper, dtype);
    let op = Op::new("lookup_table")
        .input("Ids", &[&ids.name])
        .input("W", &[&w.name])
        .output("Out", &[&out.name])
        .attr("is_sparse", AttrValue::Bool(is_sparse))
        .attr("is_distributed", AttrValue::Bool(is_distributed))
        .attr(
            "remote_prefetch",
            AttrValue::Bool(is_sparse && !is_distributed),
        )
        .attr("padding_idx", AttrValue::Long(padding_idx));
    append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}

/// 1.x `append_bias_op` for a conv: a `[num_filters]` bias added on the
/// channel axis (none with `bias_attr=False`).
fn add_bias(
    i: &mut Host,
    helper: &str,
    x: VarRef,
    attr: Option<ParamAttr>,
    size: i64,
    axis: i32,
) -> VarRef {
    let Some(attr) = attr else {
        return x;
    };
    let dtype = dtype_of(i, &x);
    let b = create_parameter(i, helper, &attr, vec![size], dtype, true, None);
    let out = i.b.tmp_var(helper, dtype, dims(i, &x));
    elementwise(i, "elementwise_add", &x, &b, axis, Some(out))
}

fn conv2d(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let xd = dims(i, &x);
    let format = a.string("data_format")?;
    if xd.len() != 4 {
        return Err(a.err("input", "conv2d's input must be 4-D (NCHW or NHWC)"));
    }
    let channels = if format == "NHWC" { xd[3] } else { xd[1] };
    let num_filters = a.int("num_filters")?;
    let use_cudnn = a.bool("use_cudnn")?;
    let groups = match a.get("groups") {
        Value::None => None,
        _ => Some(a.int("groups")?),
    };
    let ty = if groups == Some(channels) && num_filters % channels.max(1) == 0 && !use_cudnn {
        "depthwise_conv2d"
    } else {
        "conv2d"
    };
    if ty != "conv2d" {
        return Err(a.err("groups", "depthwise_conv2d is not supported yet"));
    }
    let filter = pair(a, "filter_size")?;
    let stride = pair(a, "stride")?;
    let dilation = pair(a, "dilation")?;
    let (pad, algorithm) = padding(a, "padding")?;
    let filter_channels = channels / groups.unwrap_or(1).max(1);
    let shape = vec![num_filters, filter_channels, filter[0], filter[1]];
    let std = (2.0 / (filter[0] * filter[1] * channels) as f64).sqrt();
    let w_attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "conv2d needs a filter; param_attr cannot be False",
        )
    })?;
    let b_attr = param_attr(a, "bias_attr")?;
    let helper = match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.helper_name(ty),
    };
    let dtype = dtype_of(i, &x);
    let default = Init::Normal {
        mean: 0.0,
        std,
        seed: 0,
    };
    let w = create_parameter(i, &helper, &w_attr, shape, dtype, false, Some(default));
    let pre = tmp(i, &helper, dtype);
    let ints = |v: &[i64]| AttrValue::Ints(v.iter().map(|&d| d as i32).collect());
    let op = Op::new(ty)
        .input("Input", &[&x.name])
        .input("Filter", &[&w.name])
        .output("Output", &[&pre.name])
        .attr("strides", ints(&stride))
        .attr("paddings", ints(&pad))
        .attr("dilations", ints(&dilation))
        .attr("groups", AttrValue::Int(groups.unwrap_or(1) as i32))
        .attr("use_cudnn", AttrValue::Bool(use_cudnn))
        .attr("use_mkldnn", AttrValue::Bool(false))
        .attr("padding_algorithm", AttrValue::String(algorithm.into()))
        .attr("data_format", AttrValue::String(format.clone()));
    append_inferred(i, op, a)?;
    let axis = if format == "NHWC" { 3 } else { 1 };
    let biased = add_bias(i, &helper, pre, b_attr, num_filters, axis);
    activation(i, a, biased, &helper)
}

fn pool2d(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let pool_type = a.string("pool_type")?;
    if pool_type != "max" && pool_type != "avg" {
        return Err(a.err(
            "pool_type",
            format!("unknown pool_type '{pool_type}': use 'max' or 'avg'"),
        ));
    }
    let global = a.bool("global_pooling")?;
    if !global && matches!(a.get("pool_size"), Value::Int(-1)) {
        return Err(a.err(
            "pool_size",
            "pool_size is required unless global_pooling is True",
        ));
    }
    let size = pair(a, "pool_size")?;
    let stride = pair(a, "pool_stride")?;
    let (pad, algorithm) = padding(a, "pool_padding")?;
    let helper = layer_helper(i, a, "pool2d")?;
    let out = tmp(i, &helper, dtype_of(i, &x));
    let ints = |v: &[i64]| AttrValue::Ints(v.iter().map(|&d| d as i32).collect());
    let op = Op::new("pool2d")
        .input("X", &[&x.name])
        .output("Out", &[&out.name])
        .attr("pooling_type", AttrValue::String(pool_type))
        .attr("ksize", ints(&size))
        .attr("global_pooling", AttrValue::Bool(global))
        .attr("strides", ints(&stride))
        .attr("paddings", ints(&pad))
        .attr("padding_algorithm", AttrValue::String(algorithm.into()))
        .attr("use_cudnn", AttrValue::Bool(a.bool("use_cudnn")?))
        .attr("ceil_mode", AttrValue::Bool(a.bool("ceil_mode")?))
        .attr("use_mkldnn", AttrValue::Bool(false))
        .attr("exclusive", AttrValue::Bool(a.bool("exclusive")?))
        .attr("data_format", AttrValue::String(a.string("data_format")?));
    append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}

fn batch_norm(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let xd = dims(i, &x);
    let layout = a.string("data_layout")?;
    let channels = if layout == "NCHW" {
        xd.get(1).copied()
    } else {
        xd.last().copied()
    }
    .ok_or_else(|| a.err("input", "batch_norm's input needs a channel dimension"))?;
    if a.bool("in_place")? {
        return Err(a.err("in_place", "batch_norm(in_place=True) is not supported"));
    }
    let scale_attr = param_attr(a, "param_attr")?.ok_or_else(|| {
        a.err(
            "param_attr",
            "batch_norm needs a scale; param_attr cannot be False",
        )
    })?;
    let bias_attr = param_attr(a, "bias_attr")?
        .ok_or_else(|| a.err("bias_attr", "bias_attr should not be False in batch_norm"))?;
    let helper = layer_helper(i, a, "batch_norm")?;
    let dtype = match dtype_of(i, &x) {
        VarKind::Fp16 => VarKind::Fp32,
        d => d,
    };
    let shape = vec![channels];
    let scale = create_parameter(
        i,
        &helper,
        &scale_attr,
        shape.clone(),
        dtype,
        false,
        Some(Init::Constant(1.0)),
    );
    let bias = create_parameter(i, &helper, &bias_attr, shape.clone(), dtype, true, None);
    let stat = |name: Option<String>, value: f64| ParamAttr {
        name,
        initializer: Some(Init::Constant(value)),
        learning_rate: 1.0,
        regularizer: None,
        trainable: false,
    };
    let mean_attr = stat(a.opt_string("moving_mean_name")?, 0.0);
    let var_attr = stat(a.opt_string("moving_variance_name")?, 1.0);
    let mean = create_parameter(i, &helper, &mean_attr, shape.clone(), dtype, false, None);
    let variance = create_parameter(i, &helper, &var_attr, shape, dtype, false, None);
    let saved_mean = tmp(i, &helper, dtype);
    i.b.var_mut(&saved_mean).stop_gradient = Some(true);
    let saved_var = tmp(i, &helper, dtype);
    i.b.var_mut(&saved_var).stop_gradient = Some(true);
    let out = tmp(i, &helper, dtype_of(i, &x));
    let is_test = a.bool("is_test")?;
    // Paddle 3's CPU kernel needs ReserveSpace when training (1.x added it
    // only for cuDNN); made after Y, so Y keeps its 1.x name.
    let reserve = (!is_test).then(|| tmp(i, &helper, dtype_of(i, &x)));
    if let Some(r) = &reserve {
        i.b.var_mut(r).stop_gradient = Some(true);
    }
    let mut op = Op::new("batch_norm")
        .input("X", &[&x.name])
        .input("Scale", &[&scale.name])
        .input("Bias", &[&bias.name])
        .input("Mean", &[&mean.name])
        .input("Variance", &[&variance.name])
        .output("Y", &[&out.name])
        .output("MeanOut", &[&mean.name])
        .output("VarianceOut", &[&variance.name])
        .output("SavedMean", &[&saved_mean.name])
        .output("SavedVariance", &[&saved_var.name])
        .attr("epsilon", AttrValue::Float(a.float("epsilon")? as f32))
        .attr("is_test", AttrValue::Bool(is_test))
        .attr("data_layout", AttrValue::String(layout))
        .attr("use_mkldnn", AttrValue::Bool(false))
        .attr("fuse_with_relu", AttrValue::Bool(false))
        .attr(
            "use_global_stats",
            AttrValue::Bool(a.bool("use_global_stats")?),
        )
        .attr("momentum", AttrValue::Float(a.float("momentum")? as f32));
    if let Some(r) = &reserve {
        op = op.output("ReserveSpace", &[&r.name]);
    }
    append_inferred(i, op, a)?;
    activation(i, a, out, &helper)
}

fn dropout(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("x")?;
    let helper = layer_helper(i, a, "dropout")?;
    let out = tmp(i, &helper, dtype_of(i, &x));
    let mask = tmp(i, &helper, VarKind::Uint8);
    i.b.var_mut(&mask).stop_gradient = Some(true);
    let program_seed = i.b.random_seed(i.b.main);
    let seed = match a.get("seed") {
        Value::None | Value::Int(0) if program_seed != 0 => Some(program_seed),
        Value::None => None,
        _ => Some(a.int("seed")?),
    };
    let op = Op::new("dropout")
        .input("X", &[&x.name])
        .output("Out", &[&out.name])
        .output("Mask", &[&mask.name])
        .attr(
            "dropout_prob",
            AttrValue::Float(a.float("dropout_prob")? as f32),
        )
        .attr("is_test", AttrValue::Bool(a.bool("is_test")?))
        .attr("fix_seed", AttrValue::Bool(seed.is_some()))
        .attr("seed", AttrValue::Int(seed.unwrap_or(0) as i32))
        .attr(
            "dropout_implementation",
            AttrValue::String(a.string("dropout_implementation")?),
        );
    append_inferred(i, op, a)?;
    Ok(Value::Var(out))
}
