//! pool2d and its gradient: max and average pooling (exclusive or not),
//! global, ceil mode and adaptive, over the window geometry conv2d shares
//! (`super::conv`); `roi_pool` and `roi_align` and their gradients.

use fluidc_transpiler::ops::window_out;

use super::conv::{nchw, paddings, pair};
use super::float::{self, f64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::VarRef;
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("max_pool2d_with_index", max_pool2d_with_index);
    r.add("max_pool2d_with_index_grad", max_pool_with_index_grad);
    r.add("pool2d", pool2d);
    r.add("pool2d_grad", pool2d_grad);
    r.add("maxout", maxout);
    r.add("maxout_grad", maxout_grad);
    r.add("roi_pool", |l| roi_pool(l, false));
    r.add("roi_pool_grad", |l| roi_pool(l, true));
    r.add("roi_align", |l| roi_align(l, false));
    r.add("roi_align_grad", |l| roi_align(l, true));
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
pub(super) fn max_pool_with_index_grad(l: &OpReader) -> Result<Exec, KernelError> {
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
            // A window larger than the input still gives one output when
            // the overhang is under a stride ((1 - 2) / 2 + 1 = 1, the 1x1
            // map a 32x32 image leaves after three conv-pool groups); the
            // window is then cut to the input, as 1.x's kernel cut it.
            let pads = (p[i].0 as i64, p[i].1 as i64);
            let n = window_out(size as i64, k[i] as i64, pads, strides[i] as i64, self.ceil);
            if n <= 0 {
                return Err(KernelError::Shape(format!(
                    "ksize {k:?} is larger than the padded input {x:?}"
                )));
            }
            Ok(n as usize)
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

/// What `roi_pool` and `roi_align` (and their grads) read: `X`, `ROIs`,
/// `RoisNum` and `Out` (or `X@GRAD` and `Out@GRAD`), the pooled size and
/// the scale.
struct Roi {
    x: VarRef,
    rois: VarRef,
    rois_num: Option<VarRef>,
    out: VarRef,
    dout: Option<VarRef>,
    pooled: (usize, usize),
    scale: f64,
}

impl Roi {
    /// `None` for a grad whose `X@GRAD` nobody needs.
    fn read(l: &OpReader, grad: bool) -> Result<Option<Roi>, KernelError> {
        let (out, dout) = if grad {
            match l.opt_output("X@GRAD")? {
                Some(o) => (o, Some(l.input("Out@GRAD")?)),
                None => return Ok(None),
            }
        } else {
            (l.output("Out")?, None)
        };
        let size = |a: &str| {
            let v = l.int(a)?;
            usize::try_from(v).ok().filter(|&v| v > 0).ok_or_else(|| {
                KernelError::Attribute(format!("{a} must be greater than 0, it is {v}"))
            })
        };
        Ok(Some(Roi {
            x: l.input("X")?,
            rois: l.input("ROIs")?,
            rois_num: l.opt_input("RoisNum")?,
            out,
            dout,
            pooled: (size("pooled_height")?, size("pooled_width")?),
            scale: l.float("spatial_scale")?,
        }))
    }
}

/// The image of each region: from `RoisNum` when given (Paddle 3.3.1's
/// input), else from the last level of the `ROIs`' LoD (1.x's), whose
/// sequences must be the batch's images and cover every region.
fn roi_images(
    s: &crate::scope::Vars,
    rois: &crate::tensor::Tensor,
    rois_num: &Option<VarRef>,
    batch: usize,
    op: &str,
) -> Result<Vec<usize>, KernelError> {
    let counts: Vec<usize> = match rois_num {
        Some(r) => {
            let t = s.tensor(r)?;
            let v = float::i64s(&t)?;
            v.iter()
                .map(|&n| usize::try_from(n))
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    KernelError::Shape(format!("{op}: RoisNum {v:?} has a negative count"))
                })?
        }
        None => {
            let Some(level) = rois.lod().last() else {
                return Err(KernelError::Shape(format!(
                    "Input(ROIs) Tensor of {op} does not contain LoD information."
                )));
            };
            level
                .windows(2)
                .map(|w| w[1].saturating_sub(w[0]))
                .collect()
        }
    };
    if counts.len() != batch {
        return Err(KernelError::Shape(format!(
            "{op}: the rois_batch_size ({}) and imgs batch_size ({batch}) must be the same.",
            counts.len()
        )));
    }
    let ids: Vec<usize> = counts
        .iter()
        .enumerate()
        .flat_map(|(i, &n)| std::iter::repeat_n(i, n))
        .collect();
    let rows = rois.shape().first().copied().unwrap_or(0).max(0) as usize;
    if ids.len() != rows || rois.shape() != [rows as i64, 4] {
        return Err(KernelError::Shape(format!(
            "{op}: ROIs {:?} do not hold the {} regions its LoD or RoisNum gives, 4 coordinates each",
            rois.shape(),
            ids.len()
        )));
    }
    Ok(ids)
}

