//! The box ops of Paddle 1.x's SSD-style detection layers, as 1.x's CPU
//! kernels compute them (`operators/detection/`), in the input's
//! precision with the C++ kernels' `float`/`double` intermediates:
//! `prior_box`, `density_prior_box`, `box_coder`, `iou_similarity`,
//! `anchor_generator`, `box_clip`, `multiclass_nms` (and `multiclass_nms2`),
//! `yolo_box` and `yolov3_loss` with its grad (1.6's), and 1.x's
//! `polygon_box_transform` and `roi_perspective_transform` with its grad,
//! and Faster R-CNN's `generate_proposals` and `rpn_target_assign`.
use fluidc_transpiler::AttrValue;
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s, needs_float};
use crate::ops::optim::Real;
use crate::scope::{VarRef, Vars};
use crate::tensor::{alloc, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("prior_box", prior_box);
    r.add("density_prior_box", density_prior_box);
    r.add("box_coder", box_coder);
    r.add("iou_similarity", iou_similarity);
    r.add("anchor_generator", anchor_generator);
    r.add("box_clip", box_clip);
    r.add("multiclass_nms", multiclass_nms);
    r.add("multiclass_nms2", multiclass_nms);
    r.add("yolo_box", yolo_box);
    r.add("yolov3_loss", yolov3_loss);
    r.add("yolov3_loss_grad", yolov3_loss_grad);
    r.add("polygon_box_transform", polygon_box_transform);
    r.add("roi_perspective_transform", roi_perspective_transform);
    r.add(
        "roi_perspective_transform_grad",
        roi_perspective_transform_grad,
    );
    r.add("generate_proposals", generate_proposals);
    r.add("rpn_target_assign", rpn_target_assign);
}

/// `polygon_box_transform` (1.x's CPU kernel, float32 or float64): each
/// even geometry channel becomes `4 * w - x` and each odd one `4 * h - x`,
/// at column `w` and row `h` of the `[N, C, H, W]` input.
fn polygon_box_transform(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Input")?, l.output("Output")?);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let &[_, _, h, w] = xt.shape() else {
            return Err(KernelError::Shape(format!(
                "Input `{}` of polygon_box_transform has shape {:?}; its rank must be 4",
                x.name,
                xt.shape()
            )));
        };
        let (h, w) = (h.max(0) as usize, w.max(0) as usize);
        // Element `i`'s column (even channel) or row (odd channel), times 4.
        let shift = |i: usize| {
            let (plane, at) = (i / (h * w).max(1), i % (h * w).max(1));
            4 * if plane % 2 == 0 { at % w } else { at / w }
        };
        let t = if let Some(v) = xt.values::<f32>() {
            let o: Vec<f32> = v
                .iter()
                .enumerate()
                .map(|(i, &a)| shift(i) as f32 - a)
                .collect();
            Tensor::from_vec(xt.shape(), o)?
        } else if let Some(v) = xt.values::<f64>() {
            let o: Vec<f64> = v
                .iter()
                .enumerate()
                .map(|(i, &a)| shift(i) as f64 - a)
                .collect();
            Tensor::from_vec(xt.shape(), o)?
        } else {
            return Err(KernelError::Dtype(format!(
                "polygon_box_transform takes float32 or float64, not {}",
                crate::tensor::dtype_name(xt.dtype())
            )));
        };
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// A FLOATS attribute (empty when neither the op nor its definition gives it).
pub(super) fn floats(l: &OpReader, name: &str) -> Result<Vec<f32>, KernelError> {
    match l.attr(name) {
        None => Ok(Vec::new()),
        Some(AttrValue::Floats(v)) => Ok(v.clone()),
        Some(AttrValue::Float64s(v)) => Ok(v.iter().map(|&x| x as f32).collect()),
        Some(other) => Err(KernelError::Attribute(format!(
            "attribute `{name}` must be FLOATS, it is {other:?}"
        ))),
    }
}

/// The float dtype of `t` (float32 or float64), or the op's dtype error.
pub(super) fn float_dtype(op: &str, t: &Tensor) -> Result<VarKind, KernelError> {
    match t.dtype() {
        VarKind::Fp32 | VarKind::Fp64 => Ok(t.dtype()),
        _ => Err(needs_float(op, t)),
    }
}

/// `[H, W]` of an NCHW tensor's shape.
fn spatial(what: &str, shape: &[i64]) -> Result<(i64, i64), KernelError> {
    match shape {
        [_, _, h, w] => Ok((*h, *w)),
        _ => Err(KernelError::Shape(format!(
            "The layout of {what} is NCHW, but its shape is {shape:?}"
        ))),
    }
}

/// `variances` repeated for each of `boxes` boxes, `[.., 4]` as `shape`.
fn variances<T: Real>(shape: &[i64], variances: &[f32]) -> Result<Tensor, KernelError> {
    let n = alloc::check(shape, VarKind::Fp32)?;
    if variances.len() != 4 {
        return Err(KernelError::Attribute(format!(
            "Must and only provide 4 variance, not {variances:?}"
        )));
    }
    let v: Vec<T> = variances
        .iter()
        .map(|&x| T::of(f64::from(x)))
        .cycle()
        .take(n)
        .collect();
    Tensor::from_vec(shape, v)
}

/// The attributes of `prior_box`.
#[derive(Debug, Clone)]
struct PriorBox {
    min_sizes: Vec<f32>,
    max_sizes: Vec<f32>,
    ratios: Vec<f32>,
    variances: Vec<f32>,
    clip: bool,
    step_w: f32,
    step_h: f32,
    offset: f32,
    min_max_order: bool,
}

/// `prior_box`: for each place of `Input`'s `H x W` grid, boxes around
/// its center `((w + offset) step_w, (h + offset) step_h)` (the steps the
/// image's size over the map's when either is 0), normalized by the
/// image's size: per min size, one per expanded aspect ratio (`min_size
/// sqrt(ar)` wide, `min_size / sqrt(ar)` high) then the square
/// `sqrt(min_size max_size)`, or with `min_max_aspect_ratios_order` the
/// min square, the max square, then the other ratios (Caffe's order).
/// `clip` clamps each value to [0, 1]; `Variances` repeats `variances`.
fn prior_box(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, image) = (l.input("Input")?, l.input("Image")?);
    let (boxes, vars) = (l.output("Boxes")?, l.output("Variances")?);
    let a = PriorBox {
        min_sizes: floats(l, "min_sizes")?,
        max_sizes: floats(l, "max_sizes")?,
        ratios: fluidc_transpiler::ops::boxes::expand_aspect_ratios(
            &floats(l, "aspect_ratios")?,
            l.bool("flip")?,
        ),
        variances: floats(l, "variances")?,
        clip: l.bool("clip")?,
        step_w: l.float("step_w")? as f32,
        step_h: l.float("step_h")? as f32,
        offset: l.float("offset")? as f32,
        min_max_order: l.bool("min_max_aspect_ratios_order")?,
    };
    if !a.max_sizes.is_empty() && a.max_sizes.len() != a.min_sizes.len() {
        return Err(KernelError::Attribute(
            "The number of min_size and max_size must be equal.".into(),
        ));
    }
    compute(move |s| {
        let it = s.tensor(&input)?;
        let dtype = float_dtype("prior_box", &it)?;
        let (fh, fw) = spatial("input", it.shape())?;
        drop(it);
        let (ih, iw) = spatial("image", s.tensor(&image)?.shape())?;
        let (b, v) = match dtype {
            VarKind::Fp32 => prior_boxes::<f32>(&a, fh, fw, ih, iw)?,
            _ => prior_boxes::<f64>(&a, fh, fw, ih, iw)?,
        };
        s.set_tensor(&boxes, b);
        s.set_tensor(&vars, v);
        Ok(())
    })
}

/// 1.x's `std::min<T>(std::max<T>(v, 0.), 1.)` on each value.
fn clamp01<T: Real>(values: &mut [T]) {
    for v in values {
        let m = if *v < T::zero() { T::zero() } else { *v };
        *v = if T::one() < m { T::one() } else { m };
    }
}

fn prior_boxes<T: Real>(
    a: &PriorBox,
    fh: i64,
    fw: i64,
    ih: i64,
    iw: i64,
) -> Result<(Tensor, Tensor), KernelError> {
    let num_priors = a.ratios.len() * a.min_sizes.len() + a.max_sizes.len();
    let shape = [fh, fw, num_priors as i64, 4];
    let mut out: Vec<T> = Vec::with_capacity(alloc::check(&shape, VarKind::Fp32)?);
    let (img_w, img_h) = (T::of(iw as f64), T::of(ih as f64));
    let (step_w, step_h) = if a.step_w == 0.0 || a.step_h == 0.0 {
        (img_w / T::of(fw as f64), img_h / T::of(fh as f64))
    } else {
        (T::of(f64::from(a.step_w)), T::of(f64::from(a.step_h)))
    };
    let offset = T::of(f64::from(a.offset));
    // The C++ kernel's `box_width = expr` rounds a double expression to T.
    let mut push = |cx: T, cy: T, half_w: f64, half_h: f64| {
        let (bw, bh) = (T::of(half_w), T::of(half_h));
        out.extend([
            (cx - bw) / img_w,
            (cy - bh) / img_h,
            (cx + bw) / img_w,
            (cy + bh) / img_h,
        ]);
    };
    for h in 0..fh {
        for w in 0..fw {
            let cx = (T::of(w as f64) + offset) * step_w;
            let cy = (T::of(h as f64) + offset) * step_h;
            for (s, &min_size) in a.min_sizes.iter().enumerate() {
                let min = f64::from(min_size);
                // sqrt(min_size * max_size) in float, as Paddle's kernel.
                let max_square = a
                    .max_sizes
                    .get(s)
                    .map(|&max| f64::from((min_size * max).sqrt()) / 2.0);
                let ratio = |ar: f32| {
                    let root = f64::from(ar.sqrt());
                    (
                        f64::from((min_size as f64 * root) as f32) / 2.0,
                        f64::from((min / root) as f32) / 2.0,
                    )
                };
                if a.min_max_order {
                    push(cx, cy, min / 2.0, min / 2.0);
                    if let Some(m) = max_square {
                        push(cx, cy, m, m);
                    }
                    for &ar in &a.ratios {
                        if (f64::from(ar) - 1.0).abs() < 1e-6 {
                            continue;
                        }
                        let (hw, hh) = ratio(ar);
                        push(cx, cy, hw, hh);
                    }
                } else {
                    for &ar in &a.ratios {
                        let (hw, hh) = ratio(ar);
                        push(cx, cy, hw, hh);
                    }
                    if let Some(m) = max_square {
                        push(cx, cy, m, m);
                    }
                }
            }
        }
    }
    if a.clip {
        clamp01(&mut out);
    }
    Ok((
        Tensor::from_vec(&shape, out)?,
        variances::<T>(&shape, &a.variances)?,
    ))
}

/// The attributes of `density_prior_box`.
#[derive(Debug, Clone)]
struct DensityPriorBox {
    variances: Vec<f32>,
    clip: bool,
    flatten: bool,
    step_w: f32,
    step_h: f32,
    offset: f32,
    fixed_sizes: Vec<f32>,
    fixed_ratios: Vec<f32>,
    densities: Vec<i64>,
}

/// `density_prior_box` (1.x, Paddle 3.3.1 has none): for each place of
/// `Input`'s grid, per fixed size and ratio, a `density x density` grid
/// of boxes `size sqrt(ratio)` wide and `size / sqrt(ratio)` high, their
/// centers `shift = int((step_w + step_h) / 2) / density` apart (integer
/// division, as 1.x's kernel) around the place's center; each side is
/// clamped to [0, 1], all of them again with `clip`. `[H, W, num_priors,
/// 4]`, or `[H W num_priors, 4]` with `flatten_to_2d`.
fn density_prior_box(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, image) = (l.input("Input")?, l.input("Image")?);
    let (boxes, vars) = (l.output("Boxes")?, l.output("Variances")?);
    let a = DensityPriorBox {
        variances: floats(l, "variances")?,
        clip: l.bool("clip")?,
        flatten: l.bool("flatten_to_2d")?,
        step_w: l.float("step_w")? as f32,
        step_h: l.float("step_h")? as f32,
        offset: l.float("offset")? as f32,
        fixed_sizes: floats(l, "fixed_sizes")?,
        fixed_ratios: floats(l, "fixed_ratios")?,
        densities: l.ints("densities")?.unwrap_or_default(),
    };
    if a.fixed_sizes.len() != a.densities.len() {
        return Err(KernelError::Attribute(
            "The number of fixed_sizes and densities must be equal.".into(),
        ));
    }
    if a.densities.iter().any(|&d| d <= 0) {
        return Err(KernelError::Attribute(format!(
            "densities {:?} should be larger than 0",
            a.densities
        )));
    }
    compute(move |s| {
        let it = s.tensor(&input)?;
        let dtype = float_dtype("density_prior_box", &it)?;
        let (fh, fw) = spatial("input", it.shape())?;
        drop(it);
        let (ih, iw) = spatial("image", s.tensor(&image)?.shape())?;
        let (b, v) = match dtype {
            VarKind::Fp32 => density_boxes::<f32>(&a, fh, fw, ih, iw)?,
            _ => density_boxes::<f64>(&a, fh, fw, ih, iw)?,
        };
        s.set_tensor(&boxes, b);
        s.set_tensor(&vars, v);
        Ok(())
    })
}

