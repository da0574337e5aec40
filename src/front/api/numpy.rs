//! numpy on the host (SPEC §8.2): `numpy.*` functions and `ndarray`
//! methods over [`HostArray`]s, the values run mode fetches and scripts
//! feed. The arithmetic, printing and dtype rules are [`crate::host`]'s.
use std::rc::Rc;

use fluidc_transpiler::VarKind;

use super::builtin::{builtin, Args, Builtin, Rest, D::*};
use crate::front::diag::{Diagnostic, Result};
use crate::front::value::Value;
use crate::host::{self, DType, HostArray, HostError, Nested, Reduction, Scalar};

/// `numpy.NAME(a, axis=None, keepdims=False)`.
macro_rules! reduction {
    ([$($path:expr),+], $r:expr) => {
        builtin!(
            [$($path),+],
            [("a", Req), ("axis", Nil), ("keepdims", Bool(false))],
            Rest::No,
            |_, a| {
                let x = operand_array(a, "a")?;
                reduce(a, &x, $r)
            }
        )
    };
}

/// `arr.NAME(axis=None, keepdims=False)`.
macro_rules! method_reduction {
    ([$($path:expr),+], $r:expr) => {
        builtin!(
            [$($path),+],
            [("axis", Nil), ("keepdims", Bool(false))],
            Rest::No,
            |_, a| {
                let x = recv(a);
                reduce(a, &x, $r)
            }
        )
    };
}

