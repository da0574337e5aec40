//! Reductions: mean (of everything), reduce_sum/mean/max/min over dims, and
//! cross_entropy (the log-loss of each row's labelled class).
//!
//! Shapes follow Paddle 3: reducing every dim without `keep_dim` gives a 0-D
//! tensor (shape `[]`), and `reduce_sum` of bool or int32 gives int64 unless
//! `out_dtype` says otherwise.
use fluidc_transpiler::VarKind;

use super::{compute, Exec, Registry};
use crate::error::KernelError;
use crate::loader::OpLoader;
use crate::tensor::num::{with_numeric, Num};
use crate::tensor::{Element, Shape, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("mean", mean);
    r.add("reduce_sum", |l| reduce(l, Reduce::Sum));
    r.add("reduce_mean", |l| reduce(l, Reduce::Mean));
    r.add("reduce_max", |l| reduce(l, Reduce::Max));
    r.add("reduce_min", |l| reduce(l, Reduce::Min));
    r.add("cross_entropy", cross_entropy);
}

/// Hard labels: `Y[i] = -log(X[i, Label[i]])`, shape `[N, 1]`; a row whose
/// label is `ignore_index` gives 0. Soft labels: `Y[i] = -sum(L[i] * log X[i])`.
fn cross_entropy(l: &OpLoader) -> Result<Exec, String> {
    let (x, label, out) = (l.input("X")?, l.input("Label")?, l.output("Y")?);
    let soft = l.bool("soft_label", false)?;
    let ignore = l.int("ignore_index", -100)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let classes = *xt.shape().last().ok_or("X must have a class dimension")? as usize;
        let rows = xt.numel() / classes.max(1);
        let probs = xt.cast(VarKind::Fp64)?;
        let p = probs.values::<f64>().unwrap_or_default();
        let lt = s.tensor(&label)?;
        let losses: Vec<f64> = if soft {
            let lv = lt.cast(VarKind::Fp64)?;
            let lv = lv.values::<f64>().unwrap_or_default();
            (0..rows)
                .map(|r| {
                    -(0..classes)
                        .map(|c| lv[r * classes + c] * p[r * classes + c].ln())
                        .sum::<f64>()
                })
                .collect()
        } else {
            let lv = lt.cast(VarKind::Int64)?;
            let lv = lv.values::<i64>().unwrap_or_default();
            (0..rows)
                .map(|r| match lv.get(r) {
                    Some(&k) if k == ignore => Ok(0.0),
                    Some(&k) if (0..classes as i64).contains(&k) => {
                        Ok(-p[r * classes + k as usize].ln())
                    }
                    other => Err(format!(
                        "label {other:?} of row {r} is not a class in 0..{classes}"
                    )),
                })
                .collect::<Result<_, _>>()?
        };
        let mut shape: Vec<i64> = xt.shape().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = 1;
        }
        let y = Tensor::from_vec(&shape, losses)?.cast(xt.dtype())?;
        s.set_tensor(&out, y);
        Ok(())
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reduce {
    Sum,
    Mean,
    Max,
    Min,
}

fn mean(l: &OpLoader) -> Result<Exec, String> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let all: Vec<i64> = (0..t.shape().len() as i64).collect();
        let r = reduce_tensor(Reduce::Mean, &t, &all, false)?;
        s.set_tensor(&out, r);
        Ok(())
    })
}

fn reduce(l: &OpLoader, op: Reduce) -> Result<Exec, String> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let dims = l.ints("dim")?.unwrap_or_default();
    let keep = l.bool("keep_dim", false)?;
    let all = l.bool("reduce_all", false)?;
    let out_dtype = match l.int("out_dtype", -1)? {
        -1 => None,
        _ => Some(l.dtype("out_dtype", VarKind::Fp32)?),
    };
    compute(move |s| {
        let mut t = s.tensor(&x)?.into_owned();
        let widen = op == Reduce::Sum && matches!(t.dtype(), VarKind::Bool | VarKind::Int32);
        if let Some(d) = out_dtype.or(widen.then_some(VarKind::Int64)) {
            t = t.cast(d)?;
        }
        let dims: Vec<i64> = if all || dims.is_empty() {
            (0..t.shape().len() as i64).collect()
        } else {
            dims.clone()
        };
        let r = reduce_tensor(op, &t, &dims, keep)?;
        s.set_tensor(&out, r);
        Ok(())
    })
}

