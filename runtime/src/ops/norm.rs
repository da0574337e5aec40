//! 1.x's normalizing and loss layers' ops, with their gradients:
//! `batch_norm`, `layer_norm`, `norm` (`l2_normalize`), `lrn`, `prelu`,
//! `label_smooth` and `huber_loss`. Paddle 3.3.1's CPU kernels' formulas,
//! computed in double (see `super::float`).
use super::float::{self, f64s, set_grads};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::VarRef;
use crate::tensor::Tensor;
use fluidc_transpiler::VarKind;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("layer_norm", layer_norm);
    r.add("layer_norm_grad", layer_norm_grad);
    r.add("norm", norm);
    r.add("norm_grad", norm_grad);
    r.add("lrn", lrn);
    r.add("lrn_grad", lrn_grad);
    r.add("prelu", prelu);
    r.add("prelu_grad", prelu_grad);
    r.add("label_smooth", label_smooth);
    r.add("label_smooth_grad", label_smooth_grad);
    r.add("huber_loss", huber_loss);
    r.add("huber_loss_grad", huber_loss_grad);
    r.add("spectral_norm", |l| spectral_norm(l, false));
    r.add("spectral_norm_grad", |l| spectral_norm(l, true));
    r.add("batch_norm", batch_norm);
    r.add("batch_norm_grad", batch_norm_grad);
    r.add("affine_channel", affine_channel);
    r.add("affine_channel_grad", affine_channel_grad);
    r.add("data_norm", data_norm);
    r.add("data_norm_grad", data_norm_grad);
    r.add("instance_norm", |l| grouped_norm(l, Grouping::Instance));
    r.add("group_norm", |l| grouped_norm(l, Grouping::Group));
    r.add("instance_norm_grad", |l| {
        grouped_norm_grad(l, Grouping::Instance)
    });
    r.add("group_norm_grad", |l| grouped_norm_grad(l, Grouping::Group));
}

/// `(rows, cols)` of `shape` flattened at `axis`.
fn rows_cols(shape: &[i64], axis: i64, op: &str) -> Result<(usize, usize), KernelError> {
    if axis < 1 || axis as usize >= shape.len().max(1) {
        return Err(KernelError::Shape(format!(
            "{op}: begin_norm_axis {axis} is out of range for shape {shape:?}"
        )));
    }
    let u: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
    let (l, r) = u.split_at(axis as usize);
    Ok((l.iter().product(), r.iter().product()))
}

/// A per-column parameter (`Scale`, `Bias`) of `cols` values, or `fill`.
fn per_column(
    s: &crate::scope::Vars,
    r: &Option<crate::scope::VarRef>,
    cols: usize,
    fill: f64,
    op: &str,
) -> Result<Vec<f64>, KernelError> {
    let Some(r) = r else {
        return Ok(vec![fill; cols]);
    };
    let v = f64s(&*s.tensor(r)?, op)?.into_owned();
    if v.len() != cols {
        return Err(KernelError::Shape(format!(
            "{op}: a scale or bias of {} values for rows of {cols}",
            v.len()
        )));
    }
    Ok(v)
}

/// `layer_norm`: each row (the dims from `begin_norm_axis` on) normalized
/// by its own mean and (biased) variance, then scaled and shifted per
/// column. `Mean` and `Variance` keep each row's statistics, one vector
/// of them (1.x's `{left}`).
fn layer_norm(l: &OpReader) -> Result<Exec, KernelError> {
    let x = l.input("X")?;
    let (scale, bias) = (l.opt_input("Scale")?, l.opt_input("Bias")?);
    let y = l.output("Y")?;
    let (mean_out, var_out) = (l.opt_output("Mean")?, l.opt_output("Variance")?);
    let eps = l.float("epsilon")?;
    let axis = l.int("begin_norm_axis")?;
    compute(move |s| {
        let op = "layer_norm";
        let xt = s.tensor(&x)?.into_owned();
        let (rows, cols) = rows_cols(xt.shape(), axis, op)?;
        let xv = f64s(&xt, op)?;
        let sc = per_column(s, &scale, cols, 1.0, op)?;
        let bi = per_column(s, &bias, cols, 0.0, op)?;
        let (mut mean, mut var) = (vec![0.0; rows], vec![0.0; rows]);
        let mut yv = vec![0.0; xv.len()];
        for r in 0..rows {
            let row = &xv[r * cols..(r + 1) * cols];
            let m = row.iter().sum::<f64>() / cols as f64;
            let v = row.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / cols as f64;
            let inv = 1.0 / (v + eps).sqrt();
            for (k, a) in row.iter().enumerate() {
                yv[r * cols + k] = (a - m) * inv * sc[k] + bi[k];
            }
            (mean[r], var[r]) = (m, v);
        }
        let dtype = xt.dtype();
        s.set_tensor(&y, float::tensor(dtype, xt.shape(), yv)?);
        for (r, v) in [(&mean_out, mean), (&var_out, var)] {
            if let Some(r) = r {
                s.set_tensor(r, float::tensor(dtype, &[rows as i64], v)?);
            }
        }
        Ok(())
    })
}

/// Its grad, with `x̂` a row normalized and `g = dY * scale`:
/// `dX = inv_std (g - mean(g) - x̂ mean(g x̂))`, `dScale = sum_rows dY x̂`,
/// `dBias = sum_rows dY`.
fn layer_norm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dy) = (l.input("X")?, l.input("Y@GRAD")?);
    let (mean, var) = (l.input("Mean")?, l.input("Variance")?);
    let scale = l.opt_input("Scale")?;
    let (dx, dscale, dbias) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("Scale@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let eps = l.float("epsilon")?;
    let axis = l.int("begin_norm_axis")?;
    compute(move |s| {
        let op = "layer_norm_grad";
        let xt = s.tensor(&x)?.into_owned();
        let (rows, cols) = rows_cols(xt.shape(), axis, op)?;
        let xv = f64s(&xt, op)?;
        let d = f64s(&*s.tensor(&dy)?, op)?.into_owned();
        let m = f64s(&*s.tensor(&mean)?, op)?.into_owned();
        let v = f64s(&*s.tensor(&var)?, op)?.into_owned();
        let sc = per_column(s, &scale, cols, 1.0, op)?;
        if d.len() != xv.len() || m.len() != rows || v.len() != rows {
            return Err(KernelError::Shape(format!(
                "{op}: inputs do not fit X {:?}",
                xt.shape()
            )));
        }
        let (mut g, mut ds, mut db) = (vec![0.0; xv.len()], vec![0.0; cols], vec![0.0; cols]);
        for r in 0..rows {
            let inv = 1.0 / (v[r] + eps).sqrt();
            let at = r * cols;
            let xh = |k: usize| (xv[at + k] - m[r]) * inv;
            let (mut sum_g, mut sum_gx) = (0.0, 0.0);
            for k in 0..cols {
                let gy = d[at + k] * sc[k];
                sum_g += gy;
                sum_gx += gy * xh(k);
            }
            let (mean_g, mean_gx) = (sum_g / cols as f64, sum_gx / cols as f64);
            for k in 0..cols {
                g[at + k] = inv * (d[at + k] * sc[k] - mean_g - xh(k) * mean_gx);
                ds[k] += d[at + k] * xh(k);
                db[k] += d[at + k];
            }
        }
        let dtype = xt.dtype();
        let col = [cols as i64];
        set_grads(
            s,
            vec![
                (&dx, Some(float::tensor(dtype, xt.shape(), g)?)),
                (&dscale, Some(float::tensor(dtype, &col, ds)?)),
                (&dbias, Some(float::tensor(dtype, &col, db)?)),
            ],
        );
        Ok(())
    })
}