fn density_boxes<T: Real>(
    a: &DensityPriorBox,
    fh: i64,
    fw: i64,
    ih: i64,
    iw: i64,
) -> Result<(Tensor, Tensor), KernelError> {
    let num_priors: i64 = a
        .densities
        .iter()
        .map(|&d| a.fixed_ratios.len() as i64 * d * d)
        .sum();
    let shape = if a.flatten {
        vec![fh * fw * num_priors, 4]
    } else {
        vec![fh, fw, num_priors, 4]
    };
    let mut out: Vec<T> = Vec::with_capacity(alloc::check(&shape, VarKind::Fp32)?);
    let (step_w, step_h) = if a.step_w == 0.0 || a.step_h == 0.0 {
        (
            T::of(iw as f64) / T::of(fw as f64),
            T::of(ih as f64) / T::of(fh as f64),
        )
    } else {
        (T::of(f64::from(a.step_w)), T::of(f64::from(a.step_h)))
    };
    let step_average = (to_f64(step_w + step_h) * 0.5) as i64;
    let roots: Vec<f32> = a.fixed_ratios.iter().map(|r| r.sqrt()).collect();
    let offset = T::of(f64::from(a.offset));
    let (iw, ih) = (iw as f64, ih as f64);
    for h in 0..fh {
        for w in 0..fw {
            let cx = to_f64((T::of(w as f64) + offset) * step_w);
            let cy = to_f64((T::of(h as f64) + offset) * step_h);
            for (&size, &density) in a.fixed_sizes.iter().zip(&a.densities) {
                let shift = step_average / density;
                for &root in &roots {
                    let (bw, bh) = (f64::from(size * root), f64::from(size / root));
                    let dcx = (cx - step_average as f64 / 2.0 + shift as f64 / 2.0) as f32;
                    let dcy = (cy - step_average as f64 / 2.0 + shift as f64 / 2.0) as f32;
                    for di in 0..density {
                        for dj in 0..density {
                            let x = f64::from(dcx + (dj * shift) as f32);
                            let y = f64::from(dcy + (di * shift) as f32);
                            out.extend([
                                T::of(((x - bw / 2.0) / iw).max(0.0)),
                                T::of(((y - bh / 2.0) / ih).max(0.0)),
                                T::of(((x + bw / 2.0) / iw).min(1.0)),
                                T::of(((y + bh / 2.0) / ih).min(1.0)),
                            ]);
                        }
                    }
                }
            }
        }
    }
    if a.clip {
        clamp01(&mut out);
    }
    Ok((
        Tensor::from_vec(&shape, out)?,
        variances::<T>(&shape, &a.variances)?,
    ))
}

/// A float as `f64`.
fn to_f64<T: Real>(v: T) -> f64 {
    v.to_f64()
}

/// `box_coder`'s code types.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Code {
    Encode,
    Decode,
}

/// `box_coder`: 1.x's center-size coding. Encode gives, for each target
/// box (`[N, 4]`) against each prior box (`[M, 4]`), `[N, M, 4]` offsets
/// `((tx - px) / pw, (ty - py) / ph, ln|tw / pw|, ln|th / ph|)` divided by
/// the prior's variances (`PriorBoxVar` or the `variance` attribute);
/// decode inverts it for `TargetBox` `[N, M, 4]`, the prior boxes along
/// `axis` (0: `[M, 4]`, one per column; 1: `[N, 4]`, one per row). Widths
/// and heights count the end pixel unless `box_normalized`.
fn box_coder(l: &OpReader) -> Result<Exec, KernelError> {
    let (prior, target) = (l.input("PriorBox")?, l.input("TargetBox")?);
    let prior_var = l.opt_input("PriorBoxVar")?;
    let out = l.output("OutputBox")?;
    let variance = floats(l, "variance")?;
    let code = match l.string("code_type")?.unwrap_or("encode_center_size") {
        "encode_center_size" => Code::Encode,
        "decode_center_size" => Code::Decode,
        other => return Err(KernelError::Attribute(format!("Not support type {other}."))),
    };
    let normalized = l.bool("box_normalized")?;
    let axis = l.int("axis")?;
    if prior_var.is_some() && !variance.is_empty() {
        return Err(KernelError::Attribute(
            "Input 'PriorBoxVar' and attribute 'variance' should not be used at the same time."
                .into(),
        ));
    }
    if !variance.is_empty() && variance.len() != 4 {
        return Err(KernelError::Attribute(
            "Size of attribute 'variance' should be 4".into(),
        ));
    }
    if code == Code::Decode && axis != 0 && axis != 1 {
        return Err(KernelError::Attribute(format!(
            "axis must be 0 or 1, not {axis}"
        )));
    }
    compute(move |s| {
        let pt = s.tensor(&prior)?;
        let tt = s.tensor(&target)?;
        if tt.lod().len() > 1 {
            return Err(KernelError::Shape("Only support 1 level of LoD.".into()));
        }
        let dtype = float_dtype("box_coder", &pt)?;
        if tt.dtype() != dtype {
            return Err(needs_same("box_coder", &pt, &tt));
        }
        let (ps, ts) = (pt.shape().to_vec(), tt.shape().to_vec());
        if ps.len() != 2 || ps[1] != 4 {
            return Err(KernelError::Shape(format!(
                "The shape of PriorBox is [N, 4], not {ps:?}"
            )));
        }
        let var = match &prior_var {
            Some(v) => {
                let vt = s.tensor(v)?;
                if vt.shape() != ps.as_slice() {
                    return Err(KernelError::Shape(format!(
                        "The dimension of Input(PriorBoxVar) {:?} should be equal to the dimension of Input(PriorBox) {ps:?}",
                        vt.shape()
                    )));
                }
                Some(f64s(&vt, "box_coder")?.into_owned())
            }
            None => None,
        };
        let p = f64s(&pt, "box_coder")?.into_owned();
        let t = f64s(&tt, "box_coder")?.into_owned();
        let lod = tt.lod().to_vec();
        let prior_lod = pt.lod().to_vec();
        drop((pt, tt));
        let c = Coder {
            p,
            t,
            var,
            variance: variance.clone(),
            normalized,
        };
        let (shape, values) = match code {
            Code::Encode => {
                if ts.len() != 2 || ts[1] != 4 {
                    return Err(KernelError::Shape(format!(
                        "The shape of TargetBox is [M, 4], not {ts:?}"
                    )));
                }
                let shape = vec![ts[0], ps[0], 4];
                alloc::check(&shape, dtype)?;
                let v = match dtype {
                    VarKind::Fp32 => c.encode::<f32>(ts[0] as usize, ps[0] as usize),
                    _ => c.encode::<f64>(ts[0] as usize, ps[0] as usize),
                };
                (shape, v)
            }
            Code::Decode => {
                if ts.len() != 3 {
                    return Err(KernelError::Shape(format!(
                        "The rank of Input TargetBox must be 3, not {ts:?}"
                    )));
                }
                let along = if axis == 0 { ts[1] } else { ts[0] };
                if along != ps[0] || ts[2] != ps[1] {
                    return Err(KernelError::Shape(format!(
                        "TargetBox {ts:?} does not match PriorBox {ps:?} along axis {axis}"
                    )));
                }
                let v = match dtype {
                    VarKind::Fp32 => c.decode::<f32>(ts[0] as usize, ts[1] as usize, axis == 0),
                    _ => c.decode::<f64>(ts[0] as usize, ts[1] as usize, axis == 0),
                };
                (ts, v)
            }
        };
        let mut o = float::tensor(dtype, &shape, values)?;
        // 1.x's ShareLoD: PriorBox's for a decode along axis 1, else
        // TargetBox's (the definition shares that one).
        let from = if code == Code::Decode && axis == 1 {
            prior_lod
        } else {
            lod
        };
        if !from.is_empty() {
            o = o.with_lod(from);
        }
        s.set_tensor(&out, o);
        Ok(())
    })
}

fn needs_same(op: &str, a: &Tensor, b: &Tensor) -> KernelError {
    KernelError::Dtype(format!(
        "{op}'s inputs must share one dtype, not {} and {}",
        crate::tensor::dtype_name(a.dtype()),
        crate::tensor::dtype_name(b.dtype())
    ))
}

/// What `box_coder` codes with, as `f64` (each value exact in `T`).
struct Coder {
    p: Vec<f64>,
    t: Vec<f64>,
    var: Option<Vec<f64>>,
    variance: Vec<f32>,
    normalized: bool,
}

impl Coder {
    /// Width, height and center of the prior box at `o`, in `T`.
    fn prior<T: Real>(&self, o: usize) -> [T; 4] {
        let p = |k: usize| T::of(self.p[o + k]);
        let extra = if self.normalized { T::zero() } else { T::one() };
        let two = T::of(2.0);
        let (w, h) = (p(2) - p(0) + extra, p(3) - p(1) + extra);
        [w, h, p(0) + w / two, p(1) + h / two]
    }

    /// The 4 variances for the prior box at `o`.
    fn vars<T: Real>(&self, o: usize) -> [T; 4] {
        match (&self.var, self.variance.is_empty()) {
            (Some(v), _) => [0, 1, 2, 3].map(|k| T::of(v[o + k])),
            (None, false) => [0, 1, 2, 3].map(|k| T::of(f64::from(self.variance[k]))),
            (None, true) => [T::one(); 4],
        }
    }

    fn encode<T: Real>(&self, rows: usize, cols: usize) -> Vec<f64> {
        let two = T::of(2.0);
        let extra = if self.normalized { T::zero() } else { T::one() };
        let mut out = Vec::with_capacity(rows * cols * 4);
        for i in 0..rows {
            let t = |k: usize| T::of(self.t[i * 4 + k]);
            let (tcx, tcy) = ((t(2) + t(0)) / two, (t(3) + t(1)) / two);
            let (tw, th) = (t(2) - t(0) + extra, t(3) - t(1) + extra);
            for j in 0..cols {
                let [pw, ph, pcx, pcy] = self.prior::<T>(j * 4);
                let has_var = self.var.is_some() || !self.variance.is_empty();
                let v = self.vars::<T>(j * 4);
                let mut o = [
                    (tcx - pcx) / pw,
                    (tcy - pcy) / ph,
                    (tw / pw).abs().ln(),
                    (th / ph).abs().ln(),
                ];
                if has_var {
                    for k in 0..4 {
                        o[k] = o[k] / v[k];
                    }
                }
                out.extend(o.iter().map(|&x| to_f64(x)));
            }
        }
        out
    }

    fn decode<T: Real>(&self, rows: usize, cols: usize, axis0: bool) -> Vec<f64> {
        let two = T::of(2.0);
        let extra = if self.normalized { T::zero() } else { T::one() };
        let mut out = Vec::with_capacity(rows * cols * 4);
        for i in 0..rows {
            for j in 0..cols {
                let po = if axis0 { j * 4 } else { i * 4 };
                let [pw, ph, pcx, pcy] = self.prior::<T>(po);
                let [vx, vy, vw, vh] = self.vars::<T>(po);
                let t = |k: usize| T::of(self.t[(i * cols + j) * 4 + k]);
                let cx = vx * t(0) * pw + pcx;
                let cy = vy * t(1) * ph + pcy;
                let w = (vw * t(2)).exp() * pw;
                let h = (vh * t(3)).exp() * ph;
                out.extend(
                    [
                        cx - w / two,
                        cy - h / two,
                        cx + w / two - extra,
                        cy + h / two - extra,
                    ]
                    .iter()
                    .map(|&x| to_f64(x)),
                );
            }
        }
        out
    }
}

/// `iou_similarity`: the intersection over union of each box of `X` with
/// each of `Y` (`[xmin, ymin, xmax, ymax]`, no end pixel), as 1.x's
/// functor computes it in the input's precision (`Out` keeps `X`'s LoD:
/// the definition shares it).
fn iou_similarity(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        let dtype = float_dtype("iou_similarity", &xt)?;
        if yt.dtype() != dtype {
            return Err(needs_same("iou_similarity", &xt, &yt));
        }
        for (slot, t) in [("X", &xt), ("Y", &yt)] {
            if t.shape().len() != 2 || t.shape()[1] != 4 {
                return Err(KernelError::Shape(format!(
                    "The shape of {slot} is [N, 4], not {:?}",
                    t.shape()
                )));
            }
        }
        let (n, m) = (xt.shape()[0], yt.shape()[0]);
        alloc::check(&[n, m], dtype)?;
        let (a, b) = (f64s(&xt, "iou_similarity")?, f64s(&yt, "iou_similarity")?);
        let v = match dtype {
            VarKind::Fp32 => ious::<f32>(&a, &b),
            _ => ious::<f64>(&a, &b),
        };
        drop((a, b));
        drop((xt, yt));
        s.set_tensor(&out, float::tensor(dtype, &[n, m], v)?);
        Ok(())
    })
}

fn ious<T: Real>(x: &[f64], y: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len() / 4 * (y.len() / 4));
    for a in x.chunks_exact(4) {
        let a = [a[0], a[1], a[2], a[3]].map(T::of);
        for b in y.chunks_exact(4) {
            let b = [b[0], b[1], b[2], b[3]].map(T::of);
            let area1 = (a[3] - a[1]) * (a[2] - a[0]);
            let area2 = (b[3] - b[1]) * (b[2] - b[0]);
            let ixmax = if a[2] > b[2] { b[2] } else { a[2] };
            let iymax = if a[3] > b[3] { b[3] } else { a[3] };
            let ixmin = if a[0] > b[0] { a[0] } else { b[0] };
            let iymin = if a[1] > b[1] { a[1] } else { b[1] };
            let ih = iymax - iymin;
            let iw = ixmax - ixmin;
            let ih = if ih > T::zero() { ih } else { T::zero() };
            let iw = if iw > T::zero() { iw } else { T::zero() };
            let inter = iw * ih;
            let iou = inter / (area1 + area2 - inter);
            out.push(to_f64(iou));
        }
    }
    out
}

/// `anchor_generator`: Faster R-CNN's anchors for each place of `Input`'s
/// grid, centered at `(w stride_w + offset (stride_w - 1), ...)`, per
/// aspect ratio then per size: a base `round(sqrt(stride_w stride_h /
/// ar))` wide and `round(base_w ar)` high, scaled by `size / stride`, in
/// pixels with the end pixel (1.x's kernel, in the input's precision).
fn anchor_generator(l: &OpReader) -> Result<Exec, KernelError> {
    let input = l.input("Input")?;
    let (anchors, vars) = (l.output("Anchors")?, l.output("Variances")?);
    let sizes = floats(l, "anchor_sizes")?;
    let ratios = floats(l, "aspect_ratios")?;
    let stride = floats(l, "stride")?;
    let vars_attr = floats(l, "variances")?;
    let offset = l.float("offset")?;
    if stride.len() != 2 {
        return Err(KernelError::Attribute(format!(
            "stride should be (stride_width, stride_height), not {stride:?}"
        )));
    }
    compute(move |s| {
        let it = s.tensor(&input)?;
        let dtype = float_dtype("anchor_generator", &it)?;
        let (fh, fw) = spatial("input", it.shape())?;
        drop(it);
        let shape = [fh, fw, (sizes.len() * ratios.len()) as i64, 4];
        alloc::check(&shape, dtype)?;
        let v = match dtype {
            VarKind::Fp32 => anchors_of::<f32>(fh, fw, &sizes, &ratios, &stride, offset),
            _ => anchors_of::<f64>(fh, fw, &sizes, &ratios, &stride, offset),
        };
        s.set_tensor(&anchors, float::tensor(dtype, &shape, v)?);
        let vt = match dtype {
            VarKind::Fp32 => variances::<f32>(&shape, &vars_attr)?,
            _ => variances::<f64>(&shape, &vars_attr)?,
        };
        s.set_tensor(&vars, vt);
        Ok(())
    })
}

