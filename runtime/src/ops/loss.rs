//! Losses: softmax_with_cross_entropy, sigmoid_cross_entropy_with_logits,
//! log_loss, nce (noise-contrastive estimation) and Paddle 1.x's
//! smooth_l1_loss, margin_rank_loss and rank_loss (which 3.3.1 dropped),
//! with their gradients; the softmax itself is unary's.

use super::float::{self, f64s, i64s, split_at_axis};
use super::unary::{softmax_f64, softmax_rows_f32};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::optim::Real;
use crate::tensor::{dtype_name, Element, Tensor};

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
    r.add("nce", nce);
    r.add("nce_grad", nce_grad);
    r.add("smooth_l1_loss", smooth_l1_loss);
    r.add("smooth_l1_loss_grad", smooth_l1_loss_grad);
    r.add("margin_rank_loss", margin_rank_loss);
    r.add("margin_rank_loss_grad", margin_rank_loss_grad);
    r.add("rank_loss", rank_loss);
    r.add("hierarchical_sigmoid", hierarchical_sigmoid);
    r.add("hierarchical_sigmoid_grad", hierarchical_sigmoid_grad);
    r.add("kldiv_loss", kldiv_loss);
    r.add("kldiv_loss_grad", kldiv_loss_grad);
    r.add("bpr_loss", bpr_loss);
    r.add("bpr_loss_grad", bpr_loss_grad);
    r.add("rank_loss_grad", rank_loss_grad);
    r.add("center_loss", center_loss);
    r.add("center_loss_grad", center_loss_grad);
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

/// Which classes `nce` draws as negatives and the probability it gives a
/// class (Paddle's `math::Sampler`), over the classes `0..=range`
/// (`range` is `num_total_classes - 1`).
enum Sampler {
    /// Every class alike: `uniform_int_distribution(0, range)`.
    Uniform { range: i64 },
    /// `P(k) = log((k + 2) / (k + 1)) / log(range + 1)`, drawn by inverse
    /// transform of a uniform real (Paddle takes the value mod `range`).
    LogUniform { range: i64, log_range: f32 },
    /// The given probabilities, drawn with the alias tables 1.x's layer
    /// builds (`CustomDistProbs`, `CustomDistAlias`, `CustomDistAliasProbs`).
    Custom {
        range: i64,
        probs: Vec<f64>,
        alias: Vec<i64>,
        alias_probs: Vec<f64>,
    },
}

impl Sampler {
    /// The probability of `class`, as a float (Paddle's `Probability`).
    fn probability(&self, class: i64) -> f32 {
        match self {
            Sampler::Uniform { range } => (1.0 / (*range as f64 + 1.0)) as f32,
            Sampler::LogUniform { log_range, .. } => {
                let k = class as f64;
                (((k + 2.0) / (k + 1.0)).ln() / f64::from(*log_range)) as f32
            }
            Sampler::Custom { probs, .. } => {
                probs.get(class as usize).copied().unwrap_or(0.0) as f32
            }
        }
    }

    /// One negative class, drawn as Paddle's `Sample` draws it.
    fn sample(&self, e: &mut crate::random::StdMt19937_64) -> i64 {
        use crate::random::{uniform_int, UniformReal};
        match self {
            Sampler::Uniform { range } => uniform_int(e, 0, *range),
            Sampler::LogUniform { range, log_range } => {
                let u = UniformReal::new(0.0f64, 1.0).sample(e);
                let value = (u * f64::from(*log_range)).exp() as i64 - 1;
                value % range
            }
            Sampler::Custom {
                range,
                alias,
                alias_probs,
                ..
            } => {
                let index = uniform_int(e, 0, *range);
                let p = UniformReal::new(0.0f64, 1.0).sample(e);
                let i = index as usize;
                match (alias_probs.get(i), alias.get(i)) {
                    (Some(&ap), Some(&a)) if p > ap && a != -1 => a,
                    _ => index,
                }
            }
        }
    }
}

/// The attributes and dispensable inputs `nce` and `nce_grad` share.
#[derive(Clone)]
struct Nce {
    total: i64,
    neg: i64,
    sampler: i64,
    seed: i64,
    custom_neg: Vec<i64>,
    dist: Option<[crate::scope::VarRef; 3]>,
}

impl Nce {
    fn load(l: &OpReader) -> Result<Nce, KernelError> {
        let total = l.int("num_total_classes")?;
        let neg = l.int("num_neg_samples")?;
        let sampler = l.int("sampler")?;
        let custom_neg = l.ints("custom_neg_classes")?.unwrap_or_default();
        if total < 1 || neg < 0 {
            return Err(KernelError::Attribute(format!(
                "nce: num_total_classes ({total}) must be positive and num_neg_samples ({neg}) not negative"
            )));
        }
        if !custom_neg.is_empty() && custom_neg.len() as i64 != neg {
            return Err(KernelError::Attribute(format!(
                "nce: custom_neg_classes has {} classes but num_neg_samples is {neg}",
                custom_neg.len()
            )));
        }
        if !l.strings("epmap")?.is_empty() {
            return Err(KernelError::Unsupported(
                "nce: prefetching the weight from parameter servers (`epmap`) is not supported"
                    .into(),
            ));
        }
        let dist = match sampler {
            0 | 1 => None,
            2 => Some([
                l.input("CustomDistProbs")?,
                l.input("CustomDistAlias")?,
                l.input("CustomDistAliasProbs")?,
            ]),
            other => {
                return Err(KernelError::Attribute(format!(
                    "nce: unsupported sampler {other} (0: uniform, 1: log_uniform, 2: custom_dist)"
                )))
            }
        };
        Ok(Nce {
            total,
            neg,
            sampler,
            // Paddle's sampler takes the seed as an unsigned int.
            seed: i64::from(l.int("seed")? as u32),
            custom_neg,
            dist,
        })
    }

    fn sampler(&self, s: &crate::scope::Vars<'_>) -> Result<Sampler, KernelError> {
        let range = self.total - 1;
        Ok(match (&self.dist, self.sampler) {
            (Some([p, a, ap]), _) => {
                let (pt, at, apt) = (s.tensor(p)?, s.tensor(a)?, s.tensor(ap)?);
                let probs = f64s(&pt, "nce")?.to_vec();
                let alias = i64s(&at)?.to_vec();
                let alias_probs = f64s(&apt, "nce")?.to_vec();
                for (name, n) in [
                    ("CustomDistProbs", probs.len()),
                    ("CustomDistAlias", alias.len()),
                    ("CustomDistAliasProbs", alias_probs.len()),
                ] {
                    if n as i64 != self.total {
                        return Err(KernelError::Shape(format!(
                            "nce: {name} has {n} elements but num_total_classes is {}",
                            self.total
                        )));
                    }
                }
                if let Some(&a) = alias.iter().find(|&&a| a < -1 || a >= self.total) {
                    return Err(KernelError::Invalid(format!(
                        "nce: CustomDistAlias names class {a}, out of range for {} classes",
                        self.total
                    )));
                }
                Sampler::Custom {
                    range,
                    probs,
                    alias,
                    alias_probs,
                }
            }
            (None, 1) => {
                if range < 1 {
                    return Err(KernelError::Attribute(
                        "nce: the log_uniform sampler needs num_total_classes of at least 2".into(),
                    ));
                }
                Sampler::LogUniform {
                    range,
                    log_range: ((range + 1) as f64).ln() as f32,
                }
            }
            _ => Sampler::Uniform { range },
        })
    }
}

