//! `sequence_pool`, `sequence_softmax` and `sequence_conv` with their
//! grads, over the sequences of `X`'s last LoD level as Paddle's CPU
//! functors compute them; `sequence_mask`, lengths to a mask; 1.x's
//! `sequence_pad` and `sequence_unpad` with their grads, between a LoD
//! batch and padded `[sequences, length, ...]` rows, as 1.x's
//! `PaddingLoDTensorFunctor` and `UnpaddingLoDTensorFunctor` copy them;
//! `row_conv` and `im2sequence` and their grads, as 1.x's CPU kernels.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{f64s, i64s, needs_float, set_grads, tensor};
use crate::ops::matmul::gemm;
use crate::ops::optim::Real;
use crate::tensor::{alloc, dtype_name, with_data, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("sequence_pool", sequence_pool);
    r.add("sequence_pool_grad", sequence_pool_grad);
    r.add("sequence_softmax", sequence_softmax);
    r.add("sequence_softmax_grad", sequence_softmax_grad);
    r.add("sequence_conv", sequence_conv);
    r.add("sequence_conv_grad", sequence_conv_grad);
    r.add("sequence_mask", sequence_mask);
    r.add("sequence_pad", sequence_pad);
    r.add("sequence_pad_grad", sequence_pad_grad);
    r.add("sequence_unpad", sequence_unpad);
    r.add("sequence_unpad_grad", sequence_unpad_grad);
    r.add("row_conv", row_conv);
    r.add("row_conv_grad", row_conv_grad);
    r.add("im2sequence", im2sequence);
    r.add("im2sequence_grad", im2sequence_grad);
}

/// What `im2sequence` reads: the NCHW dims, kernel, strides and paddings
/// (up, left, down, right).
#[derive(Clone, Copy)]
struct Patches {
    n: usize,
    c: usize,
    h: usize,
    w: usize,
    kh: usize,
    kw: usize,
    sh: usize,
    sw: usize,
    pad: [usize; 4],
}

impl Patches {
    fn read(l: &OpReader) -> Result<[Vec<usize>; 3], KernelError> {
        let get = |name: &str, n: usize, positive: bool| {
            let v = l.ints(name)?.unwrap_or_default();
            let ok = v.len() == n && v.iter().all(|&d| if positive { d > 0 } else { d >= 0 });
            if !ok {
                return Err(KernelError::Attribute(format!(
                    "{name} {v:?} must hold {n} {} ints",
                    if positive { "positive" } else { "non-negative" }
                )));
            }
            Ok(v.iter().map(|&d| d as usize).collect::<Vec<_>>())
        };
        Ok([
            get("kernels", 2, true)?,
            get("strides", 2, true)?,
            get("paddings", 4, false)?,
        ])
    }

    fn new(x: &Tensor, attrs: &[Vec<usize>; 3], name: &str) -> Result<Patches, KernelError> {
        let d = x.shape();
        if d.len() != 4 {
            return Err(KernelError::Shape(format!(
                "X `{name}` has shape {d:?}; im2sequence takes NCHW images"
            )));
        }
        let [k, st, p] = attrs;
        let dim = |i: usize| d[i].max(0) as usize;
        Ok(Patches {
            n: dim(0),
            c: dim(1),
            h: dim(2),
            w: dim(3),
            kh: k[0],
            kw: k[1],
            sh: st[0],
            sw: st[1],
            pad: [p[0], p[1], p[2], p[3]],
        })
    }

    /// Output positions along a side of `size` (1.x's `Im2SeqOutputSize`),
    /// none when the kernel does not fit.
    fn out_size(size: usize, k: usize, p0: usize, p1: usize, s: usize) -> usize {
        (size + p0 + p1).checked_sub(k).map_or(0, |r| r / s + 1)
    }

    fn out_hw(&self, h: usize, w: usize) -> (usize, usize) {
        (
            Patches::out_size(h, self.kh, self.pad[0], self.pad[2], self.sh),
            Patches::out_size(w, self.kw, self.pad[1], self.pad[3], self.sw),
        )
    }

    fn width(&self) -> usize {
        self.c * self.kh * self.kw
    }

    /// For patch `(oh, ow)` of image `i`, each element of its row (in
    /// `[C, kh, kw]` order) with its offset in `X` (`None`: padding).
    fn visit(&self, i: usize, oh: usize, ow: usize, mut f: impl FnMut(usize, Option<usize>)) {
        let mut at = 0;
        for ch in 0..self.c {
            for fy in 0..self.kh {
                let y = (oh * self.sh + fy)
                    .checked_sub(self.pad[0])
                    .filter(|&y| y < self.h);
                for fx in 0..self.kw {
                    let x = (ow * self.sw + fx)
                        .checked_sub(self.pad[1])
                        .filter(|&x| x < self.w);
                    let src = y
                        .zip(x)
                        .map(|(y, x)| ((i * self.c + ch) * self.h + y) * self.w + x);
                    f(at, src);
                    at += 1;
                }
            }
        }
    }
}

