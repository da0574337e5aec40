//! Functions of several arrays: `np.concatenate`, `np.stack`, `np.where`.
use ndarray::{ArrayD, ArrayViewD, Axis, Dimension, Zip};

use super::array::normalize_axis;
use super::dtype::{DType, Elem};
use super::error::{HostError, Result};
use super::ops::{broadcast_shapes, broadcast_to, operand_array, result_type, Operand};
use super::HostArray;

/// The dtype of several arrays together (`np.result_type`).
fn common_dtype(arrays: &[&HostArray]) -> Option<DType> {
    arrays.iter().map(|a| a.dtype()).reduce(DType::promote)
}

fn join<T: Elem>(arrays: &[&HostArray], axis: usize, stack: bool) -> Result<HostArray> {
    let owned: Vec<_> = arrays.iter().map(|a| a.view::<T>()).collect();
    let views: Vec<ArrayViewD<'_, T>> = owned.iter().map(|a| a.view()).collect();
    let joined = if stack {
        ndarray::stack(Axis(axis), &views)
    } else {
        ndarray::concatenate(Axis(axis), &views)
    };
    joined
        .map(T::wrap)
        .map_err(|e| HostError::value_error(format!("cannot join the arrays: {e}")))
}

/// `np.concatenate(arrays, axis)`; `axis=None` joins the flattened arrays.
pub fn concatenate(arrays: &[&HostArray], axis: Option<i64>) -> Result<HostArray> {
    let dtype = common_dtype(arrays)
        .ok_or_else(|| HostError::value_error("need at least one array to concatenate"))?;
    let Some(axis) = axis else {
        let flat: Vec<HostArray> = arrays.iter().map(|a| a.flatten()).collect();
        let refs: Vec<&HostArray> = flat.iter().collect();
        return concatenate(&refs, Some(0));
    };
    let first = arrays[0];
    if first.ndim() == 0 {
        return Err(HostError::value_error(
            "zero-dimensional arrays cannot be concatenated",
        ));
    }
    let at = normalize_axis(axis, first.ndim())?;
    for (i, a) in arrays.iter().enumerate().skip(1) {
        if a.ndim() != first.ndim() {
            return Err(HostError::value_error(format!(
                "all the input arrays must have same number of dimensions, but the array at index 0 has {} dimension(s) and the array at index {i} has {} dimension(s)",
                first.ndim(),
                a.ndim()
            )));
        }
        for (d, (&x, &y)) in first.shape().iter().zip(a.shape()).enumerate() {
            if d != at && x != y {
                return Err(HostError::value_error(format!(
                    "all the input array dimensions except for the concatenation axis must match exactly, but along dimension {d}, the array at index 0 has size {x} and the array at index {i} has size {y}"
                )));
            }
        }
    }
    with_dtype!(dtype, T => join::<T>(arrays, at, false))
}

/// `np.stack(arrays, axis)`: joins same-shaped arrays along a new axis.
pub fn stack(arrays: &[&HostArray], axis: i64) -> Result<HostArray> {
    let dtype = common_dtype(arrays)
        .ok_or_else(|| HostError::value_error("need at least one array to stack"))?;
    let first = arrays[0];
    if arrays.iter().any(|a| a.shape() != first.shape()) {
        return Err(HostError::value_error(
            "all input arrays must have the same shape",
        ));
    }
    let at = normalize_axis(axis, first.ndim() + 1)?;
    with_dtype!(dtype, T => join::<T>(arrays, at, true))
}

fn select<T: Elem>(
    cond: &ArrayD<bool>,
    x: Operand<'_>,
    y: Operand<'_>,
    shape: &[usize],
) -> Result<HostArray> {
    let (xa, ya) = (operand_array::<T>(x, false)?, operand_array::<T>(y, false)?);
    let (c, xv, yv) = (
        broadcast_to(cond, shape)?,
        broadcast_to(&xa, shape)?,
        broadcast_to(&ya, shape)?,
    );
    let out = Zip::from(&c)
        .and(&xv)
        .and(&yv)
        .map_collect(|&c, &a, &b| if c { a } else { b });
    Ok(T::wrap(out))
}

/// `np.where(cond, x, y)`: `x` where `cond` is true, else `y`, broadcast
/// together, in `np.result_type(x, y)` (Python scalars weak).
pub fn where_(cond: &HostArray, x: Operand<'_>, y: Operand<'_>) -> Result<HostArray> {
    let dtype = result_type(x, y);
    let shape = broadcast_shapes(&[cond.shape(), x.shape(), y.shape()])?;
    let c = cond.view::<bool>();
    with_dtype!(dtype, T => select::<T>(&c, x, y, &shape))
}

/// `np.nonzero(a)` (and `np.where(cond)`): the indices of the nonzero
/// elements, one int64 array per dimension (a 0-d array counts as 1-d).
pub fn nonzero(a: &HostArray) -> Vec<HostArray> {
    let truth = a.view::<bool>();
    let ndim = a.ndim().max(1);
    let mut columns: Vec<Vec<i64>> = vec![Vec::new(); ndim];
    for (index, &t) in truth.indexed_iter() {
        if t {
            let idx = index.slice();
            for (k, col) in columns.iter_mut().enumerate() {
                col.push(idx.get(k).map_or(0, |&i| i as i64));
            }
        }
    }
    columns
        .into_iter()
        .map(|c| HostArray::Int64(ndarray::Array1::from(c).into_dyn()))
        .collect()
}