/// `norm`: `Norm = sqrt(sum(x²) + epsilon)` along `axis`, `Out = x / Norm`.
fn norm(l: &OpReader) -> Result<Exec, KernelError> {
    let x = l.input("X")?;
    let out = l.output("Out")?;
    let norm_out = l.opt_output("Norm")?;
    let axis = l.int_or("axis", -1)?;
    let eps = l.float("epsilon")?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let (outer, n, inner) = float::split_at_axis(xt.shape(), axis)?;
        let xv = f64s(&xt, "norm")?;
        let mut nv = vec![0.0; outer * inner];
        let mut ov = vec![0.0; xv.len()];
        for o in 0..outer {
            for i in 0..inner {
                let at = |k: usize| (o * n + k) * inner + i;
                let sq: f64 = (0..n).map(|k| xv[at(k)] * xv[at(k)]).sum();
                let nn = (sq + eps).sqrt();
                for k in 0..n {
                    ov[at(k)] = xv[at(k)] / nn;
                }
                nv[o * inner + i] = nn;
            }
        }
        let dtype = xt.dtype();
        let mut nshape = xt.shape().to_vec();
        let rank = nshape.len() as i64;
        nshape[(if axis < 0 { axis + rank } else { axis }) as usize] = 1;
        s.set_tensor(&out, float::tensor(dtype, xt.shape(), ov)?);
        if let Some(r) = &norm_out {
            s.set_tensor(r, float::tensor(dtype, &nshape, nv)?);
        }
        Ok(())
    })
}

/// Its grad: `dX = (dOut - Out sum(dOut Out)) / Norm` along `axis`.
fn norm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, norm_in, dout) = (l.input("X")?, l.input("Norm")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let axis = l.int_or("axis", -1)?;
    compute(move |s| {
        let op = "norm_grad";
        let xt = s.tensor(&x)?.into_owned();
        let (outer, n, inner) = float::split_at_axis(xt.shape(), axis)?;
        let xv = f64s(&xt, op)?;
        let nv = f64s(&*s.tensor(&norm_in)?, op)?.into_owned();
        let d = f64s(&*s.tensor(&dout)?, op)?.into_owned();
        if nv.len() != outer * inner || d.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "{op}: inputs do not fit X {:?}",
                xt.shape()
            )));
        }
        let mut g = vec![0.0; xv.len()];
        for o in 0..outer {
            for i in 0..inner {
                let at = |k: usize| (o * n + k) * inner + i;
                let nn = nv[o * inner + i];
                let dot: f64 = (0..n).map(|k| d[at(k)] * xv[at(k)] / nn).sum();
                for k in 0..n {
                    g[at(k)] = (d[at(k)] - xv[at(k)] / nn * dot) / nn;
                }
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `(n, c, plane)` of lrn's NCHW `X`, and its `n`, checked as the kernel
/// checks them (`n` odd, `k`, `alpha`, `beta` not negative).
fn lrn_dims(shape: &[i64], size: i64, op: &str) -> Result<(usize, usize, usize), KernelError> {
    let &[n, c, h, w] = shape else {
        return Err(KernelError::Shape(format!(
            "{op}: X must be NCHW (rank 4), got {shape:?}"
        )));
    };
    if size <= 0 || size % 2 == 0 {
        return Err(KernelError::Attribute(format!(
            "{op}: n should be positive odd value, got {size}"
        )));
    }
    let u = |d: i64| d.max(0) as usize;
    Ok((u(n), u(c), u(h) * u(w)))
}

/// `lrn`: `MidOut = k + alpha * sum of X^2 over channels c - (n-1)/2 ..=
/// c + (n-1)/2` (those that exist), `Out = X * MidOut^-beta`.
fn lrn(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, mid) = (l.input("X")?, l.output("Out")?, l.opt_output("MidOut")?);
    let size = l.int_or("n", 5)?;
    let (k, alpha, beta) = (
        l.float_or("k", 2.0)?,
        l.float_or("alpha", 1e-4)?,
        l.float_or("beta", 0.75)?,
    );
    for (name, v) in [("alpha", alpha), ("beta", beta), ("k", k)] {
        if v < 0.0 {
            return Err(KernelError::Attribute(format!(
                "lrn: {name} should >= 0.0, got {v}"
            )));
        }
    }
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let (n, c, plane) = lrn_dims(xt.shape(), size, "lrn")?;
        let xv = f64s(&xt, "lrn")?;
        let half = (size as usize - 1) / 2;
        let mut m = vec![k; xv.len()];
        for b in 0..n {
            for ch in 0..c {
                let lo = ch.saturating_sub(half);
                let hi = (ch + half).min(c.saturating_sub(1));
                for p in 0..plane {
                    let sum: f64 = (lo..=hi).map(|j| xv[(b * c + j) * plane + p].powi(2)).sum();
                    m[(b * c + ch) * plane + p] += alpha * sum;
                }
            }
        }
        let o: Vec<f64> = xv
            .iter()
            .zip(&m)
            .map(|(v, mi)| v * mi.powf(-beta))
            .collect();
        let dtype = xt.dtype();
        s.set_tensor(&out, float::tensor(dtype, xt.shape(), o)?);
        if let Some(r) = &mid {
            s.set_tensor(r, float::tensor(dtype, xt.shape(), m)?);
        }
        Ok(())
    })
}

/// `lrn_grad`: `dX_i = dOut_i MidOut_i^-beta - 2 alpha beta X_i sum over
/// the channels j around i of dOut_j Out_j / MidOut_j`.
fn lrn_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, mid, dout) = (
        l.input("X")?,
        l.input("Out")?,
        l.input("MidOut")?,
        l.input("Out@GRAD")?,
    );
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let size = l.int_or("n", 5)?;
    let (alpha, beta) = (l.float_or("alpha", 1e-4)?, l.float_or("beta", 0.75)?);
    compute(move |s| {
        let op = "lrn_grad";
        let xt = s.tensor(&x)?.into_owned();
        let (n, c, plane) = lrn_dims(xt.shape(), size, op)?;
        let xv = f64s(&xt, op)?;
        let ov = f64s(&*s.tensor(&out)?, op)?.into_owned();
        let mv = f64s(&*s.tensor(&mid)?, op)?.into_owned();
        let d = f64s(&*s.tensor(&dout)?, op)?.into_owned();
        if ov.len() != xv.len() || mv.len() != xv.len() || d.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "{op}: Out, MidOut and Out@GRAD must have X's shape {:?}",
                xt.shape()
            )));
        }
        let half = (size as usize - 1) / 2;
        let ratio = -2.0 * alpha * beta;
        let mut g = vec![0.0; xv.len()];
        for b in 0..n {
            for ch in 0..c {
                let lo = ch.saturating_sub(half);
                let hi = (ch + half).min(c.saturating_sub(1));
                for p in 0..plane {
                    let i = (b * c + ch) * plane + p;
                    let around: f64 = (lo..=hi)
                        .map(|j| {
                            let at = (b * c + j) * plane + p;
                            d[at] * ov[at] / mv[at]
                        })
                        .sum();
                    g[i] = mv[i].powf(-beta) * d[i] + ratio * xv[i] * around;
                }
            }
        }
        s.set_tensor(&dx, float::tensor(xt.dtype(), xt.shape(), g)?);
        Ok(())
    })
}