/// `im2sequence`: each image's `kh x kw` patches (zero outside the
/// padded image), row after row, one row of `C * kh * kw` per patch, one
/// sequence per image. With `Y` (the images' real `[height, width]`,
/// divided by `out_stride` rounding up) and more than one image, image
/// `i` gives only the first patches of its real size, as 1.x's kernel.
fn im2sequence(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let y = l.opt_input("Y")?;
    let attrs = Patches::read(l)?;
    let out_stride = l.ints("out_stride")?.unwrap_or_else(|| vec![1, 1]);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let p = Patches::new(&xt, &attrs, &x.name)?;
        let full = p.out_hw(p.h, p.w);
        let sizes: Vec<(usize, usize)> = match &y {
            Some(y) if p.n > 1 => {
                let yt = s.tensor(y)?;
                let real: Vec<f64> = match f64s(&yt, "im2sequence") {
                    Ok(v) => v.to_vec(),
                    Err(_) => i64s(&yt)?.iter().map(|&v| v as f64).collect(),
                };
                if real.len() < 2 * p.n {
                    return Err(KernelError::Shape(format!(
                        "Y `{}` has shape {:?}; it must hold [height, width] of each of the {} images",
                        y.name,
                        yt.shape(),
                        p.n
                    )));
                }
                let (s0, s1) = match out_stride[..] {
                    [a, b] if a > 0 && b > 0 => (a as usize, b as usize),
                    _ => {
                        return Err(KernelError::Attribute(format!(
                            "out_stride {out_stride:?} must hold 2 positive ints"
                        )))
                    }
                };
                (0..p.n)
                    .map(|i| {
                        let h = (real[2 * i].max(0.0) as usize).div_ceil(s0);
                        let w = (real[2 * i + 1].max(0.0) as usize).div_ceil(s1);
                        p.out_hw(h, w)
                    })
                    .collect()
            }
            _ => vec![full; p.n],
        };
        let xv = f64s(&xt, "im2sequence")?;
        let width = p.width();
        let mut o = Vec::new();
        let mut offsets = vec![0usize];
        for (i, &(oh_n, ow_n)) in sizes.iter().enumerate() {
            for oh in 0..oh_n {
                for ow in 0..ow_n {
                    let start = o.len();
                    o.resize(start + width, 0.0);
                    p.visit(i, oh, ow, |at, src| {
                        if let Some(src) = src {
                            o[start + at] = xv[src];
                        }
                    });
                }
            }
            offsets.push(offsets[offsets.len() - 1] + oh_n * ow_n);
        }
        let rows = offsets[offsets.len() - 1] as i64;
        let t = tensor(xt.dtype(), &[rows, width as i64], o)?.with_lod(vec![offsets]);
        drop(xv);
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `im2sequence_grad`: each patch row of `Out@GRAD` added back to the
/// pixels it came from (1.x's `Col2ImFunctor`), for every image's full
/// set of patches.
fn im2sequence_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let attrs = Patches::read(l)?;
    compute(move |s| {
        let (xt, gt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let p = Patches::new(&xt, &attrs, &x.name)?;
        let (oh_n, ow_n) = p.out_hw(p.h, p.w);
        let width = p.width();
        if gt.numel() != p.n * oh_n * ow_n * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must hold the {} patches of {width} of X `{}` {:?}",
                gt.shape(),
                p.n * oh_n * ow_n,
                x.name,
                xt.shape()
            )));
        }
        let g = f64s(&gt, "im2sequence_grad")?;
        let mut d = vec![0.0; xt.numel()];
        let mut row = 0;
        for i in 0..p.n {
            for oh in 0..oh_n {
                for ow in 0..ow_n {
                    let base = row * width;
                    p.visit(i, oh, ow, |at, src| {
                        if let Some(src) = src {
                            d[src] += g[base + at];
                        }
                    });
                    row += 1;
                }
            }
        }
        let t = tensor(xt.dtype(), xt.shape(), d)?;
        drop(g);
        drop((xt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// The sequences `row_conv` convolves, in rows of `X`, and the row width:
/// the offsets of `X`'s LoD level 0 (rank 2), or, without LoD (1.6), each
/// of the `B` `[T, D]` blocks of a `[B, T, D]` `X`. `Filter` is
/// `[context, D]`.
fn row_conv_plan(x: &Tensor, filter: &Tensor, name: &str) -> Result<RowConvPlan, KernelError> {
    let dims = x.shape();
    let (seqs, width) = match (x.lod().first(), dims.len()) {
        (Some(level), 2) => {
            let rows = dims[0].max(0) as usize;
            if level.last().copied() != Some(rows) {
                return Err(KernelError::Shape(format!(
                    "the LoD of X `{name}` ends at {:?} but it has {rows} rows",
                    level.last()
                )));
            }
            let seqs = level.windows(2).map(|w| (w[0], w[1])).collect();
            (seqs, dims[1].max(0) as usize)
        }
        (None, 3) => {
            let (b, t) = (dims[0].max(0) as usize, dims[1].max(0) as usize);
            ((0..b).map(|i| (i * t, (i + 1) * t)).collect(), dims[2].max(0) as usize)
        }
        _ => {
            return Err(KernelError::Shape(format!(
                "X `{name}` has shape {:?} and {} LoD level(s); row_conv takes a [T, D] LoD tensor or a [B, T, D] tensor",
                dims,
                x.lod().len()
            )))
        }
    };
    let f = filter.shape();
    if f.len() != 2 || f[1].max(0) as usize != width {
        return Err(KernelError::Shape(format!(
            "Filter has shape {f:?}; it must be [future context + 1, {width}]"
        )));
    }
    Ok((seqs, width, f[0].max(0) as usize))
}

/// The sequences (row ranges), the row width and the context length.
type RowConvPlan = (Vec<(usize, usize)>, usize, usize);

/// `row_conv`: `Out[k] = sum over w < context, k + w in the sequence of
/// X[k + w] * Filter[w]` (elementwise), as 1.x's CPU kernel.
fn row_conv(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, filter, out) = (l.input("X")?, l.input("Filter")?, l.output("Out")?);
    compute(move |s| {
        let (xt, ft) = (s.tensor(&x)?, s.tensor(&filter)?);
        let (seqs, width, context) = row_conv_plan(&xt, &ft, &x.name)?;
        let (xv, fv) = (f64s(&xt, "row_conv")?, f64s(&ft, "row_conv")?);
        let mut o = vec![0.0; xv.len()];
        for &(a, b) in &seqs {
            for k in a..b {
                for w in 0..context.min(b - k) {
                    let (src, wt) = ((k + w) * width, w * width);
                    for d in 0..width {
                        o[k * width + d] += fv[wt + d] * xv[src + d];
                    }
                }
            }
        }
        let t = tensor(xt.dtype(), xt.shape(), o)?;
        drop((xv, fv));
        drop((xt, ft));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `row_conv_grad`: `X@GRAD[k + w] += Filter[w] * Out@GRAD[k]` and
/// `Filter@GRAD[w] += X[k + w] * Out@GRAD[k]`.
fn row_conv_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, filter, dout) = (l.input("X")?, l.input("Filter")?, l.input("Out@GRAD")?);
    let (dx, dfilter) = (l.opt_output("X@GRAD")?, l.opt_output("Filter@GRAD")?);
    compute(move |s| {
        let (xt, ft, gt) = (s.tensor(&x)?, s.tensor(&filter)?, s.tensor(&dout)?);
        let (seqs, width, context) = row_conv_plan(&xt, &ft, &x.name)?;
        if gt.numel() != xt.numel() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must have X's {:?}",
                gt.shape(),
                xt.shape()
            )));
        }
        let (xv, fv) = (f64s(&xt, "row_conv_grad")?, f64s(&ft, "row_conv_grad")?);
        let g = f64s(&gt, "row_conv_grad")?;
        let mut gx = vec![0.0; xv.len()];
        let mut gf = vec![0.0; fv.len()];
        for &(a, b) in &seqs {
            for k in a..b {
                for w in 0..context.min(b - k) {
                    let (src, wt) = ((k + w) * width, w * width);
                    for d in 0..width {
                        let go = g[k * width + d];
                        gx[src + d] += fv[wt + d] * go;
                        gf[wt + d] += xv[src + d] * go;
                    }
                }
            }
        }
        let gx = match &dx {
            Some(_) => Some(tensor(xt.dtype(), xt.shape(), gx)?.with_lod(xt.lod().to_vec())),
            None => None,
        };
        let gf = match &dfilter {
            Some(_) => Some(tensor(ft.dtype(), ft.shape(), gf)?),
            None => None,
        };
        drop((xv, fv, g));
        drop((xt, ft, gt));
        set_grads(s, vec![(&dx, gx), (&dfilter, gf)]);
        Ok(())
    })
}

