//! `--feed name=VALUE`: a `.npy` file or a JSON literal.
use fluidc_transpiler::{VarKind, Verified};
use npyz::{DType, NpyFile, Order, TypeChar};
use serde_json::Value as Json;

use crate::tensor::{dtype_name, tensor_dtype, with_dtype, Element, Tensor};

/// Reads a feed value for variable `name`: a path ending in `.npy` (its own
/// dtype and shape), or a JSON literal (`[1,2,3]`, `5`, `[[1.0,2.0]]`) taking
/// the dtype block 0 declares for `name`.
///
/// A `.npy` whose dtype or shape the variable's declaration refuses (another
/// dtype; another rank, or a dim other than a declared one, `-1` being any)
/// is an error naming the variable, as Paddle's executor checks feeds.
pub fn parse_feed(program: &Verified, name: &str, value: &str) -> Result<Tensor, String> {
    if value.ends_with(".npy") {
        let t = read_npy(value)?;
        if let Some(var) = program.blocks[0].var(name) {
            check_declared(var, name, &t)?;
        }
        return Ok(t);
    }
    let var = program.blocks[0]
        .var(name)
        .ok_or_else(|| format!("cannot feed `{name}`: block 0 declares no such variable"))?;
    let dtype = var
        .dtype()
        .ok_or_else(|| format!("cannot feed `{name}`: it is not a tensor variable"))?;
    let dtype = tensor_dtype(dtype as i64).map_err(|e| format!("cannot feed `{name}`: {e}"))?;
    let json: Json = serde_json::from_str(value)
        .map_err(|e| format!("--feed {name}={value}: not a .npy path nor a JSON literal ({e})"))?;
    let declared_0d = var.tensor_desc().is_some_and(|t| t.dims.is_empty());
    literal(&json, dtype, declared_0d).map_err(|e| format!("--feed {name}={value}: {e}"))
}

/// Whether a fed tensor fits the variable's declared dtype and dims.
fn check_declared(var: &fluidc_transpiler::Var, name: &str, t: &Tensor) -> Result<(), String> {
    if let Some(declared) = var.dtype() {
        if declared != t.dtype() {
            return Err(format!(
                "cannot feed `{name}`: the value is {} but `{name}` is declared {}; convert it first (numpy: .astype('{}'))",
                dtype_name(t.dtype()),
                dtype_name(declared),
                dtype_name(declared)
            ));
        }
    }
    if let Some(dims) = var.tensor_desc().map(|d| &d.dims) {
        let fits = dims.len() == t.shape().len()
            && dims.iter().zip(t.shape()).all(|(&d, &s)| d < 0 || d == s);
        if !fits {
            return Err(format!(
                "cannot feed `{name}`: the value has shape {:?} but `{name}` is declared {dims:?} (-1 is any size)",
                t.shape()
            ));
        }
    }
    Ok(())
}

/// A JSON number, bool or (nested, rectangular) list as a tensor of `dtype`.
/// A bare scalar gets shape `[1]` (Paddle's usual scalar), or `[]` when the
/// variable is declared 0-D.
fn literal(json: &Json, dtype: VarKind, declared_0d: bool) -> Result<Tensor, String> {
    let mut shape = Vec::new();
    let mut cur = json;
    while let Json::Array(items) = cur {
        shape.push(items.len() as i64);
        match items.first() {
            Some(first) => cur = first,
            None => break,
        }
    }
    let mut leaves = Vec::new();
    flatten(json, &shape, &mut leaves)?;
    if !json.is_array() && !declared_0d {
        shape.push(1);
    }
    with_dtype!(
        dtype,
        |T| {
            let values = leaves
                .iter()
                .map(|v| element::<T>(v, dtype))
                .collect::<Result<Vec<T>, String>>()?;
            Ok(Tensor::from_vec(&shape, values)?)
        },
        Err(format!("dtype {} cannot be fed", dtype_name(dtype)))
    )
}

