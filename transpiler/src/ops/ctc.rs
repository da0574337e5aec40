//! Connectionist temporal classification, as Paddle 1.x's OCR and speech
//! models used it: the loss `warpctc` (softmax over classes, then the CTC
//! negative log-likelihood of each label sequence), the greedy decoder's
//! `ctc_align` (repeats merged, blanks dropped) and the `edit_distance`
//! that scores decoded sequences against their labels. Each reads its
//! inputs' LoD (one sequence per LoD entry), known only when it runs.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("warpctc", warpctc)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("ctc_align", ctc_align)
            .not_foldable()
            .reads_lod()
            // 1.6's padded mode; 1.0..1.5 had Input -> Output only.
            .slots_after_1_0(&["InputLength", "OutputLength"]),
    );
    r.push(
        Behaviour::pure("edit_distance", edit_distance)
            .not_foldable()
            .reads_lod(),
    );
}

/// `warpctc`: `Logits` `[T, C]` (the classes, blank among them), `Label`
/// int32 `[L, 1]`; `Loss` one value per sequence, `WarpCTCGrad` the
/// gradient padded to `[max T, sequences, C]` (1.x's layout).
fn warpctc(c: &InferCtx) -> Out {
    let (Some(logits), Some(label)) = (c.input("Logits"), c.input("Label")) else {
        return Ok(Vec::new());
    };
    let [_, classes] = logits.dims[..] else {
        return Err(format!("Logits {:?} must be 2-D [T, classes]", logits.dims));
    };
    if label.dtype != VarKind::Int32 {
        return Err(format!(
            "Label is {}; it takes int32 labels",
            crate::model::dtype_name(label.dtype)
        ));
    }
    let blank = c.int("blank").unwrap_or(0);
    if blank < 0 || (classes >= 0 && blank >= classes) {
        return Err(format!(
            "blank {blank} must be a class of Logits' {classes}"
        ));
    }
    Ok(vec![
        ("Loss", TensorType::new(logits.dtype, vec![-1, 1])),
        (
            "WarpCTCGrad",
            TensorType::new(logits.dtype, vec![-1, -1, classes]),
        ),
    ])
}

/// `ctc_align`: `Output` is one column of `Input`'s dtype, as many rows as
/// the merged sequences keep.
fn ctc_align(c: &InferCtx) -> Out {
    let Some(x) = c.input("Input") else {
        return Ok(Vec::new());
    };
    Ok(vec![("Output", TensorType::new(x.dtype, vec![-1, 1]))])
}

/// `edit_distance`: one float32 distance per hypothesis and the number of
/// them, an int64 `[1]`.
fn edit_distance(c: &InferCtx) -> Out {
    if c.input("Hyps").is_none() || c.input("Refs").is_none() {
        return Ok(Vec::new());
    }
    Ok(vec![
        ("Out", TensorType::new(VarKind::Fp32, vec![-1, 1])),
        ("SequenceNum", TensorType::new(VarKind::Int64, vec![1])),
    ])
}
