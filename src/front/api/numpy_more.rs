//! numpy functions beyond the core of [`super::numpy`]: more ways to make
//! arrays (`eye`, `linspace`, `full`, the `*_like`s), shape functions,
//! `maximum`/`minimum`/`clip`/`where`, rounding and `dot`, as 2018 test
//! scripts use them to build inputs and expected values.
use super::builtin::{builtin, Args, Builtin, Rest, D::*};
use super::numpy::{
    array, array_value, as_array, binary, dtype_arg, elementwise_fn, host_err, operand_array, recv,
    scalar, scalar_or_array, shape_arg, HeldOperand,
};
use crate::front::diag::Result;
use crate::front::value::Value;
use crate::host::{self, BinaryOp, DType, HostArray, Scalar};

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["numpy.eye"],
        [
            ("N", Req),
            ("M", Nil),
            ("k", Int(0)),
            ("dtype", Str("float64"))
        ],
        Rest::No,
        |_, a| {
            let m = if a.is_none("M") {
                None
            } else {
                Some(count(a, "M")?)
            };
            let dtype = dtype_arg(a, "dtype")?.unwrap_or(DType::Float64);
            array(a, "N", host::eye(count(a, "N")?, m, a.int("k")?, dtype))
        }
    ),
    builtin!(
        ["numpy.identity"],
        [("n", Req), ("dtype", Str("float64"))],
        Rest::No,
        |_, a| {
            let dtype = dtype_arg(a, "dtype")?.unwrap_or(DType::Float64);
            array(a, "n", host::eye(count(a, "n")?, None, 0, dtype))
        }
    ),
    builtin!(
        ["numpy.linspace"],
        [
            ("start", Req),
            ("stop", Req),
            ("num", Int(50)),
            ("endpoint", Bool(true)),
            ("dtype", Nil)
        ],
        Rest::No,
        |_, a| {
            let (start, stop) = (a.float("start")?, a.float("stop")?);
            let r = host::linspace(
                start,
                stop,
                count(a, "num")?,
                a.bool("endpoint")?,
                dtype_arg(a, "dtype")?,
            );
            array(a, "num", r)
        }
    ),
    builtin!(
        ["numpy.full"],
        [("shape", Req), ("fill_value", Req), ("dtype", Nil)],
        Rest::No,
        |_, a| {
            let value = fill_value(a)?;
            let dtype = dtype_arg(a, "dtype")?.unwrap_or(DType::default_for(value.kind()));
            array(
                a,
                "shape",
                HostArray::full(dtype, &shape_arg(a, "shape")?, value),
            )
        }
    ),
    builtin!(
        ["numpy.zeros_like"],
        [("a", Req), ("dtype", Nil)],
        Rest::No,
        |_, a| like(a, Scalar::Int(0))
    ),
    builtin!(
        ["numpy.ones_like"],
        [("a", Req), ("dtype", Nil)],
        Rest::No,
        |_, a| like(a, Scalar::Int(1))
    ),
    builtin!(
        ["numpy.full_like"],
        [("a", Req), ("fill_value", Req), ("dtype", Nil)],
        Rest::No,
        |_, a| like(a, fill_value(a)?)
    ),
    builtin!(
        ["numpy.reshape"],
        [("a", Req), ("newshape", Req)],
        Rest::No,
        |_, a| {
            let dims = match a.get("newshape") {
                Value::Int(n) => vec![*n],
                other => ints(a, "newshape", other)?,
            };
            array(a, "a", operand_array(a, "a")?.reshape(&dims))
        }
    ),
    builtin!(
        ["numpy.transpose"],
        [("a", Req), ("axes", Nil)],
        Rest::No,
        |_, a| {
            let axes = match a.get("axes") {
                Value::None => None,
                other => Some(ints(a, "axes", other)?),
            };
            array(a, "a", operand_array(a, "a")?.transpose(axes.as_deref()))
        }
    ),
    builtin!(
        ["numpy.expand_dims"],
        [("a", Req), ("axis", Req)],
        Rest::No,
        |_, a| array(a, "a", operand_array(a, "a")?.expand_dims(a.int("axis")?))
    ),
    builtin!(
        ["numpy.squeeze"],
        [("a", Req), ("axis", Nil)],
        Rest::No,
        |_, a| squeeze(a, &*operand_array(a, "a")?)
    ),
    builtin!(["ndarray.squeeze"], [("axis", Nil)], Rest::No, |_, a| {
        squeeze(a, &*recv(a))
    }),
    builtin!(
        ["numpy.maximum"],
        [("x1", Req), ("x2", Req)],
        Rest::No,
        |_, a| binary(BinaryOp::Maximum, a.get("x1"), a.get("x2"), a.call.clone())
    ),
    builtin!(
        ["numpy.minimum"],
        [("x1", Req), ("x2", Req)],
        Rest::No,
        |_, a| binary(BinaryOp::Minimum, a.get("x1"), a.get("x2"), a.call.clone())
    ),
    builtin!(
        ["numpy.clip"],
        [("a", Req), ("a_min", Req), ("a_max", Req)],
        Rest::No,
        |_, a| {
            let mut x = a.get("a").clone();
            if !a.is_none("a_min") {
                x = binary(BinaryOp::Maximum, &x, a.get("a_min"), a.call.clone())?;
            }
            if !a.is_none("a_max") {
                x = binary(BinaryOp::Minimum, &x, a.get("a_max"), a.call.clone())?;
            }
            Ok(x)
        }
    ),
    builtin!(
        ["numpy.where"],
        [("condition", Req), ("x", Req), ("y", Req)],
        Rest::No,
        |_, a| {
            let cond = operand_array(a, "condition")?;
            let held = |name: &str| {
                HeldOperand::of(a.get(name))
                    .ok_or_else(|| a.err(name, "expected an array or a number"))
            };
            let (x, y) = (held("x")?, held("y")?);
            array(
                a,
                "condition",
                host::where_(&cond, x.operand(), y.operand()),
            )
        }
    ),
    builtin!(
        ["numpy.round", "numpy.around"],
        [("a", Req), ("decimals", Int(0))],
        Rest::No,
        |_, a| round(a, a.get("a"))
    ),
    builtin!(
        ["ndarray.round"],
        [("decimals", Int(0))],
        Rest::No,
        |_, a| {
            let x = a.recv.clone().unwrap_or(Value::None);
            round(a, &x)
        }
    ),
    builtin!(["numpy.floor"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::Floor)
    }),
    builtin!(["numpy.ceil"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::Ceil)
    }),
    builtin!(
        ["numpy.dot", "numpy.matmul"],
        [("a", Req), ("b", Req)],
        Rest::No,
        |_, a| {
            let (x, y) = (operand_array(a, "a")?, operand_array(a, "b")?);
            host::dot(&x, &y)
                .map(scalar_or_array)
                .map_err(|e| host_err(a, "a", e))
        }
    ),
    builtin!(["ndarray.dot"], [("b", Req)], Rest::No, |_, a| {
        let y = operand_array(a, "b")?;
        host::dot(&recv(a), &y)
            .map(scalar_or_array)
            .map_err(|e| host_err(a, "b", e))
    }),
];

