//! `--feed name=VALUE`: a `.npy` file or a JSON literal.
use fluidc_transpiler::{VarKind, Verified};
use npyz::{DType, NpyFile, Order, TypeChar};
use serde_json::Value as Json;

use crate::error::KernelError;
use crate::tensor::{dtype_name, tensor_dtype, with_data, with_dtype, Buffer, Element, Tensor};

/// Reads a feed value for variable `name`: a path ending in `.npy` (its own
/// dtype and shape), or a JSON literal (`[1,2,3]`, `5`, `[[1.0,2.0]]`) taking
/// the dtype block 0 declares for `name`.
///
/// A `.npy` whose dtype or shape the variable's declaration refuses (another
/// dtype; another rank, or a dim other than a declared one, `-1` being any)
/// is an error naming the variable, as Paddle's executor checks feeds.
pub fn parse_feed(program: &Verified, name: &str, value: &str) -> Result<Tensor, KernelError> {
    if value.ends_with(".npy") {
        let t = read_npy(value)?;
        if let Some(var) = program.blocks[0].var(name) {
            check_declared(var, name, &t)?;
        }
        return Ok(t);
    }
    let var = program.blocks[0].var(name).ok_or_else(|| {
        KernelError::Program(format!(
            "cannot feed `{name}`: block 0 declares no such variable"
        ))
    })?;
    let dtype = var.dtype().ok_or_else(|| {
        KernelError::Program(format!("cannot feed `{name}`: it is not a tensor variable"))
    })?;
    let dtype = tensor_dtype(dtype as i64)
        .map_err(|e| e.map_message(|e| format!("cannot feed `{name}`: {e}")))?;
    let json: Json = serde_json::from_str(value).map_err(|e| {
        KernelError::Format(format!(
            "--feed {name}={value}: not a .npy path nor a JSON literal ({e})"
        ))
    })?;
    let declared_0d = var.tensor_desc().is_some_and(|t| t.dims.is_empty());
    literal(&json, dtype, declared_0d)
        .map_err(|e| e.map_message(|e| format!("--feed {name}={value}: {e}")))
}

/// A `.npy` feed cut along axis 0 into batches of the same number of rows,
/// one batch per training step (`fluidc run --steps N --batch-size B`).
/// The rows are an endless cycle: a batch that runs past the last row goes
/// on from the first (rows 4, 0 of 5 rows in batches of 2), so every batch
/// has B rows and every row is used as often as the others.
#[derive(Debug, Clone)]
pub struct Batches {
    all: Tensor,
    batch: usize,
}

impl Batches {
    /// Reads `path` (a `.npy` file) for variable `name` and checks that a
    /// batch of `batch` rows fits the variable's declaration.
    pub fn new(
        program: &Verified,
        name: &str,
        path: &str,
        batch: usize,
    ) -> Result<Batches, KernelError> {
        let all = read_npy(path)?;
        let why = match all.shape().first() {
            Some(&rows) if rows > 0 => None,
            Some(_) => Some("it has no rows"),
            None => Some("it is 0-dimensional; batches are rows of axis 0"),
        };
        if let Some(why) = why {
            return Err(KernelError::Shape(format!(
                "cannot cut {path} into batches: {why}"
            )));
        }
        let rows = all.shape()[0] as usize;
        if batch == 0 || batch > rows {
            return Err(KernelError::Invalid(format!(
                "--batch-size {batch}: {path} has {rows} rows; give a batch size from 1 to {rows}"
            )));
        }
        let batches = Batches { all, batch };
        if let Some(var) = program.blocks[0].var(name) {
            check_declared(var, name, &batches.get(0))?;
        }
        Ok(batches)
    }

    /// The number of rows the batches cycle through.
    pub fn rows(&self) -> usize {
        self.all.shape()[0] as usize
    }

    /// Step `step`'s batch: rows `step * B ..` (B of them), counted round
    /// the cycle of rows.
    pub fn get(&self, step: u64) -> Tensor {
        let rows = self.rows();
        let start = ((u128::from(step) * self.batch as u128) % rows as u128) as usize;
        take_rows(&self.all, start, self.batch)
    }
}

/// `count` rows of `all` (at least one row) from row `start`, round the
/// cycle of its rows.
fn take_rows(all: &Tensor, start: usize, count: usize) -> Tensor {
    let rows = all.shape()[0] as usize;
    let row_len = all.numel() / rows;
    let data = with_data!(all.data(), |v: T| {
        let mut out: Vec<T> = Vec::with_capacity(count * row_len);
        for i in 0..count {
            let r = (start + i) % rows;
            out.extend_from_slice(&v[r * row_len..(r + 1) * row_len]);
        }
        T::wrap(Buffer::from(out))
    });
    let mut shape = all.shape().to_vec();
    shape[0] = count as i64;
    Tensor::new(&shape, data).expect("a batch has B rows of the same length")
}

/// Rank `rank`'s shard of a batch fed to `nranks` data-parallel ranks
/// (`--nranks`): rows `[rank*B/N, (rank+1)*B/N)` of its B rows, so that
/// the ranks together see the batch. N must divide B: with unequal shards
/// the mean of the ranks' mean losses is not the batch's mean loss.
pub fn shard(batch: &Tensor, rank: usize, nranks: usize) -> Result<Tensor, KernelError> {
    let rows = match batch.shape().first() {
        Some(&r) if r > 0 => r as usize,
        _ => {
            return Err(KernelError::Shape(format!(
                "a batch of shape {:?} has no rows to share among {nranks} ranks",
                batch.shape()
            )))
        }
    };
    if rows % nranks != 0 {
        return Err(KernelError::Shape(format!(
            "a batch of {rows} rows cannot be shared equally among {nranks} ranks; give a \
             batch (or --batch-size) that {nranks} divides"
        )));
    }
    let per_rank = rows / nranks;
    Ok(take_rows(batch, rank * per_rank, per_rank))
}