/// Which element of `Alpha` each element of `X` uses: prelu's `mode`.
#[derive(Debug, Clone, Copy)]
enum AlphaOf {
    All,
    /// Channel `(i / inner) % channels` (NCHW) or `i % channels` (NHWC).
    Channel {
        channels: usize,
        inner: usize,
    },
    /// `i % per_sample`.
    Element {
        per_sample: usize,
    },
}

impl AlphaOf {
    fn new(mode: &str, nhwc: bool, shape: &[i64], alphas: usize) -> Result<AlphaOf, KernelError> {
        let u: Vec<usize> = shape.iter().map(|&d| d.max(0) as usize).collect();
        let (of, want) = match mode {
            "all" => (AlphaOf::All, 1),
            "channel" if u.len() >= 2 => {
                let (channels, inner) = if nhwc {
                    (u[u.len() - 1], 1)
                } else {
                    (u[1], u[2..].iter().product())
                };
                (AlphaOf::Channel { channels, inner }, channels)
            }
            "element" if !u.is_empty() => {
                let per_sample = u[1..].iter().product();
                (AlphaOf::Element { per_sample }, per_sample)
            }
            _ => {
                return Err(KernelError::Attribute(format!(
                    "prelu: mode '{mode}' does not fit X {shape:?}"
                )))
            }
        };
        if alphas != want {
            return Err(KernelError::Shape(format!(
                "prelu: Alpha has {alphas} values; mode '{mode}' on X {shape:?} needs {want}"
            )));
        }
        Ok(of)
    }

    fn index(self, i: usize) -> usize {
        match self {
            AlphaOf::All => 0,
            AlphaOf::Channel { channels, inner } => (i / inner.max(1)) % channels.max(1),
            AlphaOf::Element { per_sample } => i % per_sample.max(1),
        }
    }
}

/// What prelu and its grad read: `X`, `Alpha` (as a tensor and as
/// values), and where each `X` element's alpha is.
type PreluInputs = (Tensor, Tensor, Vec<f64>, AlphaOf);

fn prelu_inputs(
    s: &crate::scope::Vars,
    x: &crate::scope::VarRef,
    alpha: &crate::scope::VarRef,
    mode: &str,
    nhwc: bool,
    op: &str,
) -> Result<PreluInputs, KernelError> {
    let xt = s.tensor(x)?.into_owned();
    let at = s.tensor(alpha)?.into_owned();
    let a = f64s(&at, op)?.into_owned();
    let of = AlphaOf::new(mode, nhwc, xt.shape(), a.len())?;
    Ok((xt, at, a, of))
}

/// `prelu`: `x` where positive, `alpha x` elsewhere.
fn prelu(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, alpha, out) = (l.input("X")?, l.input("Alpha")?, l.output("Out")?);
    let mode = l.string("mode")?.unwrap_or("all").to_string();
    let nhwc = l.string("data_format")? == Some("NHWC");
    compute(move |s| {
        let (xt, _, a, of) = prelu_inputs(s, &x, &alpha, &mode, nhwc, "prelu")?;
        let v = f64s(&xt, "prelu")?
            .iter()
            .enumerate()
            .map(|(i, &v)| if v > 0.0 { v } else { a[of.index(i)] * v })
            .collect();
        s.set_tensor(&out, float::tensor(xt.dtype(), xt.shape(), v)?);
        Ok(())
    })
}

/// Its grad: `dX = dOut` where `x > 0`, else `alpha dOut`; `dAlpha` adds
/// up `x dOut` over the elements that use it where `x <= 0`.
fn prelu_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, alpha, dout) = (l.input("X")?, l.input("Alpha")?, l.input("Out@GRAD")?);
    let (dx, dalpha) = (l.opt_output("X@GRAD")?, l.opt_output("Alpha@GRAD")?);
    let mode = l.string("mode")?.unwrap_or("all").to_string();
    let nhwc = l.string("data_format")? == Some("NHWC");
    compute(move |s| {
        let op = "prelu_grad";
        let (xt, at, a, of) = prelu_inputs(s, &x, &alpha, &mode, nhwc, op)?;
        let xv = f64s(&xt, op)?;
        let d = f64s(&*s.tensor(&dout)?, op)?.into_owned();
        if d.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "{op}: Out@GRAD does not fit X {:?}",
                xt.shape()
            )));
        }
        let mut g = vec![0.0; xv.len()];
        let mut ga = vec![0.0; a.len()];
        for (i, (&v, &dv)) in xv.iter().zip(&d).enumerate() {
            let k = of.index(i);
            if v > 0.0 {
                g[i] = dv;
            } else {
                g[i] = a[k] * dv;
                ga[k] += v * dv;
            }
        }
        let gx = float::tensor(xt.dtype(), xt.shape(), g)?;
        let galpha = float::tensor(at.dtype(), at.shape(), ga)?;
        set_grads(s, vec![(&dx, Some(gx)), (&dalpha, Some(galpha))]);
        Ok(())
    })
}

/// `label_smooth`: `(1 - epsilon) x + epsilon prior`, the prior
/// `PriorDist` per class or uniform (`1 / classes`).
fn label_smooth(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let prior = l.opt_input("PriorDist")?;
    let eps = l.float("epsilon")?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let classes = xt.shape().last().map_or(1, |&d| d.max(1) as usize);
        let p = match &prior {
            Some(r) => f64s(&*s.tensor(r)?, "label_smooth")?.into_owned(),
            None => vec![1.0 / classes as f64; classes],
        };
        if p.len() != classes {
            return Err(KernelError::Shape(format!(
                "label_smooth: PriorDist has {} values for {classes} classes",
                p.len()
            )));
        }
        let v = f64s(&xt, "label_smooth")?
            .iter()
            .enumerate()
            .map(|(i, &v)| (1.0 - eps) * v + eps * p[i % classes])
            .collect();
        s.set_tensor(&out, float::tensor(xt.dtype(), xt.shape(), v)?);
        Ok(())
    })
}

/// Its grad: `(1 - epsilon) dOut`.
fn label_smooth_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let eps = l.float("epsilon")?;
    compute(move |s| {
        let dt = s.tensor(&dout)?.into_owned();
        let v = f64s(&dt, "label_smooth_grad")?
            .iter()
            .map(|&d| (1.0 - eps) * d)
            .collect();
        s.set_tensor(&dx, float::tensor(dt.dtype(), dt.shape(), v)?);
        Ok(())
    })
}

