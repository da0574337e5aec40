//! Embeddings: lookup_table (1.x's, ids [N, 1]) and lookup_table_v2, with
//! their dense and sparse (SelectedRows) gradients, and the ops 1.x's
//! clipping runs on a sparse gradient: merge_selected_rows and
//! get_tensor_from_selected_rows.
use std::sync::Arc;

use super::float::{self, f64s, i64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("lookup_table", |l| lookup_table(l, true));
    r.add("lookup_table_v2", |l| lookup_table(l, false));
    r.add("lookup_table_grad", lookup_table_grad);
    r.add("lookup_table_v2_grad", lookup_table_grad);
    r.add("merge_selected_rows", merge_selected_rows);
    r.add(
        "get_tensor_from_selected_rows",
        get_tensor_from_selected_rows,
    );
}

/// The rows of a sparse gradient `t` (`Tensor::sparse_rows`); Paddle's
/// kernels take SelectedRows only.
fn selected_rows<'a>(
    t: &'a crate::tensor::Tensor,
    op: &str,
) -> Result<&'a Arc<Vec<usize>>, KernelError> {
    t.sparse_rows().ok_or_else(|| {
        KernelError::Invalid(format!(
            "{op}: the input X should be SelectedRows (a sparse gradient), but it is a dense tensor"
        ))
    })
}

/// `merge_selected_rows`: Paddle sums the value rows of each distinct row
/// and sorts the rows. fluidc's sparse gradient is already so (dense, with
/// sorted distinct rows), so `Out` is `X`.
fn merge_selected_rows(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        selected_rows(&t, "merge_selected_rows")?;
        let t = t.into_owned();
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `get_tensor_from_selected_rows`: the value tensor of a sparse gradient,
/// one row per row it has, in order (shape `[rows, width...]`).
fn get_tensor_from_selected_rows(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let rows = selected_rows(&t, "get_tensor_from_selected_rows")?.clone();
        let height = t.shape().first().copied().unwrap_or(0).max(0) as usize;
        let width = t.numel().checked_div(height).unwrap_or(0);
        let v = f64s(&t, "get_tensor_from_selected_rows")?;
        let mut value = Vec::with_capacity(rows.len() * width);
        for &r in rows.iter() {
            let row = v.get(r * width..(r + 1) * width).ok_or_else(|| {
                KernelError::Invalid(format!("row {r} is out of range for a height of {height}"))
            })?;
            value.extend_from_slice(row);
        }
        let mut shape = t.shape().to_vec();
        if let Some(first) = shape.first_mut() {
            *first = rows.len() as i64;
        }
        let value = float::tensor(t.dtype(), &shape, value)?;
        drop(t);
        s.set_tensor(&out, value);
        Ok(())
    })
}

