//! pool2d and its gradient: max and average pooling (exclusive or not),
//! global, ceil mode and adaptive, over the window geometry conv2d shares
//! (`super::conv`).

use super::conv::{nchw, paddings, pair};
use super::float::{self, f64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("max_pool2d_with_index", max_pool2d_with_index);
    r.add("max_pool2d_with_index_grad", max_pool2d_with_index_grad);
    r.add("pool2d", pool2d);
    r.add("pool2d_grad", pool2d_grad);
    r.add("maxout", maxout);
    r.add("maxout_grad", maxout_grad);
}

/// `maxout`'s `X` seen as `[outer, channels, inner]` around its channel
/// axis, and the output channels.
fn maxout_split(
    x: &[i64],
    axis: i64,
    groups: i64,
) -> Result<(usize, usize, usize, usize), KernelError> {
    let a = fluidc_transpiler::ops::pool::maxout_axis(axis).map_err(KernelError::Attribute)?;
    if x.len() != 4 {
        return Err(KernelError::Shape(format!(
            "maxout: X must be 4-D, it is {x:?}"
        )));
    }
    let (outer, c, inner) = float::split_at_axis(x, a as i64)?;
    let g = usize::try_from(groups)
        .ok()
        .filter(|&g| g > 0 && c % g == 0)
        .ok_or_else(|| {
            KernelError::Shape(format!(
                "maxout: the channels of {x:?} do not divide into groups of {groups}"
            ))
        })?;
    Ok((outer, c, inner, g))
}

/// `maxout`: output channel `c` is the max of input channels
/// `c*groups .. (c+1)*groups`.
fn maxout(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let (groups, axis) = (l.int("groups")?, l.int_or("axis", 1)?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let (outer, c, inner, g) = maxout_split(t.shape(), axis, groups)?;
        let v = f64s(&t, "maxout")?;
        let oc = c / g;
        let mut o = Vec::with_capacity(outer * oc * inner);
        for b in 0..outer {
            for k in 0..oc {
                for i in 0..inner {
                    let m = (0..g)
                        .map(|p| v[(b * c + k * g + p) * inner + i])
                        .fold(f64::NEG_INFINITY, f64::max);
                    o.push(m);
                }
            }
        }
        let mut dims = t.shape().to_vec();
        dims[fluidc_transpiler::ops::pool::maxout_axis(axis).map_err(KernelError::Attribute)?] =
            oc as i64;
        let r = float::tensor(t.dtype(), &dims, o)?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `maxout_grad`: each output's gradient goes to the first input of its
/// group equal to the max (1.x's and Paddle 3.3.1's rule for ties).
fn maxout_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, dout) = (l.input("X")?, l.input("Out")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let (groups, axis) = (l.int("groups")?, l.int_or("axis", 1)?);
    compute(move |s| {
        let (xt, ot, dt) = (s.tensor(&x)?, s.tensor(&out)?, s.tensor(&dout)?);
        let (outer, c, inner, g) = maxout_split(xt.shape(), axis, groups)?;
        let oc = c / g;
        let (xv, ov, dv) = (
            f64s(&xt, "maxout_grad")?,
            f64s(&ot, "maxout_grad")?,
            f64s(&dt, "maxout_grad")?,
        );
        if ov.len() != outer * oc * inner || dv.len() != ov.len() {
            return Err(KernelError::Shape(format!(
                "maxout_grad: Out {:?} and Out@GRAD {:?} do not fit X {:?}",
                ot.shape(),
                dt.shape(),
                xt.shape()
            )));
        }
        let mut grad = vec![0.0; xv.len()];
        for b in 0..outer {
            for k in 0..oc {
                for i in 0..inner {
                    let at = (b * oc + k) * inner + i;
                    if let Some(p) = (0..g).find(|p| xv[(b * c + k * g + p) * inner + i] == ov[at])
                    {
                        grad[(b * c + k * g + p) * inner + i] += dv[at];
                    }
                }
            }
        }
        let r = float::tensor(dt.dtype(), xt.shape(), grad)?;
        drop((xt, ot, dt));
        s.set_tensor(&dx, r);
        Ok(())
    })
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

fn pool2d(l: &OpReader) -> Result<Exec, KernelError> {
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
fn pool2d_grad(l: &OpReader) -> Result<Exec, KernelError> {
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

/// `max_pool2d_with_index`'s windows: `pool2d`'s geometry, adaptive
/// windows when `adaptive` (`floor(i H / OH)` to `ceil((i + 1) H / OH)`,
/// as Paddle's kernel for this op computes them).
fn index_pool_attrs(l: &OpReader) -> Result<PoolAttrs, KernelError> {
    Ok(PoolAttrs {
        // Windows as average pooling's: they adapt (see `cells`).
        max: false,
        ksize: l.ints("ksize")?.unwrap_or_default(),
        strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1]),
        pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0]),
        global: l.bool_or("global_pooling", false)?,
        adaptive: l.bool_or("adaptive", false)?,
        ceil: l.bool_or("ceil_mode", false)?,
        exclusive: true,
        algorithm: "EXPLICIT".to_string(),
    })
}