fn anchors_of<T: Real>(
    fh: i64,
    fw: i64,
    sizes: &[f32],
    ratios: &[f32],
    stride: &[f32],
    offset: f64,
) -> Vec<f64> {
    let (sw, sh) = (T::of(f64::from(stride[0])), T::of(f64::from(stride[1])));
    let offset = T::of(offset);
    let mut out = Vec::new();
    for h in 0..fh {
        for w in 0..fw {
            let x_ctr = T::of(w as f64) * sw + offset * (sw - T::one());
            let y_ctr = T::of(h as f64) * sh + offset * (sh - T::one());
            let (x, y) = (to_f64(x_ctr), to_f64(y_ctr));
            for &ar in ratios {
                let ar_t = T::of(f64::from(ar));
                for &size in sizes {
                    let area = sw * sh;
                    let base_w = (area / ar_t).sqrt().round();
                    let base_h = (base_w * ar_t).round();
                    let size = T::of(f64::from(size));
                    let aw = to_f64(size / sw * base_w);
                    let ah = to_f64(size / sh * base_h);
                    out.extend([
                        x - 0.5 * (aw - 1.0),
                        y - 0.5 * (ah - 1.0),
                        x + 0.5 * (aw - 1.0),
                        y + 0.5 * (ah - 1.0),
                    ]);
                }
            }
        }
    }
    out
}

/// `box_clip`: each box of `Input` (`[..., 4]`, one LoD level: the boxes
/// of each image) clamped to its image, `[0, round(width / scale) - 1]`
/// and `[0, round(height / scale) - 1]` from the image's `ImInfo` row
/// `(height, width, scale)`; the LoD kept.
fn box_clip(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, info, out) = (l.input("Input")?, l.input("ImInfo")?, l.output("Output")?);
    compute(move |s| {
        let (bt, it) = (s.tensor(&input)?, s.tensor(&info)?);
        let dtype = float_dtype("box_clip", &bt)?;
        if it.dtype() != dtype {
            return Err(needs_same("box_clip", &bt, &it));
        }
        let shape = bt.shape().to_vec();
        if shape.last() != Some(&4) {
            return Err(KernelError::Shape(format!(
                "The last dimension of Input must be 4, not {shape:?}"
            )));
        }
        if it.shape().len() != 2 || it.shape()[1] != 3 {
            return Err(KernelError::Shape(format!(
                "ImInfo must be [N, 3], not {:?}",
                it.shape()
            )));
        }
        let lod = bt.lod().to_vec();
        let [offsets] = lod.as_slice() else {
            return Err(KernelError::Shape(format!(
                "box_clip takes Input with one LoD level (the boxes of each image), not {} levels",
                lod.len()
            )));
        };
        Tensor::check_lod(&lod, shape[0] as usize)?;
        let images = offsets.len().saturating_sub(1);
        if it.shape()[0] < images as i64 {
            return Err(KernelError::Shape(format!(
                "ImInfo has {} rows for {images} images",
                it.shape()[0]
            )));
        }
        let per_row = shape[1..].iter().product::<i64>() as usize;
        let boxes = f64s(&bt, "box_clip")?.into_owned();
        let im = f64s(&it, "box_clip")?.into_owned();
        drop((bt, it));
        let v = match dtype {
            VarKind::Fp32 => clip_boxes::<f32>(&boxes, &im, offsets, per_row),
            _ => clip_boxes::<f64>(&boxes, &im, offsets, per_row),
        };
        s.set_tensor(&out, float::tensor(dtype, &shape, v)?.with_lod(lod.clone()));
        Ok(())
    })
}

fn clip_boxes<T: Real>(boxes: &[f64], im: &[f64], offsets: &[usize], per_row: usize) -> Vec<f64> {
    let mut out = boxes.to_vec();
    for (i, w) in offsets.windows(2).enumerate() {
        let info = |k: usize| T::of(im[i * 3 + k]);
        let im_w = (info(1) / info(2)).round() - T::one();
        let im_h = (info(0) / info(2)).round() - T::one();
        for (k, v) in out[w[0] * per_row..w[1] * per_row].iter_mut().enumerate() {
            let limit = if k % 2 == 0 { im_w } else { im_h };
            let x = T::of(*v);
            // std::max(std::min(x, limit), 0)
            let x = if limit < x { limit } else { x };
            *v = to_f64(if x < T::zero() { T::zero() } else { x });
        }
    }
    out
}

/// The attributes of `multiclass_nms`.
#[derive(Debug, Clone)]
struct Nms {
    background: i64,
    score_threshold: f64,
    nms_top_k: i64,
    keep_top_k: i64,
    nms_threshold: f64,
    eta: f64,
    normalized: bool,
}

/// `multiclass_nms`, 1.x's kernel: per image and per class but the
/// background, the boxes scoring above `score_threshold` (the best
/// `nms_top_k`), greedily kept best first unless they overlap a kept box
/// by more than the (adaptive, `nms_eta`) threshold; then the best
/// `keep_top_k` of the image. `Out` is `[No, 6]` rows `(label, score,
/// xmin, ymin, xmax, ymax)`, by class then as kept, with one LoD level
/// (the detections of each image); when nothing is kept at all, 1.x's
/// single `[1, 1]` row of -1 with LoD `[0, 1]`. `Scores` `[N, C, M]` goes
/// with `BBoxes` `[N, M, 4]`; `Scores` `[M, C]` with `BBoxes` `[M, C, 4]`
/// and its LoD (the boxes of each image, per class, each class's kept
/// boxes in index order). `multiclass_nms2` (1.6) also writes `Index`,
/// each row's box as `image_offset + i` (or `+ i C + label` per class),
/// int32, and gives `[0, 6]` rows when nothing is kept.
fn multiclass_nms(l: &OpReader) -> Result<Exec, KernelError> {
    let (boxes, scores, out) = (l.input("BBoxes")?, l.input("Scores")?, l.output("Out")?);
    let index = l.opt_output("Index")?;
    let a = Nms {
        background: l.int("background_label")?,
        score_threshold: l.float("score_threshold")?,
        nms_top_k: l.int("nms_top_k")?,
        keep_top_k: l.int("keep_top_k")?,
        nms_threshold: l.float("nms_threshold")?,
        eta: l.float("nms_eta")?,
        normalized: l.bool("normalized")?,
    };
    compute(move |s| {
        let (bt, st) = (s.tensor(&boxes)?, s.tensor(&scores)?);
        let dtype = float_dtype("multiclass_nms", &st)?;
        if bt.dtype() != dtype {
            return Err(needs_same("multiclass_nms", &bt, &st));
        }
        let (bs, ss) = (bt.shape().to_vec(), st.shape().to_vec());
        if bs.len() != 3 {
            return Err(KernelError::Shape(format!(
                "The rank of Input(BBoxes) must be 3, not {bs:?}"
            )));
        }
        if bs[2] != 4 {
            return Err(KernelError::Unsupported(format!(
                "multiclass_nms: boxes of {} coordinates (polygons) are not supported; fluidc's takes [xmin, ymin, xmax, ymax]",
                bs[2]
            )));
        }
        // Each image: (its scores [C, M] by class, its boxes per class).
        let images: Vec<Image> = match ss.len() {
            3 => {
                if bs[1] != ss[2] || bs[0] != ss[0] {
                    return Err(KernelError::Shape(format!(
                        "The 2nd dimension of Input(BBoxes) {bs:?} must be equal to last dimension of Input(Scores) {ss:?}"
                    )));
                }
                let (n, c, m) = (ss[0] as usize, ss[1] as usize, ss[2] as usize);
                let (sv, bv) = (f64s(&st, "multiclass_nms")?, f64s(&bt, "multiclass_nms")?);
                (0..n)
                    .map(|i| Image {
                        scores: sv[i * c * m..(i + 1) * c * m].to_vec(),
                        boxes: bv[i * m * 4..(i + 1) * m * 4].to_vec(),
                        classes: c,
                        per_class_boxes: false,
                        offset: i * m,
                    })
                    .collect()
            }
            2 => {
                if bs[1] != ss[1] || bs[0] != ss[0] {
                    return Err(KernelError::Shape(format!(
                        "The 2nd dimension of Input(BBoxes) {bs:?} must be equal to the 2nd dimension of Input(Scores) {ss:?}"
                    )));
                }
                let Some(offsets) = bt.lod().last().cloned() else {
                    return Err(KernelError::Shape(
                        "multiclass_nms: BBoxes [M, C, 4] needs a LoD (the boxes of each image)"
                            .into(),
                    ));
                };
                Tensor::check_lod(bt.lod(), bs[0] as usize)?;
                let c = ss[1] as usize;
                let (sv, bv) = (f64s(&st, "multiclass_nms")?, f64s(&bt, "multiclass_nms")?);
                offsets
                    .windows(2)
                    .map(|w| {
                        let m = w[1] - w[0];
                        // [M, C] scores to [C, M]; boxes [M, C, 4] kept.
                        let mut scores = vec![0.0; c * m];
                        for i in 0..m {
                            for k in 0..c {
                                scores[k * m + i] = sv[(w[0] + i) * c + k];
                            }
                        }
                        Image {
                            scores,
                            boxes: bv[w[0] * c * 4..w[1] * c * 4].to_vec(),
                            classes: c,
                            per_class_boxes: true,
                            offset: w[0] * c,
                        }
                    })
                    .collect()
            }
            _ => {
                return Err(KernelError::Shape(format!(
                    "The rank of Input(Scores) must be 2 or 3, not {ss:?}"
                )))
            }
        };
        drop((bt, st));
        let mut rows = Vec::new();
        let mut picked: Vec<i32> = Vec::new();
        let mut lod = vec![0usize];
        for im in &images {
            let kept = match dtype {
                VarKind::Fp32 => im.nms::<f32>(&a),
                _ => im.nms::<f64>(&a),
            };
            for (label, idx) in kept {
                let m = im.scores.len() / im.classes;
                let at = im.box_at(label, idx);
                rows.push(label as f64);
                rows.push(im.scores[label * m + idx]);
                rows.extend_from_slice(&im.boxes[at..at + 4]);
                let place = if im.per_class_boxes {
                    im.offset + idx * im.classes + label
                } else {
                    im.offset + idx
                };
                picked.push(i32::try_from(place).map_err(|_| {
                    KernelError::Shape(format!("box index {place} does not fit int32"))
                })?);
            }
            lod.push(rows.len() / 6);
        }
        let n = rows.len() as i64 / 6;
        match &index {
            // 1.x's multiclass_nms2 (return_index): [0, 6] and [0, 1] when
            // nothing is kept, the LoD all zeros.
            Some(ix) => {
                let t = float::tensor(dtype, &[n, 6], rows)?.with_lod(vec![lod.clone()]);
                s.set_tensor(&out, t);
                s.set_tensor(ix, Tensor::from_vec(&[n, 1], picked)?.with_lod(vec![lod]));
            }
            // 1.x's single -1 row, LoD [0, 1], when nothing is kept.
            None if rows.is_empty() => {
                let t = float::tensor(dtype, &[1, 1], vec![-1.0])?.with_lod(vec![vec![0, 1]]);
                s.set_tensor(&out, t);
            }
            None => {
                let t = float::tensor(dtype, &[n, 6], rows)?.with_lod(vec![lod]);
                s.set_tensor(&out, t);
            }
        }
        Ok(())
    })
}

/// One image's scores (`[C, M]`) and boxes (`[M, 4]`, or `[M, C, 4]`
/// with `per_class_boxes`).
struct Image {
    scores: Vec<f64>,
    boxes: Vec<f64>,
    classes: usize,
    per_class_boxes: bool,
    /// The first box's place in the batch (`Index` counts from there:
    /// box `i` is `offset + i`, or `offset + i C + label` per class).
    offset: usize,
}

impl Image {
    /// Where box `idx` of class `label` starts.
    fn box_at(&self, label: usize, idx: usize) -> usize {
        if self.per_class_boxes {
            (idx * self.classes + label) * 4
        } else {
            idx * 4
        }
    }

    /// The kept `(label, index)` pairs, in 1.x's output order.
    fn nms<T: Real>(&self, a: &Nms) -> Vec<(usize, usize)> {
        let m = self.scores.len() / self.classes.max(1);
        let mut kept: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut total = 0;
        for c in 0..self.classes {
            if c as i64 == a.background {
                continue;
            }
            let scores: Vec<T> = self.scores[c * m..(c + 1) * m]
                .iter()
                .map(|&v| T::of(v))
                .collect();
            let mut sel = self.nms_fast::<T>(c, &scores, a);
            if self.per_class_boxes {
                sel.sort_unstable();
            }
            total += sel.len();
            kept.push((c, sel));
        }
        if a.keep_top_k > -1 && total as i64 > a.keep_top_k {
            // The best keep_top_k over classes (scores as float, stable).
            let mut pairs: Vec<(f32, usize, usize)> = kept
                .iter()
                .flat_map(|(c, sel)| {
                    sel.iter()
                        .map(move |&i| (self.scores[c * m + i] as f32, *c, i))
                })
                .collect();
            pairs.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
            pairs.truncate(a.keep_top_k as usize);
            let mut by_class: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
            for (_, c, i) in pairs {
                by_class.entry(c).or_default().push(i);
            }
            if self.per_class_boxes {
                for v in by_class.values_mut() {
                    v.sort_unstable();
                }
            }
            kept = by_class.into_iter().collect();
        }
        kept.into_iter()
            .flat_map(|(c, sel)| sel.into_iter().map(move |i| (c, i)))
            .collect()
    }

