//! Elementwise arithmetic (`elementwise_*`) and `sum`.
use super::infer::{binary, same_dtype, TensorType};
use super::{Behaviour, InferCtx};

const OPS: &[&str] = &[
    "elementwise_add",
    "elementwise_sub",
    "elementwise_mul",
    "elementwise_div",
    "elementwise_max",
    "elementwise_min",
    "elementwise_pow",
    "elementwise_mod",
    "elementwise_floordiv",
];

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for ty in OPS {
        r.push(Behaviour::pure(ty, |c| binary(c, None, true)).shares_lod("X", "Out"));
    }
    r.push(Behaviour::pure("sum", sum).shares_lod("X", "Out"));
}

/// `sum`: every input has one dtype; the result has the first one's dims.
fn sum(c: &InferCtx) -> Result<Vec<(&'static str, TensorType)>, String> {
    let Some(xs) = c.inputs("X") else {
        return Ok(Vec::new());
    };
    let Some(first) = xs.first() else {
        return Err("input X names no variable; sum needs at least one".into());
    };
    for x in &xs[1..] {
        same_dtype(first, x)?;
    }
    Ok(vec![("Out", (*first).clone())])
}
