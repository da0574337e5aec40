//! How fetched tensors are printed: the JSON object and the text line of
//! `fluidc run` (README, "Commands").
use serde_json::{json, Value};

use super::{dtype_name, with_data, Element, Tensor};

pub(super) fn to_json(t: &Tensor, name: &str) -> Value {
    let data: Vec<Value> = with_data!(t.data(), |v: T| v.iter().map(|&x| json_value(x)).collect());
    json!({
        "name": name,
        "dtype": dtype_name(t.dtype()),
        "shape": t.shape(),
        "data": data,
    })
}

/// Integers stay integers, floats are written as the f64 of their value
/// (what numpy's `tolist()` gives), bools as true/false; NaN and infinities
/// have no JSON number and become null.
fn json_value<T: Element>(x: T) -> Value {
    use fluidc_transpiler::VarKind;
    match T::KIND {
        VarKind::Bool => Value::Bool(x.is_nonzero()),
        VarKind::Int32 | VarKind::Int64 => Value::from(x.to_i64()),
        _ => serde_json::Number::from_f64(x.to_f64())
            .map(Value::Number)
            .unwrap_or(Value::Null),
    }
}

pub(super) fn to_text(t: &Tensor, name: &str) -> String {
    format!(
        "{name} = {} ({}, shape {:?})",
        nested_values(t),
        dtype_name(t.dtype()),
        t.shape()
    )
}

impl Tensor {
    /// The values alone, as a training step's line shows them: one element
    /// bare (`16.135`), more as nested lists (`[[1.0, 2.0]]`).
    pub fn to_short_text(&self) -> String {
        match self.numel() {
            1 => with_data!(self.data(), |v: T| text_value(v[0])),
            _ => nested_values(self),
        }
    }
}

fn nested_values(t: &Tensor) -> String {
    let items: Vec<String> =
        with_data!(t.data(), |v: T| v.iter().map(|x| text_value(*x)).collect());
    let mut out = String::new();
    nested(&mut out, t.shape(), &items);
    out
}

fn text_value<T: Element>(x: T) -> String {
    // Debug keeps a float's own shortest form (`0.1`, `3.0`), bools as true/false.
    format!("{x:?}")
}

/// Writes `items` as nested lists following `shape` (numpy's `tolist()` layout).
fn nested(out: &mut String, shape: &[i64], items: &[String]) {
    let Some((&first, rest)) = shape.split_first() else {
        if let Some(item) = items.first() {
            out.push_str(item);
        }
        return;
    };
    let n = usize::try_from(first).unwrap_or(0);
    let chunk = items.len().checked_div(n).unwrap_or(0);
    out.push('[');
    for i in 0..n {
        if i > 0 {
            out.push_str(", ");
        }
        nested(out, rest, &items[i * chunk..(i + 1) * chunk]);
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_text_follow_the_spec_examples() {
        let t = Tensor::from_vec(&[1], vec![34i64]).expect("tensor");
        assert_eq!(
            t.to_json("x"),
            json!({"name": "x", "dtype": "int64", "shape": [1], "data": [34]})
        );
        assert_eq!(t.to_text("x"), "x = [34] (int64, shape [1])");
        let b = Tensor::from_vec(&[2, 2], vec![true, false, false, true]).expect("tensor");
        assert_eq!(b.to_json("b")["data"], json!([true, false, false, true]));
        assert_eq!(
            b.to_text("b"),
            "b = [[true, false], [false, true]] (bool, shape [2, 2])"
        );
        let f = Tensor::from_vec(&[], vec![0.5f32]).expect("tensor");
        assert_eq!(f.to_text("f"), "f = 0.5 (float32, shape [])");
        assert_eq!(f.to_json("f")["data"], json!([0.5]));
        assert_eq!(f.to_short_text(), "0.5");
        assert_eq!(t.to_short_text(), "34");
        assert_eq!(b.to_short_text(), "[[true, false], [false, true]]");
    }
}
