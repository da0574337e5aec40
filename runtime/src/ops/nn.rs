//! Layers' ops: softmax_with_cross_entropy, top_k and accuracy (and, with
//! their gradients, embeddings, pool2d, batch_norm and dropout; conv2d's
//! geometry, whose kernels are in `super::conv`).
use std::sync::Arc;

use fluidc_transpiler::VarKind;

use super::float::{self, f64s, i64s, split_at_axis};
use super::{compute, Exec, Registry};
use crate::error::KernelError;
use crate::loader::OpLoader;
use crate::scope::VarRef;
use crate::tensor::num::with_numeric;
use crate::tensor::{Element, Tensor};

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
    r.add("top_k", top_k);
    r.add("accuracy", accuracy);
    r.add("top_k_grad", top_k_grad);
    r.add("lookup_table", |l| lookup_table(l, true));
    r.add("lookup_table_v2", |l| lookup_table(l, false));
    r.add("lookup_table_grad", lookup_table_grad);
    r.add("lookup_table_v2_grad", lookup_table_grad);
    r.add("pool2d", pool2d);
    r.add("pool2d_grad", pool2d_grad);
    r.add("batch_norm", batch_norm);
    r.add("batch_norm_grad", batch_norm_grad);
    r.add("dropout", dropout);
    r.add("dropout_grad", dropout_grad);
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

/// The softmax of `x` along the middle of (outer, n, inner).
pub(crate) fn softmax(x: &[f64], (outer, n, inner): (usize, usize, usize)) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let max = (0..n).map(|k| x[at(k)]).fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = (0..n).map(|k| (x[at(k)] - max).exp()).sum();
            for k in 0..n {
                out[at(k)] = (x[at(k)] - max).exp() / sum;
            }
        }
    }
    out
}