/// `huber_loss`: with `r = y - x`, `Out = r²/2` where `|r| <= delta`, else
/// `delta (|r| - delta/2)`; `Residual` keeps `r`.
fn huber_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.input("Y")?);
    let (out, residual) = (l.output("Out")?, l.opt_output("Residual")?);
    let delta = l.float_or("delta", 1.0)?;
    compute(move |s| {
        let op = "huber_loss";
        let xt = s.tensor(&x)?.into_owned();
        let yv = f64s(&*s.tensor(&y)?, op)?.into_owned();
        let xv = f64s(&xt, op)?;
        if yv.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "{op}: the label has {} values and the input {}",
                yv.len(),
                xv.len()
            )));
        }
        let r: Vec<f64> = yv.iter().zip(xv.iter()).map(|(b, a)| b - a).collect();
        let loss = r
            .iter()
            .map(|&r| {
                if r.abs() <= delta {
                    0.5 * r * r
                } else {
                    delta * (r.abs() - 0.5 * delta)
                }
            })
            .collect();
        let dtype = xt.dtype();
        s.set_tensor(&out, float::tensor(dtype, xt.shape(), loss)?);
        if let Some(rr) = &residual {
            s.set_tensor(rr, float::tensor(dtype, xt.shape(), r)?);
        }
        Ok(())
    })
}

/// Its grad: with `g = r` where `|r| <= delta`, else `delta sign(r)`:
/// `dX = -g dOut`, `dY = g dOut`.
fn huber_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (residual, dout) = (l.input("Residual")?, l.input("Out@GRAD")?);
    let (dx, dy) = (l.opt_output("X@GRAD")?, l.opt_output("Y@GRAD")?);
    let delta = l.float_or("delta", 1.0)?;
    compute(move |s| {
        let op = "huber_loss_grad";
        let rt = s.tensor(&residual)?.into_owned();
        let r = f64s(&rt, op)?;
        let d = f64s(&*s.tensor(&dout)?, op)?.into_owned();
        if d.len() != r.len() {
            return Err(KernelError::Shape(format!(
                "{op}: Out@GRAD does not fit Residual"
            )));
        }
        let g: Vec<f64> = r
            .iter()
            .zip(&d)
            .map(|(&r, &d)| {
                d * if r.abs() <= delta {
                    r
                } else {
                    delta * r.signum()
                }
            })
            .collect();
        let (dtype, shape) = (rt.dtype(), rt.shape());
        let neg = g.iter().map(|v| -v).collect();
        set_grads(
            s,
            vec![
                (&dx, Some(float::tensor(dtype, shape, neg)?)),
                (&dy, Some(float::tensor(dtype, shape, g)?)),
            ],
        );
        Ok(())
    })
}

/// (n, c, spatial) of a batch-norm input and the index of element
/// (n, c, i) for the layout.
fn bn_dims(shape: &[i64], nhwc: bool) -> Result<(usize, usize, usize), KernelError> {
    if shape.len() < 2 {
        return Err(KernelError::Shape(format!(
            "batch_norm needs rank 2 or more, got {shape:?}"
        )));
    }
    let u = |v: i64| v.max(0) as usize;
    let n = u(shape[0]);
    let c = if nhwc {
        u(shape[shape.len() - 1])
    } else {
        u(shape[1])
    };
    let total: usize = shape.iter().map(|&d| u(d)).product();
    Ok((n, c, total / (n * c).max(1)))
}

fn bn_index(nhwc: bool, (_, c, sp): (usize, usize, usize), b: usize, ch: usize, i: usize) -> usize {
    if nhwc {
        (b * sp + i) * c + ch
    } else {
        (b * c + ch) * sp + i
    }
}

fn bn_layout(l: &OpReader) -> Result<bool, KernelError> {
    match l.string("data_layout")?.unwrap_or("NCHW") {
        "NCHW" | "AnyLayout" => Ok(false),
        "NHWC" => Ok(true),
        other => Err(KernelError::Attribute(format!(
            "batch_norm: unknown data_layout {other}"
        ))),
    }
}

/// `batch_norm`: training normalizes with the batch's mean and (biased)
/// variance and folds them into the running ones with `momentum`;
/// `is_test`/`use_global_stats` normalize with the running ones.
/// `SavedVariance` is the inverse standard deviation, as Paddle saves it.
fn batch_norm(l: &OpReader) -> Result<Exec, KernelError> {
    let x = l.input("X")?;
    let (scale, bias) = (l.opt_input("Scale")?, l.opt_input("Bias")?);
    let (mean, var) = (l.input("Mean")?, l.input("Variance")?);
    let mom_t = l.opt_input("MomentumTensor")?;
    let y = l.output("Y")?;
    let (mean_out, var_out) = (l.opt_output("MeanOut")?, l.opt_output("VarianceOut")?);
    let (saved_mean, saved_var) = (l.opt_output("SavedMean")?, l.opt_output("SavedVariance")?);
    let global = l.bool("is_test")? || l.bool("use_global_stats")?;
    let momentum = l.float("momentum")?;
    let eps = l.float("epsilon")?;
    let nhwc = bn_layout(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let dims @ (n, c, sp) = bn_dims(xt.shape(), nhwc)?;
        let xv = f64s(&xt, "batch_norm")?;
        let param = |r: &Option<VarRef>, fill: f64| -> Result<Vec<f64>, KernelError> {
            match r {
                Some(r) => Ok(f64s(&*s.tensor(r)?, "batch_norm")?.into_owned()),
                None => Ok(vec![fill; c]),
            }
        };
        let (sc, bi) = (param(&scale, 1.0)?, param(&bias, 0.0)?);
        let (mt, vt) = (s.tensor(&mean)?.into_owned(), s.tensor(&var)?.into_owned());
        let (rm, rv) = (
            f64s(&mt, "batch_norm")?.into_owned(),
            f64s(&vt, "batch_norm")?.into_owned(),
        );
        if sc.len() != c || bi.len() != c || rm.len() != c || rv.len() != c {
            return Err(KernelError::Shape(format!(
                "batch_norm: the per-channel inputs must have {c} elements"
            )));
        }
        let momentum = match &mom_t {
            Some(r) => s.tensor(r)?.scalar_f64()?,
            None => momentum,
        };
        let m = (n * sp) as f64;
        if !global && n * sp == 1 {
            // 1.x's kernel: "Only 1 element in normalization dimension, we
            // skip the batch norm calculation, let y = x": the running
            // statistics stay, the saved ones are zeros.
            s.set_tensor(&y, xt.clone());
            for (r, t, v) in [(&mean_out, &mt, rm), (&var_out, &vt, rv)] {
                if let Some(r) = r {
                    s.set_tensor(r, float::tensor(t.dtype(), t.shape(), v)?);
                }
            }
            for (r, t) in [(&saved_mean, &mt), (&saved_var, &vt)] {
                if let Some(r) = r {
                    s.set_tensor(r, float::tensor(t.dtype(), &[c as i64], vec![0.0; c])?);
                }
            }
            return Ok(());
        }
        let (bm, bv) = if global {
            (rm.clone(), rv.clone())
        } else {
            let mut bm = vec![0.0; c];
            let mut bv = vec![0.0; c];
            for ch in 0..c {
                let mut sum = 0.0;
                for b in 0..n {
                    for i in 0..sp {
                        sum += xv[bn_index(nhwc, dims, b, ch, i)];
                    }
                }
                bm[ch] = sum / m;
                let mut sq = 0.0;
                for b in 0..n {
                    for i in 0..sp {
                        let d = xv[bn_index(nhwc, dims, b, ch, i)] - bm[ch];
                        sq += d * d;
                    }
                }
                bv[ch] = sq / m;
            }
            (bm, bv)
        };
        let inv: Vec<f64> = bv.iter().map(|v| 1.0 / (v + eps).sqrt()).collect();
        let mut yv = vec![0.0; xv.len()];
        for b in 0..n {
            for ch in 0..c {
                for i in 0..sp {
                    let at = bn_index(nhwc, dims, b, ch, i);
                    yv[at] = (xv[at] - bm[ch]) * inv[ch] * sc[ch] + bi[ch];
                }
            }
        }
        let dtype = xt.dtype();
        let yt = float::tensor(dtype, xt.shape(), yv)?;
        let (new_m, new_v): (Vec<f64>, Vec<f64>) = if global {
            (rm.clone(), rv.clone())
        } else {
            (
                rm.iter()
                    .zip(&bm)
                    .map(|(r, b)| r * momentum + b * (1.0 - momentum))
                    .collect(),
                rv.iter()
                    .zip(&bv)
                    .map(|(r, b)| r * momentum + b * (1.0 - momentum))
                    .collect(),
            )
        };
        s.set_tensor(&y, yt);
        if let Some(r) = &mean_out {
            s.set_tensor(r, float::tensor(mt.dtype(), mt.shape(), new_m)?);
        }
        if let Some(r) = &var_out {
            s.set_tensor(r, float::tensor(vt.dtype(), vt.shape(), new_v)?);
        }
        if let Some(r) = &saved_mean {
            s.set_tensor(r, float::tensor(mt.dtype(), &[c as i64], bm)?);
        }
        if let Some(r) = &saved_var {
            s.set_tensor(r, float::tensor(vt.dtype(), &[c as i64], inv)?);
        }
        Ok(())
    })
}

