//! What fluidc knows of each op's attributes: the `AttrType`s Paddle accepts
//! for an attribute name. The verifier checks present attributes against it;
//! attributes and ops not listed here are accepted as they are, because Paddle
//! has hundreds of ops and a program written by Paddle is valid by definition.
use crate::model::AttrType;
use AttrType as T;

/// Attribute types accepted for `attr` of op `op`, or `None` if not known.
/// The first is the one Paddle 3 declares (what a Python list becomes).
pub fn attr_types(op: &str, attr: &str) -> Option<&'static [AttrType]> {
    // Attributes that mean the same on every op.
    match attr {
        "sub_block" => return Some(&[T::Block]),
        "op_callstack" => return Some(&[T::Strings]),
        "op_role" => return Some(&[T::Int]),
        "op_role_var" => return Some(&[T::Strings]),
        "op_namescope" | "op_device" => return Some(&[T::String]),
        _ => {}
    }
    let types: &'static [AttrType] = match (op, attr) {
        ("fill_constant", "shape") => &[T::Longs, T::Ints],
        ("fill_constant", "dtype") => &[T::Int],
        ("fill_constant", "value") => &[T::Float, T::Float64],
        ("fill_constant", "str_value") => &[T::String],
        ("fill_constant", "force_cpu") => &[T::Boolean],
        (_, "axis") if is_elementwise_or_compare(op) => &[T::Int],
        ("increment", "step") => &[T::Float],
        ("scale", "scale" | "bias") => &[T::Float],
        ("scale", "bias_after_scale") => &[T::Boolean],
        ("cast", "in_dtype" | "out_dtype") => &[T::Int],
        ("while", "is_test") => &[T::Boolean],
        ("conditional_block", "is_scalar_condition") => &[T::Boolean],
        ("feed" | "fetch", "col") => &[T::Int],
        ("channel_create", "data_type" | "capacity") => &[T::Int],
        ("select", "cases") => &[T::Strings],
        _ => return None,
    };
    Some(types)
}

fn is_elementwise_or_compare(op: &str) -> bool {
    op.starts_with("elementwise_")
        || matches!(
            op,
            "less_than" | "less_equal" | "greater_than" | "greater_equal" | "equal" | "not_equal"
        )
}
