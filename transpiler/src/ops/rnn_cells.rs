//! One step of a recurrent cell: `gru_unit` and `lstm_unit` (`lstm_unit` is
//! Paddle 1.x's, which 3.3.1 dropped: see `data/fluidc_ops.json`).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("gru_unit", gru_unit));
    r.push(Behaviour::pure("lstm_unit", lstm_unit));
}

/// `gru_unit`: `Gate` `[batch, 3 * frame]`, `ResetHiddenPrev` and `Hidden`
/// `[batch, frame]`, the batch from `Input`, the frame from `HiddenPrev`.
fn gru_unit(c: &InferCtx) -> Out {
    let (Some(x), Some(h)) = (c.input("Input"), c.input("HiddenPrev")) else {
        return Ok(Vec::new());
    };
    let batch = x.dims.first().copied().unwrap_or(-1);
    let frame = h.dims.get(1).copied().unwrap_or(-1);
    let gate = if frame < 0 { -1 } else { frame * 3 };
    let hidden = TensorType::new(x.dtype, vec![batch, frame]);
    Ok(vec![
        ("Gate", TensorType::new(x.dtype, vec![batch, gate])),
        ("ResetHiddenPrev", hidden.clone()),
        ("Hidden", hidden),
    ])
}

/// `lstm_unit`: `C` and `H` shaped like `C_prev`.
fn lstm_unit(c: &InferCtx) -> Out {
    let (Some(x), Some(prev)) = (c.input("X"), c.input("C_prev")) else {
        return Ok(Vec::new());
    };
    let t = TensorType::new(x.dtype, prev.dims.clone());
    Ok(vec![("C", t.clone()), ("H", t)])
}
