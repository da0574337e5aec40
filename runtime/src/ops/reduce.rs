//! Reductions: mean (of everything), reduce_sum/mean/max/min/prod over dims, and
//! cross_entropy (the log-loss of each row's labelled class), and the
//! running sum cumsum.
//!
//! Shapes follow Paddle 3: reducing every dim without `keep_dim` gives a 0-D
//! tensor (shape `[]`), and `reduce_sum` of bool or int32 gives int64 unless
//! `out_dtype` says otherwise.
use fluidc_transpiler::VarKind;

use super::float::{self, f64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::num::{with_numeric, Num};
use crate::tensor::{Element, Shape, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("mean", mean);
    r.add("reduce_sum", |l| reduce(l, Reduce::Sum));
    r.add("reduce_mean", |l| reduce(l, Reduce::Mean));
    r.add("reduce_max", |l| reduce(l, Reduce::Max));
    r.add("reduce_min", |l| reduce(l, Reduce::Min));
    r.add("reduce_prod", |l| reduce(l, Reduce::Prod));
    r.add("reduce_all", |l| reduce_logic(l, true));
    r.add("reduce_any", |l| reduce_logic(l, false));
    r.add("cross_entropy", cross_entropy);
    r.add("cross_entropy2", cross_entropy2);
    r.add("cross_entropy_grad2", cross_entropy_grad2);
    r.add("squared_l2_norm", squared_l2_norm);
    r.add("clip_by_norm", clip_by_norm);
    r.add("mean_grad", mean_grad);
    r.add("reduce_sum_grad", |l| reduce_grad(l, Reduce::Sum));
    r.add("reduce_mean_grad", |l| reduce_grad(l, Reduce::Mean));
    r.add("reduce_max_grad", |l| reduce_grad(l, Reduce::Max));
    r.add("reduce_min_grad", |l| reduce_grad(l, Reduce::Min));
    r.add("reduce_prod_grad", |l| reduce_grad(l, Reduce::Prod));
    r.add("cross_entropy_grad", cross_entropy_grad);
    r.add("squared_l2_norm_grad", squared_l2_norm_grad);
    r.add("cumsum", |l| cumsum(l, "X", "Out", false));
    r.add("cumsum_grad", |l| cumsum(l, "Out@GRAD", "X@GRAD", true));
}

/// The running sums of `v` split `(outer, n, inner)` at the axis: each
/// element plus those before it (`exclusive`: only those before), from
/// the end when `reverse`.
fn scan<T: Copy + Default>(
    v: &[T],
    (outer, n, inner): (usize, usize, usize),
    (exclusive, reverse): (bool, bool),
    add: impl Fn(T, T) -> T,
) -> Vec<T> {
    let mut o = vec![T::default(); v.len()];
    for a in 0..outer {
        for i in 0..inner {
            let mut acc = T::default();
            for step in 0..n {
                let k = if reverse { n - 1 - step } else { step };
                let at = (a * n + k) * inner + i;
                if exclusive {
                    o[at] = acc;
                    acc = add(acc, v[at]);
                } else {
                    acc = add(acc, v[at]);
                    o[at] = acc;
                }
            }
        }
    }
    o
}

/// `cumsum` (float, int32 and int64 as Paddle's kernel) and its grad,
/// the running sum of `Out@GRAD` the other way (1.x's maker built a
/// cumsum with `reverse` flipped). With `flatten` the axis is the whole
/// tensor in order.
fn cumsum(l: &OpReader, from: &str, to: &str, grad: bool) -> Result<Exec, KernelError> {
    let x = l.input(from)?;
    let Some(out) = l.opt_output(to)? else {
        return compute(|_| Ok(()));
    };
    let axis = l.int_or("axis", -1)?;
    let flatten = l.bool_or("flatten", false)?;
    let exclusive = l.bool_or("exclusive", false)?;
    let reverse = l.bool_or("reverse", false)? != grad;
    let shape_of = if grad { Some(l.input("X")?) } else { None };
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let split = if flatten {
            (1, xt.numel(), 1)
        } else {
            float::split_at_axis(xt.shape(), axis)?
        };
        let shape: Vec<i64> = match &shape_of {
            Some(r) => s.tensor(r)?.shape().to_vec(),
            None if flatten => vec![xt.numel() as i64],
            None => xt.shape().to_vec(),
        };
        if shape.iter().map(|&d| d.max(0) as usize).product::<usize>() != xt.numel() {
            return Err(KernelError::Shape(format!(
                "cumsum_grad: Out@GRAD {:?} does not fit X {shape:?}",
                xt.shape()
            )));
        }
        let t = match xt.dtype() {
            VarKind::Fp32 | VarKind::Fp64 => {
                let v = f64s(&xt, "cumsum")?;
                float::tensor(
                    xt.dtype(),
                    &shape,
                    scan(&v, split, (exclusive, reverse), |a, b| a + b),
                )?
            }
            VarKind::Int32 | VarKind::Int64 => {
                let v = float::i64s(&xt)?;
                let sums = scan(&v, split, (exclusive, reverse), i64::wrapping_add);
                Tensor::from_vec(&shape, sums)?.cast(xt.dtype())?
            }
            _ => return Err(float::needs_float("cumsum", &xt)),
        };
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `squared_l2_norm`: the sum of squares, shape `[1]`.
fn squared_l2_norm(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let v = f64s(&t, "squared_l2_norm")?;
        let sum = v.iter().map(|x| x * x).sum();
        let r = float::tensor(t.dtype(), &[1], vec![sum])?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `squared_l2_norm_grad`: `2 x d`.
fn squared_l2_norm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (t, d) = (s.tensor(&x)?, s.tensor(&dout)?);
        let d = d.scalar_f64()?;
        let v = f64s(&t, "squared_l2_norm_grad")?;
        let g = v.iter().map(|x| 2.0 * x * d).collect();
        let r = float::tensor(t.dtype(), t.shape(), g)?;
        drop(t);
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `clip_by_norm`: `x * max_norm / ||x||` when the norm exceeds `max_norm`.
fn clip_by_norm(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let max_norm = l.float_or("max_norm", 1.0)?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let v = f64s(&t, "clip_by_norm")?;
        let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        let r = if norm > max_norm {
            let k = max_norm / norm;
            float::tensor(t.dtype(), t.shape(), v.iter().map(|x| x * k).collect())?
        } else {
            (*t).clone()
        };
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// For each element of a tensor of `dims`, the index of the element it
/// reduces into when the `reduced` dims are folded.
fn reduced_index(dims: &[usize], reduced: &[bool]) -> Vec<usize> {
    let mut ostride = vec![0usize; dims.len()];
    let mut acc = 1usize;
    for i in (0..dims.len()).rev() {
        if !reduced[i] {
            ostride[i] = acc;
            acc *= dims[i];
        }
    }
    float::offsets(dims, &ostride)
}

/// `reduce_all` (`all`) or `reduce_any` over bool tensors: the min or
/// max of the bools as 0/1. An empty reduction is false for both, as
/// Paddle 3.3.1's CPU kernel gives it (not numpy's `all` of nothing).
fn reduce_logic(l: &OpReader, all: bool) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let dims = l.ints("dim")?.unwrap_or_default();
    let keep = l.bool("keep_dim")?;
    let whole = l.bool("reduce_all")?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        if t.dtype() != VarKind::Bool {
            return Err(KernelError::Dtype(format!(
                "reduce_{} takes bool tensors",
                if all { "all" } else { "any" }
            )));
        }
        let dims: Vec<i64> = if whole || dims.is_empty() {
            (0..t.shape().len() as i64).collect()
        } else {
            dims.clone()
        };
        let ints = t.cast(VarKind::Int32)?;
        drop(t);
        let op = if all { Reduce::Min } else { Reduce::Max };
        let r = reduce_tensor(op, &ints, &dims, keep)?.cast(VarKind::Bool)?;
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `mean_grad`: `d / numel` everywhere.
fn mean_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (t, d) = (s.tensor(&x)?, s.tensor(&dout)?);
        let g = d.scalar_f64()? / t.numel().max(1) as f64;
        let r = match t.dtype() {
            VarKind::Fp32 | VarKind::Fp64 => Tensor::full(t.dtype(), t.shape(), g)?,
            _ => return Err(float::needs_float("mean_grad", &t)),
        };
        drop((t, d));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `reduce_*_grad`: `Out@GRAD` spread back over the reduced dims (divided
/// by the count for mean; for max and min only where `X` equals `Out`;
/// for prod `Out / X`, as Paddle's ProdGradFunctor divides).
fn reduce_grad(l: &OpReader, op: Reduce) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let out = match op {
        Reduce::Max | Reduce::Min | Reduce::Prod => Some(l.input("Out")?),
        _ => None,
    };
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let dims = l.ints("dim")?.unwrap_or_default();
    let all = l.bool("reduce_all")?;
    compute(move |s| {
        let (t, d) = (s.tensor(&x)?, s.tensor(&dout)?);
        let rank = t.shape().len();
        let mut reduced = vec![all || dims.is_empty(); rank];
        if !(all || dims.is_empty()) {
            for &k in &dims {
                let i = if k < 0 { k + rank as i64 } else { k };
                match usize::try_from(i).ok().and_then(|i| reduced.get_mut(i)) {
                    Some(r) => *r = true,
                    None => {
                        return Err(KernelError::Shape(format!(
                            "dim {k} is out of range for shape {:?}",
                            t.shape()
                        )))
                    }
                }
            }
        }
        let sizes: Vec<usize> = t.shape().iter().map(|&d| d.max(0) as usize).collect();
        let map = reduced_index(&sizes, &reduced);
        let count: usize = sizes
            .iter()
            .zip(&reduced)
            .filter(|(_, r)| **r)
            .map(|(d, _)| *d)
            .product();
        let dv = f64s(&d, "reduce_grad")?;
        let xv = f64s(&t, "reduce_grad")?;
        if map.iter().any(|&o| o >= dv.len()) {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit X {:?} reduced",
                d.shape(),
                t.shape()
            )));
        }
        let ov = match &out {
            Some(o) => Some(f64s(&*s.tensor(o)?, "reduce_grad")?.into_owned()),
            None => None,
        };
        let g = map
            .iter()
            .enumerate()
            .map(|(i, &o)| match op {
                Reduce::Sum => dv[o],
                Reduce::Mean => dv[o] / count.max(1) as f64,
                Reduce::Max | Reduce::Min => match &ov {
                    Some(ov) if ov[o] == xv[i] => dv[o],
                    _ => 0.0,
                },
                Reduce::Prod => ov.as_ref().map_or(0.0, |ov| dv[o] * ov[o] / xv[i]),
            })
            .collect();
        let r = float::tensor(t.dtype(), t.shape(), g)?;
        drop((t, d));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `cross_entropy_grad`: hard labels, `-d / x` at the label's class (0 for
/// `ignore_index` rows); soft labels, `-label / x * d`.
fn cross_entropy_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, dy) = (l.input("X")?, l.input("Label")?, l.input("Y@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let soft = l.bool("soft_label")?;
    let ignore = l.int("ignore_index")?;
    compute(move |s| {
        let (xt, lt, dt) = (s.tensor(&x)?, s.tensor(&label)?, s.tensor(&dy)?);
        let (rows, classes) = rows_classes(&xt)?;
        let xv = f64s(&xt, "cross_entropy_grad")?;
        let d = f64s(&dt, "cross_entropy_grad")?;
        if d.len() != rows {
            return Err(KernelError::Shape(format!(
                "Y@GRAD has {} elements for {rows} rows",
                d.len()
            )));
        }
        let mut g = vec![0.0; xv.len()];
        if soft {
            let lv = f64s(&lt, "cross_entropy_grad")?;
            if lv.len() != xv.len() {
                return Err(super::loss::label_mismatch(lt.shape(), xt.shape()));
            }
            for (i, gi) in g.iter_mut().enumerate() {
                *gi = -lv[i] / xv[i] * d[i / classes];
            }
        } else {
            let lv = float::i64s(&lt)?;
            for r in 0..rows {
                match lv.get(r) {
                    Some(&k) if k == ignore => {}
                    Some(&k) if (0..classes as i64).contains(&k) => {
                        let at = r * classes + k as usize;
                        g[at] = -d[r] / xv[at];
                    }
                    other => {
                        return Err(KernelError::Invalid(format!(
                            "label {other:?} of row {r} is not a class in 0..{classes}"
                        )))
                    }
                }
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        drop((xt, lt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// The rows of a probability tensor, and its classes (its last dim).
fn rows_classes(x: &Tensor) -> Result<(usize, usize), KernelError> {
    let classes = *x
        .shape()
        .last()
        .ok_or_else(|| KernelError::Shape("X must have a class dimension".into()))?
        as usize;
    Ok((x.numel() / classes.max(1), classes))
}

/// `cross_entropy2` (what 1.4-1.6's `layers.cross_entropy` wrote for hard
/// labels): `Y` as `cross_entropy`'s, `MatchX` each row's probability of
/// its label (0 for an `ignore_index` row), which the grad reads in place
/// of `X`, and `XShape` `[...X's dims, 0]` (its 0 last, unlike `reshape2`'s).
fn cross_entropy2(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, out) = (l.input("X")?, l.input("Label")?, l.output("Y")?);
    let (match_x, xshape) = (l.opt_output("MatchX")?, l.opt_output("XShape")?);
    let ignore = l.int("ignore_index")?;
    compute(move |s| {
        let (xt, lt) = (s.tensor(&x)?, s.tensor(&label)?);
        let (rows, classes) = rows_classes(&xt)?;
        let p = f64s(&xt, "cross_entropy2")?;
        let lv = float::i64s(&lt)?;
        let mut losses = vec![0.0; rows];
        let mut matched = vec![0.0; rows];
        for r in 0..rows {
            match lv.get(r) {
                Some(&k) if k == ignore => {}
                Some(&k) if (0..classes as i64).contains(&k) => {
                    matched[r] = p[r * classes + k as usize];
                    losses[r] = -matched[r].ln();
                }
                other => {
                    return Err(KernelError::Invalid(format!(
                        "label {other:?} of row {r} is not a class in 0..{classes}"
                    )))
                }
            }
        }
        let mut shape: Vec<i64> = xt.shape().to_vec();
        if let Some(last) = shape.last_mut() {
            *last = 1;
        }
        let dtype = xt.dtype();
        let mut xs = xt.shape().to_vec();
        xs.push(0);
        let xs = xshape
            .as_ref()
            .map(|_| Tensor::zeros(xt.dtype(), &xs))
            .transpose()?;
        drop((xt, lt));
        s.set_tensor(&out, float::tensor(dtype, &shape, losses)?);
        if let Some(m) = &match_x {
            s.set_tensor(m, float::tensor(dtype, &shape, matched)?);
        }
        if let (Some(r), Some(t)) = (&xshape, xs) {
            s.set_tensor(r, t);
        }
        Ok(())
    })
}

/// `cross_entropy_grad2`: `-dY / MatchX` at each row's label class (0 for
/// `ignore_index` rows), in X's dims (`XShape`'s but its last).
fn cross_entropy_grad2(l: &OpReader) -> Result<Exec, KernelError> {
    let (label, match_x) = (l.input("Label")?, l.input("MatchX")?);
    let (xshape, dy) = (l.input("XShape")?, l.input("Y@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let ignore = l.int("ignore_index")?;
    compute(move |s| {
        let mut dims = s.tensor(&xshape)?.shape().to_vec();
        dims.pop();
        let classes = *dims
            .last()
            .ok_or_else(|| KernelError::Shape("X must have a class dimension".into()))?
            as usize;
        let (lt, mt, dt) = (s.tensor(&label)?, s.tensor(&match_x)?, s.tensor(&dy)?);
        let (m, d) = (
            f64s(&mt, "cross_entropy_grad2")?,
            f64s(&dt, "cross_entropy_grad2")?,
        );
        let lv = float::i64s(&lt)?;
        let rows = m.len();
        if d.len() != rows || lv.len() < rows {
            return Err(KernelError::Shape(format!(
                "Y@GRAD has {} elements and Label {} for {rows} rows",
                d.len(),
                lv.len()
            )));
        }
        let mut g = vec![0.0; rows * classes];
        for r in 0..rows {
            let k = lv[r];
            if k != ignore && (0..classes as i64).contains(&k) {
                g[r * classes + k as usize] = -d[r] / m[r];
            }
        }
        let t = float::tensor(dt.dtype(), &dims, g)?;
        drop((lt, mt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// Hard labels: `Y[i] = -log(X[i, Label[i]])`, shape `[N, 1]`; a row whose
/// label is `ignore_index` gives 0. Soft labels: `Y[i] = -sum(L[i] * log X[i])`.
fn cross_entropy(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, out) = (l.input("X")?, l.input("Label")?, l.output("Y")?);
    let soft = l.bool("soft_label")?;
    let ignore = l.int("ignore_index")?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (rows, classes) = rows_classes(&xt)?;
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
                    other => Err(KernelError::Invalid(format!(
                        "label {other:?} of row {r} is not a class in 0..{classes}"
                    ))),
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
    Prod,
}

fn mean(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let all: Vec<i64> = (0..t.shape().len() as i64).collect();
        let r = reduce_tensor(Reduce::Mean, &t, &all, false)?;
        s.set_tensor(&out, r);
        Ok(())
    })
}

fn reduce(l: &OpReader, op: Reduce) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let dims = l.ints("dim")?.unwrap_or_default();
    let keep = l.bool("keep_dim")?;
    let all = l.bool("reduce_all")?;
    let out_dtype = match l.int("out_dtype")? {
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
                Reduce::Prod => T::mul,
            };
            let full = reduced.iter().all(|r| *r) && !v.is_empty();
            let mut acc = if full && !T::IS_INT && matches!(op, Reduce::Sum | Reduce::Mean) {
                vec![eigen_sum(v)]
            } else {
                fold(v, &dims_u, &reduced, f)
            };
            if op == Reduce::Prod && count == 0 {
                acc.iter_mut().for_each(|a| *a = T::from_f64(1.0));
            }
            if op == Reduce::Mean {
                let n = T::from_f64(count as f64);
                acc.iter_mut()
                    .for_each(|a| *a = if count == 0 { *a } else { a.div(n) });
            }
            T::wrap(acc.into())
        },
        return Err(KernelError::Dtype(
            "reductions do not take bool tensors".into()
        ))
    );
    Ok(Tensor::from_parts(out_shape, data))
}

/// The sum of all of `v` in the order Paddle's CPU kernels add it: Eigen's
/// vectorized full reduction with AVX packets (8 float32 or 4 float64
/// lanes), lanes accumulated in step, the tail added apart, then the lanes
/// folded pairwise (`predux`) and added to the tail. float32 sums (a
/// `mean` loss) then come out bit for bit as Paddle's, not one ulp off.
fn eigen_sum<T: Num>(v: &[T]) -> T {
    let lanes = if std::mem::size_of::<T>() == 4 { 8 } else { 4 };
    let whole = v.len() / lanes * lanes;
    let mut packet = vec![T::ZERO; lanes];
    for chunk in v[..whole].chunks_exact(lanes) {
        for (p, &x) in packet.iter_mut().zip(chunk) {
            *p = p.add(x);
        }
    }
    let tail = v[whole..].iter().fold(T::ZERO, |a, &x| a.add(x));
    // predux: the upper half onto the lower, then again, to one lane.
    let mut width = lanes;
    while width > 1 {
        width /= 2;
        for k in 0..width {
            packet[k] = packet[k].add(packet[k + width]);
        }
    }
    tail.add(packet[0])
}

/// Folds every input element into its output element with `f`.
fn fold<T: Num>(v: &[T], dims: &[usize], reduced: &[bool], f: fn(T, T) -> T) -> Vec<T> {
    let n_out: usize = dims
        .iter()
        .zip(reduced)
        .filter(|(_, r)| !**r)
        .map(|(d, _)| *d)
        .product();
    let mut out: Vec<Option<T>> = vec![None; n_out];
    for (&x, o) in v.iter().zip(reduced_index(dims, reduced)) {
        out[o] = Some(match out[o] {
            Some(a) => f(a, x),
            None => x,
        });
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