    /// 1.x's `NMSFast` for class `c`.
    fn nms_fast<T: Real>(&self, c: usize, scores: &[T], a: &Nms) -> Vec<usize> {
        let threshold = T::of(a.score_threshold);
        let mut order: Vec<(T, usize)> = scores
            .iter()
            .enumerate()
            .filter(|(_, &s)| s > threshold)
            .map(|(i, &s)| (s, i))
            .collect();
        // std::stable_sort by score, descending.
        order.sort_by(|x, y| {
            if x.0 > y.0 {
                std::cmp::Ordering::Less
            } else if y.0 > x.0 {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        });
        if a.nms_top_k > -1 && (a.nms_top_k as usize) < order.len() {
            order.truncate(a.nms_top_k as usize);
        }
        let eta = T::of(a.eta);
        let mut adaptive = T::of(a.nms_threshold);
        let half = T::of(0.5);
        let mut selected: Vec<usize> = Vec::new();
        for (_, idx) in order {
            let b = self.box_of::<T>(c, idx);
            let keep = selected
                .iter()
                .all(|&k| jaccard(&b, &self.box_of::<T>(c, k), a.normalized) <= adaptive);
            if keep {
                selected.push(idx);
                if eta < T::one() && adaptive > half {
                    adaptive = adaptive * eta;
                }
            }
        }
        selected
    }

    fn box_of<T: Real>(&self, c: usize, idx: usize) -> [T; 4] {
        let o = self.box_at(c, idx);
        [0, 1, 2, 3].map(|k| T::of(self.boxes[o + k]))
    }
}

/// 1.x's `BBoxArea`.
fn bbox_area<T: Real>(b: &[T; 4], normalized: bool) -> T {
    if b[2] < b[0] || b[3] < b[1] {
        return T::zero();
    }
    let (w, h) = (b[2] - b[0], b[3] - b[1]);
    if normalized {
        w * h
    } else {
        (w + T::one()) * (h + T::one())
    }
}

/// 1.x's `JaccardOverlap`.
fn jaccard<T: Real>(b1: &[T; 4], b2: &[T; 4], normalized: bool) -> T {
    if b2[0] > b1[2] || b2[2] < b1[0] || b2[1] > b1[3] || b2[3] < b1[1] {
        return T::zero();
    }
    let ixmin = if b1[0] < b2[0] { b2[0] } else { b1[0] };
    let iymin = if b1[1] < b2[1] { b2[1] } else { b1[1] };
    let ixmax = if b2[2] < b1[2] { b2[2] } else { b1[2] };
    let iymax = if b2[3] < b1[3] { b2[3] } else { b1[3] };
    let norm = if normalized { T::zero() } else { T::one() };
    let inter = (ixmax - ixmin + norm) * (iymax - iymin + norm);
    inter / (bbox_area(b1, normalized) + bbox_area(b2, normalized) - inter)
}

/// `yolo_box` (1.6's kernel): for each image, anchor and cell of `X`
/// `[N, A (5 + C), H, W]` whose objectness sigmoid reaches `conf_thresh`,
/// the box (centre from the cell and the sigmoids of tx, ty; size from
/// the anchor and exp(tw), exp(th); in `ImgSize`'s pixels, clipped to the
/// image) and the class scores (objectness x class sigmoid); zeros
/// elsewhere. As 1.6, the grid and input sizes are taken from `H` for
/// both axes. `clip_bbox` and `scale_x_y` (Paddle 2's) are honoured;
/// `iou_aware` is refused.
fn yolo_box(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, size) = (l.input("X")?, l.input("ImgSize")?);
    let (boxes, scores) = (l.output("Boxes")?, l.output("Scores")?);
    let anchors = l.ints("anchors")?.unwrap_or_default();
    let classes = l.int("class_num")?;
    let thresh = l.float("conf_thresh")?;
    let ratio = l.int("downsample_ratio")?;
    let clip = l.bool_or("clip_bbox", true)?;
    let scale = l.float_or("scale_x_y", 1.0)? as f32;
    if l.bool_or("iou_aware", false)? {
        return Err(KernelError::Unsupported(
            "yolo_box: iou_aware (Paddle 2's) is not supported; 1.x's yolo_box had none".into(),
        ));
    }
    if anchors.is_empty() || !anchors.len().is_multiple_of(2) || classes <= 0 {
        return Err(KernelError::Attribute(format!(
            "yolo_box: anchors must be (width, height) pairs and class_num positive, not {anchors:?} and {classes}"
        )));
    }
    let classes = classes as usize;
    compute(move |s| {
        let (xt, st) = (s.tensor(&x)?, s.tensor(&size)?);
        let dtype = float_dtype("yolo_box", &xt)?;
        let [n, c, h, w] = *xt.shape() else {
            return Err(KernelError::Shape(format!(
                "Input(X) should be a 4-D tensor, not {:?}",
                xt.shape()
            )));
        };
        let an = anchors.len() / 2;
        let (n, h, w) = (n as usize, h as usize, w as usize);
        if c as usize != an * (5 + classes) {
            return Err(KernelError::Shape(format!(
                "Input(X) dim[1] should be equal to (anchor_number * (5 + class_num)) = {}, not {c}",
                an * (5 + classes)
            )));
        }
        let Some(sizes) = st.values::<i32>() else {
            return Err(KernelError::Dtype(format!(
                "yolo_box: ImgSize must be int32, it is {}",
                crate::tensor::dtype_name(st.dtype())
            )));
        };
        if sizes.len() != 2 * n {
            return Err(KernelError::Shape(format!(
                "Input(ImgSize) should be [N, 2] for N = {n}, its dims are {:?}",
                st.shape()
            )));
        }
        let sizes = sizes.to_vec();
        let xv = f64s(&xt, "yolo_box")?.into_owned();
        drop((xt, st));
        let a = Yolo {
            anchors: &anchors,
            classes,
            thresh,
            input_size: ratio * h as i64,
            clip,
            scale,
        };
        let (bv, sv) = match dtype {
            VarKind::Fp32 => a.decode::<f32>(&xv, &sizes, n, h, w),
            _ => a.decode::<f64>(&xv, &sizes, n, h, w),
        };
        let count = (an * h * w) as i64;
        s.set_tensor(&boxes, float::tensor(dtype, &[n as i64, count, 4], bv)?);
        s.set_tensor(
            &scores,
            float::tensor(dtype, &[n as i64, count, classes as i64], sv)?,
        );
        Ok(())
    })
}

/// `yolo_box`'s settings.
struct Yolo<'a> {
    anchors: &'a [i64],
    classes: usize,
    thresh: f64,
    input_size: i64,
    clip: bool,
    scale: f32,
}

/// 1.x's `sigmoid<T>`: `1.0 / (1.0 + exp(-x))` in double, `exp` in `T`.
fn yolo_sigmoid<T: Real>(x: T) -> T {
    T::of(1.0 / (1.0 + (-x).exp().to_f64()))
}

impl Yolo<'_> {
    /// The boxes `[N, A H W, 4]` and scores `[N, A H W, C]`, in `T`.
    fn decode<T: Real>(
        &self,
        x: &[f64],
        sizes: &[i32],
        n: usize,
        h: usize,
        w: usize,
    ) -> (Vec<f64>, Vec<f64>) {
        let (an, cls) = (self.anchors.len() / 2, self.classes);
        let stride = h * w;
        let an_stride = (cls + 5) * stride;
        let count = an * stride;
        let mut boxes = vec![0.0; n * count * 4];
        let mut scores = vec![0.0; n * count * cls];
        let at = |v: usize| T::of(x[v]);
        let (scale, bias) = (
            T::of(f64::from(self.scale)),
            T::of(f64::from(-0.5f32 * (self.scale - 1.0))),
        );
        let thresh = T::of(self.thresh);
        for i in 0..n {
            let (ih, iw) = (
                T::of(f64::from(sizes[2 * i])),
                T::of(f64::from(sizes[2 * i + 1])),
            );
            for j in 0..an {
                for k in 0..h {
                    for c in 0..w {
                        let cell = k * w + c;
                        let entry = |e: usize| (i * an + j) * an_stride + e * stride + cell;
                        let conf = yolo_sigmoid(at(entry(4)));
                        if conf < thresh {
                            continue;
                        }
                        let grid = T::of(h as f64);
                        let input = T::of(self.input_size as f64);
                        let b0 = entry(0);
                        let cx =
                            (T::of(c as f64) + yolo_sigmoid(at(b0)) * scale + bias) * iw / grid;
                        let cy = (T::of(k as f64) + yolo_sigmoid(at(b0 + stride)) * scale + bias)
                            * ih
                            / grid;
                        let bw = at(b0 + 2 * stride).exp() * T::of(self.anchors[2 * j] as f64) * iw
                            / input;
                        let bh =
                            at(b0 + 3 * stride).exp() * T::of(self.anchors[2 * j + 1] as f64) * ih
                                / input;
                        let two = T::of(2.0);
                        let mut b = [cx - bw / two, cy - bh / two, cx + bw / two, cy + bh / two];
                        if self.clip {
                            let (xmax, ymax) = (iw - T::one(), ih - T::one());
                            b[0] = if b[0] > T::zero() { b[0] } else { T::zero() };
                            b[1] = if b[1] > T::zero() { b[1] } else { T::zero() };
                            b[2] = if b[2] < xmax { b[2] } else { xmax };
                            b[3] = if b[3] < ymax { b[3] } else { ymax };
                        }
                        let place = i * count + j * stride + cell;
                        for (o, v) in boxes[place * 4..place * 4 + 4].iter_mut().zip(b) {
                            *o = v.to_f64();
                        }
                        let label = entry(5);
                        for m in 0..cls {
                            let v = conf * yolo_sigmoid(at(label + m * stride));
                            scores[place * cls + m] = v.to_f64();
                        }
                    }
                }
            }
        }
        (boxes, scores)
    }
}

/// 1.6's `SigmoidCrossEntropy<T>`: its `x > 0 ? x : 0.0` and `log(1.0 +
/// exp(-|x|))` are doubles, `exp` and `x label` in `T`.
fn yolo_sce<T: Real>(x: T, label: T) -> T {
    let pos = if x > T::zero() {
        Element::to_f64(x)
    } else {
        0.0
    };
    let tail = (1.0 + Element::to_f64((-x.abs()).exp())).ln();
    T::of(pos - Element::to_f64(x * label) + tail)
}

/// 1.6's `SigmoidCrossEntropyGrad<T>`: `1.0 / (1.0 + exp(-x)) - label`.
fn yolo_sce_grad<T: Real>(x: T, label: T) -> T {
    T::of(1.0 / (1.0 + Element::to_f64((-x).exp())) - Element::to_f64(label))
}

/// 1.6's `BoxOverlap`: the overlap of two centred extents (the half
/// widths in double).
fn yolo_overlap<T: Real>(c1: T, w1: T, c2: T, w2: T) -> T {
    let (c1, w1, c2, w2) = (
        Element::to_f64(c1),
        Element::to_f64(w1),
        Element::to_f64(c2),
        Element::to_f64(w2),
    );
    let (l1, l2) = (T::of(c1 - w1 / 2.0), T::of(c2 - w2 / 2.0));
    let (r1, r2) = (T::of(c1 + w1 / 2.0), T::of(c2 + w2 / 2.0));
    let left = if l1 > l2 { l1 } else { l2 };
    let right = if r1 < r2 { r1 } else { r2 };
    right - left
}

/// 1.6's `CalcBoxIoU` of two `[x, y, w, h]` boxes.
fn yolo_iou<T: Real>(a: &[T; 4], b: &[T; 4]) -> T {
    let w = yolo_overlap(a[0], a[2], b[0], b[2]);
    let h = yolo_overlap(a[1], a[3], b[1], b[3]);
    let inter = if w < T::zero() || h < T::zero() {
        T::zero()
    } else {
        w * h
    };
    inter / (a[2] * a[3] + b[2] * b[3] - inter)
}

/// A ground truth box `[x, y, w, h]`, its place in `anchor_mask`
/// (`usize::MAX` when its anchor is not there) and its cell `(gi, gj)`.
type Matched<T> = ([T; 4], usize, usize, usize);

/// `Loss`, `ObjectnessMask` and `GTMatchMask`.
type Yolo3Out<T> = (Vec<T>, Vec<T>, Vec<i32>);

/// `yolov3_loss`'s settings and inputs, shared by the loss and its grad.
struct Yolo3 {
    anchors: Vec<i64>,
    mask: Vec<i64>,
    classes: usize,
    ignore: f64,
    ratio: i64,
    smooth: bool,
}

/// One image's ground truth: `[x, y, w, h]` boxes, labels and scores.
struct Yolo3Data<T> {
    x: Vec<T>,
    gt: Vec<T>,
    labels: Vec<i32>,
    scores: Vec<T>,
    /// `[N, C, H, W]` of `X`, and `B` boxes per image.
    n: usize,
    c: usize,
    h: usize,
    w: usize,
    b: usize,
}

impl Yolo3 {
    fn read(l: &OpReader) -> Result<Yolo3, KernelError> {
        let anchors = l.ints("anchors")?.unwrap_or_default();
        let mask = l.ints("anchor_mask")?.unwrap_or_default();
        let classes = l.int("class_num")?;
        if anchors.is_empty() || !anchors.len().is_multiple_of(2) || classes <= 0 {
            return Err(KernelError::Attribute(format!(
                "yolov3_loss: anchors must be (width, height) pairs and class_num positive, not {anchors:?} and {classes}"
            )));
        }
        if let Some(m) = mask
            .iter()
            .find(|&&m| m < 0 || m as usize >= anchors.len() / 2)
        {
            return Err(KernelError::Attribute(format!(
                "yolov3_loss: anchor_mask {m} out of range for {} anchors",
                anchors.len() / 2
            )));
        }
        if l.float_or("scale_x_y", 1.0)? != 1.0 {
            return Err(KernelError::Unsupported(
                "yolov3_loss: scale_x_y (Paddle 2's) other than 1 is not supported; 1.x's yolov3_loss had none".into(),
            ));
        }
        Ok(Yolo3 {
            anchors,
            mask,
            classes: classes as usize,
            ignore: l.float("ignore_thresh")?,
            ratio: l.int("downsample_ratio")?,
            smooth: l.bool("use_label_smooth")?,
        })
    }