/// Rounds to the precision the kernel computes in (float for float32).
fn in_dtype(dtype: fluidc_transpiler::VarKind) -> fn(f64) -> f64 {
    if dtype == fluidc_transpiler::VarKind::Fp32 {
        |v| f64::from(v as f32)
    } else {
        |v| v
    }
}

/// A variable's values as f64.
fn values(
    s: &crate::scope::Vars<'_>,
    r: &crate::scope::VarRef,
    op: &str,
) -> Result<Vec<f64>, KernelError> {
    let t = s.tensor(r)?;
    let v = f64s(&t, op)?.into_owned();
    Ok(v)
}

/// A matrix's rows and width (`Input [N, D]`, `Weight [C, D]`).
fn matrix(t: &Tensor, name: &str) -> Result<(usize, usize), KernelError> {
    match t.shape() {
        [r, c] => Ok((*r as usize, *c as usize)),
        other => Err(KernelError::Shape(format!(
            "nce: {name} must be a matrix, it is {other:?}"
        ))),
    }
}

/// The true classes per row: `Label`'s second dim (1 for a vector).
fn true_classes(label: &Tensor) -> usize {
    match label.shape() {
        [_, k] => *k as usize,
        _ => 1,
    }
}

/// `nce`, as Paddle's CPU kernel: each row's `SampleLabels` are its true
/// labels then its negatives (`custom_neg_classes`, else drawn from the
/// sampler: from `mt19937_64(seed)` for a non-zero `seed`, as Paddle, else
/// from the session's engine where Paddle seeds from `random_device`);
/// `SampleLogits` is `sigmoid(Input[row] . Weight[class] + Bias[class])`;
/// `Cost[row]` sums, times `SampleWeight[row]`, `-log(o / (o + b))` over
/// the true classes and `-log(b / (o + b))` over the negatives, where `b`
/// is `num_neg_samples` times the sampler's probability of the class.
fn nce(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, label, weight) = (l.input("Input")?, l.input("Label")?, l.input("Weight")?);
    let (bias, sample_weight) = (l.opt_input("Bias")?, l.opt_input("SampleWeight")?);
    let cost = l.output("Cost")?;
    let (logits_out, labels_out) = (l.output("SampleLogits")?, l.output("SampleLabels")?);
    let a = Nce::load(l)?;
    compute(move |s| {
        let sampler = a.sampler(s)?;
        let (xt, lt, wt) = (s.tensor(&input)?, s.tensor(&label)?, s.tensor(&weight)?);
        let (n, dim) = matrix(&xt, "Input")?;
        let (classes, wdim) = matrix(&wt, "Weight")?;
        if wdim != dim || classes as i64 != a.total {
            return Err(KernelError::Shape(format!(
                "nce: Weight is {:?}; it must be [num_total_classes ({}), {dim}]",
                wt.shape(),
                a.total
            )));
        }
        let num_true = true_classes(&lt);
        let lv = i64s(&lt)?;
        if lv.len() != n * num_true {
            return Err(KernelError::Shape(format!(
                "nce: Label is {:?} but Input has {n} rows",
                lt.shape()
            )));
        }
        let width = num_true + a.neg as usize;
        let mut samples = Vec::with_capacity(n * width);
        let mut draw = |e: Option<&mut crate::random::StdMt19937_64>| {
            let mut e = e;
            for row in lv.chunks(num_true.max(1)).take(n) {
                samples.extend_from_slice(&row[..num_true]);
                match e.as_deref_mut() {
                    Some(e) => samples.extend((0..a.neg).map(|_| sampler.sample(e))),
                    None => samples.extend_from_slice(&a.custom_neg),
                }
            }
        };
        if a.custom_neg.is_empty() && a.neg > 0 {
            crate::random::with_engine(a.seed, |e| draw(Some(e)));
        } else {
            draw(None);
        }
        if let Some((i, &c)) = samples
            .iter()
            .enumerate()
            .find(|(_, &c)| c < 0 || c >= a.total)
        {
            return Err(KernelError::Invalid(format!(
                "nce: sample label {c} (SampleLabels[{i}]) is out of range for {} classes",
                a.total
            )));
        }
        let r = in_dtype(xt.dtype());
        let x = f64s(&xt, "nce")?;
        let w = f64s(&wt, "nce")?;
        let bv = match &bias {
            Some(b) => Some(values(s, b, "nce")?),
            None => None,
        };
        let sw = match &sample_weight {
            Some(v) => Some(values(s, v, "nce")?),
            None => None,
        };
        let mut logits = Vec::with_capacity(samples.len());
        for (i, &c) in samples.iter().enumerate() {
            let (row, c) = (i / width, c as usize);
            let mut z = bv.as_ref().map_or(Ok(0.0), |b| {
                b.get(c).copied().ok_or_else(|| {
                    KernelError::Shape(format!("nce: Bias has no entry for class {c}"))
                })
            })?;
            let xs = &x[row * dim..(row + 1) * dim];
            let ws = &w[c * dim..(c + 1) * dim];
            z = r(z + r(xs.iter().zip(ws).fold(0.0, |acc, (p, q)| r(acc + r(p * q)))));
            logits.push(r(1.0 / (1.0 + (-z).exp())));
        }
        let mut out = vec![0.0; n];
        for (row, o_row) in out.iter_mut().enumerate() {
            let wgt = match &sw {
                Some(v) => *v.get(row).ok_or_else(|| {
                    KernelError::Shape(format!("nce: SampleWeight has no weight for row {row}"))
                })?,
                None => 1.0,
            };
            for j in 0..width {
                let k = row * width + j;
                let o = logits[k];
                let b = f64::from(sampler.probability(samples[k]) * a.neg as f32);
                let ratio = if j < num_true {
                    r(o / r(o + b))
                } else {
                    r(b / r(o + b))
                };
                *o_row = r(*o_row + r(wgt * r(-ratio.ln())));
            }
        }
        let dtype = xt.dtype();
        let shape = [n as i64, width as i64];
        drop((xt, lt, wt));
        s.set_tensor(&cost, float::tensor(dtype, &[n as i64, 1], out)?);
        s.set_tensor(&logits_out, float::tensor(dtype, &shape, logits)?);
        s.set_tensor(&labels_out, Tensor::from_vec(&shape, samples)?);
        Ok(())
    })
}

