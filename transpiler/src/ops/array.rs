//! Tensor arrays (`LOD_TENSOR_ARRAY`): `write_to_array`, `read_from_array`
//! and `lod_array_length`, what Paddle 1.x's `array_write`, `array_read`
//! and `array_length` layers append.
use super::infer::{unknown, TensorType};
use super::{Behaviour, InferCtx, Writes};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // A write changes one element of its array: the array's earlier
    // writes stay live.
    r.push(
        Behaviour::pure("write_to_array", unknown)
            .writes(Writes::Partial)
            .not_foldable()
            .no_infer(),
    );
    r.push(
        Behaviour::pure("read_from_array", unknown)
            .not_foldable()
            .no_infer(),
    );
    r.push(Behaviour::pure("lod_array_length", length).not_foldable());
}

/// `Out` is an int64 `[1]`.
fn length(_: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    Ok(vec![("Out", TensorType::new(VarKind::Int64, vec![1]))])
}