/// The geometry of one `roi_*` call: `X`'s `[N, C, H, W]`, each region's
/// image and coordinates, and a rounding to `X`'s precision (Paddle
/// computes the bins in the data's type; an `f32` operation is the `f64`
/// one rounded to `f32`).
struct RoiInput {
    dims: [usize; 4],
    images: Vec<usize>,
    boxes: Vec<f64>,
    single: bool,
}

impl RoiInput {
    fn read(s: &crate::scope::Vars, k: &Roi, op: &str) -> Result<RoiInput, KernelError> {
        let (xt, rt) = (s.tensor(&k.x)?, s.tensor(&k.rois)?);
        let dims = match *xt.shape() {
            [n, c, h, w] => [n, c, h, w].map(|d| d.max(0) as usize),
            _ => {
                return Err(KernelError::Shape(format!(
                    "{op}: X must be 4-D (NCHW), it is {:?}",
                    xt.shape()
                )))
            }
        };
        let images = roi_images(s, &rt, &k.rois_num, dims[0], op)?;
        Ok(RoiInput {
            dims,
            images,
            boxes: f64s(&rt, op)?.into_owned(),
            single: xt.dtype() == fluidc_transpiler::VarKind::Fp32,
        })
    }

    fn r(&self, v: f64) -> f64 {
        if self.single {
            f64::from(v as f32)
        } else {
            v
        }
    }
}