/// `nce_grad`: per sample `g = w * (b / (o + b)) * (o - 1)` for a true
/// class and `w * o * (1 - o) / (o + b)` for a negative, times
/// `Cost@GRAD[row]`; `Bias@GRAD[class] += g`, `Weight@GRAD[class] +=
/// g * Input[row]`, `Input@GRAD[row] += g * Weight[class]`. With
/// `is_sparse` the weight's gradient is sparse, its rows the classes
/// sampled (see `Tensor::sparse_rows`).
fn nce_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, label, weight) = (l.input("Input")?, l.input("Label")?, l.input("Weight")?);
    let (bias, sample_weight) = (l.opt_input("Bias")?, l.opt_input("SampleWeight")?);
    let (logits_in, labels_in) = (l.input("SampleLogits")?, l.input("SampleLabels")?);
    let dcost = l.input("Cost@GRAD")?;
    let dx = l.opt_output("Input@GRAD")?;
    let dw = l.opt_output("Weight@GRAD")?;
    let db = l.opt_output("Bias@GRAD")?;
    let sparse = l.bool("is_sparse")?;
    let a = Nce::load(l)?;
    compute(move |s| {
        let sampler = a.sampler(s)?;
        let (xt, lt, wt) = (s.tensor(&input)?, s.tensor(&label)?, s.tensor(&weight)?);
        let (n, dim) = matrix(&xt, "Input")?;
        let (classes, _) = matrix(&wt, "Weight")?;
        let num_true = true_classes(&lt);
        let (ot, st) = (s.tensor(&logits_in)?, s.tensor(&labels_in)?);
        let o = f64s(&ot, "nce_grad")?;
        let samples = i64s(&st)?;
        let width = st.shape().get(1).copied().unwrap_or(0).max(0) as usize;
        let d = values(s, &dcost, "nce_grad")?;
        if samples.len() != n * width || o.len() != samples.len() || d.len() != n {
            return Err(KernelError::Shape(format!(
                "nce_grad: SampleLabels {:?}, SampleLogits {:?} and Cost@GRAD of {} do not fit Input's {n} rows",
                st.shape(),
                ot.shape(),
                d.len()
            )));
        }
        if let Some(&c) = samples.iter().find(|&&c| c < 0 || c as usize >= classes) {
            return Err(KernelError::Invalid(format!(
                "nce_grad: sample label {c} is out of range for {classes} classes"
            )));
        }
        let sw = match &sample_weight {
            Some(v) => Some(values(s, v, "nce_grad")?),
            None => None,
        };
        let r = in_dtype(xt.dtype());
        let mut g = Vec::with_capacity(samples.len());
        for (i, (&c, &o)) in samples.iter().zip(o.iter()).enumerate() {
            let row = i / width.max(1);
            let b = f64::from(sampler.probability(c) * a.neg as f32);
            let wgt = sw.as_ref().and_then(|v| v.get(row).copied()).unwrap_or(1.0);
            let v = if i % width < num_true {
                r(r(wgt * r(b / r(o + b))) * r(o - 1.0))
            } else {
                r(wgt * r(r(o * r(1.0 - o)) / r(o + b)))
            };
            g.push(r(v * d[row]));
        }
        let x = f64s(&xt, "nce_grad")?;
        let w = f64s(&wt, "nce_grad")?;
        let dtype = xt.dtype();
        let mut grads = Vec::new();
        if let Some(b) = &bias {
            let bt = s.tensor(b)?;
            let mut gb = vec![0.0; bt.numel()];
            for (&c, &gi) in samples.iter().zip(&g) {
                if let Some(v) = gb.get_mut(c as usize) {
                    *v = r(*v + gi);
                }
            }
            grads.push((&db, Some(float::tensor(dtype, bt.shape(), gb)?)));
        }
        let mut gw = vec![0.0; w.len()];
        let mut gx = vec![0.0; x.len()];
        for (i, (&c, &gi)) in samples.iter().zip(&g).enumerate() {
            let (row, c) = (i / width.max(1), c as usize);
            for k in 0..dim {
                gw[c * dim + k] = r(gw[c * dim + k] + r(x[row * dim + k] * gi));
                gx[row * dim + k] = r(gx[row * dim + k] + r(w[c * dim + k] * gi));
            }
        }
        let mut tw = float::tensor(dtype, wt.shape(), gw)?;
        if sparse {
            let mut rows: Vec<usize> = samples.iter().map(|&c| c as usize).collect();
            rows.sort_unstable();
            rows.dedup();
            tw.set_sparse_rows(Some(std::sync::Arc::new(rows)));
        }
        grads.push((&dw, Some(tw)));
        grads.push((&dx, Some(float::tensor(dtype, xt.shape(), gx)?)));
        drop((xt, lt, wt, ot, st));
        float::set_grads(s, grads);
        Ok(())
    })
}

/// The elements of `ts` (each named by its slot) as `T`, the first's
/// dtype, each of `n` elements (the tensors are read flat, as 1.x's Eigen
/// kernels read them).
fn flat<'a, T: Real>(
    op: &str,
    ts: &[(&str, &'a Tensor)],
    n: usize,
) -> Result<Vec<&'a [T]>, KernelError> {
    let (first, t0) = ts[0];
    ts.iter()
        .map(|&(slot, t)| {
            let v = t.values::<T>().ok_or_else(|| {
                KernelError::Dtype(format!(
                    "{op}: {slot} is {} but {first} is {}; they must be one float dtype",
                    dtype_name(t.dtype()),
                    dtype_name(t0.dtype())
                ))
            })?;
            if v.len() != n {
                return Err(KernelError::Shape(format!(
                    "{op}: {slot} has shape {:?} but {first} {:?}; they must have one shape",
                    t.shape(),
                    t0.shape()
                )));
            }
            Ok(v)
        })
        .collect()
}

/// Runs `$run::<T>` for the float dtype of `$t` (1.x registered these
/// kernels for float32; float64 computes the same in double).
macro_rules! by_float {
    ($op:expr, $t:expr, $run:ident ( $($arg:expr),* )) => {
        match $t.dtype() {
            fluidc_transpiler::VarKind::Fp32 => $run::<f32>($($arg),*),
            fluidc_transpiler::VarKind::Fp64 => $run::<f64>($($arg),*),
            _ => Err(float::needs_float($op, $t)),
        }
    };
}

/// The rows of a batch `[N, ...]` and the elements of a row.
fn batch_rows(shape: &[i64], op: &str) -> Result<(usize, usize), KernelError> {
    let Some(&n) = shape.first().filter(|_| shape.len() >= 2) else {
        return Err(KernelError::Shape(format!(
            "{op}: X is {shape:?}; it must have rank at least 2 ([N, ...])"
        )));
    };
    let n = n.max(0) as usize;
    let total = shape.iter().map(|&d| d.max(0) as usize).product::<usize>();
    Ok((n, total.checked_div(n).unwrap_or(0)))
}

/// The weights of `smooth_l1_loss`: both or neither (1.x's kernel uses
/// them only together; its InferShape refused `InsideWeight` alone).
fn l1_weights(
    l: &OpReader,
) -> Result<Option<(crate::scope::VarRef, crate::scope::VarRef)>, KernelError> {
    match (l.opt_input("InsideWeight")?, l.opt_input("OutsideWeight")?) {
        (Some(i), Some(o)) => Ok(Some((i, o))),
        (None, None) => Ok(None),
        _ => Err(KernelError::Program(
            "smooth_l1_loss: if weights are provided, must specify both inside and outside weights"
                .into(),
        )),
    }
}

