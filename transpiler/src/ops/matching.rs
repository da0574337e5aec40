//! SSD's matching of predictions to ground truth (Paddle 1.x's
//! `layers/detection.py`): `bipartite_match`, `target_assign` and
//! `mine_hard_examples` (the last two Paddle 1.x's: 3.3.1 dropped them);
//! `detection_map` (1.x's; 3.3.1 dropped it), which matches detections to
//! ground truth to score them.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::{dtype_name, VarKind};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("bipartite_match", bipartite_match).reads_lod());
    r.push(Behaviour::pure("target_assign", target_assign).reads_lod());
    r.push(Behaviour::pure("mine_hard_examples", mine_hard_examples));
    r.push(
        Behaviour::pure("detection_map", detection_map)
            .reads_lod()
            .not_foldable(),
    );
}

/// `bipartite_match`: `DistMat` is a 2-D float matrix (rows: ground
/// truth, one LoD sequence per image; columns: predictions). 1.x's
/// `InferShape` gave both outputs `DistMat`'s dims (the kernel writes one
/// row per image); the indices are int32, the distances `DistMat`'s dtype.
fn bipartite_match(c: &InferCtx) -> Out {
    let Some(d) = c.input("DistMat") else {
        return Ok(Vec::new());
    };
    if d.dims.len() != 2 {
        return Err(format!(
            "The rank of Input(DistMat) must be 2, got {:?}",
            d.dims
        ));
    }
    if !matches!(d.dtype, VarKind::Fp32 | VarKind::Fp64) {
        return Err(format!(
            "DistMat is {}; bipartite_match takes float32 or float64",
            dtype_name(d.dtype)
        ));
    }
    Ok(vec![
        (
            "ColToRowMatchIndices",
            TensorType::new(VarKind::Int32, d.dims.clone()),
        ),
        ("ColToRowMatchDist", d.clone()),
    ])
}

/// The dims of input `slot`, which must have rank `rank`.
fn ranked<'a>(c: &'a InferCtx, slot: &str, rank: usize) -> Result<Option<&'a [i64]>, String> {
    match c.input(slot) {
        Some(t) if t.dims.len() != rank => Err(format!(
            "The rank of Input({slot}) must be {rank}, got {:?}",
            t.dims
        )),
        t => Ok(t.map(|t| t.dims.as_slice())),
    }
}

/// `target_assign` (1.x's `InferShape`): `X` `[M, P, K]` (one LoD
/// sequence of rows per image), `MatchIndices` `[N, P']`, `NegIndices`
/// `[Neg, 1]`; `Out` `[N, P', K]` of `X`'s dtype, `OutWeight` `[N, P', 1]`
/// float32.
fn target_assign(c: &InferCtx) -> Out {
    let x = ranked(c, "X", 3)?;
    let m = ranked(c, "MatchIndices", 2)?;
    if let Some(neg) = ranked(c, "NegIndices", 2)? {
        if neg[1] != 1 && neg[1] != -1 {
            return Err(format!(
                "The last dimension of Input(NegIndices) must be 1, got {neg:?}"
            ));
        }
    }
    let (Some(x), Some(m), Some(xt)) = (x, m, c.input("X")) else {
        return Ok(Vec::new());
    };
    if !matches!(xt.dtype, VarKind::Int32 | VarKind::Fp32) {
        return Err(format!(
            "X is {}; target_assign takes int32 or float32",
            dtype_name(xt.dtype)
        ));
    }
    Ok(vec![
        ("Out", TensorType::new(xt.dtype, vec![m[0], m[1], x[2]])),
        (
            "OutWeight",
            TensorType::new(VarKind::Fp32, vec![m[0], m[1], 1]),
        ),
    ])
}

/// `mine_hard_examples` (1.x's `InferShape`): `ClsLoss`, `LocLoss`,
/// `MatchIndices` and `MatchDist` are `[N, Np]`; the attributes of the
/// mining type in range. `UpdatedMatchIndices` is `MatchIndices`,
/// `NegIndices` `[-1, 1]` int32 (one LoD sequence per image).
fn mine_hard_examples(c: &InferCtx) -> Out {
    for slot in ["ClsLoss", "LocLoss", "MatchIndices", "MatchDist"] {
        ranked(c, slot, 2)?;
    }
    let float = |name| match c.attr(name) {
        Some(crate::model::AttrValue::Float(v)) => Some(*v),
        _ => None,
    };
    match c.string("mining_type") {
        Some("max_negative") => {
            if !float("neg_pos_ratio").is_some_and(|r| r > 0.0) {
                return Err("neg_pos_ratio must greater than zero in max_negative mode".into());
            }
            if !float("neg_dist_threshold").is_some_and(|t| t > 0.0 && t < 1.0) {
                return Err("neg_dist_threshold must be in (0, 1) in max_negative mode".into());
            }
        }
        Some("hard_example") => {
            if c.int("sample_size").is_none_or(|s| s <= 0) {
                return Err("sample_size must greater than zero in hard_example mode".into());
            }
        }
        other => {
            return Err(format!(
                "mining_type must be hard_example or max_negative, it is {other:?}"
            ))
        }
    }
    let mut out = vec![("NegIndices", TensorType::new(VarKind::Int32, vec![-1, 1]))];
    if let Some(m) = c.input("MatchIndices") {
        out.push(("UpdatedMatchIndices", m.clone()));
    }
    Ok(out)
}

/// `detection_map` (1.x's `InferShape`): `DetectRes` `[M, 6]`, `Label`
/// `[N, 6]` or `[N, 5]`; `PosCount` wants `TruePos` and `FalsePos`.
/// `MAP` is `[1]` of `DetectRes`'s dtype; the kernel sets the states:
/// `AccumPosCount` `[class_num, 1]` int32, `AccumTruePos` and
/// `AccumFalsePos` `[-1, 2]` (score, flag rows; one LoD sequence per class).
fn detection_map(c: &InferCtx) -> Out {
    let det = ranked(c, "DetectRes", 2)?;
    if let Some(d) = det {
        if d[1] != 6 && d[1] != -1 {
            return Err(format!(
                "The shape is of Input(DetectRes) [N, 6], got {d:?}"
            ));
        }
    }
    if let Some(l) = ranked(c, "Label", 2)? {
        if l[1] > 0 && l[1] != 6 && l[1] != 5 {
            return Err(format!(
                "The shape of Input(Label) is [N, 6] or [N, 5], got {l:?}"
            ));
        }
    }
    if c.input("PosCount").is_some()
        && (c.input("TruePos").is_none() || c.input("FalsePos").is_none())
    {
        return Err("Input(TruePos) and Input(FalsePos) of DetectionMAPOp should not be null when Input(PosCount) is given".into());
    }
    if !matches!(c.string("ap_type"), Some("integral" | "11point")) {
        return Err(format!(
            "The ap_type should be 'integral' or '11point', it is {:?}",
            c.string("ap_type")
        ));
    }
    let Some(d) = c.input("DetectRes") else {
        return Ok(Vec::new());
    };
    let classes = c.int("class_num").unwrap_or(-1);
    Ok(vec![
        ("MAP", TensorType::new(d.dtype, vec![1])),
        (
            "AccumPosCount",
            TensorType::new(VarKind::Int32, vec![classes, 1]),
        ),
        ("AccumTruePos", TensorType::new(d.dtype, vec![-1, 2])),
        ("AccumFalsePos", TensorType::new(d.dtype, vec![-1, 2])),
    ])
}
