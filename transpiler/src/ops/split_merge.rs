//! 1.x's IfElse ops: `split_lod_tensor` parts rows (or sequences) by a
//! mask, `merge_lod_tensor` puts them back.
use super::infer::Out;
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
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
