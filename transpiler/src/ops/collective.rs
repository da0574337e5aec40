//! The collective ops data-parallel training adds (`fluidc distribute`,
//! docs/distributed.md): `all_reduce` sums a tensor over the ranks, and
//! `broadcast` gives every rank the root rank's tensor. Both act on other
//! processes (World): a pass must never drop or move them, since every
//! rank has to reach the same collectives in the same order.
use super::infer::TensorType;
use super::{Behaviour, Effect, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for ty in ["all_reduce", "broadcast"] {
        r.push(Behaviour::pure(ty, in_place).effect(Effect::World));
    }
}

/// `out` is `x` (both ops write their result over their input).
fn in_place(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    Ok(c.input("x")
        .map(|x| ("out", x.clone()))
        .into_iter()
        .collect())
}
