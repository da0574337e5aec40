//! Tensor, math and compare layers, and Paddle's operator overloading on
//! Variables (`math_op_patch`): each call appends the ops Paddle's Python
//! appends, with Paddle's slot names, attributes and variable names, in the
//! Paddle 3 spelling (the transpiler's target pass writes the 2018 one).
use std::ops::Range;

use fluidc_transpiler::proto::{scalar, Scalar};
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};
use rustpython_parser::ast::{CmpOp, Operator};

use super::{builtin, Args, Builtin, Rest, D};
use crate::front::diag::{Diagnostic, Result};
use crate::front::eval::Interp;
use crate::front::value::{py_float, Value, VarRef};

use D::*;

macro_rules! unary_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [("x", Req), ("name", Nil)],
            Rest::No,
            |i, a| {
                let x = a.var("x")?;
                simple(i, $name, &[("X", &x)], None)
            }
        )
    };
}

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
                let axis = a.int("axis")? as i32;
                let helper = i.b.helper_name($name);
                let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
                let out = i.b.tmp_var(&helper, dtype_of(i, &x), d);
                elementwise(i, $name, &x, &y, axis, Some(out.clone()));
                activation(i, a, out, &helper)
            }
        )
    };
}

macro_rules! compare_layer {
    ($name:literal) => {
        builtin!(
            [concat!("fluid.layers.", $name)],
            [
                ("x", Req),
                ("y", Req),
                ("force_cpu", Nil),
                ("cond", Nil),
                ("name", Nil)
            ],
            Rest::IgnoreKwargs,
            |i, a| {
                let (x, y) = (a.var("x")?, a.var("y")?);
                let helper = i.b.helper_name($name);
                let out = match a.opt_var("cond")? {
                    Some(c) => c,
                    None => {
                        let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
                        let v = i.b.tmp_var(&helper, VarKind::Bool, d);
                        i.b.var_mut(&v).stop_gradient = Some(true);
                        v
                    }
                };
                Ok(Value::Var(compare_op(i, $name, &x, &y, out)))
            }
        )
    };
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["fluid.layers.fill_constant"],
        [
            ("shape", Req),
            ("dtype", Req),
            ("value", Req),
            ("force_cpu", Bool(false)),
            ("out", Nil),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let shape = a.ints("shape")?;
            let dtype = a.dtype("dtype")?;
            let value = a.float("value")?;
            let out = a.opt_var("out")?;
            Ok(Value::Var(fill_constant(
                i,
                shape,
                dtype,
                value,
                a.bool("force_cpu")?,
                out,
            )))
        }
    ),
    builtin!(
        ["fluid.layers.zeros"],
        [
            ("shape", Req),
            ("dtype", Req),
            ("force_cpu", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| filled(i, a, 0.0)
    ),
    builtin!(
        ["fluid.layers.ones"],
        [
            ("shape", Req),
            ("dtype", Req),
            ("force_cpu", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| filled(i, a, 1.0)
    ),
    builtin!(
        ["fluid.layers.assign"],
        [("input", Req), ("output", Nil)],
        Rest::No,
        assign
    ),
    builtin!(
        ["fluid.layers.data"],
        [
            ("name", Req),
            ("shape", Req),
            ("append_batch_size", Bool(true)),
            ("dtype", Str("float32")),
            ("lod_level", Int(0)),
            ("type", Nil),
            ("stop_gradient", Bool(true))
        ],
        Rest::No,
        |i, a| {
            let mut shape = a.ints("shape")?;
            // As Paddle 1.x: a negative dim means the batch dim is given.
            if a.bool("append_batch_size")? && shape.iter().all(|d| *d >= 0) {
                shape.insert(0, -1);
            }
            data(i, a, shape, false)
        }
    ),
    builtin!(
        ["fluid.data"],
        [
            ("name", Req),
            ("shape", Req),
            ("dtype", Str("float32")),
            ("lod_level", Int(0))
        ],
        Rest::No,
        |i, a| {
            let shape = match a.get("shape").items() {
                Some(items) => items
                    .iter()
                    .map(|v| if let Value::Int(n) = v { *n } else { -1 })
                    .collect(),
                None => a.ints("shape")?,
            };
            data(i, a, shape, true)
        }
    ),
    builtin!(
        ["fluid.layers.create_global_var"],
        [
            ("shape", Req),
            ("value", Req),
            ("dtype", Req),
            ("persistable", Bool(false)),
            ("force_cpu", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        create_global_var
    ),
    builtin!(
        ["fluid.layers.cast"],
        [("x", Req), ("dtype", Req)],
        Rest::No,
        |i, a| {
            let (x, dtype) = (a.var("x")?, a.dtype("dtype")?);
            let helper = i.b.helper_name("cast");
            let out = i.b.tmp_var(&helper, dtype, dims(i, &x));
            let from = dtype_of(i, &x);
            i.b.append(
                Op::new("cast")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name])
                    .attr("in_dtype", AttrValue::Int(from as i32))
                    .attr("out_dtype", AttrValue::Int(dtype as i32)),
            );
            Ok(Value::Var(out))
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
        ["fluid.layers.Print"],
        [
            ("input", Req),
            ("first_n", Int(-1)),
            ("message", Nil),
            ("summarize", Int(20)),
            ("print_tensor_name", Bool(true)),
            ("print_tensor_type", Bool(true)),
            ("print_tensor_shape", Bool(true)),
            ("print_tensor_lod", Bool(true)),
            ("print_phase", Str("both"))
        ],
        Rest::No,
        print_layer
    ),
    elementwise_layer!("elementwise_add"),
    elementwise_layer!("elementwise_sub"),
    elementwise_layer!("elementwise_mul"),
    elementwise_layer!("elementwise_div"),
    elementwise_layer!("elementwise_max"),
    elementwise_layer!("elementwise_min"),
    elementwise_layer!("elementwise_pow"),
    elementwise_layer!("elementwise_mod"),
    elementwise_layer!("elementwise_floordiv"),
    compare_layer!("less_than"),
    compare_layer!("less_equal"),
    compare_layer!("greater_than"),
    compare_layer!("greater_equal"),
    compare_layer!("equal"),
    compare_layer!("not_equal"),
    builtin!(
        ["fluid.layers.logical_and"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_and")
    ),
    builtin!(
        ["fluid.layers.logical_or"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_or")
    ),
    builtin!(
        ["fluid.layers.logical_xor"],
        [("x", Req), ("y", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| logical(i, a, "logical_xor")
    ),
    builtin!(
        ["fluid.layers.logical_not"],
        [("x", Req), ("out", Nil), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            Ok(Value::Var(logical_not(i, &x, a.opt_var("out")?)))
        }
    ),
    builtin!(
        ["fluid.layers.mean"],
        [("x", Req), ("name", Nil)],
        Rest::No,
        |i, a| {
            let x = a.var("x")?;
            let helper = i.b.helper_name("mean");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("mean")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.reduce_sum"],
        [
            ("input", Req),
            ("dim", Nil),
            ("keep_dim", Bool(false)),
            ("name", Nil)
        ],
        Rest::No,
        reduce_sum
    ),
    builtin!(
        ["fluid.layers.sums"],
        [("input", Req), ("out", Nil)],
        Rest::No,
        |i, a| {
            let xs = a.var_list("input")?;
            let first = xs
                .first()
                .ok_or_else(|| a.err("input", "sums() needs at least one Variable"))?
                .clone();
            let helper = i.b.helper_name("sum");
            let out = match a.opt_var("out")? {
                Some(o) => o,
                None => i.b.tmp_var(&helper, dtype_of(i, &first), dims(i, &first)),
            };
            let names: Vec<&str> = xs.iter().map(|v| &*v.name).collect();
            i.b.append(
                Op::new("sum")
                    .input("X", &names)
                    .output("Out", &[&out.name])
                    .attr("use_mkldnn", AttrValue::Bool(false)),
            );
            Ok(Value::Var(out))
        }
    ),
    unary_layer!("relu"),
    unary_layer!("sigmoid"),
    unary_layer!("tanh"),
    unary_layer!("square"),
    unary_layer!("sqrt"),
    unary_layer!("abs"),
    unary_layer!("exp"),
    unary_layer!("log"),
    builtin!(
        ["fluid.layers.softmax"],
        [
            ("input", Req),
            ("use_cudnn", Bool(false)),
            ("name", Nil),
            ("axis", Int(-1))
        ],
        Rest::No,
        |i, a| {
            let x = a.var("input")?;
            simple(
                i,
                "softmax",
                &[("X", &x)],
                Some(("axis", AttrValue::Int(a.int("axis")? as i32))),
            )
        }
    ),
    builtin!(
        ["fluid.layers.matmul"],
        [
            ("x", Req),
            ("y", Req),
            ("transpose_x", Bool(false)),
            ("transpose_y", Bool(false)),
            ("alpha", Float(1.0)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let (x, y) = (a.var("x")?, a.var("y")?);
            let helper = i.b.helper_name("matmul");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("matmul")
                    .input("X", &[&x.name])
                    .input("Y", &[&y.name])
                    .output("Out", &[&out.name])
                    .attr("transpose_X", AttrValue::Bool(a.bool("transpose_x")?))
                    .attr("transpose_Y", AttrValue::Bool(a.bool("transpose_y")?))
                    .attr("alpha", AttrValue::Float(a.float("alpha")? as f32)),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.mul"],
        [
            ("x", Req),
            ("y", Req),
            ("x_num_col_dims", Int(1)),
            ("y_num_col_dims", Int(1)),
            ("name", Nil)
        ],
        Rest::No,
        |i, a| {
            let (x, y) = (a.var("x")?, a.var("y")?);
            let helper = i.b.helper_name("mul");
            let out = mul_op(
                i,
                &helper,
                &x,
                &y,
                a.int("x_num_col_dims")? as i32,
                a.int("y_num_col_dims")? as i32,
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.square_error_cost"],
        [("input", Req), ("label", Req)],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("square_error_cost");
            let minus = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            i.b.append(
                Op::new("elementwise_sub")
                    .input("X", &[&x.name])
                    .input("Y", &[&label.name])
                    .output("Out", &[&minus.name])
                    .attr("axis", AttrValue::Int(-1)),
            );
            let square = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
            i.b.append(
                Op::new("square")
                    .input("X", &[&minus.name])
                    .output("Out", &[&square.name]),
            );
            Ok(Value::Var(square))
        }
    ),
    builtin!(
        ["fluid.layers.cross_entropy"],
        [
            ("input", Req),
            ("label", Req),
            ("soft_label", Bool(false)),
            ("ignore_index", Int(-100))
        ],
        Rest::No,
        |i, a| {
            let (x, label) = (a.var("input")?, a.var("label")?);
            let helper = i.b.helper_name("cross_entropy");
            let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
            i.b.append(
                Op::new("cross_entropy")
                    .input("X", &[&x.name])
                    .input("Label", &[&label.name])
                    .output("Y", &[&out.name])
                    .attr("soft_label", AttrValue::Bool(a.bool("soft_label")?))
                    .attr(
                        "ignore_index",
                        AttrValue::Int(a.int("ignore_index")? as i32),
                    ),
            );
            Ok(Value::Var(out))
        }
    ),
    builtin!(
        ["fluid.layers.fc"],
        [
            ("input", Req),
            ("size", Req),
            ("num_flatten_dims", Int(1)),
            ("param_attr", Nil),
            ("bias_attr", Nil),
            ("act", Nil),
            ("name", Nil)
        ],
        Rest::No,
        fc
    ),
];

/// `zeros`/`ones`: a `fill_constant` layer of `value`.
fn filled(i: &mut Interp, a: &mut Args, value: f64) -> Result<Value> {
    let (shape, dtype) = (a.ints("shape")?, a.dtype("dtype")?);
    Ok(Value::Var(fill_constant(
        i,
        shape,
        dtype,
        value,
        a.bool("force_cpu")?,
        None,
    )))
}

/// The dtype of a declared variable (FP32 if it has none, as Paddle assumes).
pub fn dtype_of(i: &Interp, v: &VarRef) -> VarKind {
    i.b.var(v).dtype().unwrap_or(VarKind::Fp32)
}

pub fn dims(i: &Interp, v: &VarRef) -> Vec<i64> {
    i.b.var(v)
        .tensor_desc()
        .map(|t| t.dims.clone())
        .unwrap_or_default()
}

/// The `fill_constant` layer: a `fill_constant_N.tmp_0` output (unless
/// `out` is given) filled by [`fill_constant_op`].
pub fn fill_constant(
    i: &mut Interp,
    shape: Vec<i64>,
    dtype: VarKind,
    value: f64,
    force_cpu: bool,
    out: Option<VarRef>,
) -> VarRef {
    let helper = i.b.helper_name("fill_constant");
    let out = out.unwrap_or_else(|| {
        let v = i.b.tmp_var(&helper, dtype, shape.clone());
        i.b.var_mut(&v).stop_gradient = Some(true);
        v
    });
    fill_constant_op(i, &out, shape, dtype, value, force_cpu);
    out
}

/// Appends a `fill_constant` op as Paddle 3 writes it (shape LONGS, value
/// FLOAT and the exact value as `str_value`), without a layer helper, as
/// Paddle's `create_scalar` and initializers append it.
pub fn fill_constant_op(
    i: &mut Interp,
    out: &VarRef,
    shape: Vec<i64>,
    dtype: VarKind,
    value: f64,
    force_cpu: bool,
) {
    i.b.append(fill_constant_desc(
        &out.name, shape, dtype, value, force_cpu,
    ));
}

/// The `fill_constant` op itself.
fn fill_constant_desc(
    out: &str,
    shape: Vec<i64>,
    dtype: VarKind,
    value: f64,
    force_cpu: bool,
) -> Op {
    let str_value = match dtype {
        VarKind::Int32 | VarKind::Int64 | VarKind::Int16 | VarKind::Int8 | VarKind::Uint8 => {
            format!("{}", value as i64)
        }
        _ => py_float(value),
    };
    Op::new("fill_constant")
        .output("Out", &[out])
        .attr("shape", AttrValue::Longs(shape))
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr("value", AttrValue::Float(value as f32))
        .attr("str_value", AttrValue::String(str_value))
        .attr("force_cpu", AttrValue::Bool(force_cpu))
}

/// A one-op layer whose output has the input's dtype and shape.
fn simple(
    i: &mut Interp,
    ty: &str,
    inputs: &[(&str, &VarRef)],
    attr: Option<(&str, AttrValue)>,
) -> Result<Value> {
    let x = inputs[0].1;
    let helper = i.b.helper_name(ty);
    let out = i.b.tmp_var(&helper, dtype_of(i, x), dims(i, x));
    let mut op = Op::new(ty).output("Out", &[&out.name]);
    for (slot, v) in inputs {
        op = op.input(slot, &[&v.name]);
    }
    if let Some((name, value)) = attr {
        op = op.attr(name, value);
    }
    i.b.append(op);
    Ok(Value::Var(out))
}

/// Applies a layer's `act=` by name (`relu`, `sigmoid`, `tanh`,
/// `softmax`), into the layer helper's next temporary, as Paddle's
/// `append_activation` does (`elementwise_add_0.tmp_1`).
fn activation(i: &mut Interp, a: &Args, out: VarRef, helper: &str) -> Result<Value> {
    match a.get("act") {
        Value::None => Ok(Value::Var(out)),
        Value::Str(act) if matches!(&**act, "relu" | "sigmoid" | "tanh" | "softmax") => {
            let t = i.b.tmp_var(helper, dtype_of(i, &out), dims(i, &out));
            i.b.append(
                Op::new(&**act)
                    .input("X", &[&out.name])
                    .output("Out", &[&t.name]),
            );
            Ok(Value::Var(t))
        }
        _ => Err(a.err(
            "act",
            "act must be None or one of 'relu', 'sigmoid', 'tanh', 'softmax'",
        )),
    }
}

fn broadcast_dims(a: &[i64], b: &[i64]) -> Vec<i64> {
    if a.len() >= b.len() {
        a.to_vec()
    } else {
        b.to_vec()
    }
}

/// `elementwise_<kind>` into `out` (or a new `<kind>_N.tmp_0`).
fn elementwise(
    i: &mut Interp,
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

/// Appends a compare op (Paddle 3 attrs `axis`, `force_cpu`) into `out`.
fn compare_op(i: &mut Interp, ty: &str, x: &VarRef, y: &VarRef, out: VarRef) -> VarRef {
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name])
            .attr("axis", AttrValue::Int(-1))
            .attr("force_cpu", AttrValue::Bool(false)),
    );
    out
}

fn logical(i: &mut Interp, a: &Args, ty: &str) -> Result<Value> {
    let (x, y) = (a.var("x")?, a.var("y")?);
    let helper = i.b.helper_name(ty);
    let out = match a.opt_var("out")? {
        Some(o) => o,
        None => i.b.tmp_var(&helper, VarKind::Bool, dims(i, &x)),
    };
    i.b.append(
        Op::new(ty)
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name]),
    );
    Ok(Value::Var(out))
}

pub fn logical_not(i: &mut Interp, x: &VarRef, out: Option<VarRef>) -> VarRef {
    let helper = i.b.helper_name("logical_not");
    let out = out.unwrap_or_else(|| i.b.tmp_var(&helper, VarKind::Bool, dims(i, x)));
    i.b.append(
        Op::new("logical_not")
            .input("X", &[&x.name])
            .output("Out", &[&out.name]),
    );
    out
}

pub fn logical_and(i: &mut Interp, x: &VarRef, y: &VarRef) -> VarRef {
    let helper = i.b.helper_name("logical_and");
    let out = i.b.tmp_var(&helper, VarKind::Bool, dims(i, x));
    i.b.append(
        Op::new("logical_and")
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name]),
    );
    out
}

fn scale_op(
    i: &mut Interp,
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

/// `assign(input, output=None)`: a Variable is copied with `assign`; a
/// Python number or list becomes an `assign_value` constant.
fn assign(i: &mut Interp, a: &mut Args) -> Result<Value> {
    let output = a.opt_var("output")?;
    let helper = i.b.helper_name("assign");
    match a.get("input").clone() {
        Value::Var(x) => {
            let out = match output {
                Some(o) => o,
                None => {
                    // The copy has the input's own type: a tensor, or a channel.
                    let mut var = i.b.var(&x).clone();
                    var.name = i.b.tmp_name(&helper);
                    var.persistable = Some(false);
                    i.b.declare(var)
                }
            };
            i.b.append(
                Op::new("assign")
                    .input("X", &[&x.name])
                    .output("Out", &[&out.name]),
            );
            Ok(Value::Var(out))
        }
        other => {
            let (values, shape) = flatten(&other).ok_or_else(|| {
                a.err(
                    "input",
                    "assign() needs a Variable, a number or a (nested) list of numbers",
                )
            })?;
            let dtype = if values.iter().all(|v| matches!(v, Value::Bool(_))) {
                VarKind::Bool
            } else if values
                .iter()
                .all(|v| matches!(v, Value::Int(_) | Value::Bool(_)))
            {
                VarKind::Int64
            } else {
                VarKind::Fp32
            };
            let out = match output {
                Some(o) => o,
                None => {
                    let helper = i.b.helper_name("assign");
                    i.b.tmp_var(&helper, dtype, shape.clone())
                }
            };
            let scalars = values
                .iter()
                .map(|v| match (dtype, v) {
                    (VarKind::Bool, Value::Bool(b)) => Scalar {
                        r#type: scalar::Type::Boolean as i32,
                        b: Some(*b),
                        ..Default::default()
                    },
                    (VarKind::Int64, Value::Int(n)) => Scalar {
                        r#type: scalar::Type::Long as i32,
                        i: Some(*n),
                        ..Default::default()
                    },
                    (VarKind::Int64, Value::Bool(b)) => Scalar {
                        r#type: scalar::Type::Long as i32,
                        i: Some(i64::from(*b)),
                        ..Default::default()
                    },
                    (_, v) => {
                        let r = match v {
                            Value::Int(n) => *n as f64,
                            Value::Float(f) => *f,
                            Value::Bool(b) => f64::from(u8::from(*b)),
                            _ => 0.0,
                        };
                        Scalar {
                            r#type: scalar::Type::Float64 as i32,
                            r: Some(r),
                            ..Default::default()
                        }
                    }
                })
                .collect();
            i.b.append(
                Op::new("assign_value")
                    .output("Out", &[&out.name])
                    .attr("dtype", AttrValue::Int(dtype as i32))
                    .attr(
                        "shape",
                        AttrValue::Ints(shape.iter().map(|d| *d as i32).collect()),
                    )
                    .attr("values", AttrValue::Scalars(scalars)),
            );
            Ok(Value::Var(out))
        }
    }
}

/// A number or nested list as flat values and a shape.
fn flatten(v: &Value) -> Option<(Vec<Value>, Vec<i64>)> {
    match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some((vec![v.clone()], vec![1])),
        Value::List(_) | Value::Tuple(_) => {
            let items = v.items()?;
            if items
                .iter()
                .all(|x| matches!(x, Value::Int(_) | Value::Float(_) | Value::Bool(_)))
            {
                let n = items.len() as i64;
                return Some((items, vec![n]));
            }
            let mut flat = Vec::new();
            let mut inner: Option<Vec<i64>> = None;
            for it in &items {
                let (f, s) = flatten(it)?;
                if inner.as_ref().is_some_and(|x| *x != s) {
                    return None;
                }
                inner = Some(s);
                flat.extend(f);
            }
            let mut shape = vec![items.len() as i64];
            shape.extend(inner.unwrap_or_default());
            Some((flat, shape))
        }
        _ => None,
    }
}

/// A feed variable of the global block; `fluid.data` (not `layers.data`)
/// asks Paddle to check fed shapes and dtypes (`need_check_feed`).
fn data(i: &mut Interp, a: &Args, shape: Vec<i64>, check_feed: bool) -> Result<Value> {
    let name = a.string("name")?;
    let dtype = a.dtype("dtype")?;
    let mut var = Var::dense(name, dtype, shape);
    var.stop_gradient = Some(true);
    if check_feed {
        var.need_check_feed = Some(true);
    }
    let main = i.b.main;
    Ok(Value::Var(i.b.declare_in(main, 0, var)))
}

/// A persistable-capable variable in the global block, initialized by a
/// `fill_constant` in the startup program (as Paddle does).
fn create_global_var(i: &mut Interp, a: &mut Args) -> Result<Value> {
    let shape = a.ints("shape")?;
    let dtype = a.dtype("dtype")?;
    let value = a.float("value")?;
    i.b.helper_name("global_var");
    let name = match a.opt_string("name")? {
        Some(n) => n,
        None => i.b.unique("_generated_var"),
    };
    let mut var = Var::dense(name, dtype, shape.clone());
    var.persistable = Some(a.bool("persistable")?);
    var.stop_gradient = Some(true);
    let (main, startup) = (i.b.main, i.b.startup);
    let r = i.b.declare_in(main, 0, var.clone());
    i.b.declare_in(startup, 0, var);
    // Paddle's Constant initializer prepends its op to the startup program.
    let init = fill_constant_desc(&r.name, shape, dtype, value, a.bool("force_cpu")?);
    i.b.prepend_to(startup, 0, init);
    Ok(Value::Var(r))
}

fn print_layer(i: &mut Interp, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    // Paddle 1.8 names the helper after the input: print_<input>_N.
    let helper = i.b.helper_name(&format!("print_{}", x.name));
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
    let message = a.opt_string("message")?.unwrap_or_default();
    i.b.append(
        Op::new("print")
            .input("In", &[&x.name])
            .output("Out", &[&out.name])
            .attr("first_n", AttrValue::Int(a.int("first_n")? as i32))
            .attr("summarize", AttrValue::Int(a.int("summarize")? as i32))
            .attr("message", AttrValue::String(message))
            .attr(
                "print_tensor_name",
                AttrValue::Bool(a.bool("print_tensor_name")?),
            )
            .attr(
                "print_tensor_type",
                AttrValue::Bool(a.bool("print_tensor_type")?),
            )
            .attr(
                "print_tensor_shape",
                AttrValue::Bool(a.bool("print_tensor_shape")?),
            )
            .attr("print_tensor_layout", AttrValue::Bool(true))
            .attr(
                "print_tensor_lod",
                AttrValue::Bool(a.bool("print_tensor_lod")?),
            )
            .attr(
                "print_phase",
                AttrValue::String(a.string("print_phase")?.to_uppercase()),
            ),
    );
    Ok(Value::Var(out))
}

fn reduce_sum(i: &mut Interp, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let rank = dims(i, &x).len();
    let dim = if a.is_none("dim") {
        Vec::new()
    } else {
        a.ints("dim")?
    };
    let reduce_all = dim.is_empty() || dim.len() == rank;
    let keep = a.bool("keep_dim")?;
    let helper = i.b.helper_name("reduce_sum");
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), vec![]);
    i.b.append(
        Op::new("reduce_sum")
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr(
                "dim",
                AttrValue::Ints(if dim.is_empty() {
                    vec![0]
                } else {
                    dim.iter().map(|d| *d as i32).collect()
                }),
            )
            .attr("keep_dim", AttrValue::Bool(keep))
            .attr("reduce_all", AttrValue::Bool(reduce_all)),
    );
    Ok(Value::Var(out))
}

/// `mul` into a temporary of `helper` (`mul_N` for the layer, `fc_N` in fc).
fn mul_op(i: &mut Interp, helper: &str, x: &VarRef, y: &VarRef, xn: i32, yn: i32) -> VarRef {
    let (xd, yd) = (dims(i, x), dims(i, y));
    let mut d: Vec<i64> = xd.iter().take(xn.max(0) as usize).copied().collect();
    d.extend(yd.iter().skip(yn.max(0) as usize));
    let out = i.b.tmp_var(helper, dtype_of(i, x), d);
    i.b.append(
        Op::new("mul")
            .input("X", &[&x.name])
            .input("Y", &[&y.name])
            .output("Out", &[&out.name])
            .attr("x_num_col_dims", AttrValue::Int(xn))
            .attr("y_num_col_dims", AttrValue::Int(yn)),
    );
    out
}

/// `fc`: a weight and a bias parameter (initialized in the startup program:
/// Xavier uniform and zeros, Paddle's defaults), `mul`, `elementwise_add`
/// with `axis = num_flatten_dims`, then the activation.
fn fc(i: &mut Interp, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    let size = a.int("size")?;
    let nfd = a.int("num_flatten_dims")?;
    let xd = dims(i, &x);
    let fan_in: i64 = xd.iter().skip(nfd.max(0) as usize).product::<i64>().max(1);
    let dtype = dtype_of(i, &x);
    let helper = i.b.helper_name("fc");
    let w_name = format!("{helper}.w_0");
    let b_name = format!("{helper}.b_0");
    let (main, startup) = (i.b.main, i.b.startup);
    let limit = (6.0 / (fan_in + size) as f64).sqrt();
    for (name, shape, init) in [
        (&w_name, vec![fan_in, size], Some(limit)),
        (&b_name, vec![size], None),
    ] {
        let mut var = Var::dense(name.as_str(), dtype, shape.clone());
        var.persistable = Some(true);
        var.is_parameter = Some(true);
        var.stop_gradient = Some(false);
        i.b.declare_in(main, 0, var.clone());
        i.b.declare_in(startup, 0, var);
        let op = match init {
            Some(limit) => Op::new("uniform_random")
                .output("Out", &[name])
                .attr("shape", AttrValue::Longs(shape))
                .attr("dtype", AttrValue::Int(dtype as i32))
                .attr("min", AttrValue::Float(-limit as f32))
                .attr("max", AttrValue::Float(limit as f32))
                .attr("seed", AttrValue::Int(0)),
            None => Op::new("fill_constant")
                .output("Out", &[name])
                .attr("shape", AttrValue::Longs(shape))
                .attr("dtype", AttrValue::Int(dtype as i32))
                .attr("value", AttrValue::Float(0.0))
                .attr("str_value", AttrValue::String("0.0".into()))
                .attr("force_cpu", AttrValue::Bool(false)),
        };
        i.b.prepend_to(startup, 0, op);
    }
    let w = VarRef {
        program: main,
        block: 0,
        name: w_name.as_str().into(),
    };
    let b = VarRef {
        program: main,
        block: 0,
        name: b_name.as_str().into(),
    };
    let prod = mul_op(i, &helper, &x, &w, nfd as i32, 1);
    let sum = i.b.tmp_var(&helper, dtype, dims(i, &prod));
    let biased = elementwise(i, "elementwise_add", &prod, &b, nfd as i32, Some(sum));
    activation(i, a, biased, &helper)
}

// ---- operator overloading (Paddle's math_op_patch) ----

/// A `tmp_N` variable, as `math_op_patch` names its outputs.
fn patch_tmp(i: &mut Interp, dtype: VarKind, d: Vec<i64>) -> VarRef {
    let name = i.b.unique("tmp");
    let mut var = Var::dense(name, dtype, d);
    var.stop_gradient = Some(false);
    i.b.declare(var)
}

/// A Python number as a constant tensor of `dtype` and `shape`
/// (`create_scalar` / `create_tensor`): a `tmp_N` filled by `fill_constant`.
fn scalar_tensor(i: &mut Interp, v: f64, dtype: VarKind, shape: Vec<i64>) -> VarRef {
    let out = patch_tmp(i, dtype, shape.clone());
    fill_constant_op(i, &out, shape, dtype, v, false);
    out
}

fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}

fn is_int(k: VarKind) -> bool {
    matches!(
        k,
        VarKind::Int8 | VarKind::Int16 | VarKind::Int32 | VarKind::Int64 | VarKind::Uint8
    )
}

fn elementwise_name(op: Operator) -> Option<&'static str> {
    Some(match op {
        Operator::Add => "elementwise_add",
        Operator::Sub => "elementwise_sub",
        Operator::Mult => "elementwise_mul",
        Operator::Div => "elementwise_div",
        Operator::FloorDiv => "elementwise_floordiv",
        Operator::Mod => "elementwise_mod",
        Operator::Pow => "elementwise_pow",
        _ => return None,
    })
}

/// `x.astype(dtype)`: a `cast` into `cast_N.tmp_0`.
fn cast_to(i: &mut Interp, x: &VarRef, dtype: VarKind) -> VarRef {
    let helper = i.b.helper_name("cast");
    let out = i.b.tmp_var(&helper, dtype, dims(i, x));
    let from = dtype_of(i, x);
    i.b.append(
        Op::new("cast")
            .input("X", &[&x.name])
            .output("Out", &[&out.name])
            .attr("in_dtype", AttrValue::Int(from as i32))
            .attr("out_dtype", AttrValue::Int(dtype as i32)),
    );
    out
}

/// Paddle 1.x's axis for a Variable-Variable op: 0 when `y` has a batch
/// dim first (`y.shape[0] == -1`), else -1.
fn patch_axis(i: &Interp, y: &VarRef) -> i32 {
    if dims(i, y).first() == Some(&-1) {
        0
    } else {
        -1
    }
}

/// `x + y` and friends where a side is a Variable, as Paddle 1.8's
/// `math_op_patch` builds them: `+ - *` with a Python number become one
/// `scale` (and `/` too on floats; integer division stays a division); a
/// float number first casts an integer Variable to float32; other numbers
/// become a constant tensor; `x op y` is `elementwise_<op>` into `tmp_N`.
pub fn var_binary(
    i: &mut Interp,
    op: Operator,
    l: Value,
    r: Value,
    sp: Range<usize>,
) -> Result<Value> {
    let Some(ty) = elementwise_name(op) else {
        return Err(
            Diagnostic::new(sp, "this operator is not defined on program variables")
                .help("use the layers.* function for it (e.g. layers.logical_and)"),
        );
    };
    let unsupported = |v: &Value| {
        Diagnostic::new(
            sp.clone(),
            format!("cannot combine a Variable with a {} here", v.type_name()),
        )
    };
    let (mut x, other, reverse) = match (&l, &r) {
        (Value::Var(x), Value::Var(_)) => (x.clone(), r.clone(), false),
        (Value::Var(x), other) => (x.clone(), other.clone(), false),
        (other, Value::Var(y)) => (y.clone(), other.clone(), true),
        _ => unreachable!("var_binary is called when one side is a Variable"),
    };
    if reverse && matches!(op, Operator::FloorDiv | Operator::Mod | Operator::Pow) {
        return Err(Diagnostic::new(
            sp,
            format!(
                "a number {} a Variable is not defined in Paddle",
                match op {
                    Operator::FloorDiv => "//",
                    Operator::Mod => "%",
                    _ => "**",
                }
            ),
        )
        .help("make the number a Variable with layers.fill_constant first"));
    }
    let out = match other {
        Value::Var(y) => {
            let d = broadcast_dims(&dims(i, &x), &dims(i, &y));
            let out = patch_tmp(i, dtype_of(i, &x), d);
            let axis = patch_axis(i, &y);
            elementwise(i, ty, &x, &y, axis, Some(out))
        }
        ref s => {
            let n = number(s).ok_or_else(|| unsupported(s))?;
            if matches!(s, Value::Float(_)) && is_int(dtype_of(i, &x)) {
                x = cast_to(i, &x, VarKind::Fp32);
            }
            let dtype = dtype_of(i, &x);
            let scaled = match (op, reverse) {
                (Operator::Add, _) => Some((1.0, n)),
                (Operator::Sub, false) => Some((1.0, -n)),
                (Operator::Sub, true) => Some((-1.0, n)),
                (Operator::Mult, _) => Some((n, 0.0)),
                (Operator::Div, false) if !is_int(dtype) && n != 0.0 => Some((1.0 / n, 0.0)),
                _ => None,
            };
            match scaled {
                Some((scale, bias)) => {
                    let out = patch_tmp(i, dtype, dims(i, &x));
                    scale_op(i, &x, &out, scale, bias, true);
                    out
                }
                None => {
                    let xd = dims(i, &x);
                    // A reflected constant takes the Variable's shape (when it
                    // has no batch dim), a direct one shape [1].
                    let shape = if reverse && xd.iter().all(|d| *d >= 0) {
                        xd.clone()
                    } else {
                        vec![1]
                    };
                    let c = scalar_tensor(i, n, dtype, shape);
                    let out = patch_tmp(i, dtype, xd);
                    let (a, b) = if reverse { (c, x) } else { (x, c) };
                    let axis = patch_axis(i, &b);
                    elementwise(i, ty, &a, &b, axis, Some(out))
                }
            }
        }
    };
    Ok(Value::Var(out))
}

/// `-x` on a Variable: `scale` by -1.
pub fn negate(i: &mut Interp, x: VarRef) -> Result<Value> {
    let out = patch_tmp(i, dtype_of(i, &x), dims(i, &x));
    scale_op(i, &x, &out, -1.0, 0.0, true);
    Ok(Value::Var(out))
}

/// `x < y` and friends where a side is a Variable. A number becomes a
/// constant tensor; with the number on the left Python calls the mirrored
/// method on the Variable (`3 > x` is `x.__lt__(3)`), and so does Paddle.
pub fn var_compare(
    i: &mut Interp,
    op: CmpOp,
    l: Value,
    r: Value,
    sp: Range<usize>,
) -> Result<Value> {
    let (op, l, r) = match (&l, &r) {
        (Value::Var(_), _) => (op, l, r),
        _ => {
            let mirrored = match op {
                CmpOp::Lt => CmpOp::Gt,
                CmpOp::LtE => CmpOp::GtE,
                CmpOp::Gt => CmpOp::Lt,
                CmpOp::GtE => CmpOp::LtE,
                other => other,
            };
            (mirrored, r, l)
        }
    };
    let ty = match op {
        CmpOp::Lt => "less_than",
        CmpOp::LtE => "less_equal",
        CmpOp::Gt => "greater_than",
        CmpOp::GtE => "greater_equal",
        CmpOp::Eq => "equal",
        CmpOp::NotEq => "not_equal",
        CmpOp::Is | CmpOp::IsNot => {
            let same = matches!((&l, &r), (Value::Var(a), Value::Var(b)) if a == b);
            return Ok(Value::Bool(same == (op == CmpOp::Is)));
        }
        CmpOp::In | CmpOp::NotIn => {
            return Err(Diagnostic::new(
                sp,
                "`in` is not defined on program variables",
            ))
        }
    };
    let Value::Var(x) = l else {
        unreachable!("var_compare is called when one side is a Variable")
    };
    let y = match r {
        Value::Var(y) => y,
        other => {
            let n = number(&other).ok_or_else(|| {
                Diagnostic::new(
                    sp.clone(),
                    format!("cannot compare a Variable with a {}", other.type_name()),
                )
            })?;
            scalar_tensor(i, n, dtype_of(i, &x), vec![1])
        }
    };
    let out = patch_tmp(i, VarKind::Bool, broadcast_dims(&dims(i, &x), &dims(i, &y)));
    Ok(Value::Var(compare_op(i, ty, &x, &y, out)))
}
