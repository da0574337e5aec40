//! `hash`: each row of int ids hashed `num_hash` times (XXH64 seeded by
//! the hash's index) modulo `mod_by`, as 1.x's `layers.hash` did for
//! text-matching models' n-gram ids.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("hash", hash).shares_lod("X", "Out"));
}

/// `hash` (Paddle's `InferShape`): `X` of rank 2, int32 or int64; `Out`
/// its dims with the last replaced by `[num_hash, 1]`, in `X`'s dtype.
fn hash(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 {
        return Err(format!(
            "The input of hash_op's dimensions must be 2, not {:?}",
            x.dims
        ));
    }
    if !matches!(x.dtype, VarKind::Int32 | VarKind::Int64) {
        return Err(format!(
            "X is {}; hash takes int32 or int64 ids",
            crate::model::dtype_name(x.dtype)
        ));
    }
    let num_hash = c.int("num_hash").unwrap_or(1);
    Ok(vec![(
        "Out",
        TensorType::new(x.dtype, vec![x.dims[0], num_hash, 1]),
    )])
}
