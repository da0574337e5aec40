//! `chunk_eval`: precision, recall and F1 of chunks (IOB, IOE, IOBES tags).
use super::crf::agree;
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("chunk_eval", chunk_eval)
            .not_foldable()
            .reads_lod(),
    );
}

/// One float32 `[1]` per metric and one int64 `[1]` per count.
/// `Inference` and `Label` must have the same dims.
fn chunk_eval(c: &InferCtx) -> Out {
    if let (Some(i), Some(l)) = (c.input("Inference"), c.input("Label")) {
        let same =
            i.dims.len() == l.dims.len() && i.dims.iter().zip(&l.dims).all(|(&a, &b)| agree(a, b));
        if !same {
            return Err(format!(
                "Inference {:?} and Label {:?} must have the same shape",
                i.dims, l.dims
            ));
        }
    }
    let metric = TensorType::new(VarKind::Fp32, vec![1]);
    let count = TensorType::new(VarKind::Int64, vec![1]);
    Ok(vec![
        ("Precision", metric.clone()),
        ("Recall", metric.clone()),
        ("F1-Score", metric),
        ("NumInferChunks", count.clone()),
        ("NumLabelChunks", count.clone()),
        ("NumCorrectChunks", count),
    ])
}