/// `batch_norm_grad`: from the saved batch statistics (or, with global
/// statistics, the running ones): `dbias = sum dy`, `dscale = sum dy x̂`,
/// `dx = scale inv_std (dy - dbias / m - x̂ dscale / m)` (global: `dx =
/// scale inv_std dy`).
fn batch_norm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dy) = (l.input("X")?, l.input("Y@GRAD")?);
    let scale = l.opt_input("Scale")?;
    let (saved_mean, saved_var) = (l.input("SavedMean")?, l.input("SavedVariance")?);
    let (mean_out, var_out) = (l.opt_input("MeanOut")?, l.opt_input("VarianceOut")?);
    let (dx, dscale, dbias) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("Scale@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let global = l.bool("is_test")? || l.bool("use_global_stats")?;
    let eps = l.float("epsilon")?;
    let nhwc = bn_layout(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let dims @ (n, c, sp) = bn_dims(xt.shape(), nhwc)?;
        let xv = f64s(&xt, "batch_norm_grad")?;
        let dt = s.tensor(&dy)?.into_owned();
        let d = f64s(&dt, "batch_norm_grad")?;
        let read = |r: &VarRef| -> Result<Vec<f64>, KernelError> {
            Ok(f64s(&*s.tensor(r)?, "batch_norm_grad")?.into_owned())
        };
        let sc = match &scale {
            Some(r) => read(r)?,
            None => vec![1.0; c],
        };
        let (mean, inv) = match (global, &mean_out, &var_out) {
            (true, Some(m), Some(v)) => {
                let v = read(v)?;
                (read(m)?, v.iter().map(|v| 1.0 / (v + eps).sqrt()).collect())
            }
            _ => (read(&saved_mean)?, read(&saved_var)?),
        };
        if sc.len() != c || mean.len() != c || inv.len() != c || d.len() != xv.len() {
            return Err(KernelError::Shape(
                "batch_norm_grad: inputs do not fit X".into(),
            ));
        }
        let m = (n * sp) as f64;
        let mut db = vec![0.0; c];
        let mut ds = vec![0.0; c];
        // One element per channel: the forward let y = x (see there), so
        // the gradient passes through and Scale and Bias get none.
        let single = !global && n * sp == 1;
        for b in (0..n).filter(|_| !single) {
            for ch in 0..c {
                for i in 0..sp {
                    let at = bn_index(nhwc, dims, b, ch, i);
                    db[ch] += d[at];
                    ds[ch] += d[at] * (xv[at] - mean[ch]) * inv[ch];
                }
            }
        }
        let mut g = vec![0.0; xv.len()];
        for b in 0..n {
            for ch in 0..c {
                for i in 0..sp {
                    let at = bn_index(nhwc, dims, b, ch, i);
                    g[at] = if single {
                        d[at]
                    } else if global {
                        sc[ch] * inv[ch] * d[at]
                    } else {
                        let xh = (xv[at] - mean[ch]) * inv[ch];
                        sc[ch] * inv[ch] * (d[at] - db[ch] / m - xh * ds[ch] / m)
                    };
                }
            }
        }
        let dtype = xt.dtype();
        if let Some(r) = &dx {
            s.set_tensor(r, float::tensor(dtype, xt.shape(), g)?);
        }
        if let Some(r) = &dscale {
            s.set_tensor(r, float::tensor(dtype, &[c as i64], ds)?);
        }
        if let Some(r) = &dbias {
            s.set_tensor(r, float::tensor(dtype, &[c as i64], db)?);
        }
        Ok(())
    })
}

/// `affine_channel`'s `X` as `[outer, channels, inner]` around its channel
/// dim (1, or the last with NHWC), checked against `Scale` and `Bias`.
fn affine_split(
    x: &[i64],
    nhwc: bool,
    scale: usize,
    bias: usize,
) -> Result<(usize, usize, usize), KernelError> {
    if x.len() < 2 {
        return Err(KernelError::Shape(format!(
            "affine_channel: X must have a rank of at least 2, it is {x:?}"
        )));
    }
    let axis = if nhwc { x.len() as i64 - 1 } else { 1 };
    let (outer, c, inner) = float::split_at_axis(x, axis)?;
    if scale != c || bias != c {
        return Err(KernelError::Shape(format!(
            "affine_channel: Scale ({scale}) and Bias ({bias}) must hold one value per channel of X {x:?}"
        )));
    }
    Ok((outer, c, inner))
}

