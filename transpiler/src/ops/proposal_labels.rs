//! `generate_proposal_labels`, Faster R-CNN's second-stage targets (Paddle
//! 1.x's op, which 3.3.1 dropped: see `data/fluidc_ops.json`).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("generate_proposal_labels", generate_proposal_labels)
            .not_foldable()
            .reads_lod(),
    );
}

/// `generate_proposal_labels` (1.x's `InferShape`): `RpnRois`, `GtBoxes`
/// and `ImInfo` of rank 2; the sampled RoIs, their int32 labels and the
/// per-class box targets and weights (`4 * class_nums` wide) of
/// `RpnRois`' dtype, their number known when it runs.
fn generate_proposal_labels(c: &InferCtx) -> Out {
    let Some(rois) = c.input("RpnRois") else {
        return Ok(Vec::new());
    };
    for slot in ["RpnRois", "GtBoxes", "ImInfo"] {
        if let Some(t) = c.input(slot) {
            if t.dims.len() != 2 {
                return Err(format!(
                    "The rank of Input({slot}) must be 2, not {:?}",
                    t.dims
                ));
            }
        }
    }
    let width = c.int("class_nums").map_or(-1, |n| 4 * n);
    let wide = || TensorType::new(rois.dtype, vec![-1, width]);
    Ok(vec![
        ("Rois", TensorType::new(rois.dtype, vec![-1, 4])),
        ("LabelsInt32", TensorType::new(VarKind::Int32, vec![-1, 1])),
        ("BboxTargets", wide()),
        ("BboxInsideWeights", wide()),
        ("BboxOutsideWeights", wide()),
    ])
}
