//! Metrics: top_k (with its gradient), accuracy and mean_iou.

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
    r.add("mean_iou", mean_iou);
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

/// `mean_iou` (1.x's kernel): per class, the pixels predicted right
/// (OutCorrect) and those where it was the label or the prediction of a
/// wrong one (OutWrong), each added to the sums of the InCorrects and
/// InWrongs given; OutMeanIou is the sum of the InMeanIou given plus the
/// mean of correct / (correct + wrong) over the classes that occur.
fn mean_iou(l: &OpReader) -> Result<Exec, KernelError> {
    let (pred, label) = (l.input("Predictions")?, l.input("Labels")?);
    let (in_wrongs, in_corrects, in_ious) = (
        l.inputs("InWrongs")?,
        l.inputs("InCorrects")?,
        l.inputs("InMeanIou")?,
    );
    let (out_iou, out_wrong, out_correct) = (
        l.output("OutMeanIou")?,
        l.output("OutWrong")?,
        l.output("OutCorrect")?,
    );
    let n = usize::try_from(l.int("num_classes")?)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| KernelError::Attribute("num_classes must be at least 1".into()))?;
    compute(move |s| {
        let mut wrong = vec![0i32; n];
        let mut correct = vec![0i32; n];
        let mut iou = 0f32;
        let add = |sum: &mut [i32], r| -> Result<(), KernelError> {
            let t = s.tensor(r)?;
            let v = i64s(&t)?;
            if v.len() != n {
                return Err(KernelError::Shape(format!(
                    "a count of shape {:?} is not [{n}] (num_classes)",
                    t.shape()
                )));
            }
            for (a, &b) in sum.iter_mut().zip(v.iter()) {
                *a = a.wrapping_add(b as i32);
            }
            Ok(())
        };
        for r in &in_wrongs {
            add(&mut wrong, r)?;
        }
        for r in &in_corrects {
            add(&mut correct, r)?;
        }
        for r in &in_ious {
            iou += s.tensor(r)?.scalar_f64()? as f32;
        }
        let (pt, lt) = (s.tensor(&pred)?, s.tensor(&label)?);
        let (p, y) = (i64s(&pt)?, i64s(&lt)?);
        if p.len() != y.len() {
            return Err(KernelError::Shape(format!(
                "Predictions {:?} and Labels {:?} differ in size",
                pt.shape(),
                lt.shape()
            )));
        }
        let class = |c: i64| {
            usize::try_from(c).ok().filter(|&c| c < n).ok_or_else(|| {
                KernelError::Invalid(format!("class {c} is not in [0, {n}) (num_classes)"))
            })
        };
        for (&a, &b) in p.iter().zip(y.iter()) {
            let (a, b) = (class(a)?, class(b)?);
            if a == b {
                correct[a] += 1;
            } else {
                wrong[b] += 1;
                wrong[a] += 1;
            }
        }
        drop((pt, lt));
        let mut sum = 0f32;
        let mut valid = 0i32;
        for (&c, &w) in correct.iter().zip(&wrong) {
            let d = c + w;
            valid += (d > 0) as i32;
            sum += c as f32 / d.max(1) as f32;
        }
        // 1.x divides by the classes that occur (0 / 0 when none does).
        iou += sum / valid as f32;
        s.set_tensor(&out_iou, Tensor::from_vec(&[1], vec![iou])?);
        s.set_tensor(&out_wrong, Tensor::from_vec(&[n as i64], wrong)?);
        s.set_tensor(&out_correct, Tensor::from_vec(&[n as i64], correct)?);
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