pub(crate) fn reduce_tensor(
    op: Reduce,
    t: &Tensor,
    dims: &[i64],
    keep: bool,
) -> Result<Tensor, KernelError> {
    let rank = t.shape().len();
    let mut reduced = vec![false; rank];
    for &d in dims {
        let k = if d < 0 { d + rank as i64 } else { d };
        if !(0..rank as i64).contains(&k) {
            return Err(KernelError::Shape(format!(
                "dim {d} is out of range for shape {:?}",
                t.shape()
            )));
        }
        reduced[k as usize] = true;
    }
    let mut out_shape = Shape::new();
    for (i, &d) in t.shape().iter().enumerate() {
        if !reduced[i] {
            out_shape.push(d);
        } else if keep {
            out_shape.push(1);
        }
    }
    let dims_u: Vec<usize> = t.shape().iter().map(|&d| d as usize).collect();
    let count: usize = dims_u
        .iter()
        .zip(&reduced)
        .filter(|(_, r)| **r)
        .map(|(d, _)| *d)
        .product();
    let data = with_numeric!(
        t.data(),
        |v: T| {
            let f: fn(T, T) -> T = match op {
                Reduce::Sum | Reduce::Mean => T::add,
                Reduce::Max => T::max_of,
                Reduce::Min => T::min_of,
            };
            let mut acc = fold(v, &dims_u, &reduced, f);
            if op == Reduce::Mean {
                let n = T::from_f64(count as f64);
                acc.iter_mut()
                    .for_each(|a| *a = if count == 0 { *a } else { a.div(n) });
            }
            T::wrap(acc.into())
        },
        return Err("reductions do not take bool tensors".into())
    );
    Ok(Tensor::from_parts(out_shape, data))
}

/// Folds every input element into its output element with `f`.
fn fold<T: Num>(v: &[T], dims: &[usize], reduced: &[bool], f: fn(T, T) -> T) -> Vec<T> {
    let rank = dims.len();
    // Output strides per input dim; 0 on reduced dims.
    let mut ostride = vec![0usize; rank];
    let mut acc = 1usize;
    for i in (0..rank).rev() {
        if !reduced[i] {
            ostride[i] = acc;
            acc *= dims[i];
        }
    }
    let mut out: Vec<Option<T>> = vec![None; acc];
    let mut index = vec![0usize; rank];
    let mut o = 0usize;
    for &x in v {
        out[o] = Some(match out[o] {
            Some(a) => f(a, x),
            None => x,
        });
        for d in (0..rank).rev() {
            index[d] += 1;
            o += ostride[d];
            if index[d] < dims[d] {
                break;
            }
            o -= ostride[d] * dims[d];
            index[d] = 0;
        }
    }
    out.into_iter().map(|a| a.unwrap_or(T::ZERO)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_over_dims_with_and_without_keep_dim() {
        let t = Tensor::from_vec(&[2, 3], vec![1i64, 2, 3, 4, 5, 6]).expect("tensor");
        let r = reduce_tensor(Reduce::Sum, &t, &[1], false).expect("ok");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2][..], Some(&[6, 15][..]))
        );
        let r = reduce_tensor(Reduce::Sum, &t, &[0], true).expect("ok");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[1, 3][..], Some(&[5, 7, 9][..]))
        );
        let r = reduce_tensor(Reduce::Max, &t, &[0, 1], false).expect("ok");
        assert_eq!((r.shape(), r.values::<i64>()), (&[][..], Some(&[6][..])));
        let f = Tensor::from_vec(&[4], vec![1.0f32, 2.0, 3.0, 4.0]).expect("tensor");
        let m = reduce_tensor(Reduce::Mean, &f, &[0], false).expect("ok");
        assert_eq!(m.values::<f32>(), Some(&[2.5][..]));
    }
}