/// `affine_channel`: `X * Scale[c] + Bias[c]`, `c` each element's channel.
fn affine_channel(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, scale, bias, out) = (
        l.input("X")?,
        l.input("Scale")?,
        l.input("Bias")?,
        l.output("Out")?,
    );
    let nhwc = l.string("data_layout")? == Some("NHWC");
    compute(move |s| {
        let (xt, st, bt) = (s.tensor(&x)?, s.tensor(&scale)?, s.tensor(&bias)?);
        let (xv, sv, bv) = (
            f64s(&xt, "affine_channel")?,
            f64s(&st, "affine_channel")?,
            f64s(&bt, "affine_channel")?,
        );
        let (outer, c, inner) = affine_split(xt.shape(), nhwc, sv.len(), bv.len())?;
        let mut o = Vec::with_capacity(xv.len());
        for b in 0..outer {
            for k in 0..c {
                let at = (b * c + k) * inner;
                o.extend(xv[at..at + inner].iter().map(|v| v * sv[k] + bv[k]));
            }
        }
        let r = float::tensor(xt.dtype(), xt.shape(), o)?;
        drop((xt, st, bt));
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `affine_channel_grad`: `X@GRAD = Out@GRAD * Scale[c]`, `Scale@GRAD[c]`
/// the sum of `Out@GRAD * X` over channel `c`, `Bias@GRAD[c]` that of
/// `Out@GRAD`.
fn affine_channel_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, scale, dout) = (l.input("X")?, l.input("Scale")?, l.input("Out@GRAD")?);
    let (dx, dscale, dbias) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("Scale@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let nhwc = l.string("data_layout")? == Some("NHWC");
    compute(move |s| {
        let (xt, st, dt) = (s.tensor(&x)?, s.tensor(&scale)?, s.tensor(&dout)?);
        let (xv, sv, d) = (
            f64s(&xt, "affine_channel_grad")?,
            f64s(&st, "affine_channel_grad")?,
            f64s(&dt, "affine_channel_grad")?,
        );
        let (outer, c, inner) = affine_split(xt.shape(), nhwc, sv.len(), sv.len())?;
        if d.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "affine_channel_grad: Out@GRAD {:?} does not fit X {:?}",
                dt.shape(),
                xt.shape()
            )));
        }
        // Sums start at -0.0, the identity of addition, as Paddle's do: a
        // channel whose terms are all -0.0 sums to -0.0.
        let (mut gx, mut gs, mut gb) = (vec![0.0; xv.len()], vec![-0.0; c], vec![-0.0; c]);
        for b in 0..outer {
            for k in 0..c {
                for i in 0..inner {
                    let at = (b * c + k) * inner + i;
                    gx[at] = d[at] * sv[k];
                    gs[k] += d[at] * xv[at];
                    gb[k] += d[at];
                }
            }
        }
        let dtype = dt.dtype();
        let (xs, ss) = (xt.shape().to_vec(), st.shape().to_vec());
        drop((xt, st, dt));
        set_grads(
            s,
            vec![
                (&dx, Some(float::tensor(dtype, &xs, gx)?)),
                (&dscale, Some(float::tensor(dtype, &ss, gs)?)),
                (&dbias, Some(float::tensor(dtype, &ss, gb)?)),
            ],
        );
        Ok(())
    })
}

/// Which statistics [`grouped_norm`] keeps: `instance_norm`'s per sample
/// and channel (`SavedMean`, and `SavedVariance` holding the inverse
/// standard deviation, as Paddle's kernel saved it), or `group_norm`'s per
/// sample and group of channels (`Mean`, `Variance`).
#[derive(Clone, Copy, PartialEq)]
enum Grouping {
    Instance,
    Group,
}

impl Grouping {
    fn slots(self) -> (&'static str, &'static str) {
        match self {
            Grouping::Instance => ("SavedMean", "SavedVariance"),
            Grouping::Group => ("Mean", "Variance"),
        }
    }
}

/// `X` `[N, C, ...]` seen as `N * groups` groups of `channels / groups`
/// channels of `inner` values: (samples, channels, groups, inner).
fn group_dims(
    shape: &[i64],
    groups: Option<i64>,
    op: &str,
) -> Result<(usize, usize, usize, usize), KernelError> {
    if shape.len() < 2 {
        return Err(KernelError::Shape(format!(
            "{op}: X {shape:?} must be [N, C, ...]"
        )));
    }
    let (n, c) = (shape[0].max(0) as usize, shape[1].max(0) as usize);
    let inner = shape[2..].iter().product::<i64>().max(0) as usize;
    let g = match groups {
        None => c,
        Some(g) => usize::try_from(g)
            .ok()
            .filter(|&g| g > 0 && c % g == 0)
            .ok_or_else(|| {
                KernelError::Attribute(format!("{op}: groups {g} must divide the {c} channels"))
            })?,
    };
    Ok((n, c, g, inner))
}

/// `instance_norm` and `group_norm`: each group's values normalized by
/// its own mean and biased variance, then scaled and shifted per channel.
fn grouped_norm(l: &OpReader, kind: Grouping) -> Result<Exec, KernelError> {
    let x = l.input("X")?;
    let (scale, bias) = (l.opt_input("Scale")?, l.opt_input("Bias")?);
    let y = l.output("Y")?;
    let (mean_slot, var_slot) = kind.slots();
    let (mean_out, var_out) = (l.opt_output(mean_slot)?, l.opt_output(var_slot)?);
    let eps = l.float("epsilon")?;
    let groups = match kind {
        Grouping::Group => Some(l.int("groups")?),
        Grouping::Instance => None,
    };
    if kind == Grouping::Group && l.string("data_layout")?.is_some_and(|d| d != "NCHW") {
        return Err(KernelError::Unsupported(
            "group_norm takes NCHW only".into(),
        ));
    }
    compute(move |s| {
        let op = l_name(kind);
        let xt = s.tensor(&x)?.into_owned();
        let (n, c, g, inner) = group_dims(xt.shape(), groups, op)?;
        let xv = f64s(&xt, op)?;
        let sc = per_column(s, &scale, c, 1.0, op)?;
        let bi = per_column(s, &bias, c, 0.0, op)?;
        let span = c / g.max(1) * inner;
        let (mut mean, mut var) = (vec![0.0; n * g], vec![0.0; n * g]);
        let mut yv = vec![0.0; xv.len()];
        for k in 0..n * g {
            let vals = &xv[k * span..(k + 1) * span];
            let m = vals.iter().sum::<f64>() / span.max(1) as f64;
            let v = vals.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / span.max(1) as f64;
            let inv = 1.0 / (v + eps).sqrt();
            for (i, a) in vals.iter().enumerate() {
                let ch = (k % g) * (c / g) + i / inner.max(1);
                yv[k * span + i] = (a - m) * inv * sc[ch] + bi[ch];
            }
            mean[k] = m;
            var[k] = if kind == Grouping::Instance { inv } else { v };
        }
        let dtype = xt.dtype();
        s.set_tensor(&y, float::tensor(dtype, xt.shape(), yv)?);
        let stats: Vec<i64> = match kind {
            Grouping::Instance => vec![(n * c) as i64],
            Grouping::Group => vec![n as i64, g as i64],
        };
        for (r, v) in [(&mean_out, mean), (&var_out, var)] {
            if let Some(r) = r {
                s.set_tensor(r, float::tensor(dtype, &stats, v)?);
            }
        }
        Ok(())
    })
}

fn l_name(kind: Grouping) -> &'static str {
    match kind {
        Grouping::Instance => "instance_norm",
        Grouping::Group => "group_norm",
    }
}

