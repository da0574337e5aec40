//! Recurrent layers over a LoD batch: `lstm` (dynamic_lstm), `gru`
//! (dynamic_gru) and 1.x's `lstmp` (dynamic_lstmp; 3.3.1 dropped it).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("lstm", lstm).not_foldable().reads_lod());
    r.push(Behaviour::pure("gru", gru).not_foldable().reads_lod());
    r.push(Behaviour::pure("lstmp", lstmp).not_foldable().reads_lod());
}

/// `lstmp` (1.6's `InferShape`): `Input` `[T, 4D]`, `Weight` `[P, 4D]`,
/// `ProjWeight` `[D, P]`, `Bias` `[1, 7D]` (`[1, 4D]` without peepholes),
/// `C0` with `H0`; `Projection` `[T, P]`, `Cell`, `BatchCellPreAct` and
/// `BatchHidden` `[T, D]`, `BatchGate` `Input`'s shape.
fn lstmp(c: &InferCtx) -> Out {
    let (Some(x), Some(w), Some(pw)) = (c.input("Input"), c.input("Weight"), c.input("ProjWeight"))
    else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 || w.dims.len() != 2 || pw.dims.len() != 2 {
        return Err(format!(
            "lstmp: Input {:?}, Weight {:?} and ProjWeight {:?} must be 2-D",
            x.dims, w.dims, pw.dims
        ));
    }
    let d = if x.dims[1] >= 0 { x.dims[1] / 4 } else { -1 };
    let p = pw.dims[1];
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if !known(w.dims[0], p) || !known(w.dims[1], 4 * d.max(0)) && d >= 0 || !known(pw.dims[0], d) {
        return Err(format!(
            "lstmp: Weight {:?} must be [P, 4D] and ProjWeight {:?} [D, P] for Input {:?}",
            w.dims, pw.dims, x.dims
        ));
    }
    if c.has_input("H0") && !c.has_input("C0") {
        return Err("Input(C0) of LSTMP should not be null after Input(H0) provided.".into());
    }
    if let Some(b) = c.input("Bias") {
        let peep = c.bool("use_peepholes").unwrap_or(true);
        let want = if peep { 7 * d } else { 4 * d };
        if b.dims.len() != 2 || b.dims[0] != 1 || d >= 0 && b.dims[1] >= 0 && b.dims[1] != want {
            return Err(format!("lstmp: Bias {:?} must be [1, {want}]", b.dims));
        }
    }
    let rows = x.dims[0];
    let state = TensorType::new(x.dtype, vec![rows, d]);
    Ok(vec![
        ("Projection", TensorType::new(x.dtype, vec![rows, p])),
        ("Cell", state.clone()),
        ("BatchGate", TensorType::new(x.dtype, x.dims.clone())),
        ("BatchCellPreAct", state.clone()),
        ("BatchHidden", state),
    ])
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