pub const BUILTINS: &[Builtin] = &[
    builtin!(
        ["numpy.abs", "numpy.absolute"],
        [("x", Req)],
        Rest::No,
        |_, a| elementwise_fn(a, host::UnaryOp::Abs)
    ),
    builtin!(
        ["numpy.exp"],
        [("x", Req)],
        Rest::No,
        |_, a| elementwise_fn(a, host::UnaryOp::Exp)
    ),
    builtin!(
        ["numpy.log"],
        [("x", Req)],
        Rest::No,
        |_, a| elementwise_fn(a, host::UnaryOp::Log)
    ),
    builtin!(["numpy.sqrt"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::Sqrt)
    }),
    builtin!(["numpy.tanh"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::Tanh)
    }),
    builtin!(["numpy.square"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::Square)
    }),
    builtin!(["numpy.isnan"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::IsNan)
    }),
    builtin!(["numpy.isinf"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::IsInf)
    }),
    builtin!(["numpy.isfinite"], [("x", Req)], Rest::No, |_, a| {
        elementwise_fn(a, host::UnaryOp::IsFinite)
    }),
    builtin!(
        ["numpy.array", "numpy.asarray"],
        [("object", Req), ("dtype", Nil)],
        Rest::No,
        |_, a| {
            let dtype = dtype_arg(a, "dtype")?;
            let nested = nested(a.get("object")).ok_or_else(|| {
                a.err(
                    "object",
                    "numpy.array takes numbers, lists of them or arrays",
                )
            })?;
            array(a, "object", HostArray::from_nested(&nested, dtype))
        }
    ),
    builtin!(
        ["numpy.zeros"],
        [("shape", Req), ("dtype", Str("float64"))],
        Rest::No,
        |_, a| filled(a, Scalar::Int(0))
    ),
    builtin!(
        ["numpy.ones"],
        [("shape", Req), ("dtype", Str("float64"))],
        Rest::No,
        |_, a| filled(a, Scalar::Int(1))
    ),
    builtin!(
        ["numpy.arange"],
        [("start", Req), ("stop", Nil), ("step", Nil), ("dtype", Nil)],
        Rest::No,
        |_, a| {
            let num = |name: &str| scalar(a.get(name));
            let (start, stop) = match a.is_none("stop") {
                true => (Some(Scalar::Int(0)), num("start")),
                false => (num("start"), num("stop")),
            };
            let (Some(start), Some(stop)) = (start, stop) else {
                return Err(a.err("start", "arange takes numbers"));
            };
            let step = if a.is_none("step") {
                Some(Scalar::Int(1))
            } else {
                num("step")
            };
            let step = step.ok_or_else(|| a.err("step", "arange takes numbers"))?;
            array(
                a,
                "start",
                host::arange(start, stop, step, dtype_arg(a, "dtype")?),
            )
        }
    ),
    builtin!(
        ["numpy.concatenate"],
        [("arrays", Req), ("axis", Int(0))],
        Rest::No,
        |_, a| {
            let arrays = array_list(a, "arrays")?;
            let refs: Vec<&HostArray> = arrays.iter().map(|x| &**x).collect();
            array(a, "arrays", host::concatenate(&refs, Some(a.int("axis")?)))
        }
    ),
    builtin!(
        ["numpy.stack"],
        [("arrays", Req), ("axis", Int(0))],
        Rest::No,
        |_, a| {
            let arrays = array_list(a, "arrays")?;
            let refs: Vec<&HostArray> = arrays.iter().map(|x| &**x).collect();
            array(a, "arrays", host::stack(&refs, a.int("axis")?))
        }
    ),
    builtin!(
        ["numpy.allclose"],
        [
            ("a", Req),
            ("b", Req),
            ("rtol", Float(1e-5)),
            ("atol", Float(1e-8)),
            ("equal_nan", Bool(false))
        ],
        Rest::No,
        |_, a| {
            let (x, y) = (operand_array(a, "a")?, operand_array(a, "b")?);
            let close = host::allclose(
                host::Operand::Array(&x),
                host::Operand::Array(&y),
                tolerance(a)?,
            );
            close.map(Value::Bool).map_err(|e| host_err(a, "a", e))
        }
    ),
    builtin!(
        ["numpy.isclose"],
        [
            ("a", Req),
            ("b", Req),
            ("rtol", Float(1e-5)),
            ("atol", Float(1e-8)),
            ("equal_nan", Bool(false))
        ],
        Rest::No,
        |_, a| {
            let (x, y) = (operand_array(a, "a")?, operand_array(a, "b")?);
            let close = host::isclose(
                host::Operand::Array(&x),
                host::Operand::Array(&y),
                tolerance(a)?,
            );
            let arrays =
                matches!(a.get("a"), Value::Array(_)) || matches!(a.get("b"), Value::Array(_));
            close
                .map(|c| {
                    if arrays {
                        array_value(c)
                    } else {
                        scalar_or_array(c)
                    }
                })
                .map_err(|e| host_err(a, "a", e))
        }
    ),
    builtin!(
        ["numpy.array_equal"],
        [("a1", Req), ("a2", Req)],
        Rest::No,
        |_, a| {
            let (x, y) = (operand_array(a, "a1")?, operand_array(a, "a2")?);
            Ok(Value::Bool(host::array_equal(&x, &y)))
        }
    ),
    reduction!(["numpy.sum"], Reduction::Sum),
    reduction!(["numpy.mean"], Reduction::Mean),
    reduction!(["numpy.max", "numpy.amax"], Reduction::Max),
    reduction!(["numpy.min", "numpy.amin"], Reduction::Min),
    reduction!(["numpy.prod"], Reduction::Prod),
    reduction!(["numpy.argmax"], Reduction::Argmax),
    reduction!(["numpy.argmin"], Reduction::Argmin),
    reduction!(["numpy.std"], Reduction::Std),
    reduction!(["numpy.var"], Reduction::Var),
    reduction!(["numpy.any"], Reduction::Any),
    reduction!(["numpy.all"], Reduction::All),
    method_reduction!(["ndarray.sum"], Reduction::Sum),
    method_reduction!(["ndarray.mean"], Reduction::Mean),
    method_reduction!(["ndarray.max"], Reduction::Max),
    method_reduction!(["ndarray.min"], Reduction::Min),
    method_reduction!(["ndarray.prod"], Reduction::Prod),
    method_reduction!(["ndarray.argmax"], Reduction::Argmax),
    method_reduction!(["ndarray.argmin"], Reduction::Argmin),
    method_reduction!(["ndarray.std"], Reduction::Std),
    method_reduction!(["ndarray.var"], Reduction::Var),
    method_reduction!(["ndarray.any"], Reduction::Any),
    method_reduction!(["ndarray.all"], Reduction::All),
    builtin!(
        ["ndarray.astype"],
        [("dtype", Req)],
        Rest::IgnoreKwargs,
        |_, a| {
            let d = dtype_arg(a, "dtype")?.ok_or_else(|| a.err("dtype", "astype needs a dtype"))?;
            Ok(Value::Array(Rc::new(recv(a).astype(d))))
        }
    ),
    builtin!(["ndarray.reshape"], [], Rest::Varargs, |_, a| {
        let dims = match a.extra.as_slice() {
            [one] if one.items().is_some() => one.items().unwrap_or_default(),
            more => more.to_vec(),
        };
        let dims: Option<Vec<i64>> = dims
            .iter()
            .map(|d| match d {
                Value::Int(i) => Some(*i),
                _ => None,
            })
            .collect();
        let dims = dims.ok_or_else(|| Diagnostic::new(a.call.clone(), "reshape takes integers"))?;
        recv(a)
            .reshape(&dims)
            .map(|x| Value::Array(Rc::new(x)))
            .map_err(|e| Diagnostic::new(a.call.clone(), e.message))
    }),
    builtin!(
        ["ndarray.flatten", "ndarray.ravel"],
        [],
        Rest::No,
        |_, a| Ok(Value::Array(Rc::new(recv(a).flatten())))
    ),
    builtin!(["ndarray.copy"], [], Rest::No, |_, a| Ok(Value::Array(
        recv(a)
    ))),
    builtin!(["ndarray.transpose"], [], Rest::No, |_, a| {
        recv(a)
            .transpose(None)
            .map(|x| Value::Array(Rc::new(x)))
            .map_err(|e| Diagnostic::new(a.call.clone(), e.message))
    }),
    builtin!(["ndarray.tolist"], [], Rest::No, |_, a| Ok(from_nested(
        &recv(a).tolist()
    ))),
    builtin!(["ndarray.item"], [], Rest::No, |_, a| {
        recv(a)
            .item()
            .map(from_scalar)
            .map_err(|e| Diagnostic::new(a.call.clone(), e.message))
    }),
];