/// A count argument (a size, a number of samples): a non-negative int.
fn count(a: &Args, name: &str) -> Result<usize> {
    usize::try_from(a.int(name)?).map_err(|_| a.err(name, "negative dimensions are not allowed"))
}

fn ints(a: &Args, name: &str, v: &Value) -> Result<Vec<i64>> {
    v.items()
        .and_then(|items| {
            items
                .iter()
                .map(|d| match d {
                    Value::Int(i) => Some(*i),
                    _ => None,
                })
                .collect()
        })
        .ok_or_else(|| a.err(name, "expected an int or a tuple of ints"))
}

fn fill_value(a: &Args) -> Result<Scalar> {
    match a.get("fill_value") {
        Value::NpScalar(x) => x.item().map_err(|e| host_err(a, "fill_value", e)),
        other => scalar(other).ok_or_else(|| a.err("fill_value", "fill_value must be a number")),
    }
}

/// `np.zeros_like(a)` and its kin: `a`'s shape and (unless given) dtype.
fn like(a: &Args, value: Scalar) -> Result<Value> {
    let x = operand_array(a, "a")?;
    let dtype = dtype_arg(a, "dtype")?.unwrap_or(x.dtype());
    array(a, "a", HostArray::full(dtype, x.shape(), value))
}

fn squeeze(a: &Args, x: &HostArray) -> Result<Value> {
    let axis = if a.is_none("axis") {
        None
    } else {
        Some(a.int("axis")?)
    };
    array(a, "axis", x.squeeze(axis))
}

/// `np.round(x, decimals)`: an array stays an array, a number gives a
/// numpy scalar (numpy rounds a Python float to a float64 scalar).
fn round(a: &Args, x: &Value) -> Result<Value> {
    let arr = as_array(x).ok_or_else(|| a.err("decimals", "round takes an array or a number"))?;
    let y = arr
        .round(a.int("decimals")?)
        .map_err(|e| host_err(a, "decimals", e))?;
    Ok(match x {
        Value::Array(_) | Value::List(_) | Value::Tuple(_) => array_value(y),
        _ => scalar_or_array(y),
    })
}
