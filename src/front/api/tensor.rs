//! Tensor creation and conversion layers (Paddle's `layers/tensor.py` and
//! `layers/io.py`): `fill_constant`, `zeros`/`ones`, `assign`, `data`,
//! `create_global_var`, `cast` and `Print`. Other modules build constants
//! through [`fill_constant_op`] and casts through [`cast_to`].
use fluidc_transpiler::proto::{scalar, Scalar};
use fluidc_transpiler::{AttrValue, Op, Var, VarKind};

use super::builtin::{builtin, Args, Builtin, Rest, D};
use super::layer::{dims, dtype_of, is_int};
use crate::front::diag::Result;
use crate::front::host::Host;
use crate::front::value::{py_float, Value, VarRef, MAX_ITEMS};

use D::*;

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
            Ok(Value::Var(cast_to(i, &x, dtype)))
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
];

/// `zeros`/`ones`: a `fill_constant` layer of `value`.
fn filled(i: &mut Host, a: &mut Args, value: f64) -> Result<Value> {
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

/// The `fill_constant` layer: a `fill_constant_N.tmp_0` output (unless
/// `out` is given) filled by [`fill_constant_op`].
pub fn fill_constant(
    i: &mut Host,
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
    i: &mut Host,
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
    let str_value = if is_int(dtype) {
        format!("{}", value as i64)
    } else {
        py_float(value)
    };
    Op::new("fill_constant")
        .output("Out", &[out])
        .attr("shape", AttrValue::Longs(shape))
        .attr("dtype", AttrValue::Int(dtype as i32))
        .attr("value", AttrValue::Float(value as f32))
        .attr("str_value", AttrValue::String(str_value))
        .attr("force_cpu", AttrValue::Bool(force_cpu))
}

/// `x.astype(dtype)`: a `cast` into `cast_N.tmp_0`.
pub fn cast_to(i: &mut Host, x: &VarRef, dtype: VarKind) -> VarRef {
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

/// `assign(input, output=None)`: a Variable is copied with `assign`; a
/// Python number or list becomes an `assign_value` constant.
fn assign(i: &mut Host, a: &mut Args) -> Result<Value> {
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
            let (scalars, dtype, shape) = match &other {
                // A numpy array keeps its dtype and shape, as Paddle's assign does.
                Value::Array(x) | Value::NpScalar(x) => array_scalars(x),
                _ => list_scalars(a, &other)?,
            };
            let out = match output {
                Some(o) => o,
                None => {
                    let helper = i.b.helper_name("assign");
                    i.b.tmp_var(&helper, dtype, shape.clone())
                }
            };
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

/// `assign`'s values for a number or nested list: bool, int64 or float32
/// as the items are.
fn list_scalars(a: &Args, v: &Value) -> Result<(Vec<Scalar>, VarKind, Vec<i64>)> {
    let (values, shape) = flatten(v, MAX_RANK).ok_or_else(|| {
        a.err(
            "input",
            "assign() needs a Variable, a number, a numpy array or a (nested, rectangular) list of numbers, at most 9 levels deep",
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
    let scalars = values
        .iter()
        .map(|v| match (dtype, v) {
            (VarKind::Bool, Value::Bool(b)) => bool_scalar(*b),
            (VarKind::Int64, Value::Int(n)) => int_scalar(*n),
            (VarKind::Int64, Value::Bool(b)) => int_scalar(i64::from(*b)),
            (_, v) => float_scalar(match v {
                Value::Int(n) => *n as f64,
                Value::Float(f) => *f,
                Value::Bool(b) => f64::from(u8::from(*b)),
                _ => 0.0,
            }),
        })
        .collect();
    Ok((scalars, dtype, shape))
}

/// `assign`'s values for a numpy array: its dtype and shape.
fn array_scalars(x: &crate::host::HostArray) -> (Vec<Scalar>, VarKind, Vec<i64>) {
    use crate::host::DType;
    let shape: Vec<i64> = x.shape().iter().map(|d| *d as i64).collect();
    let shape = if shape.is_empty() { vec![1] } else { shape };
    let (kind, scalars) = match x.dtype() {
        DType::Bool => (
            VarKind::Bool,
            x.to_vec::<bool>().into_iter().map(bool_scalar).collect(),
        ),
        DType::Int32 => (
            VarKind::Int32,
            x.to_vec::<i64>().into_iter().map(int_scalar).collect(),
        ),
        DType::Int64 => (
            VarKind::Int64,
            x.to_vec::<i64>().into_iter().map(int_scalar).collect(),
        ),
        DType::Float32 => (
            VarKind::Fp32,
            x.to_vec::<f64>().into_iter().map(float_scalar).collect(),
        ),
        DType::Float64 => (
            VarKind::Fp64,
            x.to_vec::<f64>().into_iter().map(float_scalar).collect(),
        ),
    };
    (scalars, kind, shape)
}

fn bool_scalar(b: bool) -> Scalar {
    Scalar {
        r#type: scalar::Type::Boolean as i32,
        b: Some(b),
        ..Default::default()
    }
}

fn int_scalar(n: i64) -> Scalar {
    Scalar {
        r#type: scalar::Type::Long as i32,
        i: Some(n),
        ..Default::default()
    }
}

fn float_scalar(r: f64) -> Scalar {
    Scalar {
        r#type: scalar::Type::Float64 as i32,
        r: Some(r),
        ..Default::default()
    }
}

/// Lists nested deeper than this are no tensor (Paddle's rank limit); the
/// bound also ends the walk of a list that contains itself.
const MAX_RANK: usize = 9;

/// A number or nested list as flat values and a shape (`None` if it is
/// ragged, deeper than `depth`, or more than [`MAX_ITEMS`] numbers).
fn flatten(v: &Value, depth: usize) -> Option<(Vec<Value>, Vec<i64>)> {
    match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some((vec![v.clone()], vec![1])),
        Value::List(_) | Value::Tuple(_) if depth > 0 => {
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
                let (f, s) = flatten(it, depth - 1)?;
                if inner.as_ref().is_some_and(|x| *x != s) || flat.len() + f.len() > MAX_ITEMS {
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
fn data(i: &mut Host, a: &Args, shape: Vec<i64>, check_feed: bool) -> Result<Value> {
    let name = a.string("name")?;
    let dtype = a.dtype("dtype")?;
    let mut var = Var::dense(name, dtype, shape);
    var.stop_gradient = Some(true);
    let lod_level = a.int("lod_level")?;
    if lod_level > 0 {
        if let Some(d) = var.ty.dense_tensor.as_mut() {
            d.legacy_lod_level = Some(lod_level as i32);
        }
    }
    if check_feed {
        var.need_check_feed = Some(true);
    }
    let main = i.b.main;
    Ok(Value::Var(i.b.declare_in(main, 0, var)))
}

/// A persistable-capable variable in the global block, initialized by a
/// `fill_constant` in the startup program (as Paddle does).
fn create_global_var(i: &mut Host, a: &mut Args) -> Result<Value> {
    let shape = a.ints("shape")?;
    let dtype = a.dtype("dtype")?;
    let value = a.float("value")?;
    i.b.helper_name("global_var");
    let name = a.opt_string("name")?;
    let (persistable, force_cpu) = (a.bool("persistable")?, a.bool("force_cpu")?);
    Ok(Value::Var(global_var(
        i,
        name,
        shape,
        dtype,
        value,
        persistable,
        force_cpu,
    )))
}

/// A variable in the global block of the main program, `name` or the next
/// `_generated_var_N`, set to `value` by a `fill_constant` its startup
/// program runs: `LayerHelper.create_global_variable` with a Constant
/// initializer, whose op Paddle prepends to the startup program.
pub(super) fn global_var(
    i: &mut Host,
    name: Option<String>,
    shape: Vec<i64>,
    dtype: VarKind,
    value: f64,
    persistable: bool,
    force_cpu: bool,
) -> VarRef {
    let name = name.unwrap_or_else(|| i.b.unique("_generated_var"));
    let mut var = Var::dense(name, dtype, shape.clone());
    var.persistable = Some(persistable);
    var.stop_gradient = Some(true);
    let (main, startup) = (i.b.main, i.b.startup);
    let r = i.b.declare_in(main, 0, var.clone());
    i.b.declare_in(startup, 0, var);
    let init = fill_constant_desc(&r.name, shape, dtype, value, force_cpu);
    i.b.prepend_to(startup, 0, init);
    r
}

fn print_layer(i: &mut Host, a: &mut Args) -> Result<Value> {
    let x = a.var("input")?;
    // Paddle 1.8 names the helper after the input: print_<input>_N.
    let helper = i.b.helper_name(&format!("print_{}", x.name));
    let out = i.b.tmp_var(&helper, dtype_of(i, &x), dims(i, &x));
    let message = a.opt_string("message")?.unwrap_or_default();
    i.b.append(
        Op::new("print")
            .input("In", &[&x.name])
            .output("Out", &[&out.name])
            .attr("first_n", AttrValue::Int(a.int32("first_n")?))
            .attr("summarize", AttrValue::Int(a.int32("summarize")?))
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