/// `smooth_l1_loss`, as 1.x's kernel: `Diff = (X - Y) * InsideWeight`;
/// per element `0.5 * sigma^2 * d^2` where `|d| < 1 / sigma^2`, else `|d|
/// - 0.5 / sigma^2` (in double, as 1.x's functor mixes in double
/// constants), times `OutsideWeight`; `Out [N, 1]` sums each row.
fn smooth_l1_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.input("Y")?);
    let weights = l1_weights(l)?;
    let (diff, out) = (l.output("Diff")?, l.output("Out")?);
    let sigma = l.float_or("sigma", 1.0)?;
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        let w = match &weights {
            Some((i, o)) => Some((s.tensor(i)?, s.tensor(o)?)),
            None => None,
        };
        let mut ins: Vec<(&str, &Tensor)> = vec![("X", &xt), ("Y", &yt)];
        if let Some((i, o)) = &w {
            ins.push(("InsideWeight", i));
            ins.push(("OutsideWeight", o));
        }
        let (n, cols) = batch_rows(xt.shape(), "smooth_l1_loss")?;
        fn run<T: Real>(
            ins: &[(&str, &Tensor)],
            n: usize,
            cols: usize,
            sigma: f64,
        ) -> Result<[Tensor; 2], KernelError> {
            let v = flat::<T>("smooth_l1_loss", ins, n * cols)?;
            let sigma = T::of(sigma);
            let sigma2 = Element::to_f64(sigma * sigma);
            let mut d: Vec<T> = v[0].iter().zip(v[1]).map(|(&a, &b)| a - b).collect();
            if let Some(iw) = v.get(2) {
                d.iter_mut().zip(iw.iter()).for_each(|(d, &w)| *d = *d * w);
            }
            let mut err: Vec<T> = d
                .iter()
                .map(|&e| {
                    let e = Element::to_f64(e);
                    T::of(if e.abs() < 1.0 / sigma2 {
                        0.5 * e * e * sigma2
                    } else {
                        e.abs() - 0.5 / sigma2
                    })
                })
                .collect();
            if let Some(ow) = v.get(3) {
                err.iter_mut()
                    .zip(ow.iter())
                    .for_each(|(e, &w)| *e = *e * w);
            }
            let sums: Vec<T> = (0..n)
                .map(|r| {
                    err[r * cols..(r + 1) * cols]
                        .iter()
                        .fold(T::zero(), |a, &b| a + b)
                })
                .collect();
            Ok([
                Tensor::from_vec(ins[0].1.shape(), d)?,
                Tensor::from_vec(&[n as i64, 1], sums)?,
            ])
        }
        let [d, o] = by_float!("smooth_l1_loss", &*xt, run(&ins, n, cols, sigma))?;
        drop(ins);
        drop((xt, yt, w));
        s.set_tensor(&diff, d);
        s.set_tensor(&out, o);
        Ok(())
    })
}

/// Its grad, as 1.x's: per element `g = dOut[row] * InsideWeight *
/// OutsideWeight * (sigma^2 * d` where `|d| < 1 / sigma^2`, else
/// `sign(d))` with `d` the saved `Diff`; `X@GRAD = g`, `Y@GRAD = -g`.
fn smooth_l1_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (diff, dout) = (l.input("Diff")?, l.input("Out@GRAD")?);
    let weights = l1_weights(l)?;
    let (dx, dy) = (l.opt_output("X@GRAD")?, l.opt_output("Y@GRAD")?);
    let sigma = l.float_or("sigma", 1.0)?;
    compute(move |s| {
        let (dt, gt) = (s.tensor(&diff)?, s.tensor(&dout)?);
        let w = match &weights {
            Some((i, o)) => Some((s.tensor(i)?, s.tensor(o)?)),
            None => None,
        };
        let (n, cols) = batch_rows(dt.shape(), "smooth_l1_loss_grad")?;
        if gt.shape().len() < 2 || gt.numel() != n || gt.shape()[0] as usize != n {
            return Err(KernelError::Shape(format!(
                "smooth_l1_loss_grad: Out@GRAD is {:?}; it must be [{n}, 1]",
                gt.shape()
            )));
        }
        let mut ins: Vec<(&str, &Tensor)> = vec![("Diff", &dt)];
        if let Some((i, o)) = &w {
            ins.push(("InsideWeight", i));
            ins.push(("OutsideWeight", o));
        }
        fn run<T: Real>(
            ins: &[(&str, &Tensor)],
            dout: &Tensor,
            cols: usize,
            sigma: f64,
        ) -> Result<[Tensor; 2], KernelError> {
            let n = dout.numel();
            let v = flat::<T>("smooth_l1_loss_grad", ins, n * cols)?;
            let g = flat::<T>("smooth_l1_loss_grad", &[("Out@GRAD", dout)], n)?[0];
            let sigma = T::of(sigma);
            let sigma2 = sigma * sigma;
            let bound = 1.0 / Element::to_f64(sigma2);
            let gx: Vec<T> = v[0]
                .iter()
                .enumerate()
                .map(|(k, &d)| {
                    let slope = if Element::to_f64(d).abs() < bound {
                        sigma2 * d
                    } else if d > T::zero() {
                        T::one()
                    } else if d < T::zero() {
                        -T::one()
                    } else {
                        T::zero()
                    };
                    let w = match (v.get(1), v.get(2)) {
                        (Some(i), Some(o)) => i[k] * o[k],
                        _ => T::one(),
                    };
                    g[k / cols.max(1)] * w * slope
                })
                .collect();
            let gy = gx.iter().map(|&v| -v).collect();
            let shape = ins[0].1.shape();
            Ok([Tensor::from_vec(shape, gx)?, Tensor::from_vec(shape, gy)?])
        }
        let [gx, gy] = by_float!("smooth_l1_loss_grad", &*dt, run(&ins, &gt, cols, sigma))?;
        drop(ins);
        drop((dt, gt, w));
        float::set_grads(s, vec![(&dx, Some(gx)), (&dy, Some(gy))]);
        Ok(())
    })
}

/// `margin_rank_loss`, as 1.x's kernel: `Out = max(0, -Label * (X1 - X2)
/// + margin)` and `Activated` 1 where `Out > 0`, else 0.
fn margin_rank_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x1, x2, label) = (l.input("X1")?, l.input("X2")?, l.input("Label")?);
    let (act, out) = (l.output("Activated")?, l.output("Out")?);
    let margin = l.float_or("margin", 0.0)?;
    compute(move |s| {
        let (at, bt, lt) = (s.tensor(&x1)?, s.tensor(&x2)?, s.tensor(&label)?);
        fn run<T: Real>(ins: &[(&str, &Tensor)], margin: f64) -> Result<[Tensor; 2], KernelError> {
            let v = flat::<T>("margin_rank_loss", ins, ins[0].1.numel())?;
            let margin = T::of(margin);
            let o: Vec<T> = v[0]
                .iter()
                .zip(v[1])
                .zip(v[2])
                .map(|((&a, &b), &y)| {
                    let z = -y * (a - b) + margin;
                    if z > T::zero() {
                        z
                    } else {
                        T::zero()
                    }
                })
                .collect();
            let act = o
                .iter()
                .map(|&z| if z > T::zero() { T::one() } else { T::zero() })
                .collect();
            let shape = ins[0].1.shape();
            Ok([Tensor::from_vec(shape, act)?, Tensor::from_vec(shape, o)?])
        }
        let ins = [("X1", &*at), ("X2", &*bt), ("Label", &*lt)];
        let [a, o] = by_float!("margin_rank_loss", &*at, run(&ins, margin))?;
        drop((at, bt, lt));
        s.set_tensor(&act, a);
        s.set_tensor(&out, o);
        Ok(())
    })
}