/// The sequences of LoD level 0 in rows of the tensor (Paddle's
/// `ToAbsOffset(lod)[0]`: the offsets mapped through the finer levels).
fn row_offsets(lod: &[Vec<usize>]) -> Vec<usize> {
    let mut top = lod.first().cloned().unwrap_or_default();
    for level in lod.iter().skip(1) {
        for o in top.iter_mut() {
            *o = level.get(*o).copied().unwrap_or(*o);
        }
    }
    top
}

/// The dtypes 1.x registered its padding kernels for.
fn pad_dtype(t: &Tensor, op: &str) -> Result<(), KernelError> {
    match t.dtype() {
        VarKind::Fp32 | VarKind::Fp64 | VarKind::Int32 | VarKind::Int64 => Ok(()),
        other => Err(KernelError::Dtype(format!(
            "{op} takes float32, float64, int32 or int64, not {}",
            dtype_name(other)
        ))),
    }
}

/// How many elements one row (time step) of `shape` holds.
fn row_width(shape: &[i64]) -> usize {
    shape
        .iter()
        .skip(1)
        .map(|&d| usize::try_from(d).unwrap_or(0))
        .product()
}

/// Padded `[seqs.len(), padded, step...]` from the rows `seqs` of `x`
/// (`step` elements each), the rest filled with `fill` (one value or one
/// step); what `PaddingLoDTensorFunctor` writes.
fn pad_rows(
    x: &Tensor,
    seqs: &[(usize, usize)],
    padded: usize,
    fill: &Tensor,
    step_dims: &[i64],
) -> Result<Tensor, KernelError> {
    let step: usize = step_dims.iter().map(|&d| d.max(0) as usize).product();
    let mut shape = vec![seqs.len() as i64, padded as i64];
    shape.extend_from_slice(step_dims);
    let fill = fill.cast(x.dtype())?;
    let data = with_data!(x.data(), |v: T| {
        let f: &[T] = fill.values::<T>().unwrap_or(&[]);
        let mut out: Vec<T> = Vec::with_capacity(alloc::check(&shape, T::KIND)?);
        for &(a, b) in seqs {
            out.extend_from_slice(&v[a * step..b * step]);
            for _ in (b - a)..padded {
                if f.len() == 1 {
                    out.extend(std::iter::repeat_n(f[0], step));
                } else {
                    out.extend_from_slice(f);
                }
            }
        }
        T::wrap(out.into())
    });
    Tensor::new(&shape, data)
}

