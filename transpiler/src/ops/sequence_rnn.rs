//! Recurrent layers over a LoD batch: `lstm` (dynamic_lstm) and `gru`
//! (dynamic_gru).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("lstm", lstm).not_foldable().reads_lod());
    r.push(Behaviour::pure("gru", gru).not_foldable().reads_lod());
}

/// `Hidden`, `Cell` and `BatchCellPreAct` `[T, D]` with `D` from
/// `Weight` `[D, 4D]`; `BatchGate` shaped like `Input` `[T, 4D]`.
fn lstm(c: &InferCtx) -> Out {
    let (Some(x), Some(w)) = (c.input("Input"), c.input("Weight")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let d = w.dims.first().copied().unwrap_or(-1);
    let state = TensorType::new(x.dtype, vec![rows, d]);
    Ok(vec![
        ("Hidden", state.clone()),
        ("Cell", state.clone()),
        ("BatchGate", TensorType::new(x.dtype, x.dims.clone())),
        ("BatchCellPreAct", state),
    ])
}

/// `Hidden`, `BatchResetHiddenPrev` and `BatchHidden` `[T, D]` with `D`
/// from `Weight` `[D, 3D]`; `BatchGate` shaped like `Input` `[T, 3D]`.
fn gru(c: &InferCtx) -> Out {
    let (Some(x), Some(w)) = (c.input("Input"), c.input("Weight")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let state = TensorType::new(x.dtype, vec![rows, w.dims.first().copied().unwrap_or(-1)]);
    Ok(vec![
        ("Hidden", state.clone()),
        ("BatchGate", TensorType::new(x.dtype, x.dims.clone())),
        ("BatchResetHiddenPrev", state.clone()),
        ("BatchHidden", state),
    ])
}
