//! Comparisons and logical ops: boolean results of broadcast operands; and
//! 1.x's `isfinite`, `isinf`, `isnan`, one bool about a whole tensor.
use super::infer::{binary, x_as, TensorType};
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
    // 1.x's checks of a whole tensor: one bool.
    for ty in ["isfinite", "isinf", "isnan"] {
        r.push(Behaviour::pure(ty, |c| {
            Ok(match c.input("X") {
                Some(_) => vec![("Out", TensorType::new(VarKind::Bool, vec![1]))],
                None => Vec::new(),
            })
        }));
    }
    r.push(Behaviour::pure("logical_not", |c| {
        Ok(x_as(c, VarKind::Bool))
    }));
}
