//! Image resizing, Paddle 1.x's `bilinear_interp` and `nearest_interp`
//! with their gradients: 1.x's CPU kernels, whose sampling positions are
//! computed in float (as there, so the same pixels are taken), and the
//! blend in double (`super::float`); the spatial transformer's
//! `affine_grid` and `grid_sampler` and their gradients.
use super::float::{self, f64s, i64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("grid_sampler", |l| grid_sampler(l, false));
    r.add("grid_sampler_grad", |l| grid_sampler(l, true));
    r.add("affine_grid", |l| affine_grid(l, false));
    r.add("affine_grid_grad", |l| affine_grid(l, true));
    r.add("bilinear_interp", interp);
    r.add("bilinear_interp_grad", interp_grad);
    r.add("nearest_interp", interp);
    r.add("nearest_interp_grad", interp_grad);
}

/// The attributes both ops and their grads read.
#[derive(Debug, Clone)]
struct Attrs {
    bilinear: bool,
    out_h: i64,
    out_w: i64,
    scale: f32,
    align_corners: bool,
    align_mode: i64,
    out_size: Option<VarRef>,
}

impl Attrs {
    fn load(l: &OpReader) -> Result<Attrs, KernelError> {
        let bilinear = match l.string("interp_method")?.unwrap_or("bilinear") {
            "bilinear" => true,
            "nearest" => false,
            other => {
                return Err(KernelError::Attribute(format!(
                    "interp_method {other:?} must be \"bilinear\" or \"nearest\""
                )))
            }
        };
        if l.opt_input("SizeTensor")?.is_some() || l.opt_input("Scale")?.is_some() {
            return Err(KernelError::Attribute(
                "interp: SizeTensor and Scale inputs are not supported; give out_h/out_w, scale or OutSize".into(),
            ));
        }
        if let Some(layout) = l.string("data_layout")? {
            if layout != "NCHW" && layout != "AnyLayout" {
                return Err(KernelError::Attribute(format!(
                    "interp: data_layout {layout:?}; only NCHW images are supported"
                )));
            }
        }
        Ok(Attrs {
            bilinear,
            out_h: l.int_or("out_h", 0)?,
            out_w: l.int_or("out_w", 0)?,
            scale: l.float_or("scale", 0.0)? as f32,
            align_corners: l.bool_or("align_corners", true)?,
            align_mode: l.int_or("align_mode", 1)?,
            out_size: l.opt_input("OutSize")?,
        })
    }

    /// `(n, c, in_h, in_w, out_h, out_w)` for `X`'s shape: `OutSize`, else
    /// `scale` (when positive), else `out_h`/`out_w`.
    fn dims(&self, s: &Vars, x: &[i64]) -> Result<[usize; 6], KernelError> {
        let &[n, c, h, w] = x else {
            return Err(KernelError::Shape(format!(
                "interp: X must be NCHW (rank 4), got {x:?}"
            )));
        };
        let (mut oh, mut ow) = (self.out_h, self.out_w);
        if self.scale > 0.0 {
            oh = (h as f32 * self.scale) as i64;
            ow = (w as f32 * self.scale) as i64;
        }
        if let Some(r) = &self.out_size {
            let t = s.tensor(r)?;
            let v = i64s(&t)?;
            let [a, b] = v[..] else {
                return Err(KernelError::Shape(format!(
                    "interp: OutSize must hold 2 values (out_h, out_w), got {}",
                    v.len()
                )));
            };
            (oh, ow) = (a, b);
        }
        if h <= 0 || w <= 0 {
            return Err(KernelError::Shape(format!(
                "interp: X {x:?} has no pixels to resize"
            )));
        }
        if oh <= 0 || ow <= 0 {
            return Err(KernelError::Shape(format!(
                "interp: the output size {oh}x{ow} must be positive"
            )));
        }
        let u = |d: i64| d.max(0) as usize;
        Ok([u(n), u(c), u(h), u(w), oh as usize, ow as usize])
    }