/// Its grad: `X1@GRAD = -dOut * Activated * Label`, `X2@GRAD` its
/// negative.
fn margin_rank_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (act, dout, label) = (
        l.input("Activated")?,
        l.input("Out@GRAD")?,
        l.input("Label")?,
    );
    let (dx1, dx2) = (l.opt_output("X1@GRAD")?, l.opt_output("X2@GRAD")?);
    compute(move |s| {
        let (at, gt, lt) = (s.tensor(&act)?, s.tensor(&dout)?, s.tensor(&label)?);
        fn run<T: Real>(ins: &[(&str, &Tensor)]) -> Result<[Tensor; 2], KernelError> {
            let v = flat::<T>("margin_rank_loss_grad", ins, ins[0].1.numel())?;
            let d1: Vec<T> = v[0]
                .iter()
                .zip(v[1])
                .zip(v[2])
                .map(|((&a, &g), &y)| -g * a * y)
                .collect();
            let d2 = v[0]
                .iter()
                .zip(v[1])
                .zip(v[2])
                .map(|((&a, &g), &y)| g * a * y)
                .collect();
            let shape = ins[0].1.shape();
            Ok([Tensor::from_vec(shape, d1)?, Tensor::from_vec(shape, d2)?])
        }
        let ins = [("Activated", &*at), ("Out@GRAD", &*gt), ("Label", &*lt)];
        let [d1, d2] = by_float!("margin_rank_loss_grad", &*at, run(&ins))?;
        drop((at, gt, lt));
        float::set_grads(s, vec![(&dx1, Some(d1)), (&dx2, Some(d2))]);
        Ok(())
    })
}

/// `rank_loss`, as 1.x's kernel (RankNet's cost): `Out = log(1 +
/// exp(Left - Right)) - Label * (Left - Right)`, shaped as `Label`.
fn rank_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (label, left, right) = (l.input("Label")?, l.input("Left")?, l.input("Right")?);
    let out = l.output("Out")?;
    compute(move |s| {
        let (lt, at, bt) = (s.tensor(&label)?, s.tensor(&left)?, s.tensor(&right)?);
        fn run<T: Real>(ins: &[(&str, &Tensor)]) -> Result<Tensor, KernelError> {
            let v = flat::<T>("rank_loss", ins, ins[0].1.numel())?;
            let o = v[0]
                .iter()
                .zip(v[1])
                .zip(v[2])
                .map(|((&y, &a), &b)| (T::one() + (a - b).exp()).ln() - y * (a - b))
                .collect();
            Tensor::from_vec(ins[0].1.shape(), o)
        }
        let ins = [("Label", &*lt), ("Left", &*at), ("Right", &*bt)];
        let o = by_float!("rank_loss", &*lt, run(&ins))?;
        drop((lt, at, bt));
        s.set_tensor(&out, o);
        Ok(())
    })
}

/// Its grad: `Left@GRAD = dOut * (1 / (1 + exp(Right - Left)) - Label)`,
/// `Right@GRAD` its negative, each shaped as its input.
fn rank_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (label, left, right, dout) = (
        l.input("Label")?,
        l.input("Left")?,
        l.input("Right")?,
        l.input("Out@GRAD")?,
    );
    let (dl, dr) = (l.opt_output("Left@GRAD")?, l.opt_output("Right@GRAD")?);
    compute(move |s| {
        let ts = [&label, &left, &right, &dout]
            .iter()
            .map(|r| s.tensor(r))
            .collect::<Result<Vec<_>, _>>()?;
        fn run<T: Real>(ins: &[(&str, &Tensor)]) -> Result<[Tensor; 2], KernelError> {
            let v = flat::<T>("rank_loss_grad", ins, ins[0].1.numel())?;
            let p: Vec<T> = (0..v[0].len())
                .map(|k| v[3][k] * (T::one() / (T::one() + (v[2][k] - v[1][k]).exp()) - v[0][k]))
                .collect();
            let q = p.iter().map(|&g| -g).collect();
            Ok([
                Tensor::from_vec(ins[1].1.shape(), p)?,
                Tensor::from_vec(ins[2].1.shape(), q)?,
            ])
        }
        let ins = [
            ("Label", &*ts[0]),
            ("Left", &*ts[1]),
            ("Right", &*ts[2]),
            ("Out@GRAD", &*ts[3]),
        ];
        let [gl, gr] = by_float!("rank_loss_grad", &*ts[0], run(&ins))?;
        drop(ts);
        float::set_grads(s, vec![(&dl, Some(gl)), (&dr, Some(gr))]);
        Ok(())
    })
}

/// Each sample's path in `hierarchical_sigmoid`'s tree: the rows of `W`
/// (and `Bias`) it goes through and the bit taken at each.
type Paths = Vec<Vec<(usize, bool)>>;

/// The paths of the default tree (class `c`'s code is `c + num_classes`:
/// bit `j` is taken at row `(code >> (j + 1)) - 1`, for as many bits as
/// follow its leading one) or of a custom one (`PathTable`'s rows up to
/// their first negative entry, `PathCode`'s bits).
fn hsigmoid_paths(
    labels: &[i64],
    num_classes: i64,
    custom: Option<(&Tensor, &Tensor)>,
    rows: usize,
) -> Result<Paths, KernelError> {
    let checked = |r: i64| {
        usize::try_from(r)
            .ok()
            .filter(|&r| r < rows)
            .ok_or_else(|| {
                KernelError::Invalid(format!(
                    "hierarchical_sigmoid: tree node {r} is out of range for W's {rows} rows"
                ))
            })
    };
    match custom {
        None => labels
            .iter()
            .map(|&l| {
                if !(0..num_classes).contains(&l) {
                    return Err(KernelError::Invalid(format!(
                        "hierarchical_sigmoid: label {l} is out of range for {num_classes} classes"
                    )));
                }
                let code = l + num_classes;
                let len = 63 - code.leading_zeros() as usize;
                (0..len)
                    .map(|j| Ok((checked((code >> (j + 1)) - 1)?, code & (1 << j) != 0)))
                    .collect()
            })
            .collect(),
        Some((table, code)) => {
            let width = table.shape().get(1).copied().unwrap_or(0).max(0) as usize;
            if table.shape() != code.shape()
                || table.shape().first().map(|&n| n as usize) != Some(labels.len())
            {
                return Err(KernelError::Shape(format!(
                    "hierarchical_sigmoid: PathTable {:?} and PathCode {:?} must give one row per label ({})",
                    table.shape(),
                    code.shape(),
                    labels.len()
                )));
            }
            let (t, c) = (i64s(table)?, i64s(code)?);
            (0..labels.len())
                .map(|i| {
                    let row = &t[i * width..(i + 1) * width];
                    let len = row.iter().position(|&v| v < 0).unwrap_or(width);
                    (0..len)
                        .map(|j| Ok((checked(row[j])?, c[i * width + j] != 0)))
                        .collect()
                })
                .collect()
        }
    }
}

