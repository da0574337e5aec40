//! FPN's RoI routing (1.6's detection layers): `distribute_fpn_proposals`
//! sends each RoI to the pyramid level its size asks for, and
//! `collect_fpn_proposals` gathers the levels' RoIs back by score.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("distribute_fpn_proposals", distribute)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("collect_fpn_proposals", collect)
            .not_foldable()
            .reads_lod(),
    );
}

/// `distribute_fpn_proposals`: `FpnRois` `[N, 4]`; each level's RoIs
/// `[-1, 4]` of its dtype, `RestoreIndex` `[N, 1]` int32.
fn distribute(c: &InferCtx) -> Out {
    let Some(rois) = c.input("FpnRois") else {
        return Ok(Vec::new());
    };
    if rois.dims.len() != 2 {
        return Err(format!(
            "Input(FpnRois) must be a [N, 4] matrix, not {:?}",
            rois.dims
        ));
    }
    Ok(vec![
        ("MultiFpnRois", TensorType::new(rois.dtype, vec![-1, 4])),
        ("RestoreIndex", TensorType::new(VarKind::Int32, vec![-1, 1])),
        (
            "MultiLevelRoIsNum",
            TensorType::new(VarKind::Int32, vec![-1]),
        ),
    ])
}

/// `collect_fpn_proposals`: the kept RoIs of the levels' dtype, declared
/// `[post_nms_topN, 4]` as 1.x's InferShape did (fewer when the batch
/// has fewer RoIs).
fn collect(c: &InferCtx) -> Out {
    let Some(rois) = c.input("MultiLevelRois") else {
        return Ok(Vec::new());
    };
    let top = c.int("post_nms_topN").unwrap_or(-1);
    Ok(vec![
        ("FpnRois", TensorType::new(rois.dtype, vec![top, 4])),
        ("RoisNum", TensorType::new(VarKind::Int32, vec![-1])),
    ])
}