    /// The inputs, checked against 1.6's shapes, in `T`.
    fn data<T: Real>(
        &self,
        s: &Vars,
        refs: &[VarRef; 3],
        score: Option<&VarRef>,
    ) -> Result<Yolo3Data<T>, KernelError> {
        let (xt, gt, lt) = (
            s.tensor(&refs[0])?,
            s.tensor(&refs[1])?,
            s.tensor(&refs[2])?,
        );
        let [n, c, h, w] = *xt.shape() else {
            return Err(KernelError::Shape(format!(
                "Input(X) should be a 4-D tensor, not {:?}",
                xt.shape()
            )));
        };
        let (n, c, h, w) = (n as usize, c as usize, h as usize, w as usize);
        if h != w || c != self.mask.len() * (5 + self.classes) {
            return Err(KernelError::Shape(format!(
                "yolov3_loss: Input(X) should be [N, {} (5 + class_num), H, H], not {:?}",
                self.mask.len(),
                xt.shape()
            )));
        }
        let b = match *gt.shape() {
            [gn, b, 4] if gn as usize == n => b as usize,
            _ => {
                return Err(KernelError::Shape(format!(
                    "Input(GTBox) should be [{n}, B, 4], not {:?}",
                    gt.shape()
                )))
            }
        };
        let Some(labels) = lt.values::<i32>() else {
            return Err(KernelError::Dtype(format!(
                "yolov3_loss: GTLabel must be int32, it is {}",
                crate::tensor::dtype_name(lt.dtype())
            )));
        };
        if labels.len() != n * b {
            return Err(KernelError::Shape(format!(
                "Input(GTLabel) should be [{n}, {b}], not {:?}",
                lt.shape()
            )));
        }
        let of = |t: &Tensor| -> Result<Vec<T>, KernelError> {
            Ok(f64s(t, "yolov3_loss")?.iter().map(|&v| T::of(v)).collect())
        };
        let scores = match score {
            Some(r) => {
                let t = s.tensor(r)?;
                let v = of(&t)?;
                if v.len() != n * b {
                    return Err(KernelError::Shape(format!(
                        "Input(GTScore) should be [{n}, {b}]"
                    )));
                }
                v
            }
            None => vec![T::one(); n * b],
        };
        Ok(Yolo3Data {
            x: of(&xt)?,
            gt: of(&gt)?,
            labels: labels.to_vec(),
            scores,
            n,
            c,
            h,
            w,
            b,
        })
    }

    /// The positive and negative class targets (label smoothing).
    fn targets<T: Real>(&self) -> (T, T) {
        if !self.smooth {
            return (T::one(), T::zero());
        }
        let k = Element::to_f64(T::of(self.classes as f64));
        let weight = T::of((1.0 / k).min(1.0 / 40.0));
        (T::of(1.0 - Element::to_f64(weight)), weight)
    }

    /// The ground truth box `t` of image `i`, its cell `(gi, gj)`, and
    /// its best anchor's place in `anchor_mask` (-1 when not there, or
    /// for an empty box); the cell is checked inside the grid.
    fn matched<T: Real>(
        &self,
        d: &Yolo3Data<T>,
        i: usize,
        t: usize,
    ) -> Result<Option<Matched<T>>, KernelError> {
        let at = (i * d.b + t) * 4;
        let g = [d.gt[at], d.gt[at + 1], d.gt[at + 2], d.gt[at + 3]];
        if Element::to_f64(g[2]) < 1e-6 || Element::to_f64(g[3]) < 1e-6 {
            return Ok(None);
        }
        let input = T::of((self.ratio * d.h as i64) as f64);
        let shift = [T::zero(), T::zero(), g[2], g[3]];
        let (mut best, mut best_n) = (T::zero(), 0);
        for a in 0..self.anchors.len() / 2 {
            let ab = [
                T::zero(),
                T::zero(),
                T::of(self.anchors[2 * a] as f64) / input,
                T::of(self.anchors[2 * a + 1] as f64) / input,
            ];
            // 1.6 kept this IoU in a float.
            let iou = T::of(f64::from(Element::to_f64(yolo_iou(&ab, &shift)) as f32));
            if iou > best {
                (best, best_n) = (iou, a);
            }
        }
        let Some(m) = self.mask.iter().position(|&m| m as usize == best_n) else {
            return Ok(Some((g, usize::MAX, 0, 0)));
        };
        let gi = Element::to_f64(g[0] * T::of(d.w as f64)) as i64;
        let gj = Element::to_f64(g[1] * T::of(d.h as f64)) as i64;
        if gi < 0 || gj < 0 || gi as usize >= d.w || gj as usize >= d.h {
            return Err(KernelError::Invalid(format!(
                "yolov3_loss: the centre of ground truth box {t} of image {i} ({:?}, {:?}) is outside the image",
                Element::to_f64(g[0]),
                Element::to_f64(g[1])
            )));
        }
        Ok(Some((g, m, gi as usize, gj as usize)))
    }

    /// The location targets of box `g` in cell `(gi, gj)` for anchor `a`,
    /// and its weight `(2 - w h) score`.
    fn location<T: Real>(
        &self,
        d: &Yolo3Data<T>,
        g: &[T; 4],
        a: usize,
        gi: usize,
        gj: usize,
        score: T,
    ) -> ([T; 4], T) {
        let grid = T::of(d.h as f64);
        let input = T::of((self.ratio * d.h as i64) as f64);
        let tx = g[0] * grid - T::of(gi as f64);
        let ty = g[1] * grid - T::of(gj as f64);
        let tw = (g[2] * input / T::of(self.anchors[2 * a] as f64)).ln();
        let th = (g[3] * input / T::of(self.anchors[2 * a + 1] as f64)).ln();
        let scale = T::of((2.0 - Element::to_f64(g[2] * g[3])) * Element::to_f64(score));
        ([tx, ty, tw, th], scale)
    }

    /// `Loss`, `ObjectnessMask` and `GTMatchMask`, as 1.6's kernel.
    fn forward<T: Real>(&self, d: &Yolo3Data<T>) -> Result<Yolo3Out<T>, KernelError> {
        let (n, h, w, b, m) = (d.n, d.h, d.w, d.b, self.mask.len());
        let stride = h * w;
        let an_stride = (self.classes + 5) * stride;
        let entry =
            |i: usize, j: usize, cell: usize, e: usize| (i * m + j) * an_stride + e * stride + cell;
        let input = T::of((self.ratio * h as i64) as f64);
        let grid = T::of(h as f64);
        let (pos, neg) = self.targets::<T>();
        let mut loss = vec![T::zero(); n];
        let mut obj = vec![T::zero(); n * m * stride];
        let mut matches = vec![0i32; n * b];
        let ignore = T::of(self.ignore);
        let sig = |v: T| T::of(1.0 / (1.0 + Element::to_f64((-v).exp())));
        for i in 0..n {
            for j in 0..m {
                let a = self.mask[j] as usize;
                for k in 0..h {
                    for l in 0..w {
                        let at = entry(i, j, k * w + l, 0);
                        let pred = [
                            (T::of(l as f64) + sig(d.x[at])) / grid,
                            (T::of(k as f64) + sig(d.x[at + stride])) / grid,
                            d.x[at + 2 * stride].exp() * T::of(self.anchors[2 * a] as f64) / input,
                            d.x[at + 3 * stride].exp() * T::of(self.anchors[2 * a + 1] as f64)
                                / input,
                        ];
                        let mut best = T::zero();
                        for t in 0..b {
                            let g = (i * b + t) * 4;
                            let g = [d.gt[g], d.gt[g + 1], d.gt[g + 2], d.gt[g + 3]];
                            if Element::to_f64(g[2]) < 1e-6 || Element::to_f64(g[3]) < 1e-6 {
                                continue;
                            }
                            let iou = yolo_iou(&pred, &g);
                            if iou > best {
                                best = iou;
                            }
                        }
                        if best > ignore {
                            obj[(i * m + j) * stride + k * w + l] = T::of(-1.0);
                        }
                    }
                }
            }
            for t in 0..b {
                let Some((g, j, gi, gj)) = self.matched(d, i, t)? else {
                    matches[i * b + t] = -1;
                    continue;
                };
                if j == usize::MAX {
                    matches[i * b + t] = -1;
                    continue;
                }
                matches[i * b + t] = j as i32;
                let score = d.scores[i * b + t];
                let cell = gj * w + gi;
                let at = entry(i, j, cell, 0);
                let (target, scale) = self.location(d, &g, self.mask[j] as usize, gi, gj, score);
                loss[i] = loss[i] + yolo_sce(d.x[at], target[0]) * scale;
                loss[i] = loss[i] + yolo_sce(d.x[at + stride], target[1]) * scale;
                loss[i] = loss[i] + (target[2] - d.x[at + 2 * stride]).abs() * scale;
                loss[i] = loss[i] + (target[3] - d.x[at + 3 * stride]).abs() * scale;
                obj[(i * m + j) * stride + cell] = score;
                let label = d.labels[i * b + t];
                let at = entry(i, j, cell, 5);
                for c in 0..self.classes {
                    let want = if c as i64 == i64::from(label) {
                        pos
                    } else {
                        neg
                    };
                    loss[i] = loss[i] + yolo_sce(d.x[at + c * stride], want) * score;
                }
            }
        }
        for i in 0..n {
            for j in 0..m {
                for cell in 0..stride {
                    let o = obj[(i * m + j) * stride + cell];
                    let x = d.x[entry(i, j, cell, 4)];
                    if Element::to_f64(o) > 1e-5 {
                        loss[i] = loss[i] + yolo_sce(x, T::one()) * o;
                    } else if Element::to_f64(o) > -0.5 {
                        loss[i] = loss[i] + yolo_sce(x, T::zero());
                    }
                }
            }
        }
        Ok((loss, obj, matches))
    }

    /// `X@GRAD` from `Loss@GRAD` and the forward's masks, as 1.6's grad
    /// kernel: each matched box's location and class entries and each
    /// objectness entry not ignored set (not summed).
    fn backward<T: Real>(
        &self,
        d: &Yolo3Data<T>,
        dloss: &[T],
        obj: &[T],
        matches: &[i32],
    ) -> Result<Vec<T>, KernelError> {
        let (n, h, w, b, m) = (d.n, d.h, d.w, d.b, self.mask.len());
        let stride = h * w;
        let an_stride = (self.classes + 5) * stride;
        let entry =
            |i: usize, j: usize, cell: usize, e: usize| (i * m + j) * an_stride + e * stride + cell;
        let (pos, neg) = self.targets::<T>();
        let mut g = vec![T::zero(); n * d.c * stride];
        for i in 0..n {
            for t in 0..b {
                let Ok(j) = usize::try_from(matches[i * b + t]) else {
                    continue;
                };
                if j >= m {
                    return Err(KernelError::Invalid(format!(
                        "yolov3_loss_grad: GTMatchMask {j} out of range"
                    )));
                }
                let score = d.scores[i * b + t];
                let at = (i * b + t) * 4;
                let gt = [d.gt[at], d.gt[at + 1], d.gt[at + 2], d.gt[at + 3]];
                let gi = (Element::to_f64(gt[0] * T::of(w as f64)) as i64).clamp(0, w as i64 - 1)
                    as usize;
                let gj = (Element::to_f64(gt[1] * T::of(h as f64)) as i64).clamp(0, h as i64 - 1)
                    as usize;
                let cell = gj * w + gi;
                let at = entry(i, j, cell, 0);
                let (target, scale) = self.location(d, &gt, self.mask[j] as usize, gi, gj, score);
                let l1 = |x: T, y: T| if x > y { T::one() } else { -T::one() };
                g[at] = yolo_sce_grad(d.x[at], target[0]) * scale * dloss[i];
                g[at + stride] = yolo_sce_grad(d.x[at + stride], target[1]) * scale * dloss[i];
                g[at + 2 * stride] = l1(d.x[at + 2 * stride], target[2]) * scale * dloss[i];
                g[at + 3 * stride] = l1(d.x[at + 3 * stride], target[3]) * scale * dloss[i];
                let label = d.labels[i * b + t];
                let at = entry(i, j, cell, 5);
                for c in 0..self.classes {
                    let want = if c as i64 == i64::from(label) {
                        pos
                    } else {
                        neg
                    };
                    g[at + c * stride] =
                        yolo_sce_grad(d.x[at + c * stride], want) * score * dloss[i];
                }
            }
        }
        for i in 0..n {
            for j in 0..m {
                for cell in 0..stride {
                    let o = obj[(i * m + j) * stride + cell];
                    let at = entry(i, j, cell, 4);
                    if Element::to_f64(o) > 1e-5 {
                        g[at] = yolo_sce_grad(d.x[at], T::one()) * o * dloss[i];
                    } else if Element::to_f64(o) > -0.5 {
                        g[at] = yolo_sce_grad(d.x[at], T::zero()) * dloss[i];
                    }
                }
            }
        }
        Ok(g)
    }
}

fn to_f64s<T: Real>(v: &[T]) -> Vec<f64> {
    v.iter().map(|&x| Element::to_f64(x)).collect()
}

/// `yolov3_loss` (1.6's kernel): per image, the sigmoid cross-entropy of
/// tx, ty and the L1 of tw, th (weighted by 2 - w h and the box's score)
/// and the class cross-entropies (label smoothing optional) at each
/// ground truth box's cell for its best anchor, when that anchor is in
/// `anchor_mask`; then the objectness cross-entropy of every prediction,
/// 1 (times the score) where a box matched, ignored where the prediction
/// overlaps some box above `ignore_thresh`, 0 elsewhere.
fn yolov3_loss(l: &OpReader) -> Result<Exec, KernelError> {
    let a = Yolo3::read(l)?;
    let refs = [l.input("X")?, l.input("GTBox")?, l.input("GTLabel")?];
    let score = l.opt_input("GTScore")?;
    let (loss, obj, matches) = (
        l.output("Loss")?,
        l.output("ObjectnessMask")?,
        l.output("GTMatchMask")?,
    );
    compute(move |s| {
        let xt = s.tensor(&refs[0])?;
        let dtype = float_dtype("yolov3_loss", &xt)?;
        drop(xt);
        let (lv, ov, mv, n, m, h, b) = if dtype == VarKind::Fp32 {
            let d = a.data::<f32>(s, &refs, score.as_ref())?;
            let (lv, ov, mv) = a.forward(&d)?;
            (to_f64s(&lv), to_f64s(&ov), mv, d.n, a.mask.len(), d.h, d.b)
        } else {
            let d = a.data::<f64>(s, &refs, score.as_ref())?;
            let (lv, ov, mv) = a.forward(&d)?;
            (to_f64s(&lv), to_f64s(&ov), mv, d.n, a.mask.len(), d.h, d.b)
        };
        let (n, m, h, b) = (n as i64, m as i64, h as i64, b as i64);
        s.set_tensor(&loss, float::tensor(dtype, &[n], lv)?);
        s.set_tensor(&obj, float::tensor(dtype, &[n, m, h, h], ov)?);
        s.set_tensor(&matches, Tensor::from_vec(&[n, b], mv)?);
        Ok(())
    })
}

