//! LoD sequence ops: Paddle 1.x's DynamicRNN ops (`lod_rank_table`,
//! `max_sequence_len`, `lod_tensor_to_array`, `array_to_lod_tensor`,
//! `shrink_rnn_memory`, `reorder_lod_tensor_by_rank`; fluidc-only, see
//! `data/fluidc_ops.json`), `sequence_pool`, `sequence_softmax`,
//! `sequence_conv`, `sequence_expand`, `lod_reset`, `is_empty`, `lstm` and
//! `gru` (1.x's `dynamic_lstm` and `dynamic_gru`), and 1.x's IfElse ops
//! `split_lod_tensor` and `merge_lod_tensor` (fluidc-only).
use super::infer::{same_as_x, unknown, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

type Out = Result<Vec<(&'static str, TensorType)>, String>;

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
    r.push(
        Behaviour::pure("reorder_lod_tensor_by_rank", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_pool", sequence_pool)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_softmax", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_conv", sequence_conv)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_expand", sequence_expand)
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
    // The rows (or sequences) of X that Mask picks, and back: which ones,
    // and their LoD, known only when it runs.
    r.push(
        Behaviour::pure("split_lod_tensor", split_lod_tensor)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("merge_lod_tensor", merge_lod_tensor)
            .not_foldable()
            .reads_lod(),
    );
    r.push(Behaviour::pure("lstm", lstm).not_foldable().reads_lod());
    r.push(Behaviour::pure("gru", gru).not_foldable().reads_lod());
}

/// 1.x's IfElse ops take a column of bools, one per row or sequence.
fn check_mask(c: &InferCtx) -> Result<(), String> {
    match c.input("Mask") {
        Some(m) if m.dims.len() != 2 || !matches!(m.dims[1], 1 | -1) => Err(format!(
            "Mask has shape {:?}; it must be a column [N, 1] of bools, one per row or \
             sequence (an IfElse's cond must be 2-D with a second dim of 1)",
            m.dims
        )),
        _ => Ok(()),
    }
}

/// `split_lod_tensor`: `OutTrue` and `OutFalse` declared as `X` (1.x's
/// `InferShape`; how many rows each gets is known when it runs).
fn split_lod_tensor(c: &InferCtx) -> Out {
    check_mask(c)?;
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    Ok(vec![("OutTrue", x.clone()), ("OutFalse", x.clone())])
}

/// `merge_lod_tensor`: `Out` declared as `InTrue` (1.x's `InferShape`).
fn merge_lod_tensor(c: &InferCtx) -> Out {
    check_mask(c)?;
    Ok(c.input("InTrue")
        .map(|t| vec![("Out", t.clone())])
        .unwrap_or_default())
}

/// `Out` is a bool `[1]`.
fn is_empty(_: &InferCtx) -> Out {
    Ok(vec![("Out", TensorType::new(VarKind::Bool, vec![1]))])
}

/// `Out` is an int64 `[1]`.
fn max_len(_: &InferCtx) -> Out {
    Ok(vec![("Out", TensorType::new(VarKind::Int64, vec![1]))])
}

/// One row per sequence: `X`'s dims with an unknown first; `MaxIndex`
/// the same in int32, declared only for MAX pooling as Paddle's
/// InferMeta declares it.
fn sequence_pool(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(d) = dims.first_mut() {
        *d = -1;
    }
    let mut out = vec![("Out", TensorType::new(x.dtype, dims.clone()))];
    if c.string("pooltype")
        .is_some_and(|p| p.eq_ignore_ascii_case("MAX"))
    {
        out.push(("MaxIndex", TensorType::new(VarKind::Int32, dims)));
    }
    Ok(out)
}

/// `sequence_expand`: `X`'s dims with an unknown first (how many rows
/// depends on `Y`'s LoD, known only when it runs). `X` is a batch of rows
/// (rank at least 2), as Paddle's `InferShape` requires.
fn sequence_expand(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!(
            "X {:?} must have rank 2 or more (a batch of rows); reshape it to [-1, 1] first",
            x.dims
        ));
    }
    let mut dims = x.dims.clone();
    dims[0] = -1;
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `Hidden`, `Cell` and `BatchCellPreAct` `[T, D]` with `D` from
/// `Weight` `[D, 4D]`; `BatchGate` shaped like `Input` `[T, 4D]`.
fn lstm(c: &InferCtx) -> Out {
    let (Some(x), Some(w)) = (c.input("Input"), c.input("Weight")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let d = w.dims.first().copied().unwrap_or(-1);
    let state = TensorType::new(x.dtype, vec![rows, d]);
    Ok(vec![
        ("Hidden", state.clone()),
        ("Cell", state.clone()),
        ("BatchGate", TensorType::new(x.dtype, x.dims.clone())),
        ("BatchCellPreAct", state),
    ])
}

/// `Hidden`, `BatchResetHiddenPrev` and `BatchHidden` `[T, D]` with `D`
/// from `Weight` `[D, 3D]`; `BatchGate` shaped like `Input` `[T, 3D]`.
fn gru(c: &InferCtx) -> Out {
    let (Some(x), Some(w)) = (c.input("Input"), c.input("Weight")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let state = TensorType::new(x.dtype, vec![rows, w.dims.first().copied().unwrap_or(-1)]);
    Ok(vec![
        ("Hidden", state.clone()),
        ("BatchGate", TensorType::new(x.dtype, x.dims.clone())),
        ("BatchResetHiddenPrev", state.clone()),
        ("BatchHidden", state),
    ])
}

/// `[T, M]`: `X`'s rows, `Filter`'s columns.
fn sequence_conv(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("X"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let m = f.dims.get(1).copied().unwrap_or(-1);
    Ok(vec![("Out", TensorType::new(x.dtype, vec![rows, m]))])
}
