//! Making tensors: constants, copies, casts, random fills, `shape`, and
//! `select_input` (the merge of `layers.cond`), `fill_any_like`,
//! `fill_constant_batch_size_like`, and the made-up sequences and matrices
//! `range`, `linspace`, `eye`, `diag`.
use super::infer::{from_attrs, same_as_x, x_as, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("fill_constant", from_attrs));
    r.push(Behaviour::pure("assign_value", from_attrs));
    r.push(Behaviour::pure("assign", same_as_x).shares_lod("X", "Out"));
    r.push(Behaviour::pure("fill_zeros_like", same_as_x));
    r.push(
        Behaviour::pure("cast", |c| {
            Ok(match c.dtype("out_dtype") {
                Some(d) => x_as(c, d),
                None => Vec::new(),
            })
        })
        .shares_lod("X", "Out"),
    );
    r.push(Behaviour::pure("shape", shape));
    r.push(Behaviour::pure("select_input", select_input));
    // Draws from the random engine: two runs differ, so it is never folded
    // (prune may still drop an unused one, as Paddle's prune does).
    r.push(Behaviour::pure("uniform_random", from_attrs).not_foldable());
    r.push(Behaviour::pure("sampling_id", sampling_id).not_foldable());
    r.push(
        Behaviour::pure("uniform_random_batch_size_like", |c| {
            fill_constant_batch_size_like(c)
        })
        .not_foldable(),
    );
    r.push(Behaviour::pure("gaussian_random", from_attrs).not_foldable());
    r.push(
        Behaviour::pure("gaussian_random_batch_size_like", |c| {
            fill_constant_batch_size_like(c)
        })
        .not_foldable(),
    );
    r.push(Behaviour::pure("truncated_gaussian_random", from_attrs).not_foldable());
    r.push(Behaviour::pure("fill_any_like", fill_any_like));
    r.push(Behaviour::pure(
        "fill_constant_batch_size_like",
        fill_constant_batch_size_like,
    ));
    // Their length comes from tensors: unknown until they run.
    r.push(Behaviour::pure("range", |c| Ok(sequence(c, "Start", None))));
    r.push(Behaviour::pure("linspace", |c| {
        Ok(sequence(c, "Start", c.dtype("dtype")))
    }));
    r.push(Behaviour::pure("eye", eye));
    r.push(Behaviour::pure("diag", diag));
}

/// A one-dimensional `Out` of unknown length, of `dtype` or `from`'s.
fn sequence(c: &InferCtx, from: &str, dtype: Option<VarKind>) -> Vec<(&'static str, TensorType)> {
    match dtype.or_else(|| c.input(from).map(|t| t.dtype)) {
        Some(d) => vec![("Out", TensorType::new(d, vec![-1]))],
        None => Vec::new(),
    }
}

/// `eye`: `[num_rows, num_columns]` (-1 columns: square) of `dtype`.
fn eye(c: &InferCtx) -> Out {
    let rows = c.int("num_rows").unwrap_or(-1);
    let cols = match c.int("num_columns").unwrap_or(-1) {
        -1 => rows,
        n => n,
    };
    if rows < 0 || cols < 0 {
        return Err(format!(
            "num_rows {rows} and num_columns {cols} must not be negative"
        ));
    }
    let dtype = c.dtype("dtype").unwrap_or(VarKind::Fp32);
    Ok(vec![("Out", TensorType::new(dtype, vec![rows, cols]))])
}

/// `diag`: `Diagonal` has one dim `n` (1.x's check); `Out` is `[n, n]`.
fn diag(c: &InferCtx) -> Out {
    let Some(x) = c.input("Diagonal") else {
        return Ok(Vec::new());
    };
    match x.dims.as_slice() {
        [n] => Ok(vec![("Out", TensorType::new(x.dtype, vec![*n, *n]))]),
        more => Err(format!("Diagonal must have one dim, it has dims {more:?}")),
    }
}

/// `Out` is `shape` with dim `output_dim_idx` taken from `Input`'s dim
/// `input_dim_idx` (the batch size), of dtype `dtype`.
fn fill_constant_batch_size_like(c: &InferCtx) -> Out {
    let (Some(x), Some(mut dims), Some(dtype)) =
        (c.input("Input"), c.ints("shape"), c.dtype("dtype"))
    else {
        return Ok(Vec::new());
    };
    let at = |name: &str, rank: usize| {
        let i = c.int(name).unwrap_or(0);
        usize::try_from(i)
            .ok()
            .filter(|&i| i < rank)
            .ok_or_else(|| format!("{name} {i} is out of range for rank {rank}"))
    };
    let (i, o) = (
        at("input_dim_idx", x.dims.len())?,
        at("output_dim_idx", dims.len())?,
    );
    dims[o] = x.dims[i];
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}

/// `Out` has `X`'s dims; `dtype` -1 keeps `X`'s dtype.
fn fill_any_like(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let dtype = match c.int("dtype") {
        Some(-1) | None => x.dtype,
        Some(_) => match c.dtype("dtype") {
            Some(d) => d,
            None => return Ok(Vec::new()),
        },
    };
    Ok(vec![("Out", TensorType::new(dtype, x.dims.clone()))])
}

/// `Out` is `Input`'s dims as an int32 vector.
fn shape(c: &InferCtx) -> Out {
    Ok(c.input("Input")
        .map(|x| {
            (
                "Out",
                TensorType::new(VarKind::Int32, vec![x.dims.len() as i64]),
            )
        })
        .into_iter()
        .collect())
}

/// `Out` is one of the `X`s, chosen by `Mask` at run time: they share a dtype.
fn select_input(c: &InferCtx) -> Out {
    let Some(xs) = c.inputs("X") else {
        return Ok(Vec::new());
    };
    match xs.split_first() {
        Some((first, rest)) => {
            for x in rest {
                super::infer::same_dtype(first, x)?;
            }
            Ok(vec![(
                "Out",
                TensorType::new(first.dtype, vec![-1; first.dims.len()]),
            )])
        }
        None => Ok(Vec::new()),
    }
}

/// `sampling_id` (1.x): one int64 class id per row of a 2-D `X`.
fn sampling_id(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 {
        return Err(format!(
            "X of sampling_id must be 2-D, not of dims {:?}",
            x.dims
        ));
    }
    Ok(vec![(
        "Out",
        TensorType::new(VarKind::Int64, vec![x.dims[0]]),
    )])
}