    /// Input rows (or columns) `size` sampled for `out` outputs: per
    /// output, the taps and their weights, as 1.x's kernels compute them
    /// (nearest takes one; bilinear two, weighted even at a border;
    /// `align_mode` 0 clamps a position before the first pixel to it, as
    /// 1.5 fixed 1.4's extrapolation and Paddle 3.3.1 keeps).
    fn taps(&self, size: usize, out: usize) -> Vec<Vec<(usize, f64)>> {
        let ratio: f32 = if out > 1 {
            if self.align_corners {
                (size as f32 - 1.0) / (out as f32 - 1.0)
            } else {
                size as f32 / out as f32
            }
        } else {
            0.0
        };
        let last = size.saturating_sub(1);
        (0..out)
            .map(|k| {
                if !self.bilinear {
                    let at = if self.align_corners {
                        (f64::from(ratio * k as f32) + 0.5) as usize
                    } else {
                        (ratio * k as f32) as usize
                    };
                    return vec![(at.min(last), 1.0)];
                }
                let centred = self.align_mode == 0 && !self.align_corners;
                let (lo, frac) = if centred {
                    let pos = f64::from(ratio) * (k as f64 + 0.5) - 0.5;
                    let lo = (pos as i64).max(0);
                    (lo, (pos as f32).max(0.0) - lo as f32)
                } else {
                    let pos = ratio * k as f32;
                    let lo = (pos as i64).max(0);
                    (lo, pos - lo as f32)
                };
                let lo = (lo as usize).min(last);
                let hi = (lo + 1).min(last);
                vec![(lo, f64::from(1.0 - frac)), (hi, f64::from(frac))]
            })
            .collect()
    }
}