fn reduce(a: &Args, x: &HostArray, r: Reduction) -> Result<Value> {
    let keepdims = a.bool("keepdims")?;
    let err = |e: HostError| Diagnostic::new(a.call.clone(), e.message);
    // `axis=(0, 2)`: adjacent axes merge into one; others go one after
    // another, the highest first, so the rest keep their numbers (float
    // sums may then differ from numpy's in the last bits).
    if let Value::Tuple(_) | Value::List(_) = a.get("axis") {
        let items = a.get("axis").items().unwrap_or_default();
        let mut axes = Vec::with_capacity(items.len());
        for v in &items {
            let Value::Int(n) = v else {
                return Err(a.err("axis", "axis must be an int or a tuple of ints"));
            };
            let k = if *n < 0 { *n + x.ndim() as i64 } else { *n };
            if !(0..x.ndim() as i64).contains(&k) || axes.contains(&k) {
                return Err(a.err(
                    "axis",
                    format!("AxisError: axis {n} is out of bounds or repeated for an array of dimension {}", x.ndim()),
                ));
            }
            axes.push(k);
        }
        axes.sort_unstable();
        let (first, n) = (axes.first().copied().unwrap_or(0), axes.len() as i64);
        if axes.iter().enumerate().all(|(i, &k)| k == first + i as i64) && n > 0 {
            // Adjacent axes: merged into one and reduced in one pass, as
            // numpy iterates them (all of them: a full reduction).
            let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
            let (lo, hi) = (first as usize, (first + n) as usize);
            let mut merged: Vec<i64> = shape[..lo].to_vec();
            merged.push(shape[lo..hi].iter().product());
            merged.extend(&shape[hi..]);
            let out = x
                .reshape(&merged)
                .map_err(err)?
                .reduce(r, Some(first), false)
                .map_err(err)?;
            if !keepdims {
                return Ok(scalar_or_array(out));
            }
            let kept: Vec<i64> = shape
                .iter()
                .enumerate()
                .map(|(i, &d)| if (lo..hi).contains(&i) { 1 } else { d })
                .collect();
            return Ok(scalar_or_array(out.reshape(&kept).map_err(err)?));
        }
        let mut out = x.clone();
        for k in axes.into_iter().rev() {
            out = out.reduce(r, Some(k), keepdims).map_err(err)?;
        }
        return Ok(scalar_or_array(out));
    }
    let axis = if a.is_none("axis") {
        None
    } else {
        Some(a.int("axis")?)
    };
    x.reduce(r, axis, keepdims)
        .map(scalar_or_array)
        .map_err(err)
}

