//! Losses: softmax_with_cross_entropy, sigmoid_cross_entropy_with_logits and
//! log_loss, with their gradients; the softmax itself is unary's.

use super::float::{self, f64s, i64s, split_at_axis};
use super::unary::{softmax_f64, softmax_rows_f32};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("softmax_with_cross_entropy", softmax_with_cross_entropy);
    r.add(
        "softmax_with_cross_entropy_grad",
        softmax_with_cross_entropy_grad,
    );
    r.add("sigmoid_cross_entropy_with_logits", sigmoid_ce);
    r.add("sigmoid_cross_entropy_with_logits_grad", sigmoid_ce_grad);
    r.add("log_loss", log_loss);
    r.add("log_loss_grad", log_loss_grad);
}

/// Paddle's `TolerableValue`: infinities become ±1e20.
fn tolerable(v: f64) -> f64 {
    if v == f64::INFINITY {
        1e20
    } else if v == f64::NEG_INFINITY {
        -1e20
    } else {
        v
    }
}

/// `softmax_with_cross_entropy`: `Softmax` along `axis` (or `Logits` as
/// they are without `use_softmax`), and `Loss`: hard labels `-log p[label]`
/// (0 for `ignore_index`), soft labels `-sum(label * log p)`.
fn softmax_with_cross_entropy(l: &OpReader) -> Result<Exec, KernelError> {
    let (logits, label) = (l.input("Logits")?, l.input("Label")?);
    let (sm_out, loss_out) = (l.output("Softmax")?, l.output("Loss")?);
    let soft = l.bool("soft_label")?;
    let use_softmax = l.bool("use_softmax")?;
    let ignore = l.int("ignore_index")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let (xt, lt) = (s.tensor(&logits)?, s.tensor(&label)?);
        let split @ (outer, n, inner) = split_at_axis(xt.shape(), axis)?;
        let x = f64s(&xt, "softmax_with_cross_entropy")?;
        let p = match (use_softmax, xt.data()) {
            // float32 over the last axis: Paddle's own float32 arithmetic.
            (true, crate::tensor::Data::Float32(v)) if inner == 1 && n > 0 => {
                softmax_rows_f32(v, n)
                    .iter()
                    .map(|&p| f64::from(p))
                    .collect()
            }
            (true, _) => softmax_f64(&x, split),
            (false, _) => x.to_vec(),
        };
        let mut loss = vec![0.0; outer * inner];
        if soft {
            let lv = f64s(&lt, "softmax_with_cross_entropy")?;
            if lv.len() != p.len() {
                return Err(KernelError::Shape(format!(
                    "soft Label of shape {:?} does not match Logits {:?}",
                    lt.shape(),
                    xt.shape()
                )));
            }
            for o in 0..outer {
                for i in 0..inner {
                    let at = |k: usize| o * n * inner + k * inner + i;
                    loss[o * inner + i] = -(0..n)
                        .map(|k| lv[at(k)] * tolerable(p[at(k)].ln()))
                        .sum::<f64>();
                }
            }
        } else {
            let lv = i64s(&lt)?;
            if lv.len() != loss.len() {
                return Err(KernelError::Shape(format!(
                    "Label of shape {:?} does not match Logits {:?} along axis {axis}",
                    lt.shape(),
                    xt.shape()
                )));
            }
            for (j, (l, &k)) in loss.iter_mut().zip(lv.iter()).enumerate() {
                if k == ignore {
                    continue;
                }
                if !(0..n as i64).contains(&k) {
                    return Err(KernelError::Invalid(format!(
                        "label {k} at {j} is not a class in 0..{n}"
                    )));
                }
                let at = (j / inner) * n * inner + k as usize * inner + j % inner;
                *l = -tolerable(p[at].ln());
            }
        }
        let mut lshape = xt.shape().to_vec();
        let a = if axis < 0 {
            axis + lshape.len() as i64
        } else {
            axis
        } as usize;
        if let Some(d) = lshape.get_mut(a) {
            *d = 1;
        }
        let dtype = xt.dtype();
        let sm = float::tensor(dtype, xt.shape(), p)?;
        let loss = float::tensor(dtype, &lshape, loss)?;
        drop((xt, lt));
        s.set_tensor(&sm_out, sm);
        s.set_tensor(&loss_out, loss);
        Ok(())
    })
}

