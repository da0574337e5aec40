//! `dropout`: its mask is drawn from the random engine when training, so it
//! is never folded.
use super::infer::{same_as_x, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // Draws its mask from the random engine when training.
    r.push(
        Behaviour::pure("dropout", dropout)
            .not_foldable()
            .shares_lod("X", "Out"),
    );
}

/// `Out` is `X`; `Mask` has `X`'s dims as uint8.
fn dropout(c: &InferCtx) -> Out {
    let mut out = same_as_x(c)?;
    if let Some(x) = c.input("X") {
        out.push(("Mask", TensorType::new(VarKind::Uint8, x.dims.clone())));
    }
    Ok(out)
}