/// The array a method is bound to.
/// The `rtol`, `atol` and `equal_nan` arguments of `allclose`/`isclose`.
fn tolerance(a: &Args) -> Result<host::Tolerance> {
    Ok(host::Tolerance {
        rtol: a.float("rtol")?,
        atol: a.float("atol")?,
        equal_nan: a.bool("equal_nan")?,
    })
}

/// The array a method is bound to.
pub(super) fn recv(a: &Args) -> Rc<HostArray> {
    match &a.recv {
        Some(Value::Array(x) | Value::NpScalar(x)) => x.clone(),
        _ => Rc::new(HostArray::scalar(DType::Float64, Scalar::Float(0.0))),
    }
}

/// An array result.
/// `np.abs(x)`, `np.exp(x)`, ...: element-wise on an array, a numpy
/// scalar or a Python number; an array gives an array, else a scalar.
pub(super) fn elementwise_fn(a: &Args, op: host::UnaryOp) -> Result<Value> {
    let x = a.get("x");
    let arr = as_array(x).ok_or_else(|| {
        a.err(
            "x",
            format!(
                "{}() takes an array or a number, not {}",
                a.short_name(),
                x.type_name()
            ),
        )
    })?;
    let y = arr
        .unary(op)
        .map_err(|e| a.err("x", format!("{}: {}", e.kind.name(), e.message)))?;
    Ok(match x {
        Value::Array(_) | Value::List(_) | Value::Tuple(_) => array_value(y),
        _ => scalar_or_array(y),
    })
}

pub(super) fn array_value(x: HostArray) -> Value {
    Value::Array(Rc::new(x))
}

/// A result numpy gives as a scalar when it is 0-d (a full reduction, an
/// operation between scalars).
pub(super) fn scalar_or_array(x: HostArray) -> Value {
    if x.ndim() == 0 {
        Value::NpScalar(Rc::new(x))
    } else {
        Value::Array(Rc::new(x))
    }
}

pub(super) fn array(
    a: &Args,
    name: &str,
    r: std::result::Result<HostArray, HostError>,
) -> Result<Value> {
    r.map(array_value).map_err(|e| host_err(a, name, e))
}

pub(super) fn host_err(a: &Args, name: &str, e: HostError) -> Diagnostic {
    a.err(name, format!("{}: {}", e.kind.name(), e.message))
}

fn filled(a: &Args, value: Scalar) -> Result<Value> {
    let shape = shape_arg(a, "shape")?;
    let dtype = dtype_arg(a, "dtype")?.unwrap_or(DType::Float64);
    array(a, "shape", HostArray::full(dtype, &shape, value))
}

/// A shape argument: an int or a sequence of them.
pub(super) fn shape_arg(a: &Args, name: &str) -> Result<Vec<usize>> {
    Ok(match a.get(name) {
        Value::Int(n) => {
            vec![usize::try_from(*n)
                .map_err(|_| a.err(name, "negative dimensions are not allowed"))?]
        }
        other => other
            .items()
            .ok_or_else(|| a.err(name, "shape must be an int or a tuple of ints"))?
            .iter()
            .map(|d| match d {
                Value::Int(n) => usize::try_from(*n).ok(),
                _ => None,
            })
            .collect::<Option<_>>()
            .ok_or_else(|| a.err(name, "negative or non-integer dimensions are not allowed"))?,
    })
}

