//! `bilinear_tensor_product` (1.x's `fluid.layers.bilinear_tensor_product`).
use super::infer::{same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("bilinear_tensor_product", bilinear));
}

/// Whether two dims can be equal (unknown matches anything).
fn agree(a: i64, b: i64) -> bool {
    a == b || a < 0 || b < 0
}

/// Paddle's `BilinearInferMeta`: `X` `[B, M]`, `Y` `[B, N]`, `Weight`
/// `[S, M, N]` and an optional `Bias` `[1, S]` give `Out` `[B, S]`, each
/// dim checked where both sides know it.
fn bilinear(c: &InferCtx) -> Out {
    let (Some(x), Some(y), Some(w)) = (c.input("X"), c.input("Y"), c.input("Weight")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 || y.dims.len() != 2 || w.dims.len() != 3 {
        return Err(format!(
            "bilinear_tensor_product takes X and Y of rank 2 and Weight of rank 3, got X {:?}, Y {:?}, Weight {:?}",
            x.dims, y.dims, w.dims
        ));
    }
    let checks = [
        (x.dims[0], y.dims[0], "the batch sizes of X and Y"),
        (
            x.dims[1],
            w.dims[1],
            "X's second dim and Weight's second dim",
        ),
        (
            y.dims[1],
            w.dims[2],
            "Y's second dim and Weight's third dim",
        ),
    ];
    for (a, b, what) in checks {
        if !agree(a, b) {
            return Err(format!(
                "{what} must be equal: X {:?}, Y {:?}, Weight {:?}",
                x.dims, y.dims, w.dims
            ));
        }
    }
    if let Some(b) = c.input("Bias") {
        if b.dims.len() != 2 || !agree(b.dims[0], 1) || !agree(b.dims[1], w.dims[0]) {
            return Err(format!(
                "Bias must be [1, {}] for Weight {:?}, got {:?}",
                w.dims[0], w.dims, b.dims
            ));
        }
    }
    same_dtype(x, y)?;
    same_dtype(x, w)?;
    Ok(vec![(
        "Out",
        TensorType::new(x.dtype, vec![x.dims[0], w.dims[0]]),
    )])
}
