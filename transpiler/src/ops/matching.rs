//! SSD's matching of predictions to ground truth (Paddle 1.x's
//! `layers/detection.py`): `bipartite_match`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::{dtype_name, VarKind};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("bipartite_match", bipartite_match).reads_lod());
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