/// A dtype argument in numpy's spellings (`'float32'`, `numpy.float32`).
pub(super) fn dtype_arg(a: &Args, name: &str) -> Result<Option<DType>> {
    match a.get(name) {
        Value::None => Ok(None),
        Value::Str(s) => DType::from_name(s)
            .map(Some)
            .ok_or_else(|| a.err(name, format!("data type '{s}' not understood"))),
        Value::DType(k) => dtype_of_kind(*k)
            .map(Some)
            .ok_or_else(|| a.err(name, format!("fluidc's numpy has no {}", k.as_str_name()))),
        Value::Builtin(b, None) if b.name == "builtins.float" => Ok(Some(DType::Float64)),
        Value::Builtin(b, None) if b.name == "builtins.int" => Ok(Some(DType::Int64)),
        Value::Builtin(b, None) if b.name == "builtins.bool" => Ok(Some(DType::Bool)),
        other => Err(a.err(
            name,
            format!("data type {} not understood", other.type_name()),
        )),
    }
}

/// The host dtype of a program dtype.
pub fn dtype_of_kind(k: VarKind) -> Option<DType> {
    DType::from_name(fluidc_transpiler::model::dtype_name(k))
}

/// A list of arrays (or of values numpy turns into arrays).
fn array_list(a: &Args, name: &str) -> Result<Vec<Rc<HostArray>>> {
    let items = a
        .get(name)
        .items()
        .ok_or_else(|| a.err(name, "expected a list of arrays"))?;
    items
        .iter()
        .map(|v| as_array(v).ok_or_else(|| a.err(name, "expected a list of arrays")))
        .collect()
}

pub(super) fn operand_array(a: &Args, name: &str) -> Result<Rc<HostArray>> {
    as_array(a.get(name)).ok_or_else(|| a.err(name, "expected an array or numbers"))
}

/// A value as an array: an array, or numbers and lists numpy would convert.
pub fn as_array(v: &Value) -> Option<Rc<HostArray>> {
    match v {
        Value::Array(x) | Value::NpScalar(x) => Some(x.clone()),
        // `numpy.array(tensor)` of a fetched DenseTensor.
        Value::Object(o) => match o.as_ref() {
            crate::front::value::Object::DenseTensor(t) => t.borrow().array.clone(),
            _ => None,
        },
        other => HostArray::from_nested(&nested(other)?, None)
            .ok()
            .map(Rc::new),
    }
}

/// A Python scalar for numpy.
pub fn scalar(v: &Value) -> Option<Scalar> {
    match v {
        Value::Bool(b) => Some(Scalar::Bool(*b)),
        Value::Int(i) => Some(Scalar::Int(*i)),
        Value::Float(f) => Some(Scalar::Float(*f)),
        _ => None,
    }
}

/// A script value as numpy's nested input.
pub fn nested(v: &Value) -> Option<Nested> {
    match v {
        Value::Array(x) | Value::NpScalar(x) => Some(Nested::Array((**x).clone())),
        Value::Object(o) => match o.as_ref() {
            crate::front::value::Object::DenseTensor(t) => {
                Some(Nested::Array((**t.borrow().array.as_ref()?).clone()))
            }
            _ => None,
        },
        Value::List(_) | Value::Tuple(_) => {
            let items = v.items()?;
            Some(Nested::List(
                items.iter().map(nested).collect::<Option<_>>()?,
            ))
        }
        other => Some(match scalar(other)? {
            Scalar::Bool(b) => Nested::Bool(b),
            Scalar::Int(i) => Nested::Int(i),
            Scalar::Float(f) => Nested::Float(f),
        }),
    }
}

fn from_scalar(s: Scalar) -> Value {
    match s {
        Scalar::Bool(b) => Value::Bool(b),
        Scalar::Int(i) => Value::Int(i),
        Scalar::Float(f) => Value::Float(f),
    }
}