/// `softmax_with_cross_entropy_grad`: `(softmax - label) * dloss` (the
/// label one-hot for hard labels, rows of `ignore_index` 0); without
/// `use_softmax`, `-label / p * dloss`.
fn softmax_with_cross_entropy_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (sm, label, dloss) = (
        l.input("Softmax")?,
        l.input("Label")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dx) = l.opt_output("Logits@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let soft = l.bool("soft_label")?;
    let use_softmax = l.bool("use_softmax")?;
    let ignore = l.int("ignore_index")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let (pt, lt, dt) = (s.tensor(&sm)?, s.tensor(&label)?, s.tensor(&dloss)?);
        let (outer, n, inner) = split_at_axis(pt.shape(), axis)?;
        let p = f64s(&pt, "softmax_with_cross_entropy_grad")?;
        let d = f64s(&dt, "softmax_with_cross_entropy_grad")?;
        if d.len() != outer * inner {
            return Err(KernelError::Shape(format!(
                "Loss@GRAD of shape {:?} does not fit Softmax {:?}",
                dt.shape(),
                pt.shape()
            )));
        }
        let at = |o: usize, k: usize, i: usize| o * n * inner + k * inner + i;
        let mut g = vec![0.0; p.len()];
        if soft {
            let lv = f64s(&lt, "softmax_with_cross_entropy_grad")?;
            if lv.len() != p.len() {
                return Err(label_mismatch(lt.shape(), pt.shape()));
            }
            for o in 0..outer {
                for i in 0..inner {
                    let dl = d[o * inner + i];
                    for k in 0..n {
                        let j = at(o, k, i);
                        g[j] = if use_softmax {
                            (p[j] - lv[j]) * dl
                        } else {
                            -lv[j] / p[j] * dl
                        };
                    }
                }
            }
        } else {
            let lv = i64s(&lt)?;
            for o in 0..outer {
                for i in 0..inner {
                    let r = o * inner + i;
                    let k = lv.get(r).copied().unwrap_or(ignore);
                    if k == ignore {
                        continue;
                    }
                    for c in 0..n {
                        let j = at(o, c, i);
                        let hit = c as i64 == k;
                        g[j] = if use_softmax {
                            (p[j] - if hit { 1.0 } else { 0.0 }) * d[r]
                        } else if hit {
                            -d[r] / p[j]
                        } else {
                            0.0
                        };
                    }
                }
            }
        }
        let t = float::tensor(pt.dtype(), pt.shape(), g)?;
        drop((pt, lt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// A soft label whose shape is not the probabilities'.
pub(crate) fn label_mismatch(label: &[i64], x: &[i64]) -> KernelError {
    KernelError::Shape(format!(
        "soft Label of shape {label:?} does not match the probabilities {x:?}"
    ))
}

/// `sigmoid_cross_entropy_with_logits`: `max(x, 0) - x * label +
/// log(1 + exp(-|x|))` per element, in the input's precision as Paddle's
/// kernel computes it; 0 where the label is `ignore_index`; with
/// `normalize`, divided by the number of labels not ignored.
fn sigmoid_ce(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, out) = (l.input("X")?, l.input("Label")?, l.output("Out")?);
    if l.opt_input("pos_weight")?.is_some() {
        return Err(KernelError::Unsupported(
            "sigmoid_cross_entropy_with_logits with `pos_weight` is not supported".into(),
        ));
    }
    let ignore = l.int("ignore_index")?;
    let normalize = l.bool("normalize")?;
    compute(move |s| {
        let (xt, lt) = (s.tensor(&x)?, s.tensor(&label)?);
        same_shape(&xt, &lt, "Label")?;
        macro_rules! kernel {
            ($t:ty, $xs:expr, $ls:expr) => {{
                let (xs, ls): (&[$t], &[$t]) = ($xs, $ls);
                let mut count: $t = 0.0;
                let mut o: Vec<$t> = xs
                    .iter()
                    .zip(ls)
                    .map(|(&x, &y)| {
                        if y as i64 == ignore {
                            return 0.0;
                        }
                        count += 1.0;
                        let term1 = if x > 0.0 { x } else { 0.0 };
                        term1 - x * y + (1.0 + (-x.abs()).exp()).ln()
                    })
                    .collect();
                if normalize {
                    let norm = count.max(<$t>::EPSILON);
                    o.iter_mut().for_each(|v| *v /= norm);
                }
                Tensor::from_vec(xt.shape(), o)?
            }};
        }
        let t = match (xt.values::<f32>(), lt.values::<f32>()) {
            (Some(xs), Some(ls)) => kernel!(f32, xs, ls),
            _ => {
                let (xs, ls) = (
                    f64s(&xt, "sigmoid_cross_entropy_with_logits")?,
                    f64s(&lt, "sigmoid_cross_entropy_with_logits")?,
                );
                let t = kernel!(f64, &xs, &ls);
                t.cast(xt.dtype())?
            }
        };
        drop((xt, lt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `log_loss`: `-label * log(p + eps) - (1 - label) * log(1 - p + eps)`
/// per element, as Paddle's kernel.
fn log_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (p, label, out) = (l.input("Predicted")?, l.input("Labels")?, l.output("Loss")?);
    let eps = l.float_or("epsilon", 1e-4)?;
    compute(move |s| {
        let (pt, lt) = (s.tensor(&p)?, s.tensor(&label)?);
        same_shape(&pt, &lt, "Labels")?;
        let (ps, ls) = (f64s(&pt, "log_loss")?, f64s(&lt, "log_loss")?);
        let loss = ps
            .iter()
            .zip(ls.iter())
            .map(|(&p, &y)| -y * (p + eps).ln() - (1.0 - y) * (1.0 - p + eps).ln())
            .collect();
        let t = float::tensor(pt.dtype(), pt.shape(), loss)?;
        drop((pt, lt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Its grad: `dloss * (-label / (p + eps) + (1 - label) / (1 - p + eps))`.
fn log_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (p, label, dloss) = (
        l.input("Predicted")?,
        l.input("Labels")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dp) = l.opt_output("Predicted@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let eps = l.float_or("epsilon", 1e-4)?;
    compute(move |s| {
        let (pt, lt, dt) = (s.tensor(&p)?, s.tensor(&label)?, s.tensor(&dloss)?);
        same_shape(&pt, &lt, "Labels")?;
        same_shape(&pt, &dt, "Loss@GRAD")?;
        let op = "log_loss_grad";
        let (ps, ls, ds) = (f64s(&pt, op)?, f64s(&lt, op)?, f64s(&dt, op)?);
        let g = ps
            .iter()
            .zip(ls.iter())
            .zip(ds.iter())
            .map(|((&p, &y), &d)| d * (-(y / (p + eps)) + (1.0 - y) / (1.0 - p + eps)))
            .collect();
        let t = float::tensor(pt.dtype(), pt.shape(), g)?;
        drop((pt, lt, dt));
        s.set_tensor(&dp, t);
        Ok(())
    })
}

fn same_shape(x: &Tensor, other: &Tensor, what: &str) -> Result<(), KernelError> {
    if x.shape() != other.shape() {
        return Err(KernelError::Shape(format!(
            "{what} has shape {:?} but X has shape {:?}; they must be the same",
            other.shape(),
            x.shape()
        )));
    }
    Ok(())
}

/// Its grad: `(sigmoid(x) - label) * dout`, 0 where ignored, divided as
/// the forward divided.
fn sigmoid_ce_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, dout) = (l.input("X")?, l.input("Label")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let ignore = l.int("ignore_index")?;
    let normalize = l.bool("normalize")?;
    compute(move |s| {
        let (xt, lt, dt) = (s.tensor(&x)?, s.tensor(&label)?, s.tensor(&dout)?);
        same_shape(&xt, &lt, "Label")?;
        same_shape(&xt, &dt, "Out@GRAD")?;
        macro_rules! kernel {
            ($t:ty, $xs:expr, $ls:expr, $ds:expr) => {{
                let (xs, ls, ds): (&[$t], &[$t], &[$t]) = ($xs, $ls, $ds);
                let count = ls.iter().filter(|&&y| y as i64 != ignore).count() as $t;
                let mut g: Vec<$t> = xs
                    .iter()
                    .zip(ls)
                    .zip(ds)
                    .map(|((&x, &y), &d)| {
                        if y as i64 == ignore {
                            return 0.0;
                        }
                        let sig = 1.0 / (1.0 + (-x).exp());
                        d * (sig - y)
                    })
                    .collect();
                if normalize {
                    let norm = count.max(<$t>::EPSILON);
                    g.iter_mut().for_each(|v| *v /= norm);
                }
                Tensor::from_vec(xt.shape(), g)?
            }};
        }
        let t = match (xt.values::<f32>(), lt.values::<f32>(), dt.values::<f32>()) {
            (Some(xs), Some(ls), Some(ds)) => kernel!(f32, xs, ls, ds),
            _ => {
                let op = "sigmoid_cross_entropy_with_logits_grad";
                let (xs, ls, ds) = (f64s(&xt, op)?, f64s(&lt, op)?, f64s(&dt, op)?);
                kernel!(f64, &xs, &ls, &ds).cast(xt.dtype())?
            }
        };
        drop((xt, lt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}