/// `softmax_with_cross_entropy`: `Softmax` along `axis` (or `Logits` as
/// they are without `use_softmax`), and `Loss`: hard labels `-log p[label]`
/// (0 for `ignore_index`), soft labels `-sum(label * log p)`.
fn softmax_with_cross_entropy(l: &OpLoader) -> Result<Exec, String> {
    let (logits, label) = (l.input("Logits")?, l.input("Label")?);
    let (sm_out, loss_out) = (l.output("Softmax")?, l.output("Loss")?);
    let soft = l.bool("soft_label", false)?;
    let use_softmax = l.bool("use_softmax", true)?;
    let ignore = l.int("ignore_index", -100)?;
    let axis = l.int("axis", -1)?;
    compute(move |s| {
        let (xt, lt) = (s.tensor(&logits)?, s.tensor(&label)?);
        let split @ (outer, n, inner) = split_at_axis(xt.shape(), axis)?;
        let x = f64s(&xt, "softmax_with_cross_entropy")?;
        let p = match (use_softmax, xt.data()) {
            // float32 over the last axis: Paddle's own float32 arithmetic.
            (true, crate::tensor::Data::Float32(v)) if inner == 1 && n > 0 => {
                super::unary::softmax_rows_f32(v, n)
                    .iter()
                    .map(|&p| f64::from(p))
                    .collect()
            }
            (true, _) => softmax(&x, split),
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
fn softmax_with_cross_entropy_grad(l: &OpLoader) -> Result<Exec, String> {
    let (sm, label, dloss) = (
        l.input("Softmax")?,
        l.input("Label")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dx) = l.opt_output("Logits@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let soft = l.bool("soft_label", false)?;
    let use_softmax = l.bool("use_softmax", true)?;
    let ignore = l.int("ignore_index", -100)?;
    let axis = l.int("axis", -1)?;
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

/// `top_k`: the `k` largest of each last-dim row, largest first (ties: the
/// lower index first), and their int64 indices.
fn top_k(l: &OpLoader) -> Result<Exec, String> {
    let x = l.input("X")?;
    let kt = l.opt_input("K")?;
    let (out, indices) = (l.output("Out")?, l.output("Indices")?);
    let k_attr = l.int("k", 1)?;
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
fn accuracy(l: &OpLoader) -> Result<Exec, String> {
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
fn top_k_grad(l: &OpLoader) -> Result<Exec, String> {
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

/// `lookup_table` (v1: `Ids` ends in a dim of 1) and `lookup_table_v2`: the
/// rows of `W` that `Ids` names; `padding_idx`'s row reads as zeros.
fn lookup_table(l: &OpLoader, v1: bool) -> Result<Exec, String> {
    let (w, ids, out) = (l.input("W")?, l.input("Ids")?, l.output("Out")?);
    let padding = l.int("padding_idx", -1)?;
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
        let wv = f64s(&wt, &l_name(v1))?;
        let mut out_v = Vec::with_capacity(iv.len() * width);
        for &i in iv.iter() {
            if padding != -1 && i == padding {
                out_v.extend(std::iter::repeat_n(0.0, width));
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
            out_v.extend_from_slice(&wv[r * width..(r + 1) * width]);
        }
        let mut shape = it.shape().to_vec();
        if v1 && shape.last() == Some(&1) {
            shape.pop();
        }
        shape.push(width as i64);
        let t = float::tensor(wt.dtype(), &shape, out_v)?;
        drop((wt, it));
        s.set_tensor(&out, t);
        Ok(())
    })
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
fn lookup_table_grad(l: &OpLoader) -> Result<Exec, String> {
    let (w, ids, dout) = (l.input("W")?, l.input("Ids")?, l.input("Out@GRAD")?);
    let Some(dw) = l.opt_output("W@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let sparse = l.bool("is_sparse", false)?;
    let padding = if sparse {
        -1
    } else {
        l.int("padding_idx", -1)?
    };
    compute(move |s| {
        let (wt, it, dt) = (s.tensor(&w)?, s.tensor(&ids)?, s.tensor(&dout)?);
        let width = wt.shape().get(1).copied().unwrap_or(1).max(0) as usize;
        let rows = wt.shape().first().copied().unwrap_or(0).max(0) as usize;
        let iv = i64s(&it)?;
        let d = f64s(&dt, "lookup_table_grad")?;
        if d.len() != iv.len() * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit {} ids of width {width}",
                dt.shape(),
                iv.len()
            )));
        }
        let mut g = vec![0.0; rows * width];
        let mut present = Vec::with_capacity(if sparse { iv.len() } else { 0 });
        for (k, &i) in iv.iter().enumerate() {
            if padding != -1 && i == padding {
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
            for c in 0..width {
                g[r * width + c] += d[k * width + c];
            }
            if sparse {
                present.push(r);
            }
        }
        let mut t = float::tensor(wt.dtype(), wt.shape(), g)?;
        if sparse {
            present.sort_unstable();
            present.dedup();
            t.set_sparse_rows(Some(Arc::new(present)));
        }
        drop((wt, it, dt));
        s.set_tensor(&dw, t);
        Ok(())
    })
}

/// A 2-D window op's geometry (NCHW): input, output, window, strides,
/// paddings (before, after per dim) and dilations.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub(crate) n: usize,
    pub(crate) c: usize,
    pub(crate) h: usize,
    pub(crate) w: usize,
    pub(crate) oh: usize,
    pub(crate) ow: usize,
    pub(crate) kh: usize,
    pub(crate) kw: usize,
    pub(crate) sh: usize,
    pub(crate) sw: usize,
    pub(crate) ph: usize,
    pub(crate) pw: usize,
    pub(crate) dh: usize,
    pub(crate) dw: usize,
}

/// Paddle's paddings (2 values, or 4 as top, bottom, left, right) after
/// `padding_algorithm`: `SAME` pads to cover the input (and dilations
/// become 1), `VALID` pads nothing.
fn paddings(
    algorithm: &str,
    pads: &[i64],
    input: [usize; 2],
    k: [usize; 2],
    strides: [usize; 2],
    dil: &mut [usize; 2],
) -> Result<[(usize, usize); 2], KernelError> {
    match algorithm {
        "VALID" => return Ok([(0, 0), (0, 0)]),
        "SAME" => {
            let mut out = [(0, 0); 2];
            for i in 0..2 {
                let o = input[i].div_ceil(strides[i]);
                let need = ((o.max(1) - 1) * strides[i] + k[i]).saturating_sub(input[i]);
                out[i] = (need / 2, need - need / 2);
                dil[i] = 1;
            }
            return Ok(out);
        }
        _ => {}
    }
    let u = |v: i64| {
        usize::try_from(v).map_err(|_| KernelError::Attribute(format!("padding {v} is negative")))
    };
    match *pads {
        [h, w] => Ok([(u(h)?, u(h)?), (u(w)?, u(w)?)]),
        [t, b, l, r] => Ok([(u(t)?, u(b)?), (u(l)?, u(r)?)]),
        _ => Err(KernelError::Attribute(format!(
            "paddings {pads:?} must have 2 or 4 values"
        ))),
    }
}

fn pair(v: &[i64], what: &str) -> Result<[usize; 2], KernelError> {
    match *v {
        [a, b] if a > 0 && b > 0 => Ok([a as usize, b as usize]),
        _ => Err(KernelError::Attribute(format!(
            "{what} {v:?} must be two positive values"
        ))),
    }
}

fn nchw(l: &OpLoader, attr: &str) -> Result<(), String> {
    match l.string(attr)?.unwrap_or("NCHW") {
        "NCHW" | "AnyLayout" => Ok(()),
        other => Err(format!(
            "{} supports the NCHW layout only, not {other}",
            l.op.ty
        )),
    }
}

/// Attributes of conv2d (and its grad).
#[derive(Debug, Clone)]
pub(crate) struct ConvAttrs {
    strides: Vec<i64>,
    pads: Vec<i64>,
    dilations: Vec<i64>,
    pub(crate) groups: usize,
    algorithm: String,
    /// conv2d_transpose's `output_size` and `output_padding` (empty: none).
    output_size: Vec<i64>,
    output_padding: Vec<i64>,
}

impl ConvAttrs {
    pub(crate) fn load(l: &OpLoader) -> Result<ConvAttrs, String> {
        nchw(l, "data_format")?;
        Ok(ConvAttrs {
            strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1]),
            pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0]),
            dilations: l.ints("dilations")?.unwrap_or_else(|| vec![1, 1]),
            groups: usize::try_from(l.int("groups", 1)?).unwrap_or(1).max(1),
            algorithm: l
                .string("padding_algorithm")?
                .unwrap_or("EXPLICIT")
                .to_string(),
            output_size: l.ints("output_size")?.unwrap_or_default(),
            output_padding: l.ints("output_padding")?.unwrap_or_default(),
        })
    }

    /// The geometry of a conv2d_transpose of input `x` (`[n, c, h, w]`) by
    /// filter `f` (`[c, oc / groups, kh, kw]`): the conv2d whose input is
    /// the transpose's output (the window's `c`, `h`, `w` are `oc` and the
    /// output size) and whose output positions are `x`'s (`oh`, `ow`).
    /// The output size is Paddle's: `(h - 1) * stride - pads + dilation *
    /// (kh - 1) + 1`, or `output_size` (within one stride above it), or
    /// that plus `output_padding`.
    pub(crate) fn transpose_window(&self, x: &[i64], f: &[i64]) -> Result<Window, KernelError> {
        let (&[n, c, h, w], &[fc, ocg, kh, kw]) = (x, f) else {
            return Err(KernelError::Shape(format!(
                "conv2d_transpose needs a 4-D input and filter, got {x:?} and {f:?}"
            )));
        };
        let u = |v: i64| v.max(0) as usize;
        if fc != c || u(c) % self.groups != 0 {
            return Err(KernelError::Shape(format!(
                "filter {f:?} with {} groups does not fit input {x:?} (its first dim must be the input's channels)",
                self.groups
            )));
        }
        let input = [u(h), u(w)];
        let sp = self.spatial(input, [u(kh), u(kw)])?;
        let (strides, dil, p, k) = (sp.strides, sp.dil, sp.pads, sp.k);
        if !matches!(self.output_size.len(), 0 | 2) || !matches!(self.output_padding.len(), 0 | 2) {
            return Err(KernelError::Attribute(format!(
                "output_size {:?} and output_padding {:?} must have 0 or 2 values",
                self.output_size, self.output_padding
            )));
        }
        let mut out = [0usize; 2];
        for i in 0..2 {
            let span = (input[i].max(1) - 1)
                .checked_mul(strides[i])
                .zip(dil[i].checked_mul(k[i].max(1) - 1))
                .and_then(|(a, b)| a.checked_add(b)?.checked_add(1));
            let pads = p[i].0.checked_add(p[i].1);
            let inferred = span
                .zip(pads)
                .and_then(|(span, pads)| span.checked_sub(pads))
                .filter(|&v| v > 0);
            let Some(inferred) = inferred else {
                return Err(KernelError::Shape(format!(
                    "conv2d_transpose of {x:?} by {f:?} with strides {:?}, paddings {:?} and \
                     dilations {:?} has no output size",
                    self.strides, self.pads, self.dilations
                )));
            };
            out[i] = if let Some(&want) = self.output_size.get(i) {
                let want = u(want);
                if want < inferred || want >= inferred.saturating_add(strides[i]) {
                    return Err(KernelError::Shape(format!(
                        "output_size {:?} does not fit conv2d_transpose of {x:?} by {f:?}: dim {i} must be at least {inferred} and below {}",
                        self.output_size,
                        inferred.saturating_add(strides[i])
                    )));
                }
                want
            } else if let Some(&e) = self.output_padding.get(i) {
                if e < 0 || u(e) >= strides[i].max(dil[i]) {
                    return Err(KernelError::Attribute(format!(
                        "output_padding {:?} must be below the strides and dilations",
                        self.output_padding
                    )));
                }
                inferred.saturating_add(u(e))
            } else {
                inferred
            };
        }
        Ok(sp.window(u(n), u(ocg) * self.groups, out, input))
    }

    /// The geometry for input `x` and filter `f` (`[oc, c / groups, kh, kw]`).
    pub(crate) fn window(&self, x: &[i64], f: &[i64]) -> Result<Window, KernelError> {
        let (&[n, c, h, w], &[oc, icg, kh, kw]) = (x, f) else {
            return Err(KernelError::Shape(format!(
                "conv2d needs a 4-D input and filter, got {x:?} and {f:?}"
            )));
        };
        let u = |v: i64| v.max(0) as usize;
        if u(icg) * self.groups != u(c) || u(oc) % self.groups != 0 {
            return Err(KernelError::Shape(format!(
                "filter {f:?} with {} groups does not fit input {x:?}",
                self.groups
            )));
        }
        let sp = self.spatial([u(h), u(w)], [u(kh), u(kw)])?;
        let (strides, dil, p, k) = (sp.strides, sp.dil, sp.pads, sp.k);
        let span = |i: usize, size: usize| -> Result<usize, KernelError> {
            let ke = dil[i] * (k[i].max(1) - 1) + 1;
            (size + p[i].0 + p[i].1)
                .checked_sub(ke)
                .map(|v| v / strides[i] + 1)
                .ok_or_else(|| {
                    KernelError::Shape(format!(
                        "the filter {f:?} is larger than the padded input {x:?}"
                    ))
                })
        };
        // Paddle's conv pads symmetrically by the first value of each pair
        // when they differ only through SAME; use the leading padding.
        let positions = [span(0, u(h))?, span(1, u(w))?];
        Ok(sp.window(u(n), u(c), [u(h), u(w)], positions))
    }

    /// The strides, dilations and paddings of a window of `k` over the
    /// spatial dims `input` (which `SAME` pads to cover).
    fn spatial(&self, input: [usize; 2], k: [usize; 2]) -> Result<Spatial, KernelError> {
        let strides = pair(&self.strides, "strides")?;
        let mut dil = pair(&self.dilations, "dilations")?;
        let pads = paddings(&self.algorithm, &self.pads, input, k, strides, &mut dil)?;
        Ok(Spatial {
            k,
            strides,
            dil,
            pads,
        })
    }
}

/// A conv's filter size, strides, dilations and (before, after) paddings.
struct Spatial {
    k: [usize; 2],
    strides: [usize; 2],
    dil: [usize; 2],
    pads: [(usize, usize); 2],
}

impl Spatial {
    /// The window over `n` images of `c` channels of size `image`, at
    /// `positions` (the conv's output size), padded by the leading pads.
    fn window(&self, n: usize, c: usize, image: [usize; 2], positions: [usize; 2]) -> Window {
        Window {
            n,
            c,
            h: image[0],
            w: image[1],
            oh: positions[0],
            ow: positions[1],
            kh: self.k[0],
            kw: self.k[1],
            sh: self.strides[0],
            sw: self.strides[1],
            ph: self.pads[0].0,
            pw: self.pads[1].0,
            dh: self.dil[0],
            dw: self.dil[1],
        }
    }
}

/// (n, c, h, w, oh, ow) of a pooling.
type PoolDims = (usize, usize, usize, usize, usize, usize);

/// Attributes of pool2d (and its grad).
#[derive(Debug, Clone)]
struct PoolAttrs {
    max: bool,
    ksize: Vec<i64>,
    strides: Vec<i64>,
    pads: Vec<i64>,
    global: bool,
    adaptive: bool,
    ceil: bool,
    exclusive: bool,
    algorithm: String,
}

/// One output position's window: rows `hs..he`, columns `ws..we` of the
/// input, and the divisor of an average.
#[derive(Debug, Clone, Copy)]
struct Cell {
    hs: usize,
    he: usize,
    ws: usize,
    we: usize,
    size: f64,
}

impl PoolAttrs {
    fn load(l: &OpLoader) -> Result<PoolAttrs, String> {
        nchw(l, "data_format")?;
        let max = match l.string("pooling_type")?.unwrap_or("") {
            "max" => true,
            "avg" => false,
            other => return Err(format!("pooling_type {other:?} must be \"max\" or \"avg\"")),
        };
        Ok(PoolAttrs {
            max,
            ksize: l.ints("ksize")?.unwrap_or_default(),
            strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1]),
            pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0]),
            global: l.bool("global_pooling", false)?,
            adaptive: l.bool("adaptive", false)?,
            ceil: l.bool("ceil_mode", false)?,
            exclusive: l.bool("exclusive", true)?,
            algorithm: l
                .string("padding_algorithm")?
                .unwrap_or("EXPLICIT")
                .to_string(),
        })
    }

    /// (n, c, h, w, oh, ow) and each output position's window.
    fn cells(&self, x: &[i64]) -> Result<(PoolDims, Vec<Cell>), KernelError> {
        let &[n, c, h, w] = x else {
            return Err(KernelError::Shape(format!(
                "pool2d needs a 4-D input, got {x:?}"
            )));
        };
        let u = |v: i64| v.max(0) as usize;
        let (h, w) = (u(h), u(w));
        let (k, strides, p) = if self.global {
            ([h, w], [1, 1], [(0, 0), (0, 0)])
        } else {
            let k = pair(&self.ksize, "ksize")?;
            let strides = pair(&self.strides, "strides")?;
            let mut dil = [1, 1];
            let algorithm = if self.adaptive {
                "EXPLICIT"
            } else {
                &self.algorithm
            };
            let p = paddings(algorithm, &self.pads, [h, w], k, strides, &mut dil)?;
            (k, strides, p)
        };
        let out = |i: usize, size: usize| -> Result<usize, KernelError> {
            if self.adaptive {
                return Ok(k[i]);
            }
            // Paddle's PoolOutputSize: with ceil_mode a window may hang
            // over the end, so a window larger than the input still gives
            // one output ((1 - 2 + 2 - 1) / 2 + 1 = 1).
            let span = (size + p[i].0 + p[i].1) as i64 - k[i] as i64;
            let reach = if self.ceil {
                span + strides[i] as i64 - 1
            } else {
                span
            };
            if reach < 0 {
                return Err(KernelError::Shape(format!(
                    "ksize {k:?} is larger than the padded input {x:?}"
                )));
            }
            Ok(reach as usize / strides[i] + 1)
        };
        let (oh, ow) = (out(0, h)?, out(1, w)?);
        // Paddle 3.3.1's CPU max pooling ignores `adaptive` for the windows
        // (plain `ksize` windows at `strides`) while the output still has
        // `ksize` dims (measured); average pooling adapts.
        let adaptive_windows = self.adaptive && !self.max;
        let range = |i: usize, o: usize, size: usize, osize: usize| -> (usize, usize) {
            if adaptive_windows {
                (o * size / osize, ((o + 1) * size).div_ceil(osize))
            } else {
                let start = (o * strides[i]) as isize - p[i].0 as isize;
                let end = (start + k[i] as isize).min(size as isize);
                (start.max(0) as usize, end.max(0) as usize)
            }
        };
        let mut cells = Vec::with_capacity(oh * ow);
        for y in 0..oh {
            let (hs, he) = range(0, y, h, oh);
            for x in 0..ow {
                let (ws, we) = range(1, x, w, ow);
                let area = (he.saturating_sub(hs) * we.saturating_sub(ws)) as f64;
                // Paddle 1.x's divisor without `exclusive`: the whole
                // window, padding and a ceil_mode overhang included
                // (3.3.1 leaves the overhang out; see the README).
                let size = if self.exclusive || adaptive_windows {
                    area
                } else {
                    (k[0] * k[1]) as f64
                };
                cells.push(Cell {
                    hs,
                    he,
                    ws,
                    we,
                    size,
                });
            }
        }
        Ok(((u(n), u(c), h, w, oh, ow), cells))
    }
}

