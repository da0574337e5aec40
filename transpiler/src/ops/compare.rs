//! Comparisons and logical ops: boolean results of broadcast operands.
use super::infer::{binary, x_as};
use super::Behaviour;
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for ty in [
        "less_than",
        "less_equal",
        "greater_than",
        "greater_equal",
        "equal",
        "not_equal",
    ] {
        r.push(Behaviour::pure(ty, |c| {
            binary(c, Some(VarKind::Bool), true)
        }));
    }
    for ty in ["logical_and", "logical_or", "logical_xor"] {
        r.push(Behaviour::pure(ty, |c| {
            binary(c, Some(VarKind::Bool), false)
        }));
    }
    r.push(Behaviour::pure("logical_not", |c| {
        Ok(x_as(c, VarKind::Bool))
    }));
}
