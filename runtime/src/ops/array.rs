//! Tensor arrays (`LOD_TENSOR_ARRAY`): `write_to_array`, `read_from_array`
//! and `lod_array_length`. An array variable holds a
//! [`Value::TensorArray`]: its elements, shared copy-on-write.
use std::sync::Arc;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::{Scalar, Tensor};
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("write_to_array", write_to_array);
    r.add("read_from_array", read_from_array);
    r.add("lod_array_length", lod_array_length);
}

/// The most elements a write may grow an array to: a larger index is a
/// mistyped one (each element is a tensor of its own).
const MAX_LEN: usize = 1 << 22;

/// The index `I` holds: one non-negative int32 or int64.
pub(crate) fn index(s: &Vars, i: &VarRef) -> Result<usize, KernelError> {
    let n = match s.scalar(i) {
        Some((Scalar::Int64(n), _)) => n,
        Some((Scalar::Int32(n), _)) => i64::from(n),
        _ => {
            return Err(KernelError::Invalid(format!(
                "the array index `{}` must be an int64 or int32 tensor with one element",
                i.name
            )))
        }
    };
    usize::try_from(n).map_err(|_| {
        KernelError::Invalid(format!(
            "the array index `{}` is {n}; it must not be negative",
            i.name
        ))
    })
}

/// `Out[I] = X`, growing `Out` (with unwritten elements) as Paddle does.
fn write_to_array(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, i, out) = (l.input("X")?, l.input("I")?, l.output("Out")?);
    compute(move |s| {
        let at = index(s, &i)?;
        if at >= MAX_LEN {
            return Err(KernelError::Invalid(format!(
                "write_to_array at index {at} (`{}`): a tensor array holds at most {MAX_LEN} elements",
                i.name
            )));
        }
        let v = s.tensor_value(&x)?;
        s.with(&out, |a| {
            if !matches!(a, Value::TensorArray(_)) {
                *a = Value::TensorArray(Arc::default());
            }
            if let Value::TensorArray(items) = a {
                let items = Arc::make_mut(items);
                if items.len() <= at {
                    items.resize(at + 1, Value::Empty);
                }
                items[at] = v;
            }
        });
        Ok(())
    })
}

/// `Out = X[I]`. Reading past the end, or an element never written, is an
/// error (Paddle leaves `Out` as it was), except with `X_W` (the grad of a
/// `write_to_array`): then `Out` is zeros shaped like `X_W`, as Paddle's.
fn read_from_array(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, i, out) = (l.input("X")?, l.input("I")?, l.output("Out")?);
    let like = l.opt_input("X_W")?;
    compute(move |s| {
        let at = index(s, &i)?;
        let v = s.with(&x, |a| match a {
            Value::TensorArray(items) => Ok(items.get(at).cloned().unwrap_or_default()),
            Value::Empty => Ok(Value::Empty),
            other => Err(other.describe()),
        });
        let v = v.map_err(|what| {
            KernelError::Invalid(format!("`{}` must be a tensor array, not {what}", x.name))
        })?;
        if let (Value::Empty, Some(like)) = (&v, &like) {
            let w = s.tensor(like)?;
            let zeros = Tensor::zeros(w.dtype(), w.shape())?;
            s.set_tensor(&out, zeros);
            return Ok(());
        }
        if matches!(v, Value::Empty) {
            let len = array_len(s, &x);
            return Err(KernelError::Invalid(format!(
                "read_from_array: element {at} of `{}` was never written (the array has {len} elements)",
                x.name
            )));
        }
        s.set(&out, v);
        Ok(())
    })
}

fn array_len(s: &mut Vars, x: &VarRef) -> usize {
    s.with(x, |a| match a {
        Value::TensorArray(items) => items.len(),
        _ => 0,
    })
}

/// `Out` = the number of elements of `X`, an int64 `[1]`.
fn lod_array_length(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let len = array_len(s, &x);
        let len = i64::try_from(len).unwrap_or(i64::MAX);
        s.set_scalar(&out, Scalar::Int64(len), 1);
        Ok(())
    })
}
