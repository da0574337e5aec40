//! Reductions (`sum`, `mean`, `std`, ... with `axis` an int or a tuple,
//! `keepdims`, `dtype`, `ddof`), and the functions that run along one
//! axis: `cumsum`, `cumprod`, `sort`, `argsort`.
use std::cmp::Ordering;

use ndarray::{ArrayD, Axis, Zip};
use rustpython_vm::builtins::PyStrRef;
use rustpython_vm::{PyObject, PyObjectRef, PyResult, VirtualMachine};

use super::array::map_same;
use super::convert::{axes_arg, index_int, opt_int, to_array, Axes, Held};
use super::{dtype_arg, wrap_any_as, wrap_array, wrap_array_as, HostResult};
use crate::host::array::normalize_axis;
use crate::host::{
    binary, reduction_dtype, BinaryOp, Elem, HostArray, HostError, Operand, Reduction, Scalar,
};

type Result<T> = std::result::Result<T, HostError>;

fn reduction(name: &str, vm: &VirtualMachine) -> PyResult<Reduction> {
    Ok(match name {
        "sum" => Reduction::Sum,
        "prod" => Reduction::Prod,
        "mean" => Reduction::Mean,
        "max" => Reduction::Max,
        "min" => Reduction::Min,
        "std" => Reduction::Std,
        "var" => Reduction::Var,
        "argmax" => Reduction::Argmax,
        "argmin" => Reduction::Argmin,
        "any" => Reduction::Any,
        "all" => Reduction::All,
        other => return Err(vm.new_value_error(format!("no reduction `{other}`"))),
    })
}

/// `var` (and `std`) with `ddof`, as numpy's `_var` computes it:
/// `sum(|x - mean|**2) / max(n - ddof, 0)`.
fn var_ddof(
    a: &HostArray,
    axis: Option<i64>,
    keepdims: bool,
    ddof: i64,
    std: bool,
) -> Result<HostArray> {
    let mean = a.reduce(Reduction::Mean, axis, true)?;
    let x = binary(BinaryOp::Sub, a.into(), (&mean).into())?;
    let squares = binary(BinaryOp::Mul, (&x).into(), (&x).into())?;
    let sum = squares.reduce(Reduction::Sum, axis, keepdims)?;
    let n = match axis {
        None => a.size(),
        Some(k) => a.shape()[normalize_axis(k, a.ndim())?],
    } as i64;
    let div = (n - ddof).max(0);
    let v = binary(
        BinaryOp::TrueDiv,
        (&sum).into(),
        Operand::Scalar(Scalar::Int(div)),
    )?;
    if std {
        v.unary(crate::host::UnaryOp::Sqrt)
    } else {
        Ok(v)
    }
}

/// One reduction over one axis or all.
fn reduce_one(
    a: &HostArray,
    op: Reduction,
    axis: Option<i64>,
    keepdims: bool,
    ddof: i64,
) -> Result<HostArray> {
    match op {
        Reduction::Var | Reduction::Std if ddof != 0 => {
            var_ddof(a, axis, keepdims, ddof, op == Reduction::Std)
        }
        _ => a.reduce(op, axis, keepdims),
    }
}

/// The sum over the axes `ks` (sorted, distinct, not all) in the order
/// numpy's iterator adds for a C-contiguous array: each lane of the
/// trailing run of reduced axes pairwise (merged into one lane, as numpy
/// coalesces them), then the other reduced positions one after another in
/// row-major order. The result has the kept axes only.
fn sum_many(a: &HostArray, ks: &[usize]) -> Result<HostArray> {
    let ndim = a.ndim();
    let mut x = a.clone();
    let mut rest: Vec<usize> = ks.to_vec();
    if ks.last() == Some(&(ndim - 1)) {
        let mut start = ndim - 1;
        while start > 0 && ks.contains(&(start - 1)) {
            start -= 1;
        }
        let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
        let mut merged = shape[..start].to_vec();
        merged.push(shape[start..].iter().product());
        x = x
            .reshape(&merged)?
            .reduce(Reduction::Sum, Some(start as i64), false)?;
        rest.retain(|&k| k < start);
    }
    if rest.is_empty() {
        return Ok(x);
    }
    let n = x.ndim();
    let mut perm: Vec<i64> = rest.iter().map(|&k| k as i64).collect();
    perm.extend((0..n).filter(|k| !rest.contains(k)).map(|k| k as i64));
    let moved = x.transpose(Some(&perm))?;
    let shape: Vec<i64> = moved.shape().iter().map(|&d| d as i64).collect();
    let mut merged = vec![shape[..rest.len()].iter().product::<i64>()];
    merged.extend(&shape[rest.len()..]);
    moved
        .reshape(&merged)?
        .reduce(Reduction::Sum, Some(0), false)
}