/// `roi_pool` (1.x's kernel, which 3.3.1 keeps): each region, its corners
/// scaled and rounded, at least 1x1, cut into `pooled_height` x
/// `pooled_width` bins (`floor(i * size / pooled)` to `ceil((i + 1) * size
/// / pooled)`, clipped to the map); each bin's max, 0 for an empty bin, and
/// in `Argmax` the max's place in its `H * W` map (-1 for none). The grad
/// adds each `Out@GRAD` to `X@GRAD` at its `Argmax`.
fn roi_pool(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let Some(k) = Roi::read(l, grad)? else {
        return compute(|_| Ok(()));
    };
    let argmax = if grad {
        l.input("Argmax")?
    } else {
        l.output("Argmax")?
    };
    let op = if grad { "roi_pool_grad" } else { "roi_pool" };
    let scale = k.scale;
    compute(move |s| {
        let g = RoiInput::read(s, &k, op)?;
        let [n, c, h, w] = g.dims;
        let (ph, pw) = k.pooled;
        let rois = g.images.len();
        let plane = ph * pw;
        let xt = s.tensor(&k.x)?;
        let (dtype, xshape) = (xt.dtype(), xt.shape().to_vec());
        if let Some(dout) = &k.dout {
            let (dt, at) = (s.tensor(dout)?, s.tensor(&argmax)?);
            let (dv, av) = (f64s(&dt, op)?, float::i64s(&at)?);
            if dv.len() != rois * c * plane || av.len() != dv.len() {
                return Err(KernelError::Shape(format!(
                    "{op}: Out@GRAD {:?} and Argmax {:?} do not fit {rois} regions of {c} channels pooled to {ph}x{pw}",
                    dt.shape(),
                    at.shape()
                )));
            }
            let mut gx = vec![0.0; n * c * h * w];
            for (i, &img) in g.images.iter().enumerate() {
                for ch in 0..c {
                    let base = (img * c + ch) * h * w;
                    for p in 0..plane {
                        let at = (i * c + ch) * plane + p;
                        if let Ok(a) = usize::try_from(av[at]) {
                            if a < h * w {
                                gx[base + a] += dv[at];
                            }
                        }
                    }
                }
            }
            let t = float::tensor(dtype, &xshape, gx)?;
            drop((xt, dt, at));
            s.set_tensor(&k.out, t);
            return Ok(());
        }
        let xv = f64s(&xt, op)?;
        let lowest = if g.single {
            -f64::from(f32::MAX)
        } else {
            -f64::MAX
        };
        let mut out = vec![0.0; rois * c * plane];
        let mut arg = vec![-1i64; rois * c * plane];
        for (i, &img) in g.images.iter().enumerate() {
            let b = &g.boxes[i * 4..i * 4 + 4];
            let corner = |v: f64| g.r(v * g.r(scale)).round() as i64;
            let (x0, y0, x1, y1) = (corner(b[0]), corner(b[1]), corner(b[2]), corner(b[3]));
            let rh = (y1 - y0 + 1).max(1) as f64;
            let rw = (x1 - x0 + 1).max(1) as f64;
            // 1.x: the bin sizes are floats whatever the data's type.
            let f = |v: f64| f64::from(v as f32);
            let (bh, bw) = (f(rh / ph as f64), f(rw / pw as f64));
            let clip = |v: i64, start: i64, hi: usize| (v + start).clamp(0, hi as i64) as usize;
            for ch in 0..c {
                let map = &xv[(img * c + ch) * h * w..(img * c + ch + 1) * h * w];
                for py in 0..ph {
                    let hs = clip(f(py as f64 * bh).floor() as i64, y0, h);
                    let he = clip(f((py + 1) as f64 * bh).ceil() as i64, y0, h);
                    for px in 0..pw {
                        let ws = clip(f(px as f64 * bw).floor() as i64, x0, w);
                        let we = clip(f((px + 1) as f64 * bw).ceil() as i64, x0, w);
                        let at = (i * c + ch) * plane + py * pw + px;
                        if he <= hs || we <= ws {
                            continue;
                        }
                        let mut best = lowest;
                        for yy in hs..he {
                            for xx in ws..we {
                                if map[yy * w + xx] > best {
                                    best = map[yy * w + xx];
                                    arg[at] = (yy * w + xx) as i64;
                                }
                            }
                        }
                        out[at] = best;
                    }
                }
            }
        }
        let dims = [rois as i64, c as i64, ph as i64, pw as i64];
        let t = float::tensor(dtype, &dims, out)?;
        drop(xv);
        drop(xt);
        s.set_tensor(&k.out, t);
        s.set_tensor(&argmax, Tensor::from_vec(&dims, arg)?);
        Ok(())
    })
}

/// The bilinear sample points of one `roi_align` bin: each point's four
/// neighbours in its `H * W` map and their weights (none for a point off
/// the map), and the number of points the bin averages over.
fn roi_align_bins(
    g: &RoiInput,
    i: usize,
    (ph, pw): (usize, usize),
    scale: f64,
    ratio: i64,
    aligned: bool,
) -> (Vec<Vec<(usize, f64)>>, f64) {
    let [_, _, h, w] = g.dims;
    let r = |v: f64| g.r(v);
    let b = &g.boxes[i * 4..i * 4 + 4];
    let offset = if aligned { 0.5 } else { 0.0 };
    let scale = r(scale);
    let (x0, y0) = (r(r(b[0] * scale) - offset), r(r(b[1] * scale) - offset));
    let (x1, y1) = (r(r(b[2] * scale) - offset), r(r(b[3] * scale) - offset));
    let (mut rw, mut rh) = (r(x1 - x0), r(y1 - y0));
    if !aligned {
        rw = rw.max(1.0);
        rh = rh.max(1.0);
    }
    let (bh, bw) = (r(rh / ph as f64), r(rw / pw as f64));
    let grid = |size: f64, pooled: usize| {
        if ratio > 0 {
            ratio as usize
        } else {
            r(size / pooled as f64).ceil().max(0.0) as usize
        }
    };
    let (gh, gw) = (grid(rh, ph), grid(rw, pw));
    let count = (gh * gw).max(1) as f64;
    let mut bins = Vec::with_capacity(ph * pw);
    for py in 0..ph {
        for px in 0..pw {
            let mut points = Vec::new();
            for iy in 0..gh {
                let y = r(r(y0 + r(py as f64 * bh)) + r(r((iy as f64 + 0.5) * bh) / gh as f64));
                for ix in 0..gw {
                    let x = r(r(x0 + r(px as f64 * bw)) + r(r((ix as f64 + 0.5) * bw) / gw as f64));
                    if y < -1.0 || y > h as f64 || x < -1.0 || x > w as f64 {
                        continue;
                    }
                    let (mut y, mut x) = (y.max(0.0), x.max(0.0));
                    let (mut yl, mut xl) = (y as usize, x as usize);
                    let (yh, xh);
                    if yl + 1 >= h {
                        yl = h.saturating_sub(1);
                        yh = yl;
                        y = yl as f64;
                    } else {
                        yh = yl + 1;
                    }
                    if xl + 1 >= w {
                        xl = w.saturating_sub(1);
                        xh = xl;
                        x = xl as f64;
                    } else {
                        xh = xl + 1;
                    }
                    let (ly, lx) = (r(y - yl as f64), r(x - xl as f64));
                    let (hy, hx) = (r(1.0 - ly), r(1.0 - lx));
                    points.extend([
                        (yl * w + xl, r(hy * hx)),
                        (yl * w + xh, r(hy * lx)),
                        (yh * w + xl, r(ly * hx)),
                        (yh * w + xh, r(ly * lx)),
                    ]);
                }
            }
            bins.push(points);
        }
    }
    (bins, count)
}