fn interp(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let a = Attrs::load(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let [n, c, h, w, oh, ow] = a.dims(s, xt.shape())?;
        let shape = [n as i64, c as i64, oh as i64, ow as i64];
        if h == oh && w == ow {
            s.set_tensor(&out, xt);
            return Ok(());
        }
        let v = f64s(&xt, "interp")?;
        let (rows, cols) = (a.taps(h, oh), a.taps(w, ow));
        let mut o = Vec::with_capacity(n * c * oh * ow);
        for plane in 0..n * c {
            let base = plane * h * w;
            for row in &rows {
                for col in &cols {
                    let mut acc = 0.0;
                    for &(y, wy) in row {
                        for &(x, wx) in col {
                            acc += v[base + y * w + x] * wy * wx;
                        }
                    }
                    o.push(acc);
                }
            }
        }
        let t = float::tensor(xt.dtype(), &shape, o)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// The grads: each output's gradient goes back to the pixels it sampled,
/// with their weights.
fn interp_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let a = Attrs::load(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?.into_owned();
        let [n, c, h, w, oh, ow] = a.dims(s, xt.shape())?;
        let dt = s.tensor(&dout)?.into_owned();
        let d = f64s(&dt, "interp_grad")?;
        if d.len() != n * c * oh * ow {
            return Err(KernelError::Shape(format!(
                "interp_grad: Out@GRAD {:?} does not fit the output size {oh}x{ow}",
                dt.shape()
            )));
        }
        if h == oh && w == ow {
            let t = float::tensor(xt.dtype(), xt.shape(), d.into_owned())?;
            s.set_tensor(&dx, t);
            return Ok(());
        }
        let (rows, cols) = (a.taps(h, oh), a.taps(w, ow));
        let mut g = vec![0.0; n * c * h * w];
        for plane in 0..n * c {
            let base = plane * h * w;
            for (k, row) in rows.iter().enumerate() {
                for (m, col) in cols.iter().enumerate() {
                    let grad = d[(plane * oh + k) * ow + m];
                    for &(y, wy) in row {
                        for &(x, wx) in col {
                            g[base + y * w + x] += grad * wy * wx;
                        }
                    }
                }
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `grid_sampler` (1.x's kernel: bilinear, zero padding) and its grad.
/// A grid point `(gx, gy)` in [-1, 1] maps to `((gx + 1) (W - 1) / 2,
/// ...)` (`align_corners`, 1.x's; otherwise 3.3.1's `((gx + 1) W - 1) /
/// 2`); its four neighbours off the map count 0. The grad scatters
/// `Output@GRAD` to them and differentiates the position for `Grid@GRAD`.
fn grid_sampler(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let (x, grid) = (l.input("X")?, l.input("Grid")?);
    if l.string("mode")?.is_some_and(|m| m != "bilinear")
        || l.string("padding_mode")?.is_some_and(|m| m != "zeros")
    {
        return Err(KernelError::Unsupported(
            "fluidc's grid_sampler is 1.x's: mode 'bilinear' and padding_mode 'zeros' only".into(),
        ));
    }
    let aligned = l.bool_or("align_corners", true)?;
    let (out, dout, dx, dgrid) = if grad {
        (
            None,
            Some(l.input("Output@GRAD")?),
            l.opt_output("X@GRAD")?,
            l.opt_output("Grid@GRAD")?,
        )
    } else {
        (Some(l.output("Output")?), None, None, None)
    };
    let op = if grad {
        "grid_sampler_grad"
    } else {
        "grid_sampler"
    };
    compute(move |s| {
        let (xt, gt) = (s.tensor(&x)?, s.tensor(&grid)?);
        let (dtype, xshape, gshape) = (xt.dtype(), xt.shape().to_vec(), gt.shape().to_vec());
        let [n, c, h, w] = match *xshape {
            [n, c, h, w] => [n, c, h, w].map(|d| d.max(0) as usize),
            _ => {
                return Err(KernelError::Shape(format!(
                    "{op}: X must be 4-D, it is {xshape:?}"
                )))
            }
        };
        if gshape != [n as i64, h as i64, w as i64, 2] {
            return Err(KernelError::Shape(format!(
                "{op}: Grid {gshape:?} must be [N, H, W, 2] of X {xshape:?}"
            )));
        }
        let single = dtype == fluidc_transpiler::VarKind::Fp32;
        let r = |v: f64| if single { f64::from(v as f32) } else { v };
        let (xv, gv) = (f64s(&xt, op)?.into_owned(), f64s(&gt, op)?.into_owned());
        drop((xt, gt));
        let d = match &dout {
            Some(d) => {
                let t = s.tensor(d)?;
                if t.shape() != xshape.as_slice() {
                    return Err(KernelError::Shape(format!(
                        "{op}: Output@GRAD {:?} must be X's {xshape:?}",
                        t.shape()
                    )));
                }
                Some(f64s(&t, op)?.into_owned())
            }
            None => None,
        };
        // Where a grid value lands on an axis of `size` pixels, and the
        // factor from grid units to pixels.
        let unnormalize = |g: f64, size: usize| {
            let size = size as f64;
            if aligned {
                (r(r(g + 1.0) * r(0.5 * (size - 1.0))), (size - 1.0) / 2.0)
            } else {
                (r(r(r(g + 1.0) * size - 1.0) / 2.0), size / 2.0)
            }
        };
        let (plane, pixels) = (h * w, h * w);
        let mut result = vec![0.0; n * c * plane];
        let mut ggrid = vec![0.0; n * plane * 2];
        for b in 0..n {
            for p in 0..pixels {
                let (gx, sx) = unnormalize(gv[(b * pixels + p) * 2], w);
                let (gy, sy) = unnormalize(gv[(b * pixels + p) * 2 + 1], h);
                let (xw, yn) = (gx.floor(), gy.floor());
                let (dw, de) = (r(gx - xw), r(xw + 1.0 - gx));
                let (dn, ds) = (r(gy - yn), r(yn + 1.0 - gy));
                // The four neighbours: (x, y, weight).
                let at = |xx: f64, yy: f64| {
                    (xx >= 0.0 && xx <= (w as f64 - 1.0) && yy >= 0.0 && yy <= (h as f64 - 1.0))
                        .then(|| yy as usize * w + xx as usize)
                };
                let corners = [
                    (at(xw, yn), de * ds),
                    (at(xw + 1.0, yn), dw * ds),
                    (at(xw, yn + 1.0), de * dn),
                    (at(xw + 1.0, yn + 1.0), dw * dn),
                ];
                let (mut gxs, mut gys) = (0.0, 0.0);
                for ch in 0..c {
                    let base = (b * c + ch) * plane;
                    let v = |k: usize| corners[k].0.map_or(0.0, |i| xv[base + i]);
                    match &d {
                        None => {
                            result[base + p] = corners
                                .iter()
                                .enumerate()
                                .fold(0.0, |a, (k, cw)| a + v(k) * cw.1);
                        }
                        Some(dv) => {
                            let og = dv[base + p];
                            for (i, wt) in corners {
                                if let Some(i) = i {
                                    result[base + i] += og * wt;
                                }
                            }
                            let (wn, en, ws, es) = (v(0), v(1), v(2), v(3));
                            gxs += ((en - wn) * ds + (es - ws) * dn) * og;
                            gys += ((ws - wn) * de + (es - en) * dw) * og;
                        }
                    }
                }
                ggrid[(b * pixels + p) * 2] = gxs * sx;
                ggrid[(b * pixels + p) * 2 + 1] = gys * sy;
            }
        }
        match (&out, &dout) {
            (Some(o), _) => s.set_tensor(o, float::tensor(dtype, &xshape, result)?),
            _ => {
                if let Some(dx) = &dx {
                    s.set_tensor(dx, float::tensor(dtype, &xshape, result)?);
                }
                if let Some(dg) = &dgrid {
                    s.set_tensor(dg, float::tensor(dtype, &gshape, ggrid)?);
                }
            }
        }
        Ok(())
    })
}

/// `affine_grid` and its grad (1.x's kernels): the `[H, W]` grid of
/// `(x, y, 1)`, x and y evenly from -1 to 1 (`align_corners`, 1.x's;
/// otherwise 3.3.1's pixel centres), times each `Theta^T` (`[N, 2, 3]`);
/// H and W from `output_shape` or else the `OutputShape` tensor. The
/// grad is `Output@GRAD^T` times the grid.
fn affine_grid(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let theta = l.input("Theta")?;
    let shape_in = l.opt_input("OutputShape")?;
    let attr = l.ints("output_shape")?.unwrap_or_default();
    let aligned = l.bool_or("align_corners", true)?;
    let (out, dout) = if grad {
        match l.opt_output("Theta@GRAD")? {
            Some(o) => (o, Some(l.input("Output@GRAD")?)),
            None => return compute(|_| Ok(())),
        }
    } else {
        (l.output("Output")?, None)
    };
    let op = if grad {
        "affine_grid_grad"
    } else {
        "affine_grid"
    };
    compute(move |s| {
        let dims = if attr.is_empty() {
            let r = shape_in.as_ref().ok_or_else(|| {
                KernelError::Shape(format!("{op}: no output_shape and no OutputShape"))
            })?;
            let t = s.tensor(r)?;
            let v = i64s(&t)?.into_owned();
            v
        } else {
            attr.clone()
        };
        let (h, w) = match *dims {
            [_, _, h, w] if h > 0 && w > 0 => (h as usize, w as usize),
            _ => {
                return Err(KernelError::Shape(format!(
                "{op}: the output shape must be [N, C, H, W] with H and W positive, it is {dims:?}"
            )))
            }
        };
        let tt = s.tensor(&theta)?;
        let (dtype, tshape) = (tt.dtype(), tt.shape().to_vec());
        let n = tshape.first().copied().unwrap_or(0).max(0) as usize;
        if tshape != [n as i64, 2, 3] {
            return Err(KernelError::Shape(format!(
                "{op}: Theta must be [N, 2, 3], it is {tshape:?}"
            )));
        }
        let tv = f64s(&tt, op)?.into_owned();
        drop(tt);
        let single = dtype == fluidc_transpiler::VarKind::Fp32;
        let r = |v: f64| if single { f64::from(v as f32) } else { v };
        let line = |count: usize| -> Vec<f64> {
            let c = count as f64;
            let (start, slice) = if aligned {
                (-1.0, r(2.0 / (c - 1.0)))
            } else {
                (-r((c - 1.0) / c), r(2.0 / c))
            };
            (0..count).map(|i| r(start + r(i as f64 * slice))).collect()
        };
        let (ys, xs) = (line(h), line(w));
        let base = |p: usize| [xs[p % w], ys[p / w], 1.0];
        let result = match &dout {
            None => {
                let mut o = vec![0.0; n * h * w * 2];
                for b in 0..n {
                    for p in 0..h * w {
                        let g = base(p);
                        for k in 0..2 {
                            o[(b * h * w + p) * 2 + k] =
                                (0..3).map(|j| g[j] * tv[b * 6 + k * 3 + j]).sum::<f64>();
                        }
                    }
                }
                float::tensor(dtype, &[n as i64, h as i64, w as i64, 2], o)?
            }
            Some(d) => {
                let dt = s.tensor(d)?;
                if dt.shape() != [n as i64, h as i64, w as i64, 2] {
                    return Err(KernelError::Shape(format!(
                        "{op}: Output@GRAD {:?} must be [{n}, {h}, {w}, 2]",
                        dt.shape()
                    )));
                }
                let dv = f64s(&dt, op)?;
                let mut g = vec![0.0; n * 6];
                for b in 0..n {
                    for p in 0..h * w {
                        let gp = base(p);
                        for k in 0..2 {
                            for j in 0..3 {
                                g[b * 6 + k * 3 + j] += dv[(b * h * w + p) * 2 + k] * gp[j];
                            }
                        }
                    }
                }
                float::tensor(dtype, &tshape, g)?
            }
        };
        s.set_tensor(&out, result);
        Ok(())
    })
}