/// `sequence_pad`: each sequence of `X`'s LoD level 0 as `padded_length`
/// rows (-1: the longest sequence's), padded after its end with
/// `PadValue` (a scalar or one step); `Length` the sequences' lengths
/// (int64). `Out` has no LoD.
fn sequence_pad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, pad) = (l.input("X")?, l.input("PadValue")?);
    let (out, length) = (l.output("Out")?, l.output("Length")?);
    let padded_length = l.int("padded_length")?;
    compute(move |s| {
        let (xt, pt) = (s.tensor(&x)?, s.tensor(&pad)?);
        pad_dtype(&xt, "sequence_pad")?;
        if xt.shape().len() < 2 {
            return Err(KernelError::Shape(format!(
                "X `{}` has shape {:?}; it must have rank 2 or more",
                x.name,
                xt.shape()
            )));
        }
        if xt.lod().is_empty() {
            return Err(KernelError::Invalid(format!(
                "X `{}` of sequence_pad has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)",
                x.name
            )));
        }
        let offsets = row_offsets(xt.lod());
        let seqs: Vec<(usize, usize)> = offsets.windows(2).map(|w| (w[0], w[1])).collect();
        let longest = seqs.iter().map(|&(a, b)| b - a).max().unwrap_or(0);
        let padded = match padded_length {
            -1 => longest,
            n => usize::try_from(n)
                .ok()
                .filter(|&n| n >= longest)
                .ok_or_else(|| {
                    KernelError::Attribute(format!(
                        "padded_length {n} must be -1 or not less than the longest sequence ({longest})"
                    ))
                })?,
        };
        let step = row_width(xt.shape());
        if pt.numel() != 1 && pt.numel() != step {
            return Err(KernelError::Shape(format!(
                "PadValue `{}` has shape {:?}; it must hold 1 value or one time step of {step}",
                pad.name,
                pt.shape()
            )));
        }
        let t = pad_rows(&xt, &seqs, padded, &pt, &xt.shape()[1..])?;
        let lengths: Vec<i64> = seqs.iter().map(|&(a, b)| (b - a) as i64).collect();
        // 1.2-1.5's [batch, 1] (see the transpiler's sequence_pad).
        let lt = Tensor::from_vec(&[lengths.len() as i64, 1], lengths)?;
        drop((xt, pt));
        s.set_tensor(&out, t);
        s.set_tensor(&length, lt);
        Ok(())
    })
}