/// `yolov3_loss_grad`: `X@GRAD` as 1.6's grad kernel; the ground truth
/// inputs' gradients, when asked for, are zeros.
fn yolov3_loss_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let a = Yolo3::read(l)?;
    let refs = [l.input("X")?, l.input("GTBox")?, l.input("GTLabel")?];
    let score = l.opt_input("GTScore")?;
    let (dloss, obj, matches) = (
        l.input("Loss@GRAD")?,
        l.input("ObjectnessMask")?,
        l.input("GTMatchMask")?,
    );
    let dx = l.opt_output("X@GRAD")?;
    let zeros: Vec<(VarRef, VarRef)> = [("GTBox@GRAD", 1), ("GTLabel@GRAD", 2)]
        .into_iter()
        .filter_map(|(slot, k)| {
            l.opt_output(slot)
                .ok()
                .flatten()
                .map(|o| (o, refs[k].clone()))
        })
        .chain(
            score
                .clone()
                .and_then(|sc| l.opt_output("GTScore@GRAD").ok().flatten().map(|o| (o, sc))),
        )
        .collect();
    compute(move |s| {
        for (out, of) in &zeros {
            let t = s.tensor(of)?;
            let z = Tensor::zeros(t.dtype(), t.shape())?;
            drop(t);
            s.set_tensor(out, z);
        }
        let Some(dx) = &dx else {
            return Ok(());
        };
        let (xt, gt, ot) = (s.tensor(&refs[0])?, s.tensor(&dloss)?, s.tensor(&obj)?);
        let dtype = float_dtype("yolov3_loss_grad", &xt)?;
        let gl = f64s(&gt, "yolov3_loss_grad")?.into_owned();
        let ob = f64s(&ot, "yolov3_loss_grad")?.into_owned();
        drop((xt, gt, ot));
        let mt = s.tensor(&matches)?;
        let Some(mv) = mt.values::<i32>().map(<[i32]>::to_vec) else {
            return Err(KernelError::Dtype(
                "yolov3_loss_grad: GTMatchMask must be int32".into(),
            ));
        };
        drop(mt);
        let (gv, shape) = if dtype == VarKind::Fp32 {
            let d = a.data::<f32>(s, &refs, score.as_ref())?;
            let of = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
            check_grad_inputs(&d, &gl, &ob, &mv, a.mask.len())?;
            (
                to_f64s(&a.backward(&d, &of(&gl), &of(&ob), &mv)?),
                [d.n, d.c, d.h, d.w],
            )
        } else {
            let d = a.data::<f64>(s, &refs, score.as_ref())?;
            check_grad_inputs(&d, &gl, &ob, &mv, a.mask.len())?;
            (
                to_f64s(&a.backward(&d, &gl, &ob, &mv)?),
                [d.n, d.c, d.h, d.w],
            )
        };
        let shape = shape.map(|v| v as i64);
        s.set_tensor(dx, float::tensor(dtype, &shape, gv)?);
        Ok(())
    })
}

/// The grad's saved inputs match `X` and `GTBox`.
fn check_grad_inputs<T>(
    d: &Yolo3Data<T>,
    dloss: &[f64],
    obj: &[f64],
    matches: &[i32],
    m: usize,
) -> Result<(), KernelError> {
    if dloss.len() != d.n || obj.len() != d.n * m * d.h * d.w || matches.len() != d.n * d.b {
        return Err(KernelError::Shape(
            "yolov3_loss_grad: Loss@GRAD, ObjectnessMask or GTMatchMask does not match X and GTBox"
                .into(),
        ));
    }
    Ok(())
}

/// 1.x's `GT_E`: `a > b` or within 1e-4 (compared in double).
fn gt_e<T: Real>(a: T, b: T) -> bool {
    a > b || (a - b).abs().to_f64() < 1e-4
}

/// 1.x's `LT_E`.
fn lt_e<T: Real>(a: T, b: T) -> bool {
    a < b || (a - b).abs().to_f64() < 1e-4
}

/// 1.x's `GT`: `a - b > 1e-4`.
fn gt<T: Real>(a: T, b: T) -> bool {
    (a - b).to_f64() > 1e-4
}

/// 1.x's `in_quad`: `(x, y)` on an edge of the quadrilateral, or inside
/// it by the crossings of a ray to the right.
fn in_quad<T: Real>(x: T, y: T, qx: &[T; 4], qy: &[T; 4]) -> bool {
    let near = |a: T, b: T| (a - b).abs().to_f64() < 1e-4;
    for i in 0..4 {
        let (xs, ys, xe, ye) = (qx[i], qy[i], qx[(i + 1) % 4], qy[(i + 1) % 4]);
        if near(ys, ye) {
            if near(y, ys) && near(y, ye) && gt_e(x, xs.min(xe)) && lt_e(x, xs.max(xe)) {
                return true;
            }
        } else {
            let ix = (y - ys) * (xe - xs) / (ye - ys) + xs;
            if near(ix, x) && gt_e(y, ys.min(ye)) && lt_e(y, ys.max(ye)) {
                return true;
            }
        }
    }
    let mut crossings = 0;
    for i in 0..4 {
        let (xs, ys, xe, ye) = (qx[i], qy[i], qx[(i + 1) % 4], qy[(i + 1) % 4]);
        if near(ys, ye) || lt_e(y, ys.min(ye)) || gt(y, ys.max(ye)) {
            continue;
        }
        let ix = (y - ys) * (xe - xs) / (ye - ys) + xs;
        if near(ix, x) {
            return true;
        }
        if gt(ix, x) {
            crossings += 1;
        }
    }
    crossings % 2 == 1
}

/// 1.x's `get_transform_matrix`: the homography from the output grid
/// (its width from the quadrilateral's aspect, at most `tw`) to the
/// quadrilateral, with 1.x's float and double steps.
fn perspective_matrix<T: Real>(tw: i64, th: i64, qx: &[T; 4], qy: &[T; 4]) -> [T; 9] {
    let [x0, x1, x2, x3] = *qx;
    let [y0, y1, y2, y3] = *qy;
    let len = |a: usize, b: usize| {
        ((qx[a] - qx[b]) * (qx[a] - qx[b]) + (qy[a] - qy[b]) * (qy[a] - qy[b])).sqrt()
    };
    let est_h = T::of((len(1, 2) + len(3, 0)).to_f64() / 2.0);
    let est_w = T::of((len(0, 1) + len(2, 3)).to_f64() / 2.0);
    let nh = th.max(2);
    let nw = ((est_w * T::of((nh - 1) as f64) / est_h).round() + T::one()).to_f64() as i64;
    let nw = nw.min(tw).max(2);
    let (fw, fh) = (T::of((nw - 1) as f64), T::of((nh - 1) as f64));
    let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3);
    let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3);
    let den = (dx1 * dy2 - dx2 * dy1).to_f64() + 1e-5;
    let m6 = T::of((dx3 * dy2 - dx2 * dy3).to_f64() / den / (nw - 1) as f64);
    let m7 = T::of((dx1 * dy3 - dx3 * dy1).to_f64() / den / (nh - 1) as f64);
    [
        (x1 - x0 + m6 * fw * x1) / fw,
        (x3 - x0 + m7 * fh * x3) / fh,
        x0,
        (y1 - y0 + m6 * fw * y1) / fw,
        (y3 - y0 + m7 * fh * y3) / fh,
        y0,
        m6,
        m7,
        T::one(),
    ]
}

/// 1.x's `get_source_coords`: where output pixel `(ow, oh)` reads.
fn source_coords<T: Real>(m: &[T; 9], ow: usize, oh: usize) -> (T, T) {
    let (ow, oh) = (T::of(ow as f64), T::of(oh as f64));
    let u = m[0] * ow + m[1] * oh + m[2];
    let v = m[3] * ow + m[4] * oh + m[5];
    let w = m[6] * ow + m[7] * oh + m[8];
    (u / w, v / w)
}

/// Whether a source point is off the `width` x `height` map (1.x's test
/// with a half-pixel margin).
fn off_map<T: Real>(sw: T, sh: T, width: usize, height: usize) -> bool {
    let half = T::of(-0.5);
    gt_e(half, sw)
        || gt_e(sw, T::of(width as f64 - 0.5))
        || gt_e(half, sh)
        || gt_e(sh, T::of(height as f64 - 0.5))
}

/// The neighbours of a source coordinate on one axis, as 1.x clamped it:
/// `(floor, ceil)` (equal at the last pixel) and the coordinate.
fn neighbours<T: Real>(v: T, size: usize) -> (usize, usize, T) {
    let v = if gt_e(T::zero(), v) { T::zero() } else { v };
    let fl = v.floor().to_f64() as i64;
    let last = size as i64 - 1;
    if gt_e(T::of(fl as f64), T::of(last as f64)) {
        (last as usize, last as usize, T::of(last as f64))
    } else {
        (fl as usize, fl as usize + 1, v)
    }
}

/// The ROI's corners (scaled), the image each ROI belongs to (by the last
/// LoD level of `ROIs`), checked against the batch.
struct Quads<T> {
    corners: Vec<([T; 4], [T; 4])>,
    image: Vec<usize>,
}

fn quads<T: Real>(rois: &Tensor, name: &str, scale: f64) -> Result<Quads<T>, KernelError> {
    let r = rois.shape().first().copied().unwrap_or(0).max(0) as usize;
    if rois.shape().len() != 2 || rois.shape()[1] != 8 {
        return Err(KernelError::Shape(format!(
            "ROIs `{name}` should be a 2-D LoDTensor of shape (num_rois, 8), not {:?}",
            rois.shape()
        )));
    }
    let Some(level) = rois.lod().last() else {
        return Err(KernelError::Invalid(format!(
            "ROIs `{name}` has no LoD; feed it as a LoD tensor (one sequence of ROIs per image)"
        )));
    };
    if level.last().copied() != Some(r) || level.first() != Some(&0) {
        return Err(KernelError::Invalid(format!(
            "the LoD {level:?} of ROIs `{name}` does not cover its {r} ROIs"
        )));
    }
    let mut image = vec![0; r];
    for (i, w) in level.windows(2).enumerate() {
        for slot in &mut image[w[0]..w[1]] {
            *slot = i;
        }
    }
    let v = f64s(rois, "roi_perspective_transform")?;
    let scale = T::of(scale);
    let corners = (0..r)
        .map(|n| {
            let at = |k: usize| T::of(v[n * 8 + k]) * scale;
            ([at(0), at(2), at(4), at(6)], [at(1), at(3), at(5), at(7)])
        })
        .collect();
    Ok(Quads { corners, image })
}

/// `roi_perspective_transform` (1.6's CPU kernel): each ROI's
/// quadrilateral warped onto a `transformed_height` x `transformed_width`
/// grid by bilinear sampling of `X` (zero, and `Mask` 0, where the grid
/// point falls outside the quadrilateral or the map); `TransformMatrix`
/// the homographies. float32 as 1.x registered, and float64.
fn roi_perspective_transform(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, rois) = (l.input("X")?, l.input("ROIs")?);
    let (out, mask, matrix) = (
        l.output("Out")?,
        l.opt_output("Mask")?,
        l.opt_output("TransformMatrix")?,
    );
    // The intermediates of 1.x's GPU kernel: its CPU kernel left them
    // unwritten; fluidc gives them zeros of their declared dims.
    let (idx, weights) = (l.opt_output("Out2InIdx")?, l.opt_output("Out2InWeights")?);
    let (th, tw) = (l.int("transformed_height")?, l.int("transformed_width")?);
    let scale = l.float("spatial_scale")?;
    if th <= 0 || tw <= 0 || scale <= 0.0 {
        return Err(KernelError::Attribute(format!(
            "roi_perspective_transform: transformed_height {th}, transformed_width {tw} and \
             spatial_scale {scale} must be greater than 0"
        )));
    }
    compute(move |s| {
        let (xt, rt) = (s.tensor(&x)?, s.tensor(&rois)?);
        let dtype = float_dtype("roi_perspective_transform", &xt)?;
        let [n, c, h, w] = *xt.shape() else {
            return Err(KernelError::Shape(format!(
                "X `{}` of roi_perspective_transform must be NCHW, not {:?}",
                x.name,
                xt.shape()
            )));
        };
        let dims = [n as usize, c as usize, h as usize, w as usize];
        let xv = f64s(&xt, "roi_perspective_transform")?.into_owned();
        let done = match dtype {
            VarKind::Fp32 => warp::<f32>(&xv, dims, &rt, &rois.name, scale, th, tw)?,
            _ => warp::<f64>(&xv, dims, &rt, &rois.name, scale, th, tw)?,
        };
        drop((xt, rt));
        let (o, m, mat) = done;
        let r = m.len() as i64 / (th * tw);
        s.set_tensor(&out, float::tensor(dtype, &[r, c, th, tw], o)?);
        if let Some(mask) = &mask {
            s.set_tensor(mask, Tensor::from_vec(&[r, 1, th, tw], m)?);
        }
        if let Some(matrix) = &matrix {
            s.set_tensor(matrix, float::tensor(dtype, &[r, 9], mat)?);
        }
        let dims = [r, c, th, tw];
        if let Some(idx) = &idx {
            s.set_tensor(idx, Tensor::zeros(VarKind::Int32, &dims)?);
        }
        if let Some(weights) = &weights {
            s.set_tensor(weights, Tensor::zeros(dtype, &dims)?);
        }
        Ok(())
    })
}

type Warped = (Vec<f64>, Vec<i32>, Vec<f64>);