/// `roi_align` (1.x's kernel; `aligned`, 3.3.1's, shifts the corners by
/// half a pixel and keeps regions under 1x1): each bin the mean of
/// `sampling_ratio` x `sampling_ratio` bilinear samples (`ceil(size /
/// pooled)` a side when not positive), a sample off the map counting 0.
/// The grad spreads each `Out@GRAD` back over the samples' neighbours.
fn roi_align(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let Some(k) = Roi::read(l, grad)? else {
        return compute(|_| Ok(()));
    };
    let op = if grad { "roi_align_grad" } else { "roi_align" };
    let (ratio, aligned) = (l.int("sampling_ratio")?, l.bool_or("aligned", false)?);
    compute(move |s| {
        let g = RoiInput::read(s, &k, op)?;
        let [n, c, h, w] = g.dims;
        let (ph, pw) = k.pooled;
        let rois = g.images.len();
        let plane = ph * pw;
        let xt = s.tensor(&k.x)?;
        let (dtype, xshape) = (xt.dtype(), xt.shape().to_vec());
        let dv = match &k.dout {
            Some(d) => {
                let dt = s.tensor(d)?;
                if dt.shape().iter().product::<i64>() != (rois * c * plane) as i64 {
                    return Err(KernelError::Shape(format!(
                        "{op}: Out@GRAD {:?} does not fit {rois} regions of {c} channels pooled to {ph}x{pw}",
                        dt.shape()
                    )));
                }
                Some(f64s(&dt, op)?.into_owned())
            }
            None => None,
        };
        let xv = f64s(&xt, op)?;
        let mut result = vec![
            0.0;
            if dv.is_some() {
                n * c * h * w
            } else {
                rois * c * plane
            }
        ];
        for (i, &img) in g.images.iter().enumerate() {
            let (bins, count) = roi_align_bins(&g, i, k.pooled, k.scale, ratio, aligned);
            for ch in 0..c {
                let base = (img * c + ch) * h * w;
                for (p, points) in bins.iter().enumerate() {
                    let at = (i * c + ch) * plane + p;
                    match &dv {
                        Some(d) => {
                            for &(pos, wt) in points {
                                result[base + pos] += d[at] * wt / count;
                            }
                        }
                        None => {
                            // From +0 as Paddle's sum (f64's `sum` starts at -0).
                            let sum = points
                                .iter()
                                .fold(0.0, |a, &(pos, wt)| a + wt * xv[base + pos]);
                            result[at] = sum / count;
                        }
                    }
                }
            }
        }
        let dims = if dv.is_some() {
            xshape
        } else {
            vec![rois as i64, c as i64, ph as i64, pw as i64]
        };
        let t = float::tensor(dtype, &dims, result)?;
        drop(xv);
        drop(xt);
        s.set_tensor(&k.out, t);
        Ok(())
    })
}
