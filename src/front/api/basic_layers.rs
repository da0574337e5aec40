//! Small 1.x layers, each appending the one op Paddle 1.x appends:
//! `leaky_relu`, `relu6`, `elu`, `pow`, `hard_sigmoid`, `swish`, `clip`, `sign`, the other 1.x
//! activations (`floor` ... `stanh`), `zeros_like`, `ones_like`, `shape`,
//! `gather`, `topk`, `argmax`, `argmin`, `squeeze`, `unsqueeze`, `split`, `uniform_random`,
//! `gaussian_random`, and `slice` (also what `var[i]`, `var[a:b]` and
//! `var[i, a:b]` build).
use fluidc_transpiler::{AttrValue, Op, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{dims, dtype_of, simple, unary_layer};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{Value, VarRef};

use D::*;

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.leaky_relu"],
        [("x", Req), ("alpha", Float(0.02)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let alpha = AttrValue::Float(a.float("alpha")? as f32);
            simple(i, "leaky_relu", &[("X", &x)], &[("alpha", alpha)])
        }
    ),
    builtin!(
        ["fluid.layers.elu"],
        [("x", Req), ("alpha", Float(1.0)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let alpha = AttrValue::Float(a.float("alpha")? as f32);
            simple(i, "elu", &[("X", &x)], &[("alpha", alpha)])
        }
    ),
    builtin!(
        ["fluid.layers.pow"],
        [("x", Req), ("factor", Float(1.0)), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let factor = AttrValue::Float(a.float("factor")? as f32);
            simple(i, "pow", &[("X", &x)], &[("factor", factor)])
        }
    ),
    builtin!(
        ["fluid.layers.hard_sigmoid"],
        [
            ("x", Req),
            ("slope", Float(0.2)),
            ("offset", Float(0.5)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let slope = AttrValue::Float(a.float("slope")? as f32);
            let offset = AttrValue::Float(a.float("offset")? as f32);
            simple(
                i,
                "hard_sigmoid",
                &[("X", &x)],
                &[("slope", slope), ("offset", offset)],
            )
        }
    ),
    builtin!(
        ["fluid.layers.relu6"],
        [("x", Req), ("threshold", Float(6.0)), ("name", Nil)],
        Rest::No,
        |i, a| fixed_parameter(i, a, "relu6", "threshold", 6.0)
    ),
    builtin!(
        ["fluid.layers.swish"],
        [("x", Req), ("beta", Float(1.0)), ("name", Nil)],
        Rest::No,
        |i, a| fixed_parameter(i, a, "swish", "beta", 1.0)
    ),
    builtin!(
        ["fluid.layers.clip"],
        [("x", Req), ("min", Req), ("max", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let helper = i.b.helper_name("clip");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            i.b.append(
                Op::new("clip")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name])
                    .attr("min", AttrValue::Float(a.float("min")? as f32))
                    .attr("max", AttrValue::Float(a.float("max")? as f32)),
            );
            Ok(Value::Var(out))
        }
    ),
    unary_layer!("sign"),
    unary_layer!("floor"),
    unary_layer!("ceil"),
    unary_layer!("round"),
    unary_layer!("cos"),
    unary_layer!("sin"),
    unary_layer!("atan"),
    unary_layer!("reciprocal"),
    unary_layer!("rsqrt"),
    unary_layer!("softplus"),
    unary_layer!("softsign"),
    unary_layer!("logsigmoid"),
    unary_layer!("tanh_shrink"),
    builtin!(
        ["fluid.layers.softshrink"],
        [("x", Req), ("alpha", Nil)],
        Rest::No,
        |i, a| attr_args(i, a, "softshrink", &[("alpha", "lambda")])
    ),
    builtin!(
        ["fluid.layers.hard_shrink"],
        [("x", Req), ("threshold", Nil)],
        Rest::No,
        |i, a| attr_args(i, a, "hard_shrink", &[("threshold", "threshold")])
    ),
    builtin!(
        ["fluid.layers.thresholded_relu"],
        [("x", Req), ("threshold", Nil)],
        Rest::No,
        |i, a| attr_args(i, a, "thresholded_relu", &[("threshold", "threshold")])
    ),
    builtin!(
        ["fluid.layers.selu"],
        [("x", Req), ("scale", Nil), ("alpha", Nil), ("name", Nil)],
        Rest::No,
        |i, a| attr_args(i, a, "selu", &[("scale", "scale"), ("alpha", "alpha")])
    ),
    builtin!(
        ["fluid.layers.brelu"],
        [
            ("x", Req),
            ("t_min", Float(0.0)),
            ("t_max", Float(24.0)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| attr_args(i, a, "brelu", &[("t_min", "t_min"), ("t_max", "t_max")])
    ),
    builtin!(
        ["fluid.layers.stanh"],
        [
            ("x", Req),
            ("scale_a", Float(0.67)),
            ("scale_b", Float(1.7159)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| attr_args(
            i,
            a,
            "stanh",
            &[("scale_a", "scale_a"), ("scale_b", "scale_b")]
        )
    ),
    builtin!(
        ["fluid.layers.zeros_like"],
        [("x", Req), ("out", Nil)],
        Rest::No,
        |i, a| fill_like(i, a, 0.0)
    ),
    builtin!(
        ["fluid.layers.ones_like"],
        [("x", Req), ("out", Nil)],
        Rest::No,
        |i, a| fill_like(i, a, 1.0)
    ),
    builtin!(
        ["fluid.layers.shape"],
        [("input", Req)],
        Rest::No,
        |i, a| {
            let x = a.var("input")?;
            let helper = i.b.helper_name("shape");
            let rank = dims(i, &x).len() as i64;
            let out = i.b.tmp_var(&helper, VarKind::Int32, vec![rank]);
            i.b.append(
                Op::new("shape")
                    .input("Input", &[&x.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.gather"],
        [("input", Req), ("index", Req), ("overwrite", Bool(true))],
        Rest::No,
        |i, a| {
            let (x, index) = (a.var("input")?, a.var("index")?);
            let helper = i.b.helper_name("gather");
            let mut out_dims = dims(i, &x);
            if let (Some(d), Some(n)) = (out_dims.first_mut(), dims(i, &index).first()) {
                *d = *n;
            }
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), out_dims);
            i.b.append(
                Op::new("gather")
                    .input("X", &[&x.name])
                    .input("Index", &[&index.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.topk"],
        [("input", Req), ("k", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("input")?;
            let k = a.int("k")?;
            if k < 1 {
                return Err(a.err("k", "topk needs k >= 1"));
            }
            let helper = i.b.helper_name("top_k");
            let mut out_dims = dims(i, &x);
            if let Some(last) = out_dims.last_mut() {
                *last = k;
            }
            let values = i.b.tmp_var(&helper, dtype_of(i, &x), out_dims.clone());
            let indices = i.b.tmp_var(&helper, VarKind::Int64, out_dims);
            i.b.append(
                Op::new("top_k")
                    .input("X", &[&x.name])
                    .output("Out", &[&values.name])
                    .output("Indices", &[&indices.name])
                    .attr("k", AttrValue::Int(k as i32)),
            );
            Ok(Value::tuple(vec![Value::Var(values), Value::Var(indices)]))
        }
    ),
    builtin!(
        ["fluid.layers.argmax"],
        [("x", Req), ("axis", Int(0))],
        Rest::No,
        |i, a| arg_extreme(i, a, "arg_max")
    ),
    builtin!(
        ["fluid.layers.argmin"],
        [("x", Req), ("axis", Int(0))],
        Rest::No,
        |i, a| arg_extreme(i, a, "arg_min")
    ),
    builtin!(
        ["fluid.layers.squeeze"],
        [("input", Req), ("axes", Req), ("name", Nil)],
        Rest::No,
        |i, a| squeezed(i, a, "squeeze", "squeeze2")
    ),
    builtin!(
        ["fluid.layers.unsqueeze"],
        [("input", Req), ("axes", Req), ("name", Nil)],
        Rest::No,
        |i, a| squeezed(i, a, "unsqueeze", "unsqueeze2")
    ),
    builtin!(
        ["fluid.layers.split"],
        [
            ("input", Req),
            ("num_or_sections", Req),
            ("dim", Int(-1)),
            ("name", Nil)
        ],
        Rest::No,
        split
    ),
    builtin!(
        ["fluid.layers.slice"],
        [
            ("input", Req),
            ("axes", Req),
            ("starts", Req),
            ("ends", Req)
        ],
        Rest::No,
        |i, a| {
            let x = a.var("input")?;
            let (axes, starts, ends) = (a.ints("axes")?, a.ints("starts")?, a.ints("ends")?);
            slice_op(i, &x, &axes, &starts, &ends, &[]).map_err(|e| a.err("axes", e))
        }
    ),
    builtin!(
        ["fluid.layers.uniform_random"],
        [
            ("shape", Req),
            ("dtype", Str("float32")),
            ("min", Float(-1.0)),
            ("max", Float(1.0)),
            ("seed", Int(0))
        ],
        Rest::No,
        |i, a| random_layer(i, a, "uniform_random", ["min", "max"])
    ),
    builtin!(
        ["fluid.layers.gaussian_random"],
        [
            ("shape", Req),
            ("mean", Float(0.0)),
            ("std", Float(1.0)),
            ("seed", Int(0)),
            ("dtype", Str("float32"))
        ],
        Rest::No,
        |i, a| random_layer(i, a, "gaussian_random", ["mean", "std"])
    ),
];

/// `split(input, num_or_sections, dim=-1)`: a list of pieces along `dim`
/// (1.x normalizes a negative `dim` before it appends the op).
fn split(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let in_dims = dims(i, &x);
    let rank = in_dims.len() as i64;
    let dim = a.int("dim")?;
    let axis = if dim < 0 { dim + rank } else { dim };
    if !(0..rank).contains(&axis) {
        return Err(a.err("dim", format!("dim {dim} is out of range for rank {rank}")));
    }
    let (num, sections) = match a.get("num_or_sections") {
        Value::Int(n) if *n > 1 => (*n, Vec::new()),
        Value::Int(_) => {
            return Err(a.err("num_or_sections", "num_or_sections must be more than 1"))
        }
        _ => (0, a.ints("num_or_sections")?),
    };
    let sizes = fluidc_transpiler::ops::manip::split_sizes(in_dims[axis as usize], num, &sections)
        .map_err(|e| a.err("num_or_sections", e))?;
    let helper = i.b.helper_name("split");
    let dtype = dtype_of(i, &x);
    let outs: Vec<VarRef> = sizes
        .iter()
        .map(|&d| {
            let mut piece = in_dims.clone();
            piece[axis as usize] = d;
            i.b.tmp_var(&helper, dtype, piece)
        })
        .collect();
    let names: Vec<&str> = outs.iter().map(|v| &*v.name).collect();
    i.b.append(
        Op::new("split")
            .input("X", &[&x.name])
            .output("Out", &names)
            .attr("num", AttrValue::Int(num as i32))
            .attr(
                "sections",
                AttrValue::Ints(sections.iter().map(|&d| d as i32).collect()),
            )
            .attr("axis", AttrValue::Int(axis as i32)),
    );
    Ok(Value::list(outs.into_iter().map(Value::Var).collect()))
}

/// `squeeze(input, axes)` / `unsqueeze`: a `squeeze2`/`unsqueeze2` op
/// with its `XShape`, named by the layer as 1.x names it.
fn squeezed(i: &mut Host, a: &Args, layer: &str, ty: &str) -> Result<Value> {
    let x = a.var("input")?;
    let axes = a.ints("axes")?;
    let helper = i.b.helper_name(layer);
    let dtype = dtype_of(i, &x);
    let out = i.b.tmp_var(&helper, dtype, vec![]);
    let xshape = i.b.tmp_var(&helper, dtype, vec![]);
    let op = Op::new(ty)
        .input("X", &[&x.name])
        .output("Out", &[&out.name])
        .output("XShape", &[&xshape.name])
        .attr(
            "axes",
            AttrValue::Ints(axes.iter().map(|&d| d as i32).collect()),
        );
    super::conv::append_inferred_at(i, op, a.call.clone())?;
    Ok(Value::Var(out))
}

/// `argmax(x, axis=0)` / `argmin`: int64 indices, `axis` dropped (1.x's
/// default axis is 0).
fn arg_extreme(i: &mut Host, a: &Args, ty: &str) -> Result<Value> {
    let x = a.var("x")?;
    let axis = a.int("axis")?;
    let mut out_dims = dims(i, &x);
    let rank = out_dims.len() as i64;
    let k = if axis < 0 { axis + rank } else { axis };
    if !(0..rank.max(1)).contains(&k) {
        return Err(a.err(
            "axis",
            format!("axis {axis} is out of range for rank {rank}"),
        ));
    }
    if (k as usize) < out_dims.len() {
        out_dims.remove(k as usize);
    }
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, VarKind::Int64, out_dims);
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr("axis", AttrValue::Long(axis)),
    );
    Ok(Value::Var(out))
}

/// `zeros_like`/`ones_like`: `fill_any_like` of `x` with `value` (into
/// `out` when given).
fn fill_like(i: &mut Host, a: &Args, value: f64) -> Result<Value> {
    let x = a.var("x")?;
    let out = match a.opt_var("out")? {
        Some(o) => o,
        None => {
            let helper = i.b.helper_name("fill_any_like");
            i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x))
        }
    };
    i.b.append(
        Op::new("fill_any_like")
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr("value", AttrValue::Float(value as f32)),
    );
    Ok(Value::Var(out))
}

/// A random op of `shape`, `dtype` and `seed` writing a new variable, with
/// its distribution's two float arguments as attributes of the same names.
fn random_layer(i: &mut Host, a: &Args, ty: &str, dist: [&str; 2]) -> Result<Value> {
    let shape = a.ints("shape")?;
    let dtype = a.dtype("dtype")?;
    let shape_attr = super::param::shape_attr(ty, &shape);
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, dtype, shape);
    let mut op = Op::new(ty)
        .output("Out", &[&out.name])
        .attr("shape", shape_attr)
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr("seed", AttrValue::Int(a.int32("seed")?));
    for name in dist {
        op = op.attr(name, AttrValue::Float(a.float(name)? as f32));
    }
    i.b.append(op);
    Ok(Value::Var(out))
}

/// A `slice` of `x` (`decrease` drops those axes, as indexing with an int
/// does) into a new variable.
fn slice_op(
    i: &mut Host,
    x: &VarRef,
    axes: &[i64],
    starts: &[i64],
    ends: &[i64],
    decrease: &[i64],
) -> std::result::Result<Value, String> {
    let in_dims = dims(i, x);
    let kept = fluidc_transpiler::ops::manip::slice_dims(&in_dims, axes, starts, ends)?;
    let out_dims: Vec<i64> = kept
        .iter()
        .enumerate()
        .filter(|(k, _)| !decrease.contains(&(*k as i64)))
        .map(|(_, &d)| d)
        .collect();
    let helper = i.b.helper_name("slice");
    let out = i.b.tmp_var(&helper, dtype_of(i, x), out_dims);
    let ints = |v: &[i64]| AttrValue::Ints(v.iter().map(|&d| d as i32).collect());
    i.b.append(
        Op::new("slice")
            .input("Input", &[&x.name])
            .output("Out", &[&out.name])
            .attr("axes", ints(axes))
            .attr("starts", ints(starts))
            .attr("ends", ints(ends))
            .attr("infer_flags", ints(&vec![1; axes.len()]))
            .attr("decrease_axis", ints(decrease)),
    );
    Ok(Value::Var(out))
}

/// `var[key]`: ints and slices with step 1 on the leading axes, as a
/// `slice` op (an int index drops its axis, as Paddle's `__getitem__`).
pub fn var_getitem(
    i: &mut Host,
    x: &VarRef,
    parts: &[super::KeyPart],
) -> std::result::Result<Value, String> {
    /// Paddle's end for "to the end of the dim".
    const TO_END: i64 = i32::MAX as i64;
    let (mut axes, mut starts, mut ends, mut decrease) = (vec![], vec![], vec![], vec![]);
    let int = |v: &Value| match v {
        Value::Int(n) => Some(*n),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    };
    for (k, part) in parts.iter().enumerate() {
        let k = k as i64;
        match part {
            super::KeyPart::Value(v) => {
                let n = int(v).ok_or("a program variable is indexed by ints and slices")?;
                axes.push(k);
                starts.push(n);
                ends.push(if n == -1 { TO_END } else { n + 1 });
                decrease.push(k);
            }
            super::KeyPart::Slice([lo, hi, step]) => {
                if step
                    .as_ref()
                    .is_some_and(|s| int(s) != Some(1) && !matches!(s, Value::None))
                {
                    return Err("slicing a program variable with a step is not supported".into());
                }
                let bound = |b: &Option<Value>, default: i64| match b {
                    None | Some(Value::None) => Ok(default),
                    Some(v) => int(v).ok_or("slice bounds must be ints"),
                };
                let (lo, hi) = (bound(lo, 0)?, bound(hi, TO_END)?);
                if lo == 0 && hi == TO_END {
                    continue; // `:` keeps the whole axis
                }
                axes.push(k);
                starts.push(lo);
                ends.push(hi);
            }
            super::KeyPart::Ellipsis => {
                return Err("`...` in the index of a program variable is not supported".into())
            }
        }
    }
    slice_op(i, x, &axes, &starts, &ends, &decrease)
}

/// A 1.x activation whose float arguments set attributes (`(argument,
/// attribute)`); one left None keeps the op's default, as 1.x's
/// generated layers did.
fn attr_args(i: &mut Host, a: &mut Args, ty: &str, args: &[(&str, &str)]) -> Result<Value> {
    let x = a.var("x")?;
    let mut attrs = Vec::new();
    for &(arg, attr) in args {
        if !a.is_none(arg) {
            attrs.push((attr, AttrValue::Float(a.float(arg)? as f32)));
        }
    }
    simple(i, ty, &[("X", &x)], &attrs)
}

/// `relu6` and `swish`: Paddle 3.3.1's ops fix the parameter 1.x's had
/// (`threshold` 6, `beta` 1) and have no attribute for it, so only that
/// value can be built.
fn fixed_parameter(i: &mut Host, a: &mut Args, ty: &str, name: &str, fixed: f64) -> Result<Value> {
    let x = a.var("x")?;
    let v = a.float(name)?;
    if v != fixed {
        return Err(a.err(
            name,
            format!("{ty} with {name}={v} cannot be built: Paddle 3.3.1's {ty} op fixes {name} at {fixed}"),
        )
        .help(match ty {
            "relu6" => format!("for another threshold, build fluid.layers.clip(x, 0.0, {v})"),
            _ => format!("for another beta, build x * fluid.layers.sigmoid(fluid.layers.scale(x, {v}))"),
        }));
    }
    simple(i, ty, &[("X", &x)], &[])
}