/// `X@GRAD` of `sequence_pad`: each sequence's rows of `Out@GRAD` (the
/// padding's gradient dropped), with `X`'s LoD.
fn sequence_pad_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, gt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let offsets = row_offsets(xt.lod());
        let seqs: Vec<(usize, usize)> = offsets.windows(2).map(|w| (w[0], w[1])).collect();
        let step = row_width(xt.shape());
        let padded = gt.shape().get(1).copied().unwrap_or(0).max(0) as usize;
        if gt.shape().first() != Some(&(seqs.len() as i64))
            || gt.numel() != seqs.len() * padded * step
            || seqs.iter().any(|&(a, b)| b - a > padded)
        {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must be the {} padded sequences of X `{}` {:?}",
                gt.shape(),
                seqs.len(),
                x.name,
                xt.shape()
            )));
        }
        let rows: Vec<(usize, usize)> = seqs
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| (i * padded, i * padded + b - a))
            .collect();
        let flat = gt.reshaped(&[(seqs.len() * padded) as i64, step as i64])?;
        let t = crate::ops::lod::take_rows(&flat, &rows)?
            .reshaped(xt.shape())?
            .with_lod(xt.lod().to_vec());
        drop((xt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `sequence_unpad`: the first `Length[i]` rows of each padded sequence
/// `X[i]`, one after another, with LoD `[[0, Length[0], ...]]`; a rank-2
/// `X` gives `[rows, 1]`.
fn sequence_unpad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, len, out) = (l.input("X")?, l.input("Length")?, l.output("Out")?);
    compute(move |s| {
        let (xt, lt) = (s.tensor(&x)?, s.tensor(&len)?);
        pad_dtype(&xt, "sequence_unpad")?;
        if !matches!(lt.dtype(), VarKind::Int32 | VarKind::Int64) {
            return Err(KernelError::Dtype(format!(
                "Length `{}` is {}; it takes int64 lengths",
                len.name,
                dtype_name(lt.dtype())
            )));
        }
        let dims = xt.shape();
        // [batch, 1] as 1.2-1.5's sequence_pad gives it, or 1.6's [batch].
        let lengths_fit = |b: i64| matches!(lt.shape(), [n] | [n, 1] if *n == b);
        if dims.len() < 2 || !lengths_fit(dims[0]) {
            return Err(KernelError::Shape(format!(
                "X `{}` {:?} must be padded sequences (rank 2 or more) and Length `{}` {:?} their lengths",
                x.name,
                dims,
                len.name,
                lt.shape()
            )));
        }
        let padded = dims[1].max(0) as usize;
        let step = row_width(&dims[1..]);
        let mut offsets = vec![0usize];
        let mut rows = Vec::new();
        for (i, &n) in i64s(&lt)?.iter().enumerate() {
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= padded)
                .ok_or_else(|| {
                    KernelError::Invalid(format!(
                        "Length[{i}] is {n}; it must be in [0, {padded}], the padded length"
                    ))
                })?;
            rows.push((i * padded, i * padded + n));
            offsets.push(offsets[offsets.len() - 1] + n);
        }
        let flat = xt.reshaped(&[dims[0] * padded as i64, step as i64])?;
        let mut shape = vec![offsets[offsets.len() - 1] as i64];
        if dims.len() == 2 {
            shape.push(1);
        } else {
            shape.extend_from_slice(&dims[2..]);
        }
        let t = crate::ops::lod::take_rows(&flat, &rows)?
            .reshaped(&shape)?
            .with_lod(vec![offsets]);
        drop((xt, lt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD` of `sequence_unpad`: `Out@GRAD`'s sequences (its LoD level
/// 0) padded with zeros to `X`'s padded length, in `X`'s shape.
fn sequence_unpad_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, gt) = (s.tensor(&x)?, s.tensor(&dout)?);
        if gt.lod().is_empty() {
            return Err(KernelError::Invalid(format!(
                "Out@GRAD of sequence_unpad (X `{}`) has no LoD; the op before it must keep Out's LoD in its gradient",
                x.name
            )));
        }
        let dims = xt.shape();
        let offsets = row_offsets(gt.lod());
        let seqs: Vec<(usize, usize)> = offsets.windows(2).map(|w| (w[0], w[1])).collect();
        let padded = dims.get(1).copied().unwrap_or(0).max(0) as usize;
        let step = row_width(&dims[1..]);
        if dims.len() < 2
            || seqs.len() as i64 != dims[0]
            || gt.numel() != offsets.last().copied().unwrap_or(0) * step
            || seqs.iter().any(|&(a, b)| b - a > padded)
        {
            return Err(KernelError::Shape(format!(
                "Out@GRAD {:?} (LoD {:?}) does not unpad X `{}` {:?}",
                gt.shape(),
                gt.lod(),
                x.name,
                dims
            )));
        }
        let rows = gt.reshaped(&[offsets.last().copied().unwrap_or(0) as i64, step as i64])?;
        let zero = Tensor::zeros(gt.dtype(), &[1])?;
        let t = pad_rows(&rows, &seqs, padded, &zero, &[step as i64])?.reshaped(dims)?;
        drop((xt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `sequence_mask`: for each length `n` of `X`, a row of `maxlen` values,
/// 1 at the first `n` places and 0 after, in `out_dtype`. `maxlen` is the
/// attribute, or `MaxLenTensor`, or, when it is not positive, the largest
/// length (an empty `X` then has rows of 0).
fn sequence_mask(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.output("Y")?);
    let max_tensor = l.opt_input("MaxLenTensor")?;
    let maxlen_attr = l.int("maxlen")?;
    let dtype = l.dtype("out_dtype", VarKind::Int64)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        // Per row, the number of positions `j < length` (a float length
        // counts up to its ceiling, as 1.x's kernel compared `j < x`), and
        // the longest length (a float one truncated, as 1.x's cast).
        let (lengths, longest): (Vec<i64>, i64) = match xt.dtype() {
            VarKind::Int32 | VarKind::Int64 => {
                let v = i64s(&xt)?.to_vec();
                let longest = v.iter().copied().max().unwrap_or(0);
                (v, longest)
            }
            VarKind::Fp32 | VarKind::Fp64 => {
                let v = f64s(&xt, "sequence_mask")?;
                let ones = v
                    .iter()
                    .map(|&n| if n > 0.0 { n.ceil() as i64 } else { 0 })
                    .collect();
                let longest = v.iter().copied().fold(0.0, f64::max) as i64;
                (ones, longest)
            }
            other => {
                return Err(KernelError::Dtype(format!(
                    "X is {}; it takes int32, int64, float32 or float64 lengths",
                    dtype_name(other)
                )))
            }
        };
        let maxlen = match &max_tensor {
            Some(m) => s.tensor(m)?.scalar_i64()?,
            None => maxlen_attr,
        };
        let maxlen = if maxlen > 0 { maxlen } else { longest.max(0) };
        let width = usize::try_from(maxlen)
            .map_err(|_| KernelError::Attribute(format!("maxlen {maxlen} is too large")))?;
        let mut shape = xt.shape().to_vec();
        shape.push(maxlen);
        let mut mask = vec![0i64; alloc::check(&shape, VarKind::Int64)?];
        for (row, &n) in mask.chunks_exact_mut(width.max(1)).zip(lengths.iter()) {
            let n = usize::try_from(n).unwrap_or(0).min(width);
            row[..n].fill(1);
        }
        let t = Tensor::from_vec(&shape, mask)?;
        let t = if dtype == VarKind::Int64 {
            t
        } else {
            t.cast(dtype)?
        };
        drop(lengths);
        drop(xt);
        s.set_tensor(&y, t);
        Ok(())
    })
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Pool {
    Average,
    Sum,
    Sqrt,
    Max,
    Last,
    First,
}

fn pool_type(l: &OpReader) -> Result<Pool, KernelError> {
    let name = l
        .string("pooltype")?
        .unwrap_or("AVERAGE")
        .to_ascii_uppercase();
    Ok(match name.as_str() {
        "AVERAGE" => Pool::Average,
        "SUM" => Pool::Sum,
        "SQRT" => Pool::Sqrt,
        "MAX" => Pool::Max,
        "LAST" => Pool::Last,
        "FIRST" => Pool::First,
        other => {
            return Err(KernelError::Attribute(format!(
                "pooltype `{other}` is not one of AVERAGE, SUM, SQRT, MAX, LAST, FIRST"
            )))
        }
    })
}

/// The row offsets of `x`'s sequences (its last LoD level) and the
/// width of a row.
fn sequences(x: &Tensor, name: &str) -> Result<(Vec<usize>, usize), KernelError> {
    let Some(offsets) = x.lod().last() else {
        return Err(KernelError::Invalid(format!(
            "`{name}` has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)"
        )));
    };
    let rows = x.shape().first().copied().unwrap_or(1).max(0) as usize;
    if offsets.last() != Some(&rows) {
        return Err(KernelError::Shape(format!(
            "the LoD of `{name}` ends at {:?} but it has {rows} rows",
            offsets.last()
        )));
    }
    let width = x.numel().checked_div(rows).unwrap_or(0);
    Ok((offsets.clone(), width))
}

/// The output's shape (a row per sequence) and LoD (the levels above the last).
fn pooled_shape(x: &Tensor, n: usize) -> (Vec<i64>, Vec<Vec<usize>>) {
    let mut shape = x.shape().to_vec();
    shape[0] = n as i64;
    let lod = x.lod();
    (shape, lod[..lod.len() - 1].to_vec())
}

fn sequence_pool(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let max_index = l.opt_output("MaxIndex")?;
    let pool = pool_type(l)?;
    let pad = l.float("pad_value")?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (offsets, width) = sequences(&xt, &x.name)?;
        let (o, idx) = match xt.values::<f32>() {
            Some(v) => {
                let (o, idx) = pool_rows(v, &offsets, width, pool, pad as f32);
                (o.into_iter().map(f64::from).collect(), idx)
            }
            None => pool_rows(&f64s(&xt, "sequence_pool")?, &offsets, width, pool, pad),
        };
        let (shape, lod) = pooled_shape(&xt, offsets.len() - 1);
        let t = tensor(xt.dtype(), &shape, o)?.with_lod(lod);
        drop(xt);
        s.set_tensor(&out, t);
        if let Some(mi) = &max_index {
            s.set_tensor(mi, Tensor::from_vec(&shape, idx)?);
        }
        Ok(())
    })
}

/// Pools each sequence's rows column by column in the input's precision,
/// adding rows in order as Paddle's CPU kernel does; the second result is
/// MAX's row of each maximum (-1 elsewhere).
fn pool_rows<T>(v: &[T], offsets: &[usize], width: usize, pool: Pool, pad: T) -> (Vec<T>, Vec<i32>)
where
    T: Copy + PartialOrd + std::iter::Sum + std::ops::Div<Output = T> + From<f32> + Sqrt,
{
    let n = offsets.len() - 1;
    let mut o = vec![pad; n * width];
    let mut idx = vec![-1i32; n * width];
    for k in 0..n {
        let (a, b) = (offsets[k], offsets[k + 1]);
        if a == b {
            continue;
        }
        let len = T::from((b - a) as f32);
        for c in 0..width {
            let col = (a..b).map(|r| v[r * width + c]);
            o[k * width + c] = match pool {
                Pool::Sum => col.sum(),
                Pool::Average => col.sum::<T>() / len,
                Pool::Sqrt => col.sum::<T>() / len.sqrt(),
                Pool::Last => v[(b - 1) * width + c],
                Pool::First => v[a * width + c],
                Pool::Max => {
                    let mut at = a;
                    for r in a + 1..b {
                        if v[r * width + c] > v[at * width + c] {
                            at = r;
                        }
                    }
                    idx[k * width + c] = at as i32;
                    v[at * width + c]
                }
            };
        }
    }
    (o, idx)
}

/// `sqrt` of the two float types.
trait Sqrt {
    fn sqrt(self) -> Self;
}

impl Sqrt for f32 {
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Sqrt for f64 {
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}

/// `X@GRAD`: each sequence's `Out@GRAD` row spread back over the rows
/// the pool read (shared evenly for AVERAGE, by `1/sqrt(len)` for SQRT).
fn sequence_pool_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let max_index = l.opt_input("MaxIndex")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let pool = pool_type(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (offsets, width) = sequences(&xt, &x.name)?;
        let dt = s.tensor(&dout)?;
        let d = f64s(&dt, "sequence_pool_grad")?;
        let n = offsets.len() - 1;
        if d.len() != n * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit {n} sequences of width {width}",
                dt.shape()
            )));
        }
        let idx: Option<Vec<i64>> = if pool == Pool::Max {
            let t = max_index
                .as_ref()
                .and_then(|mi| s.tensor(mi).ok())
                .ok_or_else(|| {
                    KernelError::Invalid(
                        "MAX pooling's gradient needs the forward op's MaxIndex".into(),
                    )
                })?;
            let v = crate::ops::float::i64s(&t)?.into_owned();
            Some(v)
        } else {
            None
        };
        let mut g = vec![0.0; xt.numel()];
        for k in 0..n {
            let (a, b) = (offsets[k], offsets[k + 1]);
            if a == b {
                continue;
            }
            let len = (b - a) as f64;
            for c in 0..width {
                let dv = d[k * width + c];
                match pool {
                    Pool::Sum | Pool::Average | Pool::Sqrt => {
                        let scale = match pool {
                            Pool::Sum => 1.0,
                            Pool::Average => 1.0 / len,
                            _ => 1.0 / len.sqrt(),
                        };
                        for r in a..b {
                            g[r * width + c] = dv * scale;
                        }
                    }
                    Pool::Last => g[(b - 1) * width + c] = dv,
                    Pool::First => g[a * width + c] = dv,
                    Pool::Max => {
                        let r = idx.as_ref().map_or(a as i64, |i| i[k * width + c]);
                        let r = usize::try_from(r)
                            .ok()
                            .filter(|r| (a..b).contains(r))
                            .ok_or_else(|| {
                                KernelError::Invalid(format!(
                                    "MaxIndex {r} is outside sequence {k}"
                                ))
                            })?;
                        g[r * width + c] = dv;
                    }
                }
            }
        }
        let t = tensor(xt.dtype(), xt.shape(), g)?.with_lod(xt.lod().to_vec());
        drop(d);
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `sequence_softmax`: the softmax of each sequence of a one-column `X`,
/// `exp(x) / sum(exp(x))` in the input's precision without subtracting the
/// maximum, as Paddle's CPU functor computes it. `Out` keeps `X`'s LoD.
fn sequence_softmax(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let offsets = one_column_sequences(&xt, &x.name)?;
        fn run<T: Real>(v: &[T], offsets: &[usize]) -> Vec<T> {
            let mut o = vec![T::zero(); v.len()];
            for w in offsets.windows(2) {
                let seq = &v[w[0]..w[1]];
                let sum = seq.iter().fold(T::zero(), |acc, &x| acc + x.exp());
                for (o, &x) in o[w[0]..w[1]].iter_mut().zip(seq) {
                    *o = x.exp() / sum;
                }
            }
            o
        }
        let t = match (xt.values::<f32>(), xt.values::<f64>()) {
            (Some(v), _) => Tensor::from_vec(xt.shape(), run(v, &offsets))?,
            (_, Some(v)) => Tensor::from_vec(xt.shape(), run(v, &offsets))?,
            _ => return Err(needs_float("sequence_softmax", &xt)),
        };
        let t = t.with_lod(xt.lod().to_vec());
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Its grad: per sequence, `(dout - sum(dout * out)) * out`.
fn sequence_softmax_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, dout) = (l.input("X")?, l.input("Out")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, ot, dt) = (s.tensor(&x)?, s.tensor(&out)?, s.tensor(&dout)?);
        let offsets = one_column_sequences(&xt, &x.name)?;
        if ot.numel() != xt.numel() || dt.numel() != xt.numel() {
            return Err(KernelError::Shape(format!(
                "Out {:?} and Out@GRAD {:?} must have X's shape {:?}",
                ot.shape(),
                dt.shape(),
                xt.shape()
            )));
        }
        fn run<T: Real>(y: &[T], d: &[T], offsets: &[usize]) -> Vec<T> {
            let mut g = vec![T::zero(); y.len()];
            for w in offsets.windows(2) {
                let (a, b) = (w[0], w[1]);
                let dot = (a..b).fold(T::zero(), |acc, k| acc + d[k] * y[k]);
                for k in a..b {
                    g[k] = (d[k] - dot) * y[k];
                }
            }
            g
        }
        let g = match (ot.values::<f32>(), dt.values::<f32>()) {
            (Some(y), Some(d)) => Tensor::from_vec(xt.shape(), run(y, d, &offsets))?,
            _ => {
                let op = "sequence_softmax_grad";
                let (y, d) = (f64s(&ot, op)?, f64s(&dt, op)?);
                Tensor::from_vec(xt.shape(), run(&y, &d, &offsets))?.cast(xt.dtype())?
            }
        };
        let g = g.with_lod(xt.lod().to_vec());
        drop((xt, ot, dt));
        s.set_tensor(&dx, g);
        Ok(())
    })
}

/// The sequences of a `X` that has one value per row, as
/// `sequence_softmax` requires.
fn one_column_sequences(x: &Tensor, name: &str) -> Result<Vec<usize>, KernelError> {
    let (offsets, width) = sequences(x, name)?;
    if width != 1 && x.numel() != 0 {
        return Err(KernelError::Shape(format!(
            "`{name}` of shape {:?} has {width} values per row; sequence_softmax takes one (shape [N, 1] or [N])",
            x.shape()
        )));
    }
    Ok(offsets)
}

/// `sequence_conv`'s window: `contextLength` rows from `contextStart`
/// (negative: rows before), stride 1, zeros past a sequence's ends.
#[derive(Clone, Copy)]
struct Context {
    start: i64,
    length: usize,
}

impl Context {
    fn load(l: &OpReader) -> Result<Context, KernelError> {
        if l.bool_or("paddingTrainable", false)? || l.given(&["PaddingData"]) {
            return Err(KernelError::Unsupported("sequence_conv with trainable padding (paddingTrainable, PaddingData) is not supported; fluidc pads with zeros".into()));
        }
        let stride = l.int_or("contextStride", 1)?;
        if stride != 1 {
            return Err(KernelError::Unsupported(format!(
                "contextStride {stride} is not supported: Paddle's sequence_conv only takes 1"
            )));
        }
        let length = l.int_or("contextLength", 0)?;
        let length = usize::try_from(length)
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| {
                KernelError::Attribute(format!("contextLength {length} must be at least 1"))
            })?;
        Ok(Context {
            start: l.int_or("contextStart", 0)?,
            length,
        })
    }

    /// The windows as rows: row `t` holds the `length` input rows its
    /// window reads, side by side (zeros for padding), so the convolution
    /// is one product with the filter (as Paddle's kernel, through its
    /// context projection, computes it).
    fn im2col(self, offsets: &[usize], x: &[f64], d: usize) -> Vec<f64> {
        let width = self.length * d;
        let mut col = vec![0.0; offsets.last().copied().unwrap_or(0) * width];
        for (t, k, src) in self.slots(offsets) {
            col[t * width + k * d..][..d].copy_from_slice(&x[src * d..][..d]);
        }
        col
    }

    /// [`Context::im2col`] backwards: each input row gets the sum of the
    /// window slots that read it.
    fn col2im(self, offsets: &[usize], col: &[f64], d: usize) -> Vec<f64> {
        let width = self.length * d;
        let mut x = vec![0.0; offsets.last().copied().unwrap_or(0) * d];
        for (t, k, src) in self.slots(offsets) {
            let from = &col[t * width + k * d..][..d];
            x[src * d..][..d]
                .iter_mut()
                .zip(from)
                .for_each(|(x, &g)| *x += g);
        }
        x
    }

    /// Every (row, window slot, input row it reads) of the sequences,
    /// padding left out.
    fn slots(self, offsets: &[usize]) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        offsets.windows(2).flat_map(move |w| {
            (w[0]..w[1]).flat_map(move |t| {
                self.rows(t, (w[0], w[1]))
                    .enumerate()
                    .filter_map(move |(k, src)| Some((t, k, src?)))
            })
        })
    }

    /// For row `t` of the sequence `[a, b)`, the row each window slot
    /// reads (`None`: padding).
    fn rows(self, t: usize, (a, b): (usize, usize)) -> impl Iterator<Item = Option<usize>> {
        (0..self.length).map(move |k| {
            let src = t as i64 + self.start + k as i64;
            (src >= a as i64 && src < b as i64).then_some(src as usize)
        })
    }
}

/// The sequences, width and filter of a `sequence_conv`: `X` `[T, D]`
/// with LoD and `Filter` `[contextLength * D, M]`; gives `M` too.
fn conv_dims(
    x: &Tensor,
    filter: &Tensor,
    ctx: Context,
    name: &str,
) -> Result<(Vec<usize>, usize, usize), KernelError> {
    let (offsets, d) = sequences(x, name)?;
    match filter.shape() {
        &[rows, m] if rows as usize == ctx.length * d && m >= 0 => Ok((offsets, d, m as usize)),
        shape => Err(KernelError::Shape(format!(
            "Filter {shape:?} must be [contextLength * {d}, num_filters] = [{}, M]",
            ctx.length * d
        ))),
    }
}

/// `sequence_conv`: each row's window of `contextLength` rows of its own
/// sequence (zeros past its ends), flattened and multiplied by `Filter`.
/// `Out` keeps `X`'s LoD.
fn sequence_conv(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, filter, out) = (l.input("X")?, l.input("Filter")?, l.output("Out")?);
    let ctx = Context::load(l)?;
    compute(move |s| {
        let (xt, ft) = (s.tensor(&x)?, s.tensor(&filter)?);
        let (offsets, d, m) = conv_dims(&xt, &ft, ctx, &x.name)?;
        let (xv, fv) = (f64s(&xt, "sequence_conv")?, f64s(&ft, "sequence_conv")?);
        let rows = offsets.last().copied().unwrap_or(0);
        let col = ctx.im2col(&offsets, &xv, d);
        let mut o = vec![0.0; rows * m];
        gemm(
            (&col, false),
            (&fv, false),
            (rows, ctx.length * d, m),
            &mut o,
        )?;
        let t = tensor(xt.dtype(), &[rows as i64, m as i64], o)?.with_lod(xt.lod().to_vec());
        drop((xv, fv));
        drop((xt, ft));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Its grad: `Filter@GRAD` sums each window times its row's `Out@GRAD`;
/// `X@GRAD` gives each row back what the windows that read it took.
fn sequence_conv_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, filter, dout) = (l.input("X")?, l.input("Filter")?, l.input("Out@GRAD")?);
    let (dx, dfilter) = (l.opt_output("X@GRAD")?, l.opt_output("Filter@GRAD")?);
    let ctx = Context::load(l)?;
    compute(move |s| {
        let op = "sequence_conv_grad";
        let (xt, ft, dt) = (s.tensor(&x)?, s.tensor(&filter)?, s.tensor(&dout)?);
        let (offsets, d, m) = conv_dims(&xt, &ft, ctx, &x.name)?;
        let rows = offsets.last().copied().unwrap_or(0);
        if dt.numel() != rows * m {
            return Err(KernelError::Shape(format!(
                "Out@GRAD {:?} must be [{rows}, {m}]",
                dt.shape()
            )));
        }
        let (xv, fv, dv) = (f64s(&xt, op)?, f64s(&ft, op)?, f64s(&dt, op)?);
        let width = ctx.length * d;
        let col = ctx.im2col(&offsets, &xv, d);
        // Filter@GRAD = colᵀ · Out@GRAD; the windows' gradient
        // Out@GRAD · Filterᵀ goes back to the rows they read.
        let mut gf = vec![0.0; fv.len()];
        gemm((&col, true), (&dv, false), (width, rows, m), &mut gf)?;
        let mut gcol = vec![0.0; rows * width];
        gemm((&dv, false), (&fv, true), (rows, m, width), &mut gcol)?;
        let gx = ctx.col2im(&offsets, &gcol, d);
        let (dtype, x_shape, f_shape) = (xt.dtype(), xt.shape().to_vec(), ft.shape().to_vec());
        let lod = xt.lod().to_vec();
        drop((xv, fv, dv));
        drop((xt, ft, dt));
        let gx = tensor(dtype, &x_shape, gx)?.with_lod(lod);
        let gf = tensor(dtype, &f_shape, gf)?;
        crate::ops::float::set_grads(s, vec![(&dx, Some(gx)), (&dfilter, Some(gf))]);
        Ok(())
    })
}
