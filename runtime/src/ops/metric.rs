//! Metrics: top_k (with its gradient) and accuracy.

use super::float::{self, f64s, i64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::num::with_numeric;
use crate::tensor::{Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("top_k", top_k);
    r.add("accuracy", accuracy);
    r.add("top_k_grad", top_k_grad);
}

/// `top_k`: the `k` largest of each last-dim row, largest first (ties: the
/// lower index first), and their int64 indices.
fn top_k(l: &OpReader) -> Result<Exec, KernelError> {
    let x = l.input("X")?;
    let kt = l.opt_input("K")?;
    let (out, indices) = (l.output("Out")?, l.output("Indices")?);
    let k_attr = l.int("k")?;
    compute(move |s| {
        let k = match &kt {
            Some(r) => s.tensor(r)?.scalar_i64()?,
            None => k_attr,
        };
        let t = s.tensor(&x)?;
        let width = *t.shape().last().unwrap_or(&1) as usize;
        let k = usize::try_from(k)
            .ok()
            .filter(|&k| k >= 1 && k <= width)
            .ok_or_else(|| {
                KernelError::Attribute(format!("k {k} must be in 1..={width} (the last dim)"))
            })?;
        let mut shape = t.shape().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = k as i64;
        }
        // In the tensor's own dtype (Paddle's top_k takes ints too).
        let (data, idx) = with_numeric!(
            t.data(),
            |v: T| {
                let (vals, idx) = largest(v, width, k);
                (T::wrap(vals.into()), idx)
            },
            return Err(KernelError::Dtype(
                "top_k does not take bool tensors".into()
            ))
        );
        let vt = Tensor::new(&shape, data)?;
        let mut it = Tensor::from_vec(&shape, idx)?;
        // 1.x's InferShape shares X's LoD with Indices too (Out's comes
        // from the op's LoD rule).
        it.share_lod(&t);
        drop(t);
        s.set_tensor(&out, vt);
        s.set_tensor(&indices, it);
        Ok(())
    })
}

/// The `k` largest of each `width`-long row of `v`, largest first (ties:
/// the lower index first), and their indices.
fn largest<T: Copy + PartialOrd>(v: &[T], width: usize, k: usize) -> (Vec<T>, Vec<i64>) {
    let rows = v.len() / width.max(1);
    let mut vals = Vec::with_capacity(rows * k);
    let mut idx = Vec::with_capacity(rows * k);
    for row in v.chunks_exact(width.max(1)).take(rows) {
        let mut order: Vec<usize> = (0..width).collect();
        order.sort_by(|&a, &b| {
            row[b]
                .partial_cmp(&row[a])
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.cmp(&b))
        });
        for &j in &order[..k] {
            vals.push(row[j]);
            idx.push(j as i64);
        }
    }
    (vals, idx)
}

/// `accuracy`: the share of rows whose label is among their top-k
/// `Indices` (float32 `[1]`), and the counts (int32 `[1]`).
fn accuracy(l: &OpReader) -> Result<Exec, KernelError> {
    let (indices, label) = (l.input("Indices")?, l.input("Label")?);
    let (acc, correct, total) = (
        l.output("Accuracy")?,
        l.opt_output("Correct")?,
        l.opt_output("Total")?,
    );
    compute(move |s| {
        let (it, lt) = (s.tensor(&indices)?, s.tensor(&label)?);
        let rows = it.shape().first().copied().unwrap_or(1).max(0) as usize;
        let iv = i64s(&it)?;
        let lv = i64s(&lt)?;
        let k = iv.len().checked_div(rows).unwrap_or(0);
        if lv.len() < rows {
            return Err(KernelError::Shape(format!(
                "Label of shape {:?} has fewer rows than Indices {:?}",
                lt.shape(),
                it.shape()
            )));
        }
        let hits = (0..rows)
            .filter(|&r| iv[r * k..(r + 1) * k].contains(&lv[r]))
            .count();
        let a = if rows == 0 {
            0.0
        } else {
            hits as f32 / rows as f32
        };
        drop((it, lt));
        s.set_tensor(&acc, Tensor::from_vec(&[], vec![a])?);
        if let Some(c) = &correct {
            s.set_tensor(c, Tensor::from_vec(&[], vec![hits as i32])?);
        }
        if let Some(t) = &total {
            s.set_tensor(t, Tensor::from_vec(&[], vec![rows as i32])?);
        }
        Ok(())
    })
}

/// `top_k_grad`: `Out@GRAD` scattered back to the positions `Indices` names.
fn top_k_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, indices, dout) = (l.input("X")?, l.input("Indices")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, it, dt) = (s.tensor(&x)?, s.tensor(&indices)?, s.tensor(&dout)?);
        let width = *xt.shape().last().unwrap_or(&1) as usize;
        let iv = i64s(&it)?;
        let d = f64s(&dt, "top_k_grad")?;
        let rows = xt.numel() / width.max(1);
        let k = iv.len().checked_div(rows).unwrap_or(0);
        if d.len() != iv.len() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit Indices {:?}",
                dt.shape(),
                it.shape()
            )));
        }
        let mut g = vec![0.0; xt.numel()];
        for r in 0..rows {
            for j in 0..k {
                let c = usize::try_from(iv[r * k + j])
                    .ok()
                    .filter(|&c| c < width)
                    .ok_or_else(|| {
                        KernelError::Invalid(format!("index {} is out of range", iv[r * k + j]))
                    })?;
                g[r * width + c] += d[r * k + j];
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        drop((xt, it, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_keeps_the_dtype_and_breaks_ties_by_index() {
        let (v, i) = largest(&[3i64, 9, 3, 9, 1, 5, 5, 2], 4, 2);
        assert_eq!((v, i), (vec![9, 9, 5, 5], vec![1, 3, 1, 2]));
        let (v, i) = largest(&[0.5f32, -1.0, 2.0], 3, 3);
        assert_eq!((v, i), (vec![2.0, 0.5, -1.0], vec![2, 0, 1]));
    }
}