/// `tolist()`: Python lists of Python numbers.
fn from_nested(n: &Nested) -> Value {
    match n {
        Nested::Bool(b) => Value::Bool(*b),
        Nested::Int(i) => Value::Int(*i),
        Nested::Float(f) => Value::Float(*f),
        Nested::List(items) => Value::list(items.iter().map(from_nested).collect()),
        Nested::Array(x) => scalar_or_array(x.clone()),
    }
}

/// `arr.shape`, `arr.dtype`, ... of an array.
pub fn array_attr(x: &Rc<HostArray>, name: &str) -> Option<Value> {
    Some(match name {
        "shape" => Value::tuple(x.shape().iter().map(|d| Value::Int(*d as i64)).collect()),
        "ndim" => Value::Int(x.ndim() as i64),
        "size" => Value::Int(x.size() as i64),
        "dtype" => Value::str(x.dtype().name()),
        "T" => Value::Array(Rc::new(x.transpose(None).ok()?)),
        _ => return None,
    })
}

/// A value as numpy takes an operand: an array (strongly typed) or a
/// Python number (weakly typed).
#[derive(Debug)]
pub enum HeldOperand {
    Array(Rc<HostArray>),
    Scalar(Scalar),
}

impl HeldOperand {
    pub fn of(v: &Value) -> Option<HeldOperand> {
        match v {
            Value::Array(x) | Value::NpScalar(x) => Some(HeldOperand::Array(x.clone())),
            other => match scalar(other) {
                Some(s) => Some(HeldOperand::Scalar(s)),
                None => Some(HeldOperand::Array(as_array(other)?)),
            },
        }
    }

    pub fn operand(&self) -> host::Operand<'_> {
        match self {
            HeldOperand::Array(x) => host::Operand::Array(x),
            HeldOperand::Scalar(s) => host::Operand::Scalar(*s),
        }
    }
}

/// `l OP r` where either side is an array.
pub fn binary(
    op: host::BinaryOp,
    l: &Value,
    r: &Value,
    sp: std::ops::Range<usize>,
) -> Result<Value> {
    let bad = || {
        Diagnostic::new(
            sp.clone(),
            "unsupported operand types for an array operation",
        )
    };
    let (lo, ro) = (
        HeldOperand::of(l).ok_or_else(bad)?,
        HeldOperand::of(r).ok_or_else(bad)?,
    );
    let scalars = !matches!(l, Value::Array(_)) && !matches!(r, Value::Array(_));
    host::binary(op, lo.operand(), ro.operand())
        .map(|x| {
            if scalars {
                scalar_or_array(x)
            } else {
                array_value(x)
            }
        })
        .map_err(|e| Diagnostic::new(sp, format!("{}: {}", e.kind.name(), e.message)))
}

/// `-x` of an array or a numpy scalar.
pub fn negate(v: &Value, sp: std::ops::Range<usize>) -> Result<Value> {
    let (Value::Array(x) | Value::NpScalar(x)) = v else {
        return Err(Diagnostic::new(sp, "bad operand type for unary -"));
    };
    let y = x
        .unary(host::UnaryOp::Neg)
        .map_err(|e| Diagnostic::new(sp, format!("{}: {}", e.kind.name(), e.message)))?;
    Ok(match v {
        Value::NpScalar(_) => scalar_or_array(y),
        _ => array_value(y),
    })
}

/// `x[key]` of an array: integers, `None`, tuples of them, and bool or
/// integer arrays; an element (all axes indexed by integers) is a numpy scalar.
pub fn get_item(x: &Rc<HostArray>, key: &Value, sp: std::ops::Range<usize>) -> Result<Value> {
    let keys = match key {
        Value::Tuple(items) => items.to_vec(),
        other => vec![other.clone()],
    };
    let index: Vec<host::Index> = keys
        .iter()
        .map(|k| match k {
            Value::Int(i) => Some(host::Index::Int(*i)),
            Value::Bool(b) => Some(host::Index::Int(i64::from(*b))),
            Value::None => Some(host::Index::NewAxis),
            other => as_array(other).map(|a| host::Index::Array((*a).clone())),
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            Diagnostic::new(
                sp.clone(),
                "arrays are indexed by integers, None, slices or arrays",
            )
        })?;
    slice_result(x.index(&index), &index, sp)
}