fn warp<T: Real>(
    xv: &[f64],
    [n, c, h, w]: [usize; 4],
    rois: &Tensor,
    name: &str,
    scale: f64,
    th: i64,
    tw: i64,
) -> Result<Warped, KernelError> {
    let q = quads::<T>(rois, name, scale)?;
    let (thu, twu) = (th as usize, tw as usize);
    let r = q.image.len();
    let mut out = vec![0.0; r * c * thu * twu];
    let mut mask = vec![0i32; r * thu * twu];
    let mut mats = Vec::with_capacity(r * 9);
    for (k, ((qx, qy), &img)) in q.corners.iter().zip(&q.image).enumerate() {
        if img >= n {
            return Err(KernelError::Invalid(format!(
                "ROIs `{name}` has ROIs of image {img} but X holds {n} images"
            )));
        }
        let m = perspective_matrix(tw, th, qx, qy);
        mats.extend(m.iter().map(|&v| v.to_f64()));
        for oh in 0..thu {
            for ow in 0..twu {
                let (sw, sh) = source_coords(&m, ow, oh);
                if !in_quad(sw, sh, qx, qy) || off_map(sw, sh, w, h) {
                    continue;
                }
                mask[(k * thu + oh) * twu + ow] = 1;
                let (wf, wc, sw) = neighbours(sw, w);
                let (hf, hc, sh) = neighbours(sh, h);
                let (w_fl, h_fl) = (sw - T::of(wf as f64), sh - T::of(hf as f64));
                let (w_ce, h_ce) = (T::one() - w_fl, T::one() - h_fl);
                for ch in 0..c {
                    let plane = &xv[(img * c + ch) * h * w..][..h * w];
                    let px = |y: usize, x: usize| T::of(plane[y * w + x]);
                    let v = w_ce * h_ce * px(hf, wf)
                        + w_ce * h_fl * px(hc, wf)
                        + w_fl * h_fl * px(hc, wc)
                        + w_fl * h_ce * px(hf, wc);
                    out[((k * c + ch) * thu + oh) * twu + ow] = v.to_f64();
                }
            }
        }
    }
    Ok((out, mask, mats))
}

/// `roi_perspective_transform_grad` (1.6's CPU kernel): each sampled grid
/// point's `Out@GRAD` back to the pixels it read, with 1.x's weights
/// (`get_feature_gradient`), summed per pixel over the image's ROIs and
/// their grid points in 1.x's order.
fn roi_perspective_transform_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, rois, dout) = (l.input("X")?, l.input("ROIs")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let (th, tw) = (l.int("transformed_height")?, l.int("transformed_width")?);
    let scale = l.float("spatial_scale")?;
    if th <= 0 || tw <= 0 || scale <= 0.0 {
        return Err(KernelError::Attribute(format!(
            "roi_perspective_transform_grad: transformed_height {th}, transformed_width {tw} \
             and spatial_scale {scale} must be greater than 0"
        )));
    }
    compute(move |s| {
        let (xt, rt, dt) = (s.tensor(&x)?, s.tensor(&rois)?, s.tensor(&dout)?);
        let dtype = float_dtype("roi_perspective_transform_grad", &xt)?;
        let shape = xt.shape().to_vec();
        let [n, c, h, w] = *xt.shape() else {
            return Err(KernelError::Shape(format!(
                "X `{}` of roi_perspective_transform must be NCHW, not {:?}",
                x.name,
                xt.shape()
            )));
        };
        let dims = [n as usize, c as usize, h as usize, w as usize];
        let dv = f64s(&dt, "roi_perspective_transform_grad")?.into_owned();
        let g = match dtype {
            VarKind::Fp32 => unwarp::<f32>(&dv, dims, &rt, &rois.name, scale, th, tw)?,
            _ => unwarp::<f64>(&dv, dims, &rt, &rois.name, scale, th, tw)?,
        };
        drop((xt, rt, dt));
        s.set_tensor(&dx, float::tensor(dtype, &shape, g)?);
        Ok(())
    })
}

fn unwarp<T: Real>(
    dv: &[f64],
    [n, c, h, w]: [usize; 4],
    rois: &Tensor,
    name: &str,
    scale: f64,
    th: i64,
    tw: i64,
) -> Result<Vec<f64>, KernelError> {
    let q = quads::<T>(rois, name, scale)?;
    let (thu, twu) = (th as usize, tw as usize);
    if dv.len() != q.image.len() * c * thu * twu {
        return Err(KernelError::Shape(format!(
            "Out@GRAD has {} elements, not {} ROIs x {c} x {th} x {tw}",
            dv.len(),
            q.image.len()
        )));
    }
    let mut g = vec![T::zero(); n * c * h * w];
    for (k, ((qx, qy), &img)) in q.corners.iter().zip(&q.image).enumerate() {
        // 1.x's grad visits the ROIs of the images X holds only.
        if img >= n {
            continue;
        }
        let m = perspective_matrix(tw, th, qx, qy);
        for oh in 0..thu {
            for ow in 0..twu {
                let (sw, sh) = source_coords(&m, ow, oh);
                if !in_quad(sw, sh, qx, qy) || off_map(sw, sh, w, h) {
                    continue;
                }
                let (wf, wc, sw) = neighbours(sw, w);
                let (hf, hc, sh) = neighbours(sh, h);
                // get_feature_gradient's weights; a clamped axis (floor =
                // ceil) counts its floor only.
                let axis = |f: usize, ce: usize, v: T| {
                    let fl = (f, T::of(f as f64 + 1.0) - v);
                    let up = (ce, v + T::one() - T::of(ce as f64));
                    if f == ce {
                        [Some(fl), None]
                    } else {
                        [Some(fl), Some(up)]
                    }
                };
                for ch in 0..c {
                    let d = T::of(dv[((k * c + ch) * thu + oh) * twu + ow]);
                    let plane = (img * c + ch) * h * w;
                    for (y, wy) in axis(hf, hc, sh).into_iter().flatten() {
                        for (xx, wx) in axis(wf, wc, sw).into_iter().flatten() {
                            let at = &mut g[plane + y * w + xx];
                            *at = *at + d * (wx * wy);
                        }
                    }
                }
            }
        }
    }
    Ok(g.into_iter().map(|v| v.to_f64()).collect())
}

/// `generate_proposals`' settings (its attributes).
#[derive(Clone, Copy)]
struct Proposals {
    pre_top: i64,
    post_top: i64,
    nms_thresh: f64,
    min_size: f64,
    eta: f64,
}

/// `generate_proposals` (1.x's CPU kernel): per image, the anchors with
/// the `pre_nms_topN` best `Scores` (all when it is not positive or not
/// fewer), decoded by `BboxDeltas` and `Variances`, clipped to the image,
/// those smaller than `min_size` (at the original scale) or centred off
/// the image dropped, then NMS (`nms_thresh`, adaptive by `eta`; none when
/// `nms_thresh` is not positive) keeping `post_nms_topN`. `RpnRois` and
/// `RpnRoiProbs` hold every image's in turn, one LoD sequence each;
/// `RpnRoisNum` (1.7's) the counts.
fn generate_proposals(l: &OpReader) -> Result<Exec, KernelError> {
    let names = ["Scores", "BboxDeltas", "ImInfo", "Anchors", "Variances"];
    let ins = names
        .iter()
        .map(|n| l.input(n))
        .collect::<Result<Vec<_>, _>>()?;
    let (rois, probs) = (l.output("RpnRois")?, l.output("RpnRoiProbs")?);
    let counts = l.opt_output("RpnRoisNum")?;
    let p = Proposals {
        pre_top: l.int("pre_nms_topN")?,
        post_top: l.int("post_nms_topN")?,
        nms_thresh: l.float("nms_thresh")?,
        min_size: l.float("min_size")?,
        eta: l.float("eta")?,
    };
    compute(move |s| {
        let ts = ins
            .iter()
            .map(|v| s.tensor(v))
            .collect::<Result<Vec<_>, _>>()?;
        let dtype = float_dtype("generate_proposals", &ts[3])?;
        let (sd, bd) = (ts[0].shape().to_vec(), ts[1].shape().to_vec());
        let (&[n, a, h, w], &[bn, b4, bh, bw]) = (sd.as_slice(), bd.as_slice()) else {
            return Err(KernelError::Shape(format!(
                "Scores {sd:?} and BboxDeltas {bd:?} of generate_proposals must be NCHW"
            )));
        };
        let cells = (h * w * a) as usize;
        if bn != n || bh != h || bw != w || b4 != 4 * a {
            return Err(KernelError::Shape(format!(
                "BboxDeltas {bd:?} must be [N, 4 A, H, W] for Scores {sd:?}"
            )));
        }
        if ts[2].numel() != 3 * n.max(0) as usize {
            return Err(KernelError::Shape(format!(
                "ImInfo {:?} must be [N, 3] (height, width, scale) for {n} images",
                ts[2].shape()
            )));
        }
        for (k, t) in ts.iter().enumerate().skip(3) {
            if t.numel() != 4 * cells {
                return Err(KernelError::Shape(format!(
                    "{} {:?} must hold one box (4 values) for each of the H W A = {cells} \
                     anchors",
                    names[k],
                    t.shape()
                )));
            }
        }
        let v: Vec<Vec<f64>> = ts
            .iter()
            .map(|t| f64s(t, "generate_proposals").map(|c| c.into_owned()))
            .collect::<Result<_, _>>()?;
        drop(ts);
        let dims = [n.max(0) as usize, a as usize, h as usize, w as usize];
        let (boxes, scores, lod) = match dtype {
            VarKind::Fp32 => propose::<f32>(&v, dims, p),
            _ => propose::<f64>(&v, dims, p),
        };
        let total = scores.len() as i64;
        let lod = vec![lod];
        s.set_tensor(
            &rois,
            float::tensor(dtype, &[total, 4], boxes)?.with_lod(lod.clone()),
        );
        s.set_tensor(
            &probs,
            float::tensor(dtype, &[total, 1], scores)?.with_lod(lod.clone()),
        );
        if let Some(counts) = &counts {
            let c: Vec<i32> = lod[0].windows(2).map(|w| (w[1] - w[0]) as i32).collect();
            s.set_tensor(counts, Tensor::from_vec(&[c.len() as i64], c)?);
        }
        Ok(())
    })
}

/// 1.x's `kBBoxClipDefault`: `log(1000 / 16)`.
fn bbox_clip_default() -> f64 {
    (1000.0f64 / 16.0).ln()
}