/// `sum / n` in the sum's float dtype (an integer `n` is weak).
fn divide_by(sum: &HostArray, n: i64) -> Result<HostArray> {
    binary(
        BinaryOp::TrueDiv,
        sum.into(),
        Operand::Scalar(Scalar::Int(n)),
    )
}

/// A reduction over several axes, in numpy's order of operations (see
/// [`sum_many`]); products multiply in row-major order of the reduced
/// positions; maxima and the like are exact in any order.
fn reduce_many(
    a: &HostArray,
    op: Reduction,
    axes: &[i64],
    keepdims: bool,
    ddof: i64,
) -> Result<HostArray> {
    let ndim = a.ndim();
    let mut ks = Vec::with_capacity(axes.len());
    for &ax in axes {
        let k = normalize_axis(ax, ndim)?;
        if ks.contains(&k) {
            return Err(HostError::value_error("duplicate value in 'axis'"));
        }
        ks.push(k);
    }
    ks.sort_unstable();
    if matches!(op, Reduction::Argmax | Reduction::Argmin) {
        return Err(HostError::type_error(
            "'tuple' object cannot be interpreted as an integer",
        ));
    }
    let shape: Vec<i64> = a.shape().iter().map(|&d| d as i64).collect();
    let kept: Vec<i64> = (0..ndim)
        .map(|i| if ks.contains(&i) { 1 } else { shape[i] })
        .collect();
    let rest: Vec<i64> = (0..ndim)
        .filter(|i| !ks.contains(i))
        .map(|i| shape[i])
        .collect();
    let finish = |r: HostArray| {
        if keepdims {
            r.reshape(&kept)
        } else {
            r.reshape(&rest)
        }
    };
    if ks.is_empty() {
        // Nothing reduced: each element on its own.
        let float = || {
            if a.dtype().is_float() {
                a.clone()
            } else {
                a.astype(crate::host::DType::Float64)
            }
        };
        return match op {
            Reduction::Max | Reduction::Min => Ok(a.clone()),
            Reduction::Mean => divide_by(&float(), 1),
            Reduction::Var | Reduction::Std => {
                let x = float();
                let zero = binary(BinaryOp::Sub, (&x).into(), (&x).into())?;
                let squares = binary(BinaryOp::Mul, (&zero).into(), (&zero).into())?;
                let v = divide_by(&squares, (1 - ddof).max(0))?;
                if op == Reduction::Std {
                    v.unary(crate::host::UnaryOp::Sqrt)
                } else {
                    Ok(v)
                }
            }
            _ => Ok(a.astype(reduction_dtype(op, a.dtype()))),
        };
    }
    if ks.len() == ndim {
        return finish(reduce_one(a, op, None, false, ddof)?);
    }
    if ks.len() == 1 {
        return finish(reduce_one(a, op, Some(ks[0] as i64), false, ddof)?);
    }
    // numpy's iterator absorbs axes of length 1: without them, the
    // reduction may be over everything (one pairwise sum).
    let long: Vec<usize> = (0..ndim).filter(|&k| shape[k] != 1).collect();
    if long.len() < ndim {
        let squeezed_shape: Vec<i64> = long.iter().map(|&k| shape[k]).collect();
        let squeezed = a.reshape(&squeezed_shape)?;
        let axes: Vec<i64> = long
            .iter()
            .enumerate()
            .filter(|(_, k)| ks.contains(k))
            .map(|(i, _)| i as i64)
            .collect();
        if axes.len() == long.len() {
            return finish(reduce_one(&squeezed, op, None, false, ddof)?);
        }
        if axes.is_empty() {
            return finish(reduce_many(&squeezed, op, &[], false, ddof)?);
        }
        return finish(reduce_many(&squeezed, op, &axes, false, ddof)?);
    }
    let n: i64 = ks.iter().map(|&k| shape[k]).product();
    let float = |x: &HostArray| {
        if x.dtype().is_float() {
            x.clone()
        } else {
            x.astype(crate::host::DType::Float64)
        }
    };
    match op {
        Reduction::Sum => finish(sum_many(&a.astype(reduction_dtype(op, a.dtype())), &ks)?),
        Reduction::Mean => finish(divide_by(&sum_many(&float(a), &ks)?, n)?),
        Reduction::Var | Reduction::Std => {
            let mean = divide_by(&sum_many(&float(a), &ks)?, n)?.reshape(&kept)?;
            let x = binary(BinaryOp::Sub, a.into(), (&mean).into())?;
            let squares = binary(BinaryOp::Mul, (&x).into(), (&x).into())?;
            let v = divide_by(&sum_many(&squares, &ks)?, (n - ddof).max(0))?;
            let v = if op == Reduction::Std {
                v.unary(crate::host::UnaryOp::Sqrt)?
            } else {
                v
            };
            finish(v)
        }
        Reduction::Prod => {
            let mut perm: Vec<i64> = (0..ndim)
                .filter(|i| !ks.contains(i))
                .map(|i| i as i64)
                .collect();
            perm.extend(ks.iter().map(|&k| k as i64));
            let moved = a.transpose(Some(&perm))?;
            let mut merged = rest.clone();
            merged.push(n);
            let r = moved
                .reshape(&merged)?
                .reduce(op, Some(rest.len() as i64), false)?;
            finish(r)
        }
        _ => {
            let mut out = a.clone();
            for &k in ks.iter().rev() {
                out = reduce_one(&out, op, Some(k as i64), true, ddof)?;
            }
            finish(out)
        }
    }
}

