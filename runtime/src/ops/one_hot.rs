//! `one_hot_v2`: each id of `X` as a row of `depth` zeros with a one at
//! the id, `Out` shaped `X`'s dims with `depth` appended. Paddle 1.x's
//! `layers.one_hot` (the `one_hot` op Paddle 3.3.1 dropped: ids `[..., 1]`
//! to `[..., depth]`) is written as `squeeze2` of the last axis and this
//! op, which 3.3.1 has, so programs fluidc writes run there. `Out` keeps
//! `X`'s LoD (its definition's `Lod`), as both versions' kernels do.
//!
//! An id outside `[0, depth)` is an error, or, with `allow_out_of_range`,
//! a row of zeros as Paddle 1.x's functor gave (Paddle 3.3.1's kernel
//! ignores the attribute and always refuses such an id).
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::i64s;
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("one_hot_v2", |l| one_hot(l, false));
    // 1.x's, as saved 1.x models hold it: ids [..., 1], the 1 replaced.
    r.add("one_hot", |l| one_hot(l, true));
}

fn one_hot(l: &OpReader, v1: bool) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let depth_tensor = l.opt_input("depth_tensor")?;
    let depth_attr = l.int("depth")?;
    let allow_out_of_range = l.bool("allow_out_of_range")?;
    let dtype = l.dtype("dtype", VarKind::Fp32)?;
    compute(move |s| {
        let depth = match &depth_tensor {
            Some(d) => s.tensor(d)?.scalar_i64()?,
            None => depth_attr,
        };
        let depth = usize::try_from(depth)
            .ok()
            .filter(|&d| d > 0)
            .ok_or_else(|| {
                KernelError::Attribute(format!(
                    "depth is {depth}; it must be at least 1 (the number of classes)"
                ))
            })?;
        let xt = s.tensor(&x)?;
        if !matches!(xt.dtype(), VarKind::Int32 | VarKind::Int64) {
            return Err(KernelError::Dtype(format!(
                "X is {}; it takes int32 or int64 ids (cast them first)",
                dtype_name(xt.dtype())
            )));
        }
        let ids = i64s(&xt)?;
        let mut rows =
            vec![
                0f32;
                crate::tensor::alloc::check(&[ids.len() as i64, depth as i64], VarKind::Fp32)?
            ];
        for (r, &id) in ids.iter().enumerate() {
            match usize::try_from(id).ok().filter(|&k| k < depth) {
                Some(k) => rows[r * depth + k] = 1.0,
                None if allow_out_of_range => {}
                None => {
                    return Err(KernelError::Invalid(format!(
                        "id {id} is out of range for depth {depth}; ids must be in [0, {depth}) (or pass allow_out_of_range=True for a row of zeros)"
                    )))
                }
            }
        }
        let mut shape = xt.shape().to_vec();
        if v1 && shape.last() == Some(&1) {
            shape.pop();
        }
        shape.push(depth as i64);
        let t = Tensor::from_vec(&shape, rows)?;
        let t = if dtype == VarKind::Fp32 {
            t
        } else {
            t.cast(dtype)?
        };
        drop(ids);
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}