/// What the op and its grad read alike: `X` as rows, `W`, the paths and
/// the width of `PreOut`.
struct Hsigmoid {
    x: Vec<f64>,
    dim: usize,
    w: Vec<f64>,
    paths: Paths,
    width: usize,
}

impl Hsigmoid {
    fn read(
        s: &crate::scope::Vars,
        refs: &HsigmoidRefs,
        num_classes: i64,
    ) -> Result<Hsigmoid, KernelError> {
        let (xt, wt, lt) = (
            s.tensor(&refs.x)?,
            s.tensor(&refs.w)?,
            s.tensor(&refs.label)?,
        );
        let [n, dim] = match xt.shape() {
            &[n, d] => [n.max(0) as usize, d.max(0) as usize],
            other => {
                return Err(KernelError::Shape(format!(
                    "hierarchical_sigmoid: X must be 2-D, it is {other:?}"
                )))
            }
        };
        let rows = wt.shape().first().copied().unwrap_or(0).max(0) as usize;
        if wt.shape().len() != 2 || wt.shape()[1] as usize != dim {
            return Err(KernelError::Shape(format!(
                "hierarchical_sigmoid: W {:?} does not fit X {:?}",
                wt.shape(),
                xt.shape()
            )));
        }
        let labels = i64s(&lt)?.into_owned();
        if labels.len() != n {
            return Err(KernelError::Shape(format!(
                "hierarchical_sigmoid: Label {:?} must give one class per row of X {:?}",
                lt.shape(),
                xt.shape()
            )));
        }
        let (paths, width) = match &refs.custom {
            Some((t, c)) => {
                let (t, c) = (s.tensor(t)?, s.tensor(c)?);
                let width = t.shape().get(1).copied().unwrap_or(0).max(0) as usize;
                (
                    hsigmoid_paths(&labels, num_classes, Some((&t, &c)), rows)?,
                    width,
                )
            }
            None => (
                hsigmoid_paths(&labels, num_classes, None, rows)?,
                fluidc_transpiler::ops::loss::hsigmoid_code_length(num_classes) as usize,
            ),
        };
        Ok(Hsigmoid {
            x: f64s(&xt, "hierarchical_sigmoid")?.into_owned(),
            dim,
            w: f64s(&wt, "hierarchical_sigmoid")?.into_owned(),
            paths,
            width,
        })
    }
}

/// The variables of `hierarchical_sigmoid` and its grad.
struct HsigmoidRefs {
    x: crate::scope::VarRef,
    w: crate::scope::VarRef,
    label: crate::scope::VarRef,
    bias: Option<crate::scope::VarRef>,
    custom: Option<(crate::scope::VarRef, crate::scope::VarRef)>,
}

impl HsigmoidRefs {
    fn read(l: &OpReader) -> Result<HsigmoidRefs, KernelError> {
        let custom = match (l.opt_input("PathTable")?, l.opt_input("PathCode")?) {
            (Some(t), Some(c)) => Some((t, c)),
            (None, None) => None,
            _ => {
                return Err(KernelError::MissingInput(
                    "hierarchical_sigmoid needs both PathTable and PathCode for a custom tree"
                        .into(),
                ))
            }
        };
        Ok(HsigmoidRefs {
            x: l.input("X")?,
            w: l.input("W")?,
            label: l.input("Label")?,
            bias: l.opt_input("Bias")?,
            custom,
        })
    }
}

/// `hierarchical_sigmoid` (1.x's CPU kernel): for each node on a sample's
/// path, `p = clip(W[node] . x + Bias[node], -40, 40)`; `PreOut` holds
/// `log(1 + e^p)` (`log 2` past the end of a shorter path, which the loss
/// also counts, as 1.x's did) and `Out` their row sum minus the `p` of the
/// nodes whose bit is 1.
fn hierarchical_sigmoid(l: &OpReader) -> Result<Exec, KernelError> {
    let refs = HsigmoidRefs::read(l)?;
    let (out, pre_out) = (l.output("Out")?, l.output("PreOut")?);
    // `W_Out` is `W` in 1.x's layer; another variable gets `W`'s values.
    let w_out = if l.op.outputs_of("W_Out") == l.op.inputs_of("W") {
        None
    } else {
        l.opt_output("W_Out")?
    };
    let num_classes = l.int("num_classes")?;
    if l.bool_or("remote_prefetch", false)? {
        return Err(KernelError::Unsupported(
            "hierarchical_sigmoid with remote_prefetch (a distributed parameter table) is not supported".into(),
        ));
    }
    compute(move |s| {
        let h = Hsigmoid::read(s, &refs, num_classes)?;
        let bias = match &refs.bias {
            Some(b) => Some(f64s(&*s.tensor(b)?, "hierarchical_sigmoid")?.into_owned()),
            None => None,
        };
        let dtype = s.tensor(&refs.x)?.dtype();
        let n = h.paths.len();
        let mut pre = vec![0.0; n * h.width];
        let mut loss = vec![0.0; n];
        for (i, path) in h.paths.iter().enumerate() {
            let x = &h.x[i * h.dim..(i + 1) * h.dim];
            for (j, &(node, bit)) in path.iter().enumerate().take(h.width) {
                let w = &h.w[node * h.dim..(node + 1) * h.dim];
                let b = bias
                    .as_ref()
                    .and_then(|b| b.get(node))
                    .copied()
                    .unwrap_or(0.0);
                let p = (b + w.iter().zip(x).map(|(a, c)| a * c).sum::<f64>()).clamp(-40.0, 40.0);
                pre[i * h.width + j] = p;
                if bit {
                    loss[i] -= p;
                }
            }
            for p in &mut pre[i * h.width..(i + 1) * h.width] {
                *p = p.exp().ln_1p();
                loss[i] += *p;
            }
        }
        let w = h.width as i64;
        s.set_tensor(&pre_out, float::tensor(dtype, &[n as i64, w], pre)?);
        s.set_tensor(&out, float::tensor(dtype, &[n as i64, 1], loss)?);
        if let Some(w_out) = &w_out {
            let w = s.tensor(&refs.w)?.into_owned();
            s.set_tensor(w_out, w);
        }
        Ok(())
    })
}

