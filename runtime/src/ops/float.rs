//! What gradient and layer kernels share: float tensors read as `f64`
//! and results rounded back to the input's dtype (float32 or float64).
//!
//! Computing in double and rounding once is never less accurate than
//! Paddle's float kernels, and keeps each kernel one code path; the hot
//! paths of training (GEMM, optimizers, same-shape elementwise grads) have
//! typed code instead.
use std::borrow::Cow;

use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::kernel::{is_placeholder, OpReader};
use crate::scope::VarRef;
use crate::tensor::{dtype_name, Tensor};

/// The elements of a float tensor as `f64` (borrowed for float64).
pub(crate) fn f64s<'a>(t: &'a Tensor, op: &str) -> Result<Cow<'a, [f64]>, KernelError> {
    if let Some(v) = t.values::<f64>() {
        return Ok(Cow::Borrowed(v));
    }
    if let Some(v) = t.values::<f32>() {
        return Ok(Cow::Owned(v.iter().map(|&x| f64::from(x)).collect()));
    }
    Err(needs_float(op, t))
}

/// The elements of any numeric tensor as `i64` (labels, ids).
pub(crate) fn i64s<'a>(t: &'a Tensor) -> Result<Cow<'a, [i64]>, KernelError> {
    if let Some(v) = t.values::<i64>() {
        return Ok(Cow::Borrowed(v));
    }
    let c = t.cast(VarKind::Int64)?;
    Ok(Cow::Owned(c.values::<i64>().unwrap_or_default().to_vec()))
}

/// A tensor of `dtype` (float32 or float64) and `shape` from `f64` values.
pub(crate) fn tensor(dtype: VarKind, shape: &[i64], v: Vec<f64>) -> Result<Tensor, KernelError> {
    match dtype {
        VarKind::Fp32 => Tensor::from_vec(shape, v.into_iter().map(|x| x as f32).collect()),
        _ => Tensor::from_vec(shape, v),
    }
}

pub(crate) fn needs_float(op: &str, t: &Tensor) -> KernelError {
    KernelError::Dtype(format!(
        "{op} needs a float32 or float64 tensor, got {}",
        dtype_name(t.dtype())
    ))
}

/// The variables of a duplicable output slot, position for position
/// (`None` for an empty name: that gradient is not needed).
pub(crate) fn outputs_by_position(
    l: &OpReader,
    slot: &str,
) -> Result<Vec<Option<VarRef>>, KernelError> {
    by_position(l, l.op.outputs_of(slot))
}

/// The variables of a duplicable input slot, position for position
/// (`None` for an empty name: a gradient no op made).
pub(crate) fn inputs_by_position(
    l: &OpReader,
    slot: &str,
) -> Result<Vec<Option<VarRef>>, KernelError> {
    by_position(l, l.op.inputs_of(slot))
}

fn by_position(l: &OpReader, names: &[String]) -> Result<Vec<Option<VarRef>>, KernelError> {
    names
        .iter()
        .map(|n| {
            if is_placeholder(n) {
                Ok(None)
            } else {
                l.var(n).map(Some)
            }
        })
        .collect()
}

/// A row-major index split for an op along `axis` of `shape`: (outer,
/// the axis dim, inner) element counts.
pub(crate) fn split_at_axis(
    shape: &[i64],
    axis: i64,
) -> Result<(usize, usize, usize), KernelError> {
    let rank = shape.len() as i64;
    let a = if axis < 0 { axis + rank.max(1) } else { axis };
    if !(0..rank.max(1)).contains(&a) {
        return Err(KernelError::Attribute(format!(
            "axis {axis} is out of range for shape {shape:?}"
        )));
    }
    let a = a as usize;
    let dims: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    let outer = dims.iter().take(a).product();
    let n = dims.get(a).copied().unwrap_or(1);
    let inner = dims.iter().skip(a + 1).product();
    Ok((outer, n, inner))
}

/// For each element of a row-major walk over `dims`, the offset
/// `sum(index[d] * strides[d])`: where it lands in a tensor with those
/// strides (0 on a dim folds it away, as a reduction does).
pub(crate) fn offsets(dims: &[usize], strides: &[usize]) -> Vec<usize> {
    let rank = dims.len();
    let n: usize = dims.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut index = vec![0usize; rank];
    let mut o = 0usize;
    for _ in 0..n {
        out.push(o);
        for d in (0..rank).rev() {
            index[d] += 1;
            o += strides[d];
            if index[d] < dims[d] {
                break;
            }
            o -= strides[d] * dims[d];
            index[d] = 0;
        }
    }
    out
}

/// Writes each computed gradient to its output, when the op has one.
pub(crate) fn set_grads(s: &mut crate::scope::Vars, grads: Vec<(&Option<VarRef>, Option<Tensor>)>) {
    for (r, t) in grads {
        if let (Some(r), Some(t)) = (r, t) {
            s.set_tensor(r, t);
        }
    }
}
