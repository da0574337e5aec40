//! Arrays made from numbers: `np.arange`, `np.linspace`, `np.eye` (and
//! [`HostArray::full`] for `zeros`, `ones`, `full` and the `*_like`s),
//! computed as numpy computes them so every float is the same.
use ndarray::{Array1, ArrayD, IxDyn};

use super::array::checked_size;
use super::dtype::{DType, Elem, Scalar, ScalarKind};
use super::error::{ErrorKind, HostError, Result};
use super::HostArray;

/// The element arithmetic `arange`'s fill needs: `start + i * delta` in
/// the dtype (floats convert `i` to the float type first, as C does).
trait Fill: Elem {
    fn sub(a: Self, b: Self) -> Self;
    fn at(start: Self, delta: Self, i: usize) -> Self;
}

impl Fill for i8 {
    fn sub(a: i8, b: i8) -> i8 {
        a.wrapping_sub(b)
    }
    fn at(start: i8, delta: i8, i: usize) -> i8 {
        start.wrapping_add((i as i8).wrapping_mul(delta))
    }
}

impl Fill for u8 {
    fn sub(a: u8, b: u8) -> u8 {
        a.wrapping_sub(b)
    }
    fn at(start: u8, delta: u8, i: usize) -> u8 {
        start.wrapping_add((i as u8).wrapping_mul(delta))
    }
}

impl Fill for i32 {
    fn sub(a: i32, b: i32) -> i32 {
        a.wrapping_sub(b)
    }
    fn at(start: i32, delta: i32, i: usize) -> i32 {
        start.wrapping_add((i as i32).wrapping_mul(delta))
    }
}

impl Fill for i64 {
    fn sub(a: i64, b: i64) -> i64 {
        a.wrapping_sub(b)
    }
    fn at(start: i64, delta: i64, i: usize) -> i64 {
        start.wrapping_add((i as i64).wrapping_mul(delta))
    }
}

impl Fill for f32 {
    fn sub(a: f32, b: f32) -> f32 {
        a - b
    }
    fn at(start: f32, delta: f32, i: usize) -> f32 {
        start + i as f32 * delta
    }
}

impl Fill for f64 {
    fn sub(a: f64, b: f64) -> f64 {
        a - b
    }
    fn at(start: f64, delta: f64, i: usize) -> f64 {
        start + i as f64 * delta
    }
}

/// Python's `a + b` of two scalars.
fn python_add(a: Scalar, b: Scalar) -> Scalar {
    match (a, b) {
        (Scalar::Float(_), _) | (_, Scalar::Float(_)) => Scalar::Float(a.as_f64() + b.as_f64()),
        _ => {
            let (x, y) = (a.as_i64().unwrap_or(0), b.as_i64().unwrap_or(0));
            Scalar::Int(x.wrapping_add(y))
        }
    }
}

fn arange_fill<T: Fill>(start: Scalar, next: Scalar, n: usize) -> HostArray {
    let first = T::cast_from(start);
    let delta = T::sub(T::cast_from(next), first);
    let values: Vec<T> = (0..n)
        .map(|i| match i {
            0 => first,
            1 => T::cast_from(next),
            _ => T::at(first, delta, i),
        })
        .collect();
    T::wrap(Array1::from(values).into_dyn())
}