/// `max_pool2d_with_index`: each window's max (the first of equal ones)
/// and its position `y * W + x` in its input map, int32.
fn max_pool2d_with_index(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, mask) = (l.input("X")?, l.output("Out")?, l.opt_output("Mask")?);
    let a = index_pool_attrs(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let ((n, c, h, w, oh, ow), cells) = a.cells(xt.shape())?;
        let v = f64s(&xt, "max_pool2d_with_index")?;
        let mut o = Vec::with_capacity(n * c * oh * ow);
        let mut m = Vec::with_capacity(n * c * oh * ow);
        for plane in 0..n * c {
            let base = plane * h * w;
            for cell in &cells {
                let (mut best, mut at) = (f64::from(-f32::MAX), 0usize);
                for y in cell.hs..cell.he {
                    for x in cell.ws..cell.we {
                        if v[base + y * w + x] > best {
                            best = v[base + y * w + x];
                            at = y * w + x;
                        }
                    }
                }
                o.push(best);
                m.push(at as i32);
            }
        }
        let shape = [n as i64, c as i64, oh as i64, ow as i64];
        let t = float::tensor(xt.dtype(), &shape, o)?;
        drop(xt);
        s.set_tensor(&out, t);
        if let Some(mask) = &mask {
            s.set_tensor(mask, crate::tensor::Tensor::from_vec(&shape, m)?);
        }
        Ok(())
    })
}

/// Its grad: each output's gradient added at the position `Mask` names.
fn max_pool2d_with_index_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, mask, dout) = (l.input("X")?, l.input("Mask")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let shape = xt.shape().to_vec();
        let dtype = xt.dtype();
        drop(xt);
        let plane = shape
            .get(2..)
            .map_or(0, |d| d.iter().product::<i64>().max(0) as usize);
        let (mt, dt) = (s.tensor(&mask)?, s.tensor(&dout)?);
        let positions = super::float::i64s(&mt)?;
        let d = f64s(&dt, "max_pool2d_with_index_grad")?;
        let per_map = dt
            .shape()
            .get(2..)
            .map_or(0, |d| d.iter().product::<i64>().max(0) as usize);
        if positions.len() != d.len() || per_map == 0 && !d.is_empty() {
            return Err(KernelError::Shape(format!(
                "max_pool2d_with_index_grad: Mask {:?} does not fit Out@GRAD {:?}",
                mt.shape(),
                dt.shape()
            )));
        }
        let mut g = vec![0.0; shape.iter().product::<i64>().max(0) as usize];
        for (k, (&p, &dv)) in positions.iter().zip(d.iter()).enumerate() {
            let p = usize::try_from(p)
                .ok()
                .filter(|&p| p < plane)
                .ok_or_else(|| {
                    KernelError::Invalid(format!(
                        "Mask position {p} is outside its {plane}-value map"
                    ))
                })?;
            g[(k / per_map) * plane + p] += dv;
        }
        drop((positions, d));
        drop((mt, dt));
        s.set_tensor(&dx, float::tensor(dtype, &shape, g)?);
        Ok(())
    })
}

impl PoolAttrs {
    fn load(l: &OpReader) -> Result<PoolAttrs, KernelError> {
        nchw(l, "data_format")?;
        let max = match l.string("pooling_type")?.unwrap_or("") {
            "max" => true,
            "avg" => false,
            other => {
                return Err(KernelError::Attribute(format!(
                    "pooling_type {other:?} must be \"max\" or \"avg\""
                )))
            }
        };
        Ok(PoolAttrs {
            max,
            ksize: l.ints("ksize")?.unwrap_or_default(),
            strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1]),
            pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0]),
            global: l.bool_or("global_pooling", false)?,
            adaptive: l.bool_or("adaptive", false)?,
            ceil: l.bool_or("ceil_mode", false)?,
            exclusive: l.bool_or("exclusive", true)?,
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
