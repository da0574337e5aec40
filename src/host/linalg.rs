//! `np.dot` and `np.matmul` of arrays of rank 1 and 2 (what scripts use
//! to compute expected values), in the promoted dtype. Products go
//! through ndarray's `dot` (the `matrixmultiply` GEMM), so a float sum may
//! differ from numpy's BLAS in the last bit; compare with `allclose`.
use std::num::Wrapping;

use ndarray::{ArrayD, ArrayView1, ArrayView2, Ix1, Ix2, IxDyn, LinalgScalar};

use super::dtype::{DType, Elem};
use super::error::{HostError, Result};
use super::ops::compact_shape;
use super::HostArray;

/// The product of `a` and `b` viewed as `T` (ranks 1 and 2 only).
fn product<T: Elem + LinalgScalar>(a: &HostArray, b: &HostArray) -> Result<ArrayD<T>> {
    multiply(a, b, &a.view::<T>(), &b.view::<T>())
}

/// An integer product in int64 with numpy's wrap-around (never an
/// overflow panic).
fn int_product(a: &HostArray, b: &HostArray) -> Result<ArrayD<i64>> {
    let wrap = |h: &HostArray| h.view::<i64>().mapv(Wrapping);
    Ok(multiply(a, b, &wrap(a), &wrap(b))?.mapv(|w| w.0))
}

fn multiply<T: LinalgScalar>(
    a: &HostArray,
    b: &HostArray,
    x: &ArrayD<T>,
    y: &ArrayD<T>,
) -> Result<ArrayD<T>> {
    // numpy's message names the inner dimensions: the last of `a` and
    // the first (or only) of `b`.
    let (ka, kb) = (a.ndim().saturating_sub(1), 0);
    let mismatch = || {
        HostError::value_error(format!(
            "shapes {} and {} not aligned: {} (dim {ka}) != {} (dim {kb})",
            compact_shape(a.shape()),
            compact_shape(b.shape()),
            a.shape().get(ka).copied().unwrap_or(0),
            b.shape().first().copied().unwrap_or(0),
        ))
    };
    fn as1<T>(v: &ArrayD<T>) -> Option<ArrayView1<'_, T>> {
        v.view().into_dimensionality::<Ix1>().ok()
    }
    fn as2<T>(v: &ArrayD<T>) -> Option<ArrayView2<'_, T>> {
        v.view().into_dimensionality::<Ix2>().ok()
    }
    let inner = |k: usize, m: usize| if k == m { Ok(()) } else { Err(mismatch()) };
    match (x.ndim(), y.ndim()) {
        (1, 1) => {
            let (p, q) = (as1(x).ok_or_else(mismatch)?, as1(y).ok_or_else(mismatch)?);
            inner(p.len(), q.len())?;
            Ok(ArrayD::from_elem(IxDyn(&[]), p.dot(&q)))
        }
        (2, 1) => {
            let (p, q) = (as2(x).ok_or_else(mismatch)?, as1(y).ok_or_else(mismatch)?);
            inner(p.ncols(), q.len())?;
            Ok(p.dot(&q).into_dyn())
        }
        (1, 2) => {
            let (p, q) = (as1(x).ok_or_else(mismatch)?, as2(y).ok_or_else(mismatch)?);
            inner(p.len(), q.nrows())?;
            Ok(p.dot(&q).into_dyn())
        }
        (2, 2) => {
            let (p, q) = (as2(x).ok_or_else(mismatch)?, as2(y).ok_or_else(mismatch)?);
            inner(p.ncols(), q.nrows())?;
            Ok(p.dot(&q).into_dyn())
        }
        _ => Err(HostError::unsupported(
            "fluidc's numpy multiplies arrays of rank 1 and 2 only",
        )),
    }
}

/// `np.dot(a, b)` / `np.matmul(a, b)` for ranks 1 and 2.
pub fn dot(a: &HostArray, b: &HostArray) -> Result<HostArray> {
    Ok(match DType::promote(a.dtype(), b.dtype()) {
        DType::Float32 => HostArray::Float32(product(a, b)?),
        DType::Float64 => HostArray::Float64(product(a, b)?),
        DType::Int8 => HostArray::Int8(int_product(a, b)?.mapv(|v| v as i8)),
        DType::UInt8 => HostArray::UInt8(int_product(a, b)?.mapv(|v| v as u8)),
        DType::Int32 => HostArray::Int32(int_product(a, b)?.mapv(|v| v as i32)),
        DType::Int64 => HostArray::Int64(int_product(a, b)?),
        DType::Bool => {
            return Err(HostError::unsupported(
                "fluidc's numpy does not multiply bool arrays",
            ))
        }
    })
}

impl HostArray {
    /// `np.squeeze(a, axis)`: without an axis every length-1 dimension
    /// goes; a given axis must have length 1.
    pub fn squeeze(&self, axis: Option<i64>) -> Result<HostArray> {
        let shape = self.shape();
        let keep: Vec<i64> = match axis {
            None => shape
                .iter()
                .filter(|&&d| d != 1)
                .map(|&d| d as i64)
                .collect(),
            Some(axis) => {
                let at = super::array::normalize_axis(axis, shape.len())?;
                if shape[at] != 1 {
                    return Err(HostError::value_error(
                        "cannot select an axis to squeeze out which has size not equal to one",
                    ));
                }
                (0..shape.len())
                    .filter(|&k| k != at)
                    .map(|k| shape[k] as i64)
                    .collect()
            }
        };
        self.reshape(&keep)
    }
}