/// `hierarchical_sigmoid_grad`: `g = sigmoid(p) - bit` for each node on the
/// path (from `PreOut`: `1 - 1 / e^PreOut`; the clip is not
/// differentiated, as 1.x's was not) times `Out@GRAD`; `Bias@GRAD[node] +=
/// g`, `W@GRAD[node] += g x`, `X@GRAD += g W[node]`.
fn hierarchical_sigmoid_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let refs = HsigmoidRefs::read(l)?;
    let (pre_out, dout) = (l.input("PreOut")?, l.input("Out@GRAD")?);
    let (dx, dw, db) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("W@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let num_classes = l.int("num_classes")?;
    if l.bool_or("is_sparse", false)? {
        return Err(KernelError::Unsupported(
            "hierarchical_sigmoid_grad with is_sparse (a SelectedRows W@GRAD) is not supported"
                .into(),
        ));
    }
    compute(move |s| {
        let h = Hsigmoid::read(s, &refs, num_classes)?;
        let (pt, dt) = (s.tensor(&pre_out)?, s.tensor(&dout)?);
        let pre = f64s(&pt, "hierarchical_sigmoid_grad")?;
        let d = f64s(&dt, "hierarchical_sigmoid_grad")?;
        let n = h.paths.len();
        if pre.len() != n * h.width || d.len() != n {
            return Err(KernelError::Shape(format!(
                "hierarchical_sigmoid_grad: PreOut {:?} or Out@GRAD {:?} does not fit {n} samples",
                pt.shape(),
                dt.shape()
            )));
        }
        let dtype = dt.dtype();
        let rows = h.w.len() / h.dim.max(1);
        let (mut gx, mut gw, mut gb) =
            (vec![0.0; h.x.len()], vec![0.0; h.w.len()], vec![0.0; rows]);
        for (i, path) in h.paths.iter().enumerate() {
            for (j, &(node, bit)) in path.iter().enumerate().take(h.width) {
                let mut g = 1.0 - 1.0 / pre[i * h.width + j].exp();
                if bit {
                    g -= 1.0;
                }
                g *= d[i];
                gb[node] += g;
                for k in 0..h.dim {
                    gw[node * h.dim + k] += g * h.x[i * h.dim + k];
                    gx[i * h.dim + k] += g * h.w[node * h.dim + k];
                }
            }
        }
        drop((pt, dt));
        let (xs, ws) = (
            vec![n as i64, h.dim as i64],
            vec![rows as i64, h.dim as i64],
        );
        float::set_grads(
            s,
            vec![
                (&dx, Some(float::tensor(dtype, &xs, gx)?)),
                (&dw, Some(float::tensor(dtype, &ws, gw)?)),
                (&db, Some(float::tensor(dtype, &[rows as i64, 1], gb)?)),
            ],
        );
        Ok(())
    })
}

/// `kldiv_loss`'s `reduction`, checked; the divisor of the summed loss
/// (`None`: not reduced) for `X` of dims `x`.
fn kldiv_divisor(reduction: &str, x: &[i64]) -> Result<Option<f64>, KernelError> {
    let numel = x.iter().product::<i64>().max(0) as f64;
    match reduction {
        "none" => Ok(None),
        "sum" => Ok(Some(1.0)),
        "mean" => Ok(Some(numel)),
        "batchmean" => Ok(Some(x.first().copied().unwrap_or(0) as f64)),
        other => Err(KernelError::Attribute(format!(
            "kldiv_loss: reduction must be none, batchmean, mean or sum, not {other:?}"
        ))),
    }
}

/// Whether `log_target` (Paddle 3.3.1's attribute, which 1.x lacked) asks
/// for a target given as its log: refused, as 1.x had no such target.
fn kldiv_reduction(l: &OpReader) -> Result<String, KernelError> {
    if l.bool_or("log_target", false)? {
        return Err(KernelError::Unsupported(
            "kldiv_loss with log_target is not supported (1.x's op took the target itself)".into(),
        ));
    }
    Ok(l.string("reduction")?.unwrap_or("mean").to_string())
}