/// Whether a fed tensor fits the variable's declared dtype and dims.
fn check_declared(var: &fluidc_transpiler::Var, name: &str, t: &Tensor) -> Result<(), KernelError> {
    if let Some(declared) = var.dtype() {
        if declared != t.dtype() {
            return Err(KernelError::Dtype(format!(
                "cannot feed `{name}`: the value is {} but `{name}` is declared {}; convert it first (numpy: .astype('{}'))",
                dtype_name(t.dtype()),
                dtype_name(declared),
                dtype_name(declared)
            )));
        }
    }
    if let Some(dims) = var.tensor_desc().map(|d| &d.dims) {
        let fits = dims.len() == t.shape().len()
            && dims.iter().zip(t.shape()).all(|(&d, &s)| d < 0 || d == s);
        if !fits {
            return Err(KernelError::Shape(format!(
                "cannot feed `{name}`: the value has shape {:?} but `{name}` is declared {dims:?} (-1 is any size)",
                t.shape()
            )));
        }
    }
    Ok(())
}

/// A JSON number, bool or (nested, rectangular) list as a tensor of `dtype`.
/// A bare scalar gets shape `[1]` (Paddle's usual scalar), or `[]` when the
/// variable is declared 0-D.
fn literal(json: &Json, dtype: VarKind, declared_0d: bool) -> Result<Tensor, KernelError> {
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
                .collect::<Result<Vec<T>, KernelError>>()?;
            Ok(Tensor::from_vec(&shape, values)?)
        },
        Err(KernelError::Dtype(format!(
            "dtype {} cannot be fed",
            dtype_name(dtype)
        )))
    )
}

fn flatten<'a>(json: &'a Json, shape: &[i64], out: &mut Vec<&'a Json>) -> Result<(), KernelError> {
    match (json, shape.split_first()) {
        (Json::Array(items), Some((&n, rest))) if items.len() as i64 == n => {
            items.iter().try_for_each(|item| flatten(item, rest, out))
        }
        (Json::Array(_), _) | (_, Some(_)) => Err(KernelError::Shape(
            "the nested lists are not rectangular".into(),
        )),
        (leaf, None) => {
            out.push(leaf);
            Ok(())
        }
    }
}

fn element<T: Element>(v: &Json, dtype: VarKind) -> Result<T, KernelError> {
    let bad = || KernelError::Dtype(format!("{v} is not a valid {} value", dtype_name(dtype)));
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
                return Err(KernelError::Dtype(format!("{v} does not fit in int32")));
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
fn read_npy(path: &str) -> Result<Tensor, KernelError> {
    let bytes =
        std::fs::read(path).map_err(|e| KernelError::Io(format!("cannot read {path}: {e}")))?;
    let npy = NpyFile::new(&bytes[..])
        .map_err(|e| KernelError::Format(format!("{path} is not a .npy file: {e}")))?;
    let shape: Vec<i64> = npy.shape().iter().map(|&d| d as i64).collect();
    if npy.order() == Order::Fortran && shape.len() > 1 {
        return Err(KernelError::Unsupported(format!(
            "{path}: Fortran-order arrays are not supported; save with numpy's default (C) order"
        )));
    }
    let DType::Plain(ts) = npy.dtype() else {
        return Err(KernelError::Unsupported(format!(
            "{path}: structured arrays are not supported"
        )));
    };
    let unsupported = || {
        KernelError::Unsupported(format!(
            "{path} holds {ts} values; fluidc reads bool, int32, int64, float32 and float64"
        ))
    };
    let io = |e: std::io::Error| KernelError::Io(format!("cannot read {path}: {e}"));
    match (ts.type_char(), ts.size_field()) {
        (TypeChar::Bool, 1) => Tensor::from_vec(&shape, npy.into_vec::<bool>().map_err(io)?),
        (TypeChar::Int, 4) => Tensor::from_vec(&shape, npy.into_vec::<i32>().map_err(io)?),
        (TypeChar::Int, 8) => Tensor::from_vec(&shape, npy.into_vec::<i64>().map_err(io)?),
        (TypeChar::Float, 4) => Tensor::from_vec(&shape, npy.into_vec::<f32>().map_err(io)?),
        (TypeChar::Float, 8) => Tensor::from_vec(&shape, npy.into_vec::<f64>().map_err(io)?),
        _ => Err(unsupported()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cycle_through_the_rows_and_wrap_around_the_end() {
        let all = Tensor::from_vec(&[5, 2], (0..10).collect::<Vec<i64>>()).expect("tensor");
        let b = Batches { all, batch: 2 };
        let rows = |step| b.get(step).values::<i64>().expect("int64").to_vec();
        assert_eq!(rows(0), vec![0, 1, 2, 3]);
        assert_eq!(rows(1), vec![4, 5, 6, 7]);
        // Row 4, then round to row 0.
        assert_eq!(rows(2), vec![8, 9, 0, 1]);
        assert_eq!(rows(3), vec![2, 3, 4, 5]);
        assert_eq!(rows(5), rows(0), "5 batches of 2 go round 5 rows twice");
        assert_eq!(b.get(2).shape(), &[2, 2]);
        assert_eq!(rows(u64::MAX), rows(u64::MAX % 5));
    }

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
        let ragged = literal(&serde_json::json!([[1], [2, 3]]), VarKind::Int64, false);
        assert!(
            matches!(&ragged, Err(KernelError::Shape(m)) if m.contains("rectangular")),
            "{ragged:?}"
        );
    }
}