/// The proposals of every image: boxes, scores and the LoD offsets.
fn propose<T: Real>(
    v: &[Vec<f64>],
    [n, a, h, w]: [usize; 4],
    p: Proposals,
) -> (Vec<f64>, Vec<f64>, Vec<usize>) {
    let (scores, deltas, info, anchors, variances) = (&v[0], &v[1], &v[2], &v[3], &v[4]);
    let cells = h * w * a;
    let (mut boxes, mut probs, mut lod) = (Vec::new(), Vec::new(), vec![0]);
    for img in 0..n {
        // Scores [A, H, W] and deltas [4 A, H, W] of the image in 1.x's
        // (h, w, a) order, the anchors' order.
        let score = |k: usize| {
            let (hw, ai) = (k / a, k % a);
            T::of(scores[(img * a + ai) * h * w + hw])
        };
        let delta = |k: usize, j: usize| {
            let (hw, ai) = (k / a, k % a);
            T::of(deltas[(img * 4 * a + ai * 4 + j) * h * w + hw])
        };
        // Best first; a stable sort where 1.x's std::sort / nth_element
        // left ties and the order of the kept ones to the library.
        let mut order: Vec<usize> = (0..cells).collect();
        order.sort_by(|&i, &j| {
            score(j)
                .partial_cmp(&score(i))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        if p.pre_top > 0 && (p.pre_top as usize) < cells {
            order.truncate(p.pre_top as usize);
        }
        let im = [
            T::of(info[img * 3]),
            T::of(info[img * 3 + 1]),
            T::of(info[img * 3 + 2]),
        ];
        let clip = T::of(bbox_clip_default());
        let half = T::of(2.0);
        let mut kept: Vec<([T; 4], T)> = Vec::new();
        for &k in &order {
            let an = |j: usize| T::of(anchors[k * 4 + j]);
            let var = |j: usize| T::of(variances[k * 4 + j]);
            let aw = T::of((an(2) - an(0)).to_f64() + 1.0);
            let ah = T::of((an(3) - an(1)).to_f64() + 1.0);
            let acx = T::of(an(0).to_f64() + 0.5 * aw.to_f64());
            let acy = T::of(an(1).to_f64() + 0.5 * ah.to_f64());
            let cx = var(0) * delta(k, 0) * aw + acx;
            let cy = var(1) * delta(k, 1) * ah + acy;
            let bw = (var(2) * delta(k, 2)).min(clip).exp() * aw;
            let bh = (var(3) * delta(k, 3)).min(clip).exp() * ah;
            let raw = [
                cx - bw / half,
                cy - bh / half,
                cx + bw / half - T::one(),
                cy + bh / half - T::one(),
            ];
            // ClipTiledBoxes: x to [0, width - 1], y to [0, height - 1].
            let mut b = raw;
            for (j, v) in b.iter_mut().enumerate() {
                let limit = if j % 2 == 0 { im[1] } else { im[0] } - T::one();
                *v = v.min(limit).max(T::zero());
            }
            // FilterBoxes.
            let min_size = T::of(p.min_size.max(1.0));
            let ws = b[2] - b[0] + T::one();
            let hs = b[3] - b[1] + T::one();
            let ws_origin = (b[2] - b[0]) / im[2] + T::one();
            let hs_origin = (b[3] - b[1]) / im[2] + T::one();
            let x_ctr = b[0] + ws / half;
            let y_ctr = b[1] + hs / half;
            if ws_origin >= min_size && hs_origin >= min_size && x_ctr <= im[1] && y_ctr <= im[0] {
                kept.push((b, score(k)));
            }
        }
        let picked: Vec<([T; 4], T)> = if p.nms_thresh <= 0.0 {
            kept
        } else {
            let mut picked = nms_unnormalized(&kept, T::of(p.nms_thresh), p.eta);
            if p.post_top > 0 && (p.post_top as usize) < picked.len() {
                picked.truncate(p.post_top as usize);
            }
            picked
        };
        for &(b, sc) in &picked {
            boxes.extend(b.iter().map(|&x| x.to_f64()));
            probs.push(sc.to_f64());
        }
        lod.push(probs.len());
    }
    (boxes, probs, lod)
}

/// 1.x's `BBoxArea` with `normalized` false (pixel boxes: `+ 1`).
fn pixel_area<T: Real>(b: &[T; 4]) -> T {
    if b[2] < b[0] || b[3] < b[1] {
        T::zero()
    } else {
        (b[2] - b[0] + T::one()) * (b[3] - b[1] + T::one())
    }
}

/// 1.x's `JaccardOverlap` with `normalized` false.
fn pixel_iou<T: Real>(a: &[T; 4], b: &[T; 4]) -> T {
    if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
        return T::zero();
    }
    let iw = (a[2].min(b[2]) - a[0].max(b[0]) + T::one()).max(T::zero());
    let ih = (a[3].min(b[3]) - a[1].max(b[1]) + T::one()).max(T::zero());
    let inter = iw * ih;
    inter / (pixel_area(a) + pixel_area(b) - inter)
}

/// 1.x's `NMS` of `generate_proposals`: best score first (the later of
/// equal scores first, as it took them from the back of a stable
/// ascending sort), each kept unless it overlaps a kept one by more than
/// the threshold, which `eta` < 1 lowers after each kept box while above
/// 0.5.
fn nms_unnormalized<T: Real>(boxes: &[([T; 4], T)], thresh: T, eta: f64) -> Vec<([T; 4], T)> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&i, &j| {
        boxes[i]
            .1
            .partial_cmp(&boxes[j].1)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut threshold = thresh;
    let mut picked: Vec<usize> = Vec::new();
    for &i in order.iter().rev() {
        let keep = picked
            .iter()
            .all(|&k| pixel_iou(&boxes[i].0, &boxes[k].0) <= threshold);
        if keep {
            picked.push(i);
            if eta < 1.0 && threshold.to_f64() > 0.5 {
                threshold = threshold * T::of(eta);
            }
        }
    }
    picked.into_iter().map(|i| boxes[i]).collect()
}

/// `rpn_target_assign`'s settings (its attributes).
#[derive(Clone, Copy)]
struct RpnTargets {
    batch: i64,
    straddle: f64,
    positive: f64,
    negative: f64,
    fg_fraction: f64,
}

/// `rpn_target_assign` (1.x's CPU kernel), per image (the LoD of
/// `GtBoxes` and `IsCrowd`): the anchors inside the image (by
/// `rpn_straddle_thresh`, unless negative), their IoU with the non-crowd
/// ground truth scaled by the image's scale; foreground the anchors that
/// are some box's best match or overlap one by `rpn_positive_overlap`,
/// background those below `rpn_negative_overlap`, each sampled down to
/// `rpn_batch_size_per_im` (a `rpn_fg_fraction` of it foreground) by
/// reservoir sampling, or, with `use_random` false, the first ones. Its
/// outputs: the foreground anchors' indices (`LocationIndex`, over all
/// images' anchors), their box targets and inside weights (zeros for a
/// foreground sampled as background too, which 1.x replaced by the first
/// foreground), and the indices and labels of the foreground then the
/// background anchors (`ScoreIndex`, `TargetLabel`); one LoD sequence per
/// image.
fn rpn_target_assign(l: &OpReader) -> Result<Exec, KernelError> {
    let ins = ["Anchor", "GtBoxes", "IsCrowd", "ImInfo"]
        .iter()
        .map(|n| l.input(n))
        .collect::<Result<Vec<_>, _>>()?;
    let outs = [
        "LocationIndex",
        "ScoreIndex",
        "TargetBBox",
        "TargetLabel",
        "BBoxInsideWeight",
    ]
    .iter()
    .map(|n| l.output(n))
    .collect::<Result<Vec<_>, _>>()?;
    let p = RpnTargets {
        batch: l.int("rpn_batch_size_per_im")?,
        straddle: l.float("rpn_straddle_thresh")?,
        positive: l.float("rpn_positive_overlap")?,
        negative: l.float("rpn_negative_overlap")?,
        fg_fraction: l.float("rpn_fg_fraction")?,
    };
    let use_random = l.bool("use_random")?;
    compute(move |s| {
        let ts = ins
            .iter()
            .map(|v| s.tensor(v))
            .collect::<Result<Vec<_>, _>>()?;
        let dtype = float_dtype("rpn_target_assign", &ts[0])?;
        let level = |k: usize| -> Result<Vec<usize>, KernelError> {
            match ts[k].lod() {
                [one] => Ok(one.clone()),
                _ => Err(KernelError::Invalid(format!(
                    "rpn_target_assign: {} `{}` needs 1 level of LoD (one sequence per image)",
                    ["Anchor", "GtBoxes", "IsCrowd", "ImInfo"][k],
                    ins[k].name
                ))),
            }
        };
        let (gt_lod, crowd_lod) = (level(1)?, level(2)?);
        let images = gt_lod.len().saturating_sub(1);
        if crowd_lod.len() != gt_lod.len() || ts[3].numel() < 3 * images {
            return Err(KernelError::Shape(format!(
                "rpn_target_assign: IsCrowd's LoD {crowd_lod:?} and ImInfo {:?} must match \
                 GtBoxes' {images} images",
                ts[3].shape()
            )));
        }
        if ts[0].numel() % 4 != 0 || ts[1].numel() != 4 * gt_lod[images] {
            return Err(KernelError::Shape(format!(
                "rpn_target_assign: Anchor {:?} and GtBoxes {:?} must be boxes of 4 values",
                ts[0].shape(),
                ts[1].shape()
            )));
        }
        if !matches!(ts[2].dtype(), VarKind::Int32 | VarKind::Int64) {
            return Err(KernelError::Dtype(format!(
                "rpn_target_assign: IsCrowd must be int32, not {}",
                crate::tensor::dtype_name(ts[2].dtype())
            )));
        }
        let crowd = crate::ops::float::i64s(&ts[2])?.into_owned();
        if crowd.len() != crowd_lod[images] {
            return Err(KernelError::Shape(format!(
                "rpn_target_assign: IsCrowd has {} values for the LoD {crowd_lod:?}",
                crowd.len()
            )));
        }
        let anchors = f64s(&ts[0], "rpn_target_assign")?.into_owned();
        let gts = f64s(&ts[1], "rpn_target_assign")?.into_owned();
        let info = f64s(&ts[3], "rpn_target_assign")?.into_owned();
        drop(ts);
        let engine = use_random.then(|| {
            crate::random::StdMt19937_64::new(crate::random::with_engine(0, |e| e.next_u64()))
        });
        let data = RpnData {
            anchors: &anchors,
            gts: &gts,
            gt_lod: &gt_lod,
            crowd: &crowd,
            crowd_lod: &crowd_lod,
            info: &info,
        };
        let t = match dtype {
            VarKind::Fp32 => assign_rpn_targets::<f32>(&data, p, engine),
            _ => assign_rpn_targets::<f64>(&data, p, engine),
        };
        let (nl, ns) = (t.loc.len() as i64, t.score.len() as i64);
        let (ll, sl) = (vec![t.loc_lod], vec![t.score_lod]);
        s.set_tensor(
            &outs[0],
            Tensor::from_vec(&[nl], t.loc)?.with_lod(ll.clone()),
        );
        s.set_tensor(
            &outs[1],
            Tensor::from_vec(&[ns], t.score)?.with_lod(sl.clone()),
        );
        s.set_tensor(
            &outs[2],
            float::tensor(dtype, &[nl, 4], t.bbox)?.with_lod(ll.clone()),
        );
        s.set_tensor(&outs[3], Tensor::from_vec(&[ns, 1], t.label)?.with_lod(sl));
        s.set_tensor(
            &outs[4],
            float::tensor(dtype, &[nl, 4], t.weight)?.with_lod(ll),
        );
        Ok(())
    })
}

/// `rpn_target_assign`'s inputs, as values.
struct RpnData<'a> {
    anchors: &'a [f64],
    gts: &'a [f64],
    gt_lod: &'a [usize],
    crowd: &'a [i64],
    crowd_lod: &'a [usize],
    info: &'a [f64],
}

/// `rpn_target_assign`'s outputs, all images in turn.
#[derive(Default)]
struct RpnOut {
    loc: Vec<i32>,
    score: Vec<i32>,
    bbox: Vec<f64>,
    label: Vec<i32>,
    weight: Vec<f64>,
    loc_lod: Vec<usize>,
    score_lod: Vec<usize>,
}

/// 1.x's `ReservoirSampling`: keep `num` of `inds`, each later one
/// swapped in with probability `num / i`; the first `num` without an
/// engine. 1.x passed its engine by value, so every call draws the same
/// numbers: each gets a copy of `engine`.
fn reservoir(num: i64, inds: &mut Vec<usize>, engine: &Option<crate::random::StdMt19937_64>) {
    let num = num.max(0) as usize;
    if inds.len() <= num {
        return;
    }
    if let Some(e) = engine {
        let mut e = e.clone();
        let uniform = crate::random::UniformReal::new(0f32, 1f32);
        for i in num..inds.len() {
            let at = (uniform.sample(&mut e) * i as f32).floor() as usize;
            if at < num {
                inds.swap(at, i);
            }
        }
    }
    inds.truncate(num);
}

/// 1.x's `BboxOverlaps` of pixel boxes (`+ 1` sides).
pub(super) fn pixel_overlap<T: Real>(r: &[T], c: &[T]) -> T {
    let one = T::one();
    let ra = (r[2] - r[0] + one) * (r[3] - r[1] + one);
    let ca = (c[2] - c[0] + one) * (c[3] - c[1] + one);
    let iw = (r[2].min(c[2]) - r[0].max(c[0]) + one).max(T::zero());
    let ih = (r[3].min(c[3]) - r[1].max(c[1]) + one).max(T::zero());
    let inter = iw * ih;
    if inter == T::zero() {
        T::zero()
    } else {
        inter / (ra + ca - inter)
    }
}

fn assign_rpn_targets<T: Real>(
    d: &RpnData,
    p: RpnTargets,
    engine: Option<crate::random::StdMt19937_64>,
) -> RpnOut {
    let anchor_num = d.anchors.len() / 4;
    let anchor = |i: usize| -> [T; 4] { std::array::from_fn(|j| T::of(d.anchors[i * 4 + j])) };
    let mut o = RpnOut {
        loc_lod: vec![0],
        score_lod: vec![0],
        ..RpnOut::default()
    };
    for img in 0..d.gt_lod.len().saturating_sub(1) {
        let (im_h, im_w, im_scale) = (
            T::of(d.info[img * 3]),
            T::of(d.info[img * 3 + 1]),
            T::of(d.info[img * 3 + 2]),
        );
        // FilterStraddleAnchor.
        let st = T::of(p.straddle);
        let inside: Vec<usize> = (0..anchor_num)
            .filter(|&i| {
                let a = anchor(i);
                p.straddle < 0.0
                    || (a[0] >= -st && a[1] >= -st && a[2] < im_w + st && a[3] < im_h + st)
            })
            .collect();
        // FilterCrowdGt, scaled to the image.
        let gts: Vec<[T; 4]> = (d.gt_lod[img]..d.gt_lod[img + 1])
            .zip(d.crowd_lod[img]..d.crowd_lod[img + 1])
            .filter(|&(_, c)| d.crowd[c] == 0)
            .map(|(g, _)| std::array::from_fn(|j| T::of(d.gts[g * 4 + j]) * im_scale))
            .collect();
        let ng = gts.len();
        let overlap: Vec<T> = inside
            .iter()
            .flat_map(|&i| {
                let a = anchor(i);
                gts.iter().map(move |g| pixel_overlap(&a, g))
            })
            .collect();
        let lowest = T::of(f64::MIN);
        let mut anchor_max = vec![lowest; inside.len()];
        let mut argmax = vec![0usize; inside.len()];
        let mut gt_max = vec![lowest; ng];
        for i in 0..inside.len() {
            for j in 0..ng {
                let v = overlap[i * ng + j];
                if v > anchor_max[i] {
                    anchor_max[i] = v;
                    argmax[i] = j;
                }
                if v > gt_max[j] {
                    gt_max[j] = v;
                }
            }
        }
        // ScoreAssign.
        let eps = T::of(f64::from(0.00001f32));
        let mut fg_fake_inds: Vec<usize> = (0..inside.len())
            .filter(|&i| {
                (0..ng).any(|j| (overlap[i * ng + j] - gt_max[j]).abs() < eps)
                    || anchor_max[i] >= T::of(p.positive)
            })
            .collect();
        let sampling = p.fg_fraction > 0.0 && p.batch > 0;
        if sampling {
            let fg_num = (p.fg_fraction as f32 * p.batch as f32) as i64;
            reservoir(fg_num, &mut fg_fake_inds, &engine);
        }
        let fg_fake_num = fg_fake_inds.len();
        let mut label = vec![-1i32; inside.len()];
        for &i in &fg_fake_inds {
            label[i] = 1;
        }
        let mut bg_inds_fake: Vec<usize> = (0..inside.len())
            .filter(|&i| anchor_max[i] < T::of(p.negative))
            .collect();
        if sampling {
            reservoir(p.batch - fg_fake_num as i64, &mut bg_inds_fake, &engine);
        }
        let mut fg_fake = Vec::new();
        let mut weights: Vec<f64> = Vec::new();
        let mut fake_num = 0;
        for &i in &bg_inds_fake {
            if label[i] == 1 {
                fake_num += 1;
                fg_fake.push(fg_fake_inds[0]);
                weights.extend([0.0; 4]);
            }
            label[i] = 0;
        }
        weights.extend(std::iter::repeat_n(1.0, (fg_fake_num - fake_num) * 4));
        let mut fg_inds = Vec::new();
        let mut bg_inds = Vec::new();
        for (i, &lb) in label.iter().enumerate() {
            if lb == 1 {
                fg_inds.push(i);
                fg_fake.push(i);
            }
            if lb == 0 {
                bg_inds.push(i);
            }
        }
        // The sampled anchors, over all images' anchors, and their targets
        // (BoxToDelta of pixel boxes, no weights).
        let offset = img * anchor_num;
        for &k in &fg_fake {
            let a = anchor(inside[k]);
            let g = gts[argmax[k]];
            o.loc.push((inside[k] + offset) as i32);
            let one = T::one();
            let (ew, eh) = (a[2] - a[0] + one, a[3] - a[1] + one);
            let (ex, ey) = (
                T::of(a[0].to_f64() + 0.5 * ew.to_f64()),
                T::of(a[1].to_f64() + 0.5 * eh.to_f64()),
            );
            let (gw, gh) = (g[2] - g[0] + one, g[3] - g[1] + one);
            let (gx, gy) = (
                T::of(g[0].to_f64() + 0.5 * gw.to_f64()),
                T::of(g[1].to_f64() + 0.5 * gh.to_f64()),
            );
            o.bbox.extend(
                [
                    (gx - ex) / ew,
                    (gy - ey) / eh,
                    (gw / ew).ln(),
                    (gh / eh).ln(),
                ]
                .iter()
                .map(|&v| v.to_f64()),
            );
        }
        o.weight.extend(weights);
        for &k in fg_inds.iter().chain(&bg_inds) {
            o.score.push((inside[k] + offset) as i32);
        }
        o.label.extend(std::iter::repeat_n(1, fg_inds.len()));
        o.label.extend(std::iter::repeat_n(0, bg_inds.len()));
        o.loc_lod.push(o.loc.len());
        o.score_lod.push(o.score.len());
    }
    o
}