fn pool2d(l: &OpLoader) -> Result<Exec, String> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let a = PoolAttrs::load(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let ((n, c, h, w, oh, ow), cells) = a.cells(xt.shape())?;
        let v = f64s(&xt, "pool2d")?;
        let mut o = Vec::with_capacity(n * c * oh * ow);
        for plane in 0..n * c {
            let base = plane * h * w;
            for cell in &cells {
                let mut acc = if a.max { f64::from(-f32::MAX) } else { 0.0 };
                for y in cell.hs..cell.he {
                    for x in cell.ws..cell.we {
                        let e = v[base + y * w + x];
                        acc = if a.max { acc.max(e) } else { acc + e };
                    }
                }
                o.push(if a.max { acc } else { acc / cell.size });
            }
        }
        let shape = [n as i64, c as i64, oh as i64, ow as i64];
        let t = float::tensor(xt.dtype(), &shape, o)?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `pool2d_grad`: max routes each output's gradient to the first input
/// equal to it in its window; avg spreads it over the window.
fn pool2d_grad(l: &OpLoader) -> Result<Exec, String> {
    let (x, out, dout) = (l.input("X")?, l.input("Out")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let a = PoolAttrs::load(l)?;
    compute(move |s| {
        let (xt, ot, dt) = (s.tensor(&x)?, s.tensor(&out)?, s.tensor(&dout)?);
        let ((n, c, h, w, oh, ow), cells) = a.cells(xt.shape())?;
        let (v, o, d) = (
            f64s(&xt, "pool2d_grad")?,
            f64s(&ot, "pool2d_grad")?,
            f64s(&dt, "pool2d_grad")?,
        );
        if d.len() != n * c * oh * ow || o.len() != d.len() {
            return Err(KernelError::Shape(
                "pool2d_grad: Out@GRAD does not fit the pooling".into(),
            ));
        }
        let mut g = vec![0.0; v.len()];
        for plane in 0..n * c {
            let base = plane * h * w;
            for (k, cell) in cells.iter().enumerate() {
                let at = plane * oh * ow + k;
                'window: for y in cell.hs..cell.he {
                    for x in cell.ws..cell.we {
                        let i = base + y * w + x;
                        if a.max {
                            if v[i] == o[at] {
                                g[i] += d[at];
                                break 'window;
                            }
                        } else {
                            g[i] += d[at] / cell.size;
                        }
                    }
                }
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        drop((xt, ot, dt));
        s.set_tensor(&dx, t);
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

fn bn_layout(l: &OpLoader) -> Result<bool, String> {
    match l.string("data_layout")?.unwrap_or("NCHW") {
        "NCHW" | "AnyLayout" => Ok(false),
        "NHWC" => Ok(true),
        other => Err(format!("batch_norm: unknown data_layout {other}")),
    }
}

/// `batch_norm`: training normalizes with the batch's mean and (biased)
/// variance and folds them into the running ones with `momentum`;
/// `is_test`/`use_global_stats` normalize with the running ones.
/// `SavedVariance` is the inverse standard deviation, as Paddle saves it.
fn batch_norm(l: &OpLoader) -> Result<Exec, String> {
    let x = l.input("X")?;
    let (scale, bias) = (l.opt_input("Scale")?, l.opt_input("Bias")?);
    let (mean, var) = (l.input("Mean")?, l.input("Variance")?);
    let mom_t = l.opt_input("MomentumTensor")?;
    let y = l.output("Y")?;
    let (mean_out, var_out) = (l.opt_output("MeanOut")?, l.opt_output("VarianceOut")?);
    let (saved_mean, saved_var) = (l.opt_output("SavedMean")?, l.opt_output("SavedVariance")?);
    let global = l.bool("is_test", false)? || l.bool("use_global_stats", false)?;
    let momentum = l.float("momentum", 0.9)?;
    let eps = l.float("epsilon", 1e-5)?;
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
fn batch_norm_grad(l: &OpLoader) -> Result<Exec, String> {
    let (x, dy) = (l.input("X")?, l.input("Y@GRAD")?);
    let scale = l.opt_input("Scale")?;
    let (saved_mean, saved_var) = (l.input("SavedMean")?, l.input("SavedVariance")?);
    let (mean_out, var_out) = (l.opt_input("MeanOut")?, l.opt_input("VarianceOut")?);
    let (dx, dscale, dbias) = (
        l.opt_output("X@GRAD")?,
        l.opt_output("Scale@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    );
    let global = l.bool("is_test", false)? || l.bool("use_global_stats", false)?;
    let eps = l.float("epsilon", 1e-5)?;
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
        for b in 0..n {
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
                    g[at] = if global {
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

/// The attributes dropout and its grad share.
#[derive(Debug, Clone, Copy)]
struct DropoutAttrs {
    p: f64,
    is_test: bool,
    upscale: bool,
}

impl DropoutAttrs {
    fn load(l: &OpLoader) -> Result<DropoutAttrs, String> {
        let upscale = match l
            .string("dropout_implementation")?
            .unwrap_or("downgrade_in_infer")
        {
            "upscale_in_train" => true,
            "downgrade_in_infer" => false,
            other => return Err(format!("unknown dropout_implementation {other:?}")),
        };
        Ok(DropoutAttrs {
            p: l.float("dropout_prob", 0.5)?,
            is_test: l.bool("is_test", false)?,
            upscale,
        })
    }
}

/// `dropout`, as Paddle's CPU kernel: training draws `uniform_real<float>(0,
/// 1)` per element from `mt19937_64(seed)` (`Seed` input, or `seed` when
/// `fix_seed`) or the session's engine, and drops the element when the
/// draw is below `dropout_prob` (`Mask` 0; kept ones are scaled by `1 / (1
/// - p)` with `upscale_in_train`). At test time `downgrade_in_infer`
/// scales by `1 - p`. `Mask` is held as bool (Paddle's is uint8).
fn dropout(l: &OpLoader) -> Result<Exec, String> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let seed_t = l.opt_input("Seed").ok().flatten();
    let mask = l.opt_output("Mask")?;
    let a = DropoutAttrs::load(l)?;
    let fixed = if l.bool("fix_seed", false)? {
        l.int("seed", 0)?
    } else {
        0
    };
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let v = f64s(&xt, "dropout")?;
        let dtype = xt.dtype();
        if a.is_test {
            let k = if a.upscale { 1.0 } else { 1.0 - a.p };
            let t = float::tensor(dtype, xt.shape(), v.iter().map(|x| x * k).collect())?;
            s.set_tensor(&out, t);
            return Ok(());
        }
        let seed = match &seed_t {
            Some(r) => s.tensor(r)?.scalar_i64()?,
            None => fixed,
        };
        let (keep, y): (Vec<bool>, Vec<f64>) = if a.p >= 1.0 {
            (vec![false; v.len()], vec![0.0; v.len()])
        } else {
            let p = a.p as f32;
            let dist = crate::random::UniformReal::new(0.0f32, 1.0);
            let keep: Vec<bool> = crate::random::with_engine(seed, |e| {
                (0..v.len()).map(|_| dist.sample(e) >= p).collect()
            });
            let y = v
                .iter()
                .zip(&keep)
                .map(|(&x, &k)| match (k, a.upscale) {
                    (false, _) => 0.0,
                    (true, true) => scale_kept(dtype, x, a.p),
                    (true, false) => x,
                })
                .collect();
            (keep, y)
        };
        s.set_tensor(&out, float::tensor(dtype, xt.shape(), y)?);
        if let Some(m) = &mask {
            s.set_tensor(m, Tensor::from_vec(xt.shape(), keep)?);
        }
        Ok(())
    })
}

/// `x / T(1 - p)` in the tensor's dtype, as Paddle scales kept elements.
fn scale_kept(dtype: VarKind, x: f64, p: f64) -> f64 {
    match dtype {
        VarKind::Fp32 => f64::from(x as f32 / (1.0f32 - p as f32)),
        _ => x / (1.0 - p),
    }
}

/// `dropout_grad`: `Out@GRAD` through the mask (scaled as the forward).
fn dropout_grad(l: &OpLoader) -> Result<Exec, String> {
    let (mask, dout) = (l.input("Mask")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let a = DropoutAttrs::load(l)?;
    compute(move |s| {
        let dt = s.tensor(&dout)?.into_owned();
        let d = f64s(&dt, "dropout_grad")?;
        let g: Vec<f64> = if a.is_test {
            let k = if a.upscale { 1.0 } else { 1.0 - a.p };
            d.iter().map(|x| x * k).collect()
        } else {
            let mt = s.tensor(&mask)?;
            let m = i64s(&mt)?;
            if m.len() != d.len() {
                return Err(KernelError::Shape(
                    "dropout_grad: Mask does not fit Out@GRAD".into(),
                ));
            }
            d.iter()
                .zip(m.iter())
                .map(|(&x, &k)| match (k != 0, a.upscale) {
                    (false, _) => 0.0,
                    (true, true) if a.p < 1.0 => scale_kept(dt.dtype(), x, a.p),
                    (true, true) => 0.0,
                    (true, false) => x,
                })
                .collect()
        };
        s.set_tensor(&dx, float::tensor(dt.dtype(), dt.shape(), g)?);
        Ok(())
    })
}

/// `sigmoid_cross_entropy_with_logits`: `max(x, 0) - x * label +
/// log(1 + exp(-|x|))` per element, in the input's precision as Paddle's
/// kernel computes it; 0 where the label is `ignore_index`; with
/// `normalize`, divided by the number of labels not ignored.
fn sigmoid_ce(l: &OpLoader) -> Result<Exec, String> {
    let (x, label, out) = (l.input("X")?, l.input("Label")?, l.output("Out")?);
    if l.opt_input("pos_weight")?.is_some() {
        return Err("sigmoid_cross_entropy_with_logits with `pos_weight` is not supported".into());
    }
    let ignore = l.int("ignore_index", -100)?;
    let normalize = l.bool("normalize", false)?;
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
fn log_loss(l: &OpLoader) -> Result<Exec, String> {
    let (p, label, out) = (l.input("Predicted")?, l.input("Labels")?, l.output("Loss")?);
    let eps = l.float("epsilon", 1e-4)?;
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
fn log_loss_grad(l: &OpLoader) -> Result<Exec, String> {
    let (p, label, dloss) = (
        l.input("Predicted")?,
        l.input("Labels")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dp) = l.opt_output("Predicted@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let eps = l.float("epsilon", 1e-4)?;
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
fn sigmoid_ce_grad(l: &OpLoader) -> Result<Exec, String> {
    let (x, label, dout) = (l.input("X")?, l.input("Label")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let ignore = l.int("ignore_index", -100)?;
    let normalize = l.bool("normalize", false)?;
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