/// Their grads, each group as `layer_norm_grad`'s row (the statistics
/// recomputed from `X`), with `g = dY * scale` of the value's channel:
/// `dX = inv_std (g - mean(g) - x̂ mean(g x̂))`, `dScale` and `dBias` the
/// per-channel sums of `dY x̂` and `dY`.
fn grouped_norm_grad(l: &OpReader, kind: Grouping) -> Result<Exec, KernelError> {
    let (x, dy) = (l.input("X")?, l.input("Y@GRAD")?);
    let scale = l.opt_input("Scale")?;
    let (dx, dscale, dbias) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("Scale@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let eps = l.float("epsilon")?;
    let groups = match kind {
        Grouping::Group => Some(l.int("groups")?),
        Grouping::Instance => None,
    };
    compute(move |s| {
        let op = l_name(kind);
        let xt = s.tensor(&x)?.into_owned();
        let (n, c, g, inner) = group_dims(xt.shape(), groups, op)?;
        let xv = f64s(&xt, op)?;
        let d = f64s(&*s.tensor(&dy)?, op)?.into_owned();
        if d.len() != xv.len() {
            return Err(KernelError::Shape(format!(
                "{op}_grad: Y@GRAD does not fit X {:?}",
                xt.shape()
            )));
        }
        let sc = per_column(s, &scale, c, 1.0, op)?;
        let span = c / g.max(1) * inner;
        let (mut gx, mut ds, mut db) = (vec![0.0; xv.len()], vec![0.0; c], vec![0.0; c]);
        for k in 0..n * g {
            let at = k * span;
            let vals = &xv[at..at + span];
            let m = vals.iter().sum::<f64>() / span.max(1) as f64;
            let v = vals.iter().map(|a| (a - m) * (a - m)).sum::<f64>() / span.max(1) as f64;
            let inv = 1.0 / (v + eps).sqrt();
            let ch = |i: usize| (k % g) * (c / g) + i / inner.max(1);
            let (mut sum_g, mut sum_gx) = (0.0, 0.0);
            for i in 0..span {
                let gy = d[at + i] * sc[ch(i)];
                sum_g += gy;
                sum_gx += gy * (vals[i] - m) * inv;
            }
            let (mean_g, mean_gx) = (sum_g / span.max(1) as f64, sum_gx / span.max(1) as f64);
            for i in 0..span {
                let xh = (vals[i] - m) * inv;
                gx[at + i] = inv * (d[at + i] * sc[ch(i)] - mean_g - xh * mean_gx);
                ds[ch(i)] += d[at + i] * xh;
                db[ch(i)] += d[at + i];
            }
        }
        let dtype = xt.dtype();
        let col = [c as i64];
        set_grads(
            s,
            vec![
                (&dx, Some(float::tensor(dtype, xt.shape(), gx)?)),
                (&dscale, Some(float::tensor(dtype, &col, ds)?)),
                (&dbias, Some(float::tensor(dtype, &col, db)?)),
            ],
        );
        Ok(())
    })
}

/// `Weight` as the `[h, w]` matrix `spectral_norm` normalizes: `dim`
/// moved first (1.x's transpose), the rest flattened. Returns the matrix
/// and, for `dim` 1, the shape of the transposed tensor.
fn dim_first(v: &[f64], dims: &[usize], dim: usize) -> Vec<f64> {
    if dim == 0 {
        return v.to_vec();
    }
    // dim 1: swap the first two axes.
    let (a, b) = (dims[0], dims[1]);
    let inner: usize = dims[2..].iter().product();
    let mut out = vec![0.0; v.len()];
    for i in 0..a {
        for j in 0..b {
            let (src, dst) = ((i * b + j) * inner, (j * a + i) * inner);
            out[dst..dst + inner].copy_from_slice(&v[src..src + inner]);
        }
    }
    out
}

/// The inverse of [`dim_first`] (swapping the first two axes back).
fn dim_back(v: &[f64], dims: &[usize], dim: usize) -> Vec<f64> {
    if dim == 0 {
        return v.to_vec();
    }
    let mut swapped = dims.to_vec();
    swapped.swap(0, 1);
    dim_first(v, &swapped, 1)
}

/// `spectral_norm` and its grad (1.x's kernels): with `u`, `v` copies of
/// `U`, `V` (the inputs stay unchanged), `power_iters` rounds of `v =
/// W^T u / (|W^T u| + eps)`, `u = W v / (|W v| + eps)`; `sigma = u . W v`;
/// `Out = W / sigma`. The grad is 1.x's formula (which 3.3.1 keeps):
/// `dW = dOut (1 - u v^T sum(W / sigma)) / sigma`.
fn spectral_norm(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let (weight, u_in, v_in) = (l.input("Weight")?, l.input("U")?, l.input("V")?);
    let (dout, out) = if grad {
        (Some(l.input("Out@GRAD")?), l.opt_output("Weight@GRAD")?)
    } else {
        (None, Some(l.output("Out")?))
    };
    let Some(out) = out else {
        return compute(|_| Ok(()));
    };
    let dim = match l.int("dim")? {
        d @ (0 | 1) => d as usize,
        d => {
            return Err(KernelError::Attribute(format!(
                "Attr(dim) can only be 0 or 1, it is {d}"
            )))
        }
    };
    let iters = usize::try_from(l.int("power_iters")?).map_err(|_| {
        KernelError::Attribute("Attr(power_iters) should be greater equal then 0".into())
    })?;
    let eps = l.float("eps")?;
    compute(move |s| {
        let wt = s.tensor(&weight)?;
        let dims: Vec<usize> = wt.shape().iter().map(|&d| d.max(0) as usize).collect();
        if !(2..=5).contains(&dims.len()) {
            return Err(KernelError::Shape(format!(
                "spectral_norm: the rank of Weight can only be 2 to 5, it is {:?}",
                wt.shape()
            )));
        }
        let h = dims[dim];
        let w = dims.iter().product::<usize>() / h.max(1);
        let single = wt.dtype() == fluidc_transpiler::VarKind::Fp32;
        let eps = if single { f64::from(eps as f32) } else { eps };
        let (ut, vt) = (s.tensor(&u_in)?, s.tensor(&v_in)?);
        let mut u = f64s(&ut, "spectral_norm")?.into_owned();
        let mut v = f64s(&vt, "spectral_norm")?.into_owned();
        if u.len() != h || v.len() != w {
            return Err(KernelError::Shape(format!(
                "spectral_norm: U {:?} and V {:?} do not fit Weight {:?} with dim {dim} ([{h}] and [{w}])",
                ut.shape(),
                vt.shape(),
                wt.shape()
            )));
        }
        let m = dim_first(&f64s(&wt, "spectral_norm")?, &dims, dim);
        let normalize = |x: &mut Vec<f64>| {
            let n = x.iter().map(|a| a * a).sum::<f64>().sqrt() + eps;
            x.iter_mut().for_each(|a| *a /= n);
        };
        let mat_v = |v: &[f64]| -> Vec<f64> {
            (0..h)
                .map(|i| (0..w).map(|j| m[i * w + j] * v[j]).sum())
                .collect()
        };
        for _ in 0..iters {
            v = (0..w)
                .map(|j| (0..h).map(|i| m[i * w + j] * u[i]).sum())
                .collect();
            normalize(&mut v);
            u = mat_v(&v);
            normalize(&mut u);
        }
        let sigma: f64 = u.iter().zip(mat_v(&v)).map(|(a, b)| a * b).sum();
        let normed: Vec<f64> = m.iter().map(|x| x / sigma).collect();
        let result = match &dout {
            None => normed,
            Some(d) => {
                let dt = s.tensor(d)?;
                if dt.shape() != wt.shape() {
                    return Err(KernelError::Shape(format!(
                        "spectral_norm_grad: Out@GRAD {:?} does not fit Weight {:?}",
                        dt.shape(),
                        wt.shape()
                    )));
                }
                let dm = dim_first(&f64s(&dt, "spectral_norm_grad")?, &dims, dim);
                let total: f64 = normed.iter().sum();
                (0..h * w)
                    .map(|k| dm[k] * (1.0 - u[k / w] * v[k % w] * total) / sigma)
                    .collect()
            }
        };
        let t = float::tensor(wt.dtype(), wt.shape(), dim_back(&result, &dims, dim))?;
        drop((wt, ut, vt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X`'s dims and dtype, and the values of `X` and the three statistics.
type DataNormInputs = (Vec<i64>, VarKind, Vec<Vec<f64>>);

/// `data_norm`'s `X` as `[N, C]` (1.x's kernels take 2-D input only) and
/// the three batch statistics, each `[C]`.
fn data_norm_inputs(
    s: &crate::scope::Vars,
    refs: &[VarRef; 4],
    op: &str,
) -> Result<DataNormInputs, KernelError> {
    let xt = s.tensor(&refs[0])?;
    if xt.shape().len() != 2 {
        return Err(KernelError::Shape(format!(
            "{op}: The Input dim size should be 2, X is {:?}",
            xt.shape()
        )));
    }
    let c = xt.shape()[1].max(0) as usize;
    let mut values = vec![f64s(&xt, op)?.into_owned()];
    for r in &refs[1..] {
        let t = s.tensor(r)?;
        if t.dtype() != xt.dtype() || t.shape() != [c as i64] {
            return Err(KernelError::Shape(format!(
                "{op}: the batch statistics must be [{c}] of X's dtype, got {:?}",
                t.shape()
            )));
        }
        values.push(f64s(&t, op)?.into_owned());
    }
    Ok((xt.shape().to_vec(), xt.dtype(), values))
}

fn data_norm_refs(l: &OpReader) -> Result<[VarRef; 4], KernelError> {
    Ok([
        l.input("X")?,
        l.input("BatchSize")?,
        l.input("BatchSum")?,
        l.input("BatchSquareSum")?,
    ])
}

/// `data_norm` (1.x's CTR normalization): per column `Means = BatchSum /
/// BatchSize`, `Scales = sqrt(BatchSize / BatchSquareSum)`, `Y = (X -
/// Means) * Scales`, in `X`'s precision.
fn data_norm(l: &OpReader) -> Result<Exec, KernelError> {
    let refs = data_norm_refs(l)?;
    let (y, means, scales) = (l.output("Y")?, l.output("Means")?, l.output("Scales")?);
    compute(move |s| {
        let (dims, dtype, v) = data_norm_inputs(s, &refs, "data_norm")?;
        let r = |x: f64| {
            if dtype == VarKind::Fp32 {
                f64::from(x as f32)
            } else {
                x
            }
        };
        let c = dims[1] as usize;
        let m: Vec<f64> = (0..c).map(|j| r(v[2][j] / v[1][j])).collect();
        let sc: Vec<f64> = (0..c).map(|j| r(r(v[1][j] / v[3][j]).sqrt())).collect();
        let out: Vec<f64> = v[0]
            .iter()
            .enumerate()
            .map(|(k, &x)| r(x - m[k % c]) * sc[k % c])
            .collect();
        let lod = s.tensor(&refs[0])?.lod().to_vec();
        s.set_tensor(&y, float::tensor(dtype, &dims, out)?.with_lod(lod));
        s.set_tensor(&means, float::tensor(dtype, &[c as i64], m)?);
        s.set_tensor(&scales, float::tensor(dtype, &[c as i64], sc)?);
        Ok(())
    })
}

/// `data_norm_grad` as 1.x's kernel computed it: `X@GRAD = Y@GRAD *
/// Scales`; the statistics' "gradients" are this batch's: `BatchSize@GRAD
/// = N`, `BatchSum@GRAD` the column sums of `X`, `BatchSquareSum@GRAD` the
/// column sums of `(X - Means)^2` plus `N * epsilon`.
fn data_norm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let refs = data_norm_refs(l)?;
    let (dy, means, scales) = (l.input("Y@GRAD")?, l.input("Means")?, l.input("Scales")?);
    let outs = [
        l.opt_output("X@GRAD")?,
        l.opt_output("BatchSize@GRAD")?,
        l.opt_output("BatchSum@GRAD")?,
        l.opt_output("BatchSquareSum@GRAD")?,
    ];
    let eps = f64::from(l.float("epsilon")? as f32);
    compute(move |s| {
        let (dims, dtype, v) = data_norm_inputs(s, &refs, "data_norm_grad")?;
        let r = |x: f64| {
            if dtype == VarKind::Fp32 {
                f64::from(x as f32)
            } else {
                x
            }
        };
        let (n, c) = (dims[0] as usize, dims[1] as usize);
        let (mt, st, dt) = (s.tensor(&means)?, s.tensor(&scales)?, s.tensor(&dy)?);
        let (m, sc, d) = (
            f64s(&mt, "data_norm_grad")?.into_owned(),
            f64s(&st, "data_norm_grad")?.into_owned(),
            f64s(&dt, "data_norm_grad")?.into_owned(),
        );
        if m.len() != c || sc.len() != c || d.len() != n * c {
            return Err(KernelError::Shape(format!(
                "data_norm_grad: Means {:?}, Scales {:?} and Y@GRAD {:?} do not fit X {dims:?}",
                mt.shape(),
                st.shape(),
                dt.shape()
            )));
        }
        drop((mt, st, dt));
        let dx: Vec<f64> = d.iter().enumerate().map(|(k, g)| g * sc[k % c]).collect();
        let (mut sum, mut sq) = (vec![0.0; c], vec![0.0; c]);
        for (k, &x) in v[0].iter().enumerate() {
            sum[k % c] = r(sum[k % c] + x);
            let dev = r(x - m[k % c]);
            sq[k % c] = r(sq[k % c] + r(dev * dev));
        }
        let nf = n as f64;
        let sq: Vec<f64> = sq.iter().map(|q| q + r(nf * eps)).collect();
        let stat = |v: Vec<f64>| float::tensor(dtype, &[c as i64], v);
        let results = [
            float::tensor(dtype, &dims, dx)?,
            stat(vec![nf; c])?,
            stat(sum)?,
            stat(sq)?,
        ];
        for (o, t) in outs.iter().zip(results) {
            if let Some(o) = o {
                s.set_tensor(o, t);
            }
        }
        Ok(())
    })
}
