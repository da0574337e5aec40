//! Losses: `softmax_with_cross_entropy`, `sigmoid_cross_entropy_with_logits`
//! and `log_loss`.
use super::arg::axis_index;
use super::infer::{same_as_x, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure(
        "softmax_with_cross_entropy",
        softmax_with_cross_entropy,
    ));
    r.push(Behaviour::pure(
        "sigmoid_cross_entropy_with_logits",
        same_as_x,
    ));
    r.push(Behaviour::pure("log_loss", log_loss));
}

/// `log_loss`: `Loss` shaped as `Predicted`, a column of probabilities
/// `[N, 1]` (Paddle's `LogLossInferMeta`), with `Labels` of its shape.
fn log_loss(c: &InferCtx) -> Out {
    let (Some(p), Some(l)) = (c.input("Predicted"), c.input("Labels")) else {
        return Ok(Vec::new());
    };
    if p.dims.len() != 2 || !matches!(p.dims[1], 1 | -1) {
        return Err(format!(
            "input is {:?}; log_loss takes a column of probabilities [N, 1]",
            p.dims
        ));
    }
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if l.dims.len() != 2 || !p.dims.iter().zip(&l.dims).all(|(&a, &b)| known(a, b)) {
        return Err(format!(
            "label is {:?} but input is {:?}; they must have one shape",
            l.dims, p.dims
        ));
    }
    if p.dtype != l.dtype {
        return Err(format!(
            "label is {} but input is {}; cast the label to the input's dtype",
            crate::model::dtype_name(l.dtype),
            crate::model::dtype_name(p.dtype)
        ));
    }
    Ok(vec![("Loss", p.clone())])
}

/// `Softmax` has `Logits`' dims; `Loss` the same with the class dim 1.
fn softmax_with_cross_entropy(c: &InferCtx) -> Out {
    let Some(x) = c.input("Logits") else {
        return Ok(Vec::new());
    };
    let a = axis_index(c.int("axis").unwrap_or(-1), x.dims.len())?;
    let mut loss = x.dims.clone();
    if let Some(d) = loss.get_mut(a) {
        *d = 1;
    }
    Ok(vec![
        ("Softmax", x.clone()),
        ("Loss", TensorType::new(x.dtype, loss)),
    ])
}
