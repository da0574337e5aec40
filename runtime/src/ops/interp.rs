//! Image resizing, Paddle 1.x's `bilinear_interp` and `nearest_interp`
//! with their gradients: 1.x's CPU kernels, whose sampling positions are
//! computed in float (as there, so the same pixels are taken), and the
//! blend in double (`super::float`).
use super::float::{self, f64s, i64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};

pub(crate) fn register_all(r: &mut Registry) {
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
