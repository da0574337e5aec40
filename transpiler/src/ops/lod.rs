//! LoD sequence ops: Paddle 1.x's DynamicRNN ops (`lod_rank_table`,
//! `max_sequence_len`, `lod_tensor_to_array`, `array_to_lod_tensor`,
//! `shrink_rnn_memory`, `reorder_lod_tensor_by_rank`; fluidc-only, see
//! `data/fluidc_ops.json`), its StaticRNN's `rnn_memory_helper` (fluidc-only
//! too), and `lod_reset` and `is_empty`. Sequences'
//! own ops are in `sequence`, `sequence_expand` and `sequence_rnn`; 1.x's
//! IfElse ops in `split_merge`.
use super::infer::{same_as_x, unknown, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // Each depends on the LoD of a fed tensor, known only when it runs.
    r.push(
        Behaviour::pure("lod_rank_table", unknown)
            .not_foldable()
            .no_infer()
            .reads_lod(),
    );
    r.push(Behaviour::pure("max_sequence_len", max_len).not_foldable());
    r.push(
        Behaviour::pure("lod_tensor_to_array", unknown)
            .not_foldable()
            .no_infer()
            .reads_lod(),
    );
    r.push(Behaviour::pure("array_to_lod_tensor", unknown).not_foldable());
    r.push(Behaviour::pure("shrink_rnn_memory", same_as_x).not_foldable());
    // 1.x's InferShape: ShareDim and ShareLoD from X to Out.
    r.push(Behaviour::pure("rnn_memory_helper", same_as_x).shares_lod("X", "Out"));
    r.push(
        Behaviour::pure("reorder_lod_tensor_by_rank", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    // Sets `Out`'s LoD from `Y` (its LoD, or its values as offsets) or
    // from `target_lod`; its grad gives `X@GRAD` the LoD of `X`.
    r.push(
        Behaviour::pure("lod_reset", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    // Whether a tensor has no elements: known only when it runs.
    r.push(Behaviour::pure("is_empty", is_empty).not_foldable());
}

/// `Out` is a bool `[1]`.
fn is_empty(_: &InferCtx) -> Out {
    Ok(vec![("Out", TensorType::new(VarKind::Bool, vec![1]))])
}

/// `Out` is an int64 `[1]`.
fn max_len(_: &InferCtx) -> Out {
    Ok(vec![("Out", TensorType::new(VarKind::Int64, vec![1]))])
}
