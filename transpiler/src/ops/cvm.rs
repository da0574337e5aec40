//! `cvm`, 1.5-1.6's continuous value model of CTR models: each row of
//! embedded features starts with its show and click values, which the op
//! turns into `log(show + 1)` and `log(click + 1) - log(show + 1)` (or
//! drops, without `use_cvm`); its gradient hands the batch's show and
//! click (`CVM`) back in their place.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("cvm", cvm).shares_lod("X", "Y"));
}

/// `cvm` (Paddle's `InferShape`): `X` `[N, D]` and `CVM` `[*, 2]`; `Y` is
/// `[N, D]` with `use_cvm`, `[N, D - 2]` without.
fn cvm(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 {
        return Err(format!("Input(X)'s rank should be 2, not {:?}", x.dims));
    }
    if let Some(cvm) = c.input("CVM") {
        if cvm.dims.len() != 2 || cvm.dims[1] != 2 {
            return Err(format!(
                "Input(CVM) must be [N, 2] (show and click), not {:?}",
                cvm.dims
            ));
        }
    }
    let use_cvm = c.bool("use_cvm").unwrap_or(true);
    let width = match x.dims[1] {
        d if d < 0 || use_cvm => d,
        d => d - 2,
    };
    Ok(vec![(
        "Y",
        TensorType::new(x.dtype, vec![x.dims[0], width]),
    )])
}