/// `np.arange(start, stop, step, dtype)`: `ceil((stop - start) / step)`
/// elements, the first `start`, the second `start + step`, the rest
/// `start + i * (second - first)` in the dtype (numpy's fill). The dtype
/// defaults to int64 for ints, float64 if any argument is a float.
pub fn arange(
    start: Scalar,
    stop: Scalar,
    step: Scalar,
    dtype: Option<DType>,
) -> Result<HostArray> {
    let kind = [start, stop, step]
        .iter()
        .map(|s| s.kind())
        .max()
        .unwrap_or(ScalarKind::Int);
    let dtype = dtype.unwrap_or(if kind == ScalarKind::Float {
        DType::Float64
    } else {
        DType::Int64
    });
    if step.as_f64() == 0.0 {
        // Python's message for `(stop - start) / step`.
        let message = if kind == ScalarKind::Float {
            "float division by zero"
        } else {
            "division by zero"
        };
        return Err(HostError::new(ErrorKind::ZeroDivisionError, message));
    }
    let span = match (start, stop) {
        (Scalar::Float(_), _) | (_, Scalar::Float(_)) => stop.as_f64() - start.as_f64(),
        _ => (stop.as_i64()? as i128 - start.as_i64()? as i128) as f64,
    };
    let length = (span / step.as_f64()).ceil();
    if length.is_nan() {
        return Err(HostError::value_error("arange: cannot compute length"));
    }
    let n = if length <= 0.0 { 0.0 } else { length };
    if n > isize::MAX as f64 / 8.0 {
        return Err(HostError::value_error("Maximum allowed size exceeded"));
    }
    let n = n as usize;
    let next = python_add(start, step);
    match dtype {
        DType::Bool if n > 2 => Err(HostError::type_error(
            "arange() is only supported for booleans when the result has at most length 2.",
        )),
        DType::Bool => {
            let values: Vec<bool> = [start, next].iter().take(n).map(|s| s.truthy()).collect();
            Ok(HostArray::Bool(Array1::from(values).into_dyn()))
        }
        DType::Int8 => Ok(arange_fill::<i8>(start, next, n)),
        DType::UInt8 => Ok(arange_fill::<u8>(start, next, n)),
        DType::Int32 => Ok(arange_fill::<i32>(start, next, n)),
        DType::Int64 => Ok(arange_fill::<i64>(start, next, n)),
        DType::Float32 => Ok(arange_fill::<f32>(start, next, n)),
        DType::Float64 => Ok(arange_fill::<f64>(start, next, n)),
    }
}

/// `np.linspace(start, stop, num, endpoint, dtype)` for Python-number
/// ends, computed in float64 as numpy does: `arange(num) * step + start`
/// with `step = (stop - start) / div` (or `/ div * delta` when the step
/// is zero), the last element `stop` exactly; integer dtypes floor.
pub fn linspace(
    start: f64,
    stop: f64,
    num: usize,
    endpoint: bool,
    dtype: Option<DType>,
) -> Result<HostArray> {
    checked_size(&[num])?;
    let div = if endpoint { num.saturating_sub(1) } else { num };
    let delta = stop - start;
    let mut y: Vec<f64> = (0..num).map(|i| i as f64).collect();
    if div > 0 {
        let step = delta / div as f64;
        if step == 0.0 {
            y.iter_mut().for_each(|v| *v = *v / div as f64 * delta);
        } else {
            y.iter_mut().for_each(|v| *v *= step);
        }
    } else {
        y.iter_mut().for_each(|v| *v *= delta);
    }
    y.iter_mut().for_each(|v| *v += start);
    if endpoint && num > 1 {
        if let Some(last) = y.last_mut() {
            *last = stop;
        }
    }
    let dtype = dtype.unwrap_or(DType::Float64);
    if dtype.is_int() {
        y.iter_mut().for_each(|v| *v = v.floor());
    }
    Ok(HostArray::Float64(Array1::from(y).into_dyn()).astype(dtype))
}

/// `np.eye(n, m, k, dtype)`: ones on the `k`-th diagonal.
pub fn eye(n: usize, m: Option<usize>, k: i64, dtype: DType) -> Result<HostArray> {
    let m = m.unwrap_or(n);
    let mut out = HostArray::zeros(dtype, &[n, m])?;
    fn set<T: Elem>(a: &mut ArrayD<T>, n: usize, m: usize, k: i64) {
        for i in 0..n {
            let j = i as i64 + k;
            if (0..m as i64).contains(&j) {
                if let Some(x) = a.get_mut(IxDyn(&[i, j as usize])) {
                    *x = T::ONE;
                }
            }
        }
    }
    each!(&mut out, a => set(a, n, m, k));
    Ok(out)
}