/// `_numpy.reduce(name, x, axis, keepdims, dtype, ddof)`: a numpy scalar
/// for a full reduction, else an array.
fn reduce(
    name: PyStrRef,
    x: PyObjectRef,
    axis: PyObjectRef,
    keepdims: bool,
    dtype: Option<PyStrRef>,
    ddof: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult {
    let op = reduction(name.as_str(), vm)?;
    let held = Held::require(&x, vm)?;
    let ddof = index_int(&ddof, vm)?;
    let d = dtype_arg(dtype, vm)?;
    let run = |a: &HostArray| -> PyResult<HostArray> {
        let cast;
        let a = match d {
            Some(d) if d != a.dtype() => {
                cast = a.astype(d);
                &cast
            }
            _ => a,
        };
        match axes_arg(&axis, vm)? {
            Axes::All => reduce_one(a, op, None, keepdims, ddof),
            Axes::One(k) => reduce_one(a, op, Some(k), keepdims, ddof),
            Axes::Many(ks) => reduce_many(a, op, &ks, keepdims, ddof),
        }
        .py(vm)
    };
    let r = match &held {
        Held::Handle(h) => run(&h.read())?,
        other => run(&other.array())?,
    };
    // numpy's sums, products, maxima and minima keep int64's `longlong`
    // flavour (a cast by `dtype=` does not).
    let keeps = matches!(
        op,
        Reduction::Sum | Reduction::Prod | Reduction::Max | Reduction::Min
    );
    wrap_any_as(r, keeps && d.is_none() && held.longlong(), vm)
}

/// The axis a function along one axis runs on (`None`: the flattened
/// array), and the array it runs on.
fn along(x: &PyObject, axis: &PyObject, vm: &VirtualMachine) -> PyResult<(HostArray, usize)> {
    let a = to_array(x, None, vm)?;
    match opt_int(axis, vm)? {
        None => Ok((a.flatten(), 0)),
        Some(k) => {
            if a.ndim() == 0 {
                return Err(super::host_error(vm, HostError::axis(k, 0)));
            }
            let k = normalize_axis(k, a.ndim()).py(vm)?;
            Ok((a, k))
        }
    }
}

fn cumulative<T: Elem>(mut a: ArrayD<T>, k: usize, f: fn(T, T) -> T) -> ArrayD<T> {
    for mut lane in a.lanes_mut(Axis(k)) {
        let mut acc: Option<T> = None;
        for x in lane.iter_mut() {
            let v = match acc {
                None => *x,
                Some(p) => f(p, *x),
            };
            *x = v;
            acc = Some(v);
        }
    }
    a
}

/// `_numpy.cumulative(name, x, axis, dtype)`: `cumsum` and `cumprod`
/// (integers and bools in int64, as numpy's platform integer).
fn cumulative_fn(
    name: PyStrRef,
    x: PyObjectRef,
    axis: PyObjectRef,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let (a, k) = along(&x, &axis, vm)?;
    let cast = dtype.is_some();
    let d = dtype_arg(dtype, vm)?.unwrap_or_else(|| reduction_dtype(Reduction::Sum, a.dtype()));
    let a = a.astype(d);
    let prod = match name.as_str() {
        "cumsum" => false,
        "cumprod" => true,
        other => return Err(vm.new_value_error(format!("no function `{other}`"))),
    };
    let q = !cast && longlong_arg(&x, vm);
    let r = match a {
        HostArray::Bool(x) => HostArray::Bool(cumulative(
            x,
            k,
            if prod { |p, q| p & q } else { |p, q| p | q },
        )),
        HostArray::Int8(x) => HostArray::Int8(cumulative(
            x,
            k,
            if prod {
                i8::wrapping_mul
            } else {
                i8::wrapping_add
            },
        )),
        HostArray::UInt8(x) => HostArray::UInt8(cumulative(
            x,
            k,
            if prod {
                u8::wrapping_mul
            } else {
                u8::wrapping_add
            },
        )),
        HostArray::Int32(x) => HostArray::Int32(cumulative(
            x,
            k,
            if prod {
                i32::wrapping_mul
            } else {
                i32::wrapping_add
            },
        )),
        HostArray::Int64(x) => HostArray::Int64(cumulative(
            x,
            k,
            if prod {
                i64::wrapping_mul
            } else {
                i64::wrapping_add
            },
        )),
        HostArray::Float32(x) => HostArray::Float32(cumulative(
            x,
            k,
            if prod { |p, q| p * q } else { |p, q| p + q },
        )),
        HostArray::Float64(x) => HostArray::Float64(cumulative(
            x,
            k,
            if prod { |p, q| p * q } else { |p, q| p + q },
        )),
    };
    wrap_array_as(r, q, vm)
}

/// numpy's sort order: NaN after everything.
fn order<T: Elem>(a: &T, b: &T) -> Ordering {
    match a.partial_cmp(b) {
        Some(o) => o,
        None => {
            let a_nan = a.partial_cmp(a).is_none();
            let b_nan = b.partial_cmp(b).is_none();
            a_nan.cmp(&b_nan)
        }
    }
}

fn sort_lanes<T: Elem>(mut a: ArrayD<T>, k: usize) -> ArrayD<T> {
    for mut lane in a.lanes_mut(Axis(k)) {
        let mut v: Vec<T> = lane.iter().copied().collect();
        v.sort_by(order);
        for (slot, x) in lane.iter_mut().zip(v) {
            *slot = x;
        }
    }
    a
}

fn argsort_lanes<T: Elem>(a: &ArrayD<T>, k: usize) -> ArrayD<i64> {
    let mut out = ArrayD::<i64>::zeros(a.raw_dim());
    Zip::from(a.lanes(Axis(k)))
        .and(out.lanes_mut(Axis(k)))
        .for_each(|lane, mut o| {
            let v: Vec<T> = lane.iter().copied().collect();
            let mut idx: Vec<usize> = (0..v.len()).collect();
            idx.sort_by(|&i, &j| order(&v[i], &v[j]));
            for (slot, i) in o.iter_mut().zip(idx) {
                *slot = i as i64;
            }
        });
    out
}

/// `_numpy.sort(x, axis)` (a new array; NaN last).
fn sort(x: PyObjectRef, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (a, k) = along(&x, &axis, vm)?;
    wrap_array_as(
        map_same!(a, v => sort_lanes(v, k)),
        longlong_arg(&x, vm),
        vm,
    )
}

/// Whether `x` is an int64 array of numpy's `longlong` flavour.
fn longlong_arg(x: &PyObject, vm: &VirtualMachine) -> bool {
    super::handle_of(x, vm).is_some_and(|h| h.is_longlong())
}

/// `_numpy.argsort(x, axis)` (stable).
fn argsort(x: PyObjectRef, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (a, k) = along(&x, &axis, vm)?;
    let r = match &a {
        HostArray::Bool(v) => argsort_lanes(v, k),
        HostArray::Int8(v) => argsort_lanes(v, k),
        HostArray::UInt8(v) => argsort_lanes(v, k),
        HostArray::Int32(v) => argsort_lanes(v, k),
        HostArray::Int64(v) => argsort_lanes(v, k),
        HostArray::Float32(v) => argsort_lanes(v, k),
        HostArray::Float64(v) => argsort_lanes(v, k),
    };
    wrap_array(HostArray::Int64(r), vm)
}

/// `_numpy.count_nonzero(x)`: a Python int.
fn count_nonzero(x: PyObjectRef, vm: &VirtualMachine) -> PyResult<usize> {
    let a = to_array(&x, None, vm)?;
    Ok(a.to_vec::<bool>().into_iter().filter(|&b| b).count())
}

pub(super) fn add_functions(m: &PyObject, vm: &VirtualMachine) {
    let _ = m.set_attr("reduce", vm.new_function("reduce", reduce), vm);
    let _ = m.set_attr(
        "cumulative",
        vm.new_function("cumulative", cumulative_fn),
        vm,
    );
    let _ = m.set_attr("sort", vm.new_function("sort", sort), vm);
    let _ = m.set_attr("argsort", vm.new_function("argsort", argsort), vm);
    let _ = m.set_attr(
        "count_nonzero",
        vm.new_function("count_nonzero", count_nonzero),
        vm,
    );
}