/// `lookup_table` (v1: `Ids` ends in a dim of 1) and `lookup_table_v2`: the
/// rows of `W` that `Ids` names; `padding_idx`'s row reads as zeros.
fn lookup_table(l: &OpReader, v1: bool) -> Result<Exec, KernelError> {
    let (w, ids, out) = (l.input("W")?, l.input("Ids")?, l.output("Out")?);
    let padding = l.int("padding_idx")?;
    compute(move |s| {
        let (wt, it) = (s.tensor(&w)?, s.tensor(&ids)?);
        let [rows, width] = wt.shape()[..] else {
            return Err(KernelError::Shape(format!(
                "W must be a matrix, it is {:?}",
                wt.shape()
            )));
        };
        let (rows, width) = (rows as usize, width as usize);
        let iv = i64s(&it)?;
        let mut shape = it.shape().to_vec();
        if v1 && shape.last() == Some(&1) {
            shape.pop();
        }
        shape.push(width as i64);
        let table = (rows, width, padding);
        let t = if let Some(w) = wt.values::<f32>() {
            Tensor::from_vec(&shape, gather(w, table, &iv, 0.0)?)?
        } else if let Some(w) = wt.values::<f64>() {
            Tensor::from_vec(&shape, gather(w, table, &iv, 0.0)?)?
        } else {
            return Err(float::needs_float(&l_name(v1), &wt));
        };
        drop((wt, it));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// The rows of a `[rows, width]` table that `ids` name (`zero` for
/// `padding`'s row), in the table's own float type: a lookup reads only
/// the rows it returns (a float64 copy of a whole 1M-row table cost each
/// run 100 ms).
fn gather<T: Copy>(
    w: &[T],
    (rows, width, padding): (usize, usize, i64),
    ids: &[i64],
    zero: T,
) -> Result<Vec<T>, KernelError> {
    let mut out = Vec::with_capacity(ids.len() * width);
    for &i in ids {
        if padding != -1 && i == padding {
            out.extend(std::iter::repeat_n(zero, width));
            continue;
        }
        let r = usize::try_from(i)
            .ok()
            .filter(|&r| r < rows)
            .ok_or_else(|| {
                KernelError::Invalid(format!("id {i} is out of range for a table of {rows} rows"))
            })?;
        out.extend_from_slice(&w[r * width..(r + 1) * width]);
    }
    Ok(out)
}

/// A zero `[rows, width]` gradient with each row of `d` added to its
/// target row, in `d`'s own float type, as Paddle's kernel sums it (a
/// float64 copy of a million-row gradient cost seconds a step).
fn scatter_rows<T: Copy + Default + std::ops::AddAssign>(
    d: &[T],
    targets: &[Option<usize>],
    (rows, width): (usize, usize),
) -> Vec<T> {
    let mut g = vec![T::default(); rows * width];
    for (src, target) in d.chunks_exact(width.max(1)).zip(targets) {
        if let Some(r) = target {
            for (out, &v) in g[r * width..(r + 1) * width].iter_mut().zip(src) {
                *out += v;
            }
        }
    }
    g
}

fn l_name(v1: bool) -> String {
    if v1 {
        "lookup_table"
    } else {
        "lookup_table_v2"
    }
    .to_string()
}

/// `lookup_table(_v2)_grad`: each id's `Out@GRAD` row added to its row of
/// a zero `W@GRAD`. Dense, `padding_idx`'s row gets nothing; sparse
/// (`is_sparse`), Paddle copies every id's row, the padding one's too,
/// and the gradient keeps the ids as its rows (see `Tensor::sparse_rows`).
fn lookup_table_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (w, ids, dout) = (l.input("W")?, l.input("Ids")?, l.input("Out@GRAD")?);
    let Some(dw) = l.opt_output("W@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let sparse = l.bool_or("is_sparse", false)?;
    let padding = if sparse { -1 } else { l.int("padding_idx")? };
    compute(move |s| {
        let (wt, it, dt) = (s.tensor(&w)?, s.tensor(&ids)?, s.tensor(&dout)?);
        let width = wt.shape().get(1).copied().unwrap_or(1).max(0) as usize;
        let rows = wt.shape().first().copied().unwrap_or(0).max(0) as usize;
        let iv = i64s(&it)?;
        if dt.numel() != iv.len() * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit {} ids of width {width}",
                dt.shape(),
                iv.len()
            )));
        }
        // Each id's row of W@GRAD (None for padding_idx's).
        let mut targets = Vec::with_capacity(iv.len());
        for &i in iv.iter() {
            if padding != -1 && i == padding {
                targets.push(None);
                continue;
            }
            let r = usize::try_from(i)
                .ok()
                .filter(|&r| r < rows)
                .ok_or_else(|| {
                    KernelError::Invalid(format!(
                        "id {i} is out of range for a table of {rows} rows"
                    ))
                })?;
            targets.push(Some(r));
        }
        let dims = wt.shape().to_vec();
        let mut t = if let Some(d) = dt.values::<f32>() {
            Tensor::from_vec(&dims, scatter_rows(d, &targets, (rows, width)))?
        } else if let Some(d) = dt.values::<f64>() {
            Tensor::from_vec(&dims, scatter_rows(d, &targets, (rows, width)))?
        } else {
            return Err(float::needs_float("lookup_table_grad", &dt));
        };
        if t.dtype() != wt.dtype() {
            t = t.cast(wt.dtype())?;
        }
        if sparse {
            let mut present: Vec<usize> = targets.iter().flatten().copied().collect();
            present.sort_unstable();
            present.dedup();
            t.set_sparse_rows(Some(Arc::new(present)));
        }
        drop((wt, it, dt));
        s.set_tensor(&dw, t);
        Ok(())
    })
}