/// `kldiv_loss` (1.x's): `target * (log(target) - x)` where the target is
/// positive, else 0; then summed and divided as `reduction` says.
fn kldiv_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, target, out) = (l.input("X")?, l.input("Target")?, l.output("Loss")?);
    let reduction = kldiv_reduction(l)?;
    compute(move |s| {
        let (xt, tt) = (s.tensor(&x)?, s.tensor(&target)?);
        if xt.shape() != tt.shape() {
            return Err(KernelError::Shape(format!(
                "kldiv_loss: Target {:?} must be shaped as X {:?}",
                tt.shape(),
                xt.shape()
            )));
        }
        let (xv, tv) = (f64s(&xt, "kldiv_loss")?, f64s(&tt, "kldiv_loss")?);
        let each: Vec<f64> = xv
            .iter()
            .zip(tv.iter())
            .map(|(&x, &t)| if t <= 0.0 { 0.0 } else { t * (t.ln() - x) })
            .collect();
        let r = match kldiv_divisor(&reduction, xt.shape())? {
            None => float::tensor(xt.dtype(), xt.shape(), each)?,
            Some(n) => float::tensor(xt.dtype(), &[1], vec![each.iter().sum::<f64>() / n])?,
        };
        drop((xt, tt));
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `kldiv_loss_grad`: `-target * Loss@GRAD` where the target is positive
/// (0 elsewhere), divided as the forward reduction divided.
fn kldiv_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, target, dloss) = (l.input("X")?, l.input("Target")?, l.input("Loss@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let reduction = kldiv_reduction(l)?;
    compute(move |s| {
        let (xt, tt, dt) = (s.tensor(&x)?, s.tensor(&target)?, s.tensor(&dloss)?);
        let tv = f64s(&tt, "kldiv_loss_grad")?;
        let d = f64s(&dt, "kldiv_loss_grad")?;
        let divisor = kldiv_divisor(&reduction, xt.shape())?;
        let want = if divisor.is_some() { 1 } else { tv.len() };
        if tv.len() != xt.numel() || d.len() != want {
            return Err(KernelError::Shape(format!(
                "kldiv_loss_grad: Target {:?} or Loss@GRAD {:?} does not fit X {:?}",
                tt.shape(),
                dt.shape(),
                xt.shape()
            )));
        }
        let g = tv
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let dk = if divisor.is_some() { d[0] } else { d[k] };
                let v = if t > 0.0 { -t * dk } else { 0.0 };
                v / divisor.unwrap_or(1.0)
            })
            .collect();
        let r = float::tensor(dt.dtype(), xt.shape(), g)?;
        drop((xt, tt, dt));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `bpr_loss`'s rows: `X` as `[rows, classes]` and each row's label,
/// checked.
fn bpr_rows(x: &Tensor, label: &Tensor) -> Result<(usize, usize, Vec<usize>), KernelError> {
    let Some((&c, _)) = x.shape().split_last() else {
        return Err(KernelError::Shape(
            "bpr_loss: X must have a rank of at least 1".into(),
        ));
    };
    let c = c.max(0) as usize;
    let rows = x.numel() / c.max(1);
    let labels = i64s(label)?
        .iter()
        .map(|&l| {
            usize::try_from(l).ok().filter(|&l| l < c).ok_or_else(|| {
                KernelError::Invalid(format!(
                    "bpr_loss: label {l} is out of range for {c} classes"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if labels.len() != rows || c < 2 {
        return Err(KernelError::Shape(format!(
            "bpr_loss: Label {:?} must give one class (of at least 2) per row of X {:?}",
            label.shape(),
            x.shape()
        )));
    }
    Ok((rows, c, labels))
}

/// `bpr_loss` (Bayesian personalized ranking, 1.x): each row's mean over
/// the other classes of `log(1 + e^(x_j - x_label))`.
fn bpr_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, y) = (l.input("X")?, l.input("Label")?, l.output("Y")?);
    compute(move |s| {
        let (xt, lt) = (s.tensor(&x)?, s.tensor(&label)?);
        let (rows, c, labels) = bpr_rows(&xt, &lt)?;
        let v = f64s(&xt, "bpr_loss")?;
        let loss: Vec<f64> = (0..rows)
            .map(|i| {
                let (row, p) = (&v[i * c..(i + 1) * c], labels[i]);
                let sum: f64 = (0..c)
                    .filter(|&j| j != p)
                    .map(|j| tolerable(-(1.0 + tolerable((row[j] - row[p]).exp())).ln()))
                    .sum();
                -sum / (c - 1) as f64
            })
            .collect();
        let mut dims = xt.shape().to_vec();
        if let Some(last) = dims.last_mut() {
            *last = 1;
        }
        let r = float::tensor(xt.dtype(), &dims, loss)?;
        drop((xt, lt));
        s.set_tensor(&y, r);
        Ok(())
    })
}

/// `bpr_loss_grad`: for each other class `j` of a row, `g = -Y@GRAD /
/// ((classes - 1) (1 + e^(x_label - x_j)))` goes to the label's entry and
/// `-g` to `j`'s.
fn bpr_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, dy) = (l.input("X")?, l.input("Label")?, l.input("Y@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, lt, dt) = (s.tensor(&x)?, s.tensor(&label)?, s.tensor(&dy)?);
        let (rows, c, labels) = bpr_rows(&xt, &lt)?;
        let (v, d) = (f64s(&xt, "bpr_loss_grad")?, f64s(&dt, "bpr_loss_grad")?);
        if d.len() != rows {
            return Err(KernelError::Shape(format!(
                "bpr_loss_grad: Y@GRAD {:?} must hold one value per row of X {:?}",
                dt.shape(),
                xt.shape()
            )));
        }
        let mut g = vec![0.0; v.len()];
        for i in 0..rows {
            let p = i * c + labels[i];
            for j in (0..c).filter(|&j| j != labels[i]) {
                let n = i * c + j;
                let grad = -d[i] / ((c - 1) as f64 * (1.0 + tolerable((v[p] - v[n]).exp())));
                g[p] += grad;
                g[n] -= grad;
            }
        }
        let r = float::tensor(dt.dtype(), xt.shape(), g)?;
        drop((xt, lt, dt));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `center_loss` (1.6's kernel): per sample `SampleCenterDiff = X -
/// Centers[Label]` and `Loss = |diff|^2 / 2`; with `need_update`, each
/// class's center moves by `CenterUpdateRate * (sum of its diffs) / (1 +
/// its samples)` into `CentersOut` (1.x's count started at 1), in `X`'s
/// precision.
fn center_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, label, centers, rate) = (
        l.input("X")?,
        l.input("Label")?,
        l.input("Centers")?,
        l.input("CenterUpdateRate")?,
    );
    let (centers_out, diff_out, loss_out) = (
        l.output("CentersOut")?,
        l.output("SampleCenterDiff")?,
        l.output("Loss")?,
    );
    let (clusters, update) = (l.int("cluster_num")?, l.bool("need_update")?);
    compute(move |s| {
        let (xt, lt, ct, rt) = (
            s.tensor(&x)?,
            s.tensor(&label)?,
            s.tensor(&centers)?,
            s.tensor(&rate)?,
        );
        let (dtype, lod) = (xt.dtype(), xt.lod().to_vec());
        let single = dtype == fluidc_transpiler::VarKind::Fp32;
        let r = |v: f64| if single { f64::from(v as f32) } else { v };
        let n = xt.shape().first().copied().unwrap_or(0).max(0) as usize;
        let xv = f64s(&xt, "center_loss")?.into_owned();
        let d = xv.len().checked_div(n).unwrap_or(0);
        let k = ct.shape().first().copied().unwrap_or(0).max(0) as usize;
        if ct.numel() != k * d || usize::try_from(clusters).ok() != Some(k) {
            return Err(KernelError::Shape(format!(
                "center_loss: Centers {:?} must be [cluster_num {clusters}, {d}]",
                ct.shape()
            )));
        }
        let labels = i64s(&lt)?.into_owned();
        if labels.len() != n {
            return Err(KernelError::Shape(format!(
                "center_loss: Label {:?} must hold one class per row of X {:?}",
                lt.shape(),
                xt.shape()
            )));
        }
        let mut cv = f64s(&ct, "center_loss")?.into_owned();
        let alpha = f64s(&rt, "center_loss")?
            .first()
            .copied()
            .ok_or_else(|| KernelError::Shape("center_loss: CenterUpdateRate is empty".into()))?;
        let ctype = ct.dtype();
        drop((xt, lt, ct, rt));
        let mut diff = vec![0.0; n * d];
        let mut loss = vec![0.0; n];
        let mut acc = vec![0.0; k * d];
        let mut count = vec![1usize; k];
        for i in 0..n {
            let c = usize::try_from(labels[i])
                .ok()
                .filter(|&c| c < k)
                .ok_or_else(|| {
                    KernelError::Shape(format!(
                        "center_loss: label {} is not a class in [0, {k})",
                        labels[i]
                    ))
                })?;
            count[c] += 1;
            let mut dot = 0.0;
            for j in 0..d {
                let v = r(xv[i * d + j] - cv[c * d + j]);
                diff[i * d + j] = v;
                acc[c * d + j] = r(acc[c * d + j] + v);
                dot = r(dot + r(v * v));
            }
            loss[i] = r(dot / 2.0);
        }
        if update {
            for c in 0..k {
                let scale = r(alpha / count[c] as f64);
                for j in 0..d {
                    cv[c * d + j] = r(cv[c * d + j] + r(acc[c * d + j] * scale));
                }
            }
        }
        let cshape = [k as i64, d as i64];
        s.set_tensor(
            &diff_out,
            float::tensor(dtype, &[n as i64, d as i64], diff)?,
        );
        s.set_tensor(
            &loss_out,
            float::tensor(dtype, &[n as i64, 1], loss)?.with_lod(lod),
        );
        s.set_tensor(&centers_out, float::tensor(ctype, &cshape, cv)?);
        Ok(())
    })
}

/// `center_loss_grad`: `X@GRAD = Loss@GRAD * SampleCenterDiff` (the
/// centers taken as constants, as 1.x's kernel did).
fn center_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, diff, dloss) = (
        l.input("X")?,
        l.input("SampleCenterDiff")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, dt, gt) = (s.tensor(&x)?, s.tensor(&diff)?, s.tensor(&dloss)?);
        let (dv, gv) = (
            f64s(&dt, "center_loss_grad")?,
            f64s(&gt, "center_loss_grad")?,
        );
        let n = gv.len();
        if dv.len() != xt.numel() || (n == 0) != dv.is_empty() || n > 0 && dv.len() % n != 0 {
            return Err(KernelError::Shape(format!(
                "center_loss_grad: SampleCenterDiff {:?} and Loss@GRAD {:?} do not fit X {:?}",
                dt.shape(),
                gt.shape(),
                xt.shape()
            )));
        }
        let d = dv.len().checked_div(n).unwrap_or(0);
        let g: Vec<f64> = dv.iter().enumerate().map(|(k, v)| v * gv[k / d]).collect();
        let t = float::tensor(xt.dtype(), xt.shape(), g)?.with_lod(xt.lod().to_vec());
        drop((xt, dt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}