/// `x[a, lo:hi, ...]`: a tuple key with slices on any axis.
pub fn get_item_parts(
    x: &Rc<HostArray>,
    parts: Vec<super::KeyPart>,
    sp: std::ops::Range<usize>,
) -> Result<Value> {
    let index = index_of(&parts, &sp)?;
    slice_result(x.index(&index), &index, sp)
}

/// `x[parts] = value`, in place.
pub fn set_item_parts(
    x: &mut HostArray,
    parts: &[super::KeyPart],
    value: &Value,
    sp: std::ops::Range<usize>,
) -> Result<()> {
    let index = index_of(parts, &sp)?;
    let value = as_array(value).ok_or_else(|| {
        Diagnostic::new(
            sp.clone(),
            format!(
                "cannot assign a {} into a numpy array; give a number, a list or an array",
                value.type_name()
            ),
        )
    })?;
    x.assign_index(&index, &value)
        .map_err(|e| Diagnostic::new(sp, format!("{}: {}", e.kind.name(), e.message)))
}

/// The numpy index a subscript's parts give.
fn index_of(parts: &[super::KeyPart], sp: &std::ops::Range<usize>) -> Result<Vec<host::Index>> {
    let bad = || {
        Diagnostic::new(
            sp.clone(),
            "arrays are indexed by integers, None, slices or arrays",
        )
    };
    let bound = |v: &Option<Value>| -> Result<Option<i64>> {
        match v {
            None | Some(Value::None) => Ok(None),
            Some(Value::Int(i)) => Ok(Some(*i)),
            Some(_) => Err(Diagnostic::new(
                sp.clone(),
                "slice indices must be integers or None",
            )),
        }
    };
    let mut index = Vec::with_capacity(parts.len());
    for p in parts {
        index.push(match p {
            super::KeyPart::Slice([lo, hi, st]) => {
                host::Index::Slice(bound(lo)?, bound(hi)?, bound(st)?)
            }
            super::KeyPart::Ellipsis => host::Index::Ellipsis,
            super::KeyPart::Value(Value::Int(i)) => host::Index::Int(*i),
            super::KeyPart::Value(Value::Bool(b)) => host::Index::Int(i64::from(*b)),
            super::KeyPart::Value(Value::None) => host::Index::NewAxis,
            super::KeyPart::Value(other) => {
                host::Index::Array((*as_array(other).ok_or_else(bad)?).clone())
            }
        });
    }
    Ok(index)
}

/// `x[lo:hi:step]` of an array (along its first axis).
pub fn slice(
    x: &Rc<HostArray>,
    bounds: [Option<i64>; 3],
    sp: std::ops::Range<usize>,
) -> Result<Value> {
    let index = [host::Index::Slice(bounds[0], bounds[1], bounds[2])];
    slice_result(x.index(&index), &index, sp)
}

fn slice_result(
    r: std::result::Result<HostArray, HostError>,
    index: &[host::Index],
    sp: std::ops::Range<usize>,
) -> Result<Value> {
    let x = r.map_err(|e| Diagnostic::new(sp, format!("{}: {}", e.kind.name(), e.message)))?;
    Ok(if x.ndim() == 0 && host::Index::yields_scalar(index) {
        Value::NpScalar(Rc::new(x))
    } else {
        Value::Array(Rc::new(x))
    })
}

/// The rows of an array, as iterating over it gives them.
pub fn rows(x: &HostArray) -> Option<Vec<Value>> {
    let n = *x.shape().first()?;
    (0..n as i64)
        .map(|i| {
            let index = [host::Index::Int(i)];
            x.index(&index).ok().map(|r| {
                if r.ndim() == 0 {
                    Value::NpScalar(Rc::new(r))
                } else {
                    Value::Array(Rc::new(r))
                }
            })
        })
        .collect()
}
