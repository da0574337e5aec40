//! The `auc` metric: its statistics are persistable state it updates on
//! every run, so it is never folded.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // Its statistics are persistable state it updates on every run.
    r.push(Behaviour::pure("auc", auc).not_foldable());
}

/// `auc`: the area (float64, 0-D as Paddle 3.3.1 declares it) from the
/// positive and negative counts per probability bucket, which it updates
/// in place (`StatPosOut` is `StatPos`). Paddle's kernel takes float32
/// probabilities and int64 labels only; a label of another dtype is the
/// kernel's error when it runs, as in 1.x, which built such programs.
fn auc(c: &InferCtx) -> Out {
    if let Some(p) = c.input("Predict") {
        if p.dtype != VarKind::Fp32 || p.dims.len() != 2 {
            return Err(format!(
                "Predict is {} {:?}; auc takes float32 probabilities [batch, classes] (the last column is the positive class's): cast or reshape them first",
                crate::model::dtype_name(p.dtype),
                p.dims
            ));
        }
    }
    let mut out = vec![("AUC", TensorType::new(VarKind::Fp64, vec![]))];
    for (slot, input) in [("StatPosOut", "StatPos"), ("StatNegOut", "StatNeg")] {
        if let Some(t) = c.input(input) {
            out.push((slot, t.clone()));
        }
    }
    Ok(out)
}