fn flatten<'a>(json: &'a Json, shape: &[i64], out: &mut Vec<&'a Json>) -> Result<(), String> {
    match (json, shape.split_first()) {
        (Json::Array(items), Some((&n, rest))) if items.len() as i64 == n => {
            items.iter().try_for_each(|item| flatten(item, rest, out))
        }
        (Json::Array(_), _) | (_, Some(_)) => Err("the nested lists are not rectangular".into()),
        (leaf, None) => {
            out.push(leaf);
            Ok(())
        }
    }
}

fn element<T: Element>(v: &Json, dtype: VarKind) -> Result<T, String> {
    let bad = || format!("{v} is not a valid {} value", dtype_name(dtype));
    match (dtype, v) {
        (VarKind::Bool, Json::Bool(b)) => Ok(T::from_bool(*b)),
        (VarKind::Bool, Json::Number(n)) => match n.as_i64() {
            Some(0) => Ok(T::from_bool(false)),
            Some(1) => Ok(T::from_bool(true)),
            _ => Err(bad()),
        },
        (VarKind::Int32 | VarKind::Int64, Json::Number(n)) => {
            let i = match n.as_i64() {
                Some(i) => i,
                None => n
                    .as_f64()
                    .filter(|f| f.fract() == 0.0)
                    .map(|f| f as i64)
                    .ok_or_else(bad)?,
            };
            if dtype == VarKind::Int32 && i32::try_from(i).is_err() {
                return Err(format!("{v} does not fit in int32"));
            }
            Ok(T::from_i64(i))
        }
        (VarKind::Fp32 | VarKind::Fp64, Json::Number(n)) => {
            n.as_f64().map(T::from_f64).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// Reads a `.npy` file of bool, int32, int64, float32 or float64 values.
fn read_npy(path: &str) -> Result<Tensor, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let npy = NpyFile::new(&bytes[..]).map_err(|e| format!("{path} is not a .npy file: {e}"))?;
    let shape: Vec<i64> = npy.shape().iter().map(|&d| d as i64).collect();
    if npy.order() == Order::Fortran && shape.len() > 1 {
        return Err(format!(
            "{path}: Fortran-order arrays are not supported; save with numpy's default (C) order"
        ));
    }
    let DType::Plain(ts) = npy.dtype() else {
        return Err(format!("{path}: structured arrays are not supported"));
    };
    let unsupported = || {
        format!("{path} holds {ts} values; fluidc reads bool, int32, int64, float32 and float64")
    };
    let io = |e: std::io::Error| format!("cannot read {path}: {e}");
    let t = match (ts.type_char(), ts.size_field()) {
        (TypeChar::Bool, 1) => Tensor::from_vec(&shape, npy.into_vec::<bool>().map_err(io)?),
        (TypeChar::Int, 4) => Tensor::from_vec(&shape, npy.into_vec::<i32>().map_err(io)?),
        (TypeChar::Int, 8) => Tensor::from_vec(&shape, npy.into_vec::<i64>().map_err(io)?),
        (TypeChar::Float, 4) => Tensor::from_vec(&shape, npy.into_vec::<f32>().map_err(io)?),
        (TypeChar::Float, 8) => Tensor::from_vec(&shape, npy.into_vec::<f64>().map_err(io)?),
        _ => return Err(unsupported()),
    };
    Ok(t?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_take_the_declared_dtype_and_nesting_gives_the_shape() {
        let t = literal(&serde_json::json!([[1, 2], [3, 4]]), VarKind::Fp32, false).expect("ok");
        assert_eq!(
            (t.shape(), t.values::<f32>()),
            (&[2, 2][..], Some(&[1.0, 2.0, 3.0, 4.0][..]))
        );
        let t = literal(&serde_json::json!(5), VarKind::Int64, false).expect("ok");
        assert_eq!((t.shape(), t.values::<i64>()), (&[1][..], Some(&[5][..])));
        let t = literal(&serde_json::json!(true), VarKind::Bool, true).expect("ok");
        assert_eq!(t.shape(), &[] as &[i64]);
        assert!(literal(&serde_json::json!([1.5]), VarKind::Int64, false).is_err());
        assert!(
            literal(&serde_json::json!([[1], [2, 3]]), VarKind::Int64, false)
                .unwrap_err()
                .contains("rectangular")
        );
    }
}
