//! Metrics: `top_k`, `accuracy` and `mean_iou`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // 1.x's InferShape shares X's LoD with Out (beam_search reads it).
    r.push(Behaviour::pure("top_k", top_k).shares_lod("X", "Out"));
    r.push(Behaviour::pure("accuracy", accuracy).dtype_unchecked(&["Correct", "Total"]));
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

/// `accuracy`: Accuracy, Correct and Total, 0-D of Out's dtype, as Paddle
/// 3.3.1's `AccuracyInferMeta` gives them. The kernels (1.x's and 3.3.1's)
/// write Correct and Total as int32, 1.x's Python declared them int64 and
/// 3.3.1's declares Out's dtype, so their declarations are not checked
/// (`dtype_unchecked`): the models each version saved load.
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
