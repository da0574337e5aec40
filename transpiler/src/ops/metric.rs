//! Metrics: `top_k`, `accuracy` and `mean_iou`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // 1.x's InferShape shares X's LoD with Out (beam_search reads it).
    r.push(Behaviour::pure("top_k", top_k).shares_lod("X", "Out"));
    r.push(Behaviour::pure("accuracy", accuracy));
    r.push(Behaviour::pure("mean_iou", mean_iou));
}

/// `Out` and `Indices` (int64) are `X` with the last dim `k`.
fn top_k(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(last) = dims.last_mut() {
        *last = if c.has_input("K") {
            -1
        } else {
            c.int("k").unwrap_or(1)
        };
    }
    Ok(vec![
        ("Out", TensorType::new(x.dtype, dims.clone())),
        ("Indices", TensorType::new(VarKind::Int64, dims)),
    ])
}

/// `Accuracy` float32 `[1]`, `Correct` and `Total` int32 `[1]`.
/// `accuracy`: Accuracy has the input's float type. Correct and Total are
/// int32 at run time, but Paddle 3.3.1's Python declares them float32
/// (its `create_variable_for_type_inference` ignores the 1.x dtype), so
/// their declared dtype is not checked: programs Paddle builds must load.
/// `accuracy`: Accuracy, Correct and Total, 0-D of Out's dtype (Paddle
/// 3.3.1's `AccuracyInferMeta` gives all three Out's dtype).
fn accuracy(c: &InferCtx) -> Out {
    let acc = c.input("Out").map_or(VarKind::Fp32, |o| o.dtype);
    Ok(vec![
        ("Accuracy", TensorType::new(acc, vec![])),
        ("Correct", TensorType::new(acc, vec![])),
        ("Total", TensorType::new(acc, vec![])),
    ])
}

/// `mean_iou` (1.x): OutMeanIou float32 `[1]`, OutWrong and OutCorrect
/// int32 `[num_classes]`.
fn mean_iou(c: &InferCtx) -> Out {
    let n = c.int("num_classes").unwrap_or(-1);
    Ok(vec![
        ("OutMeanIou", TensorType::new(VarKind::Fp32, vec![1])),
        ("OutWrong", TensorType::new(VarKind::Int32, vec![n])),
        ("OutCorrect", TensorType::new(VarKind::Int32, vec![n])),
    ])
}
