//! 3-D (NCDHW) convolution and pooling, as Paddle's CPU kernels compute
//! them: `conv3d` and `conv3d_transpose` (each image's windows unrolled
//! into a matrix, vol2col, multiplied by the filter with GEMM in the
//! tensor's dtype; the transpose the same products the other way round,
//! col2vol adding into the output), `pool3d` (max and average,
//! exclusive or not, global, ceil mode, adaptive) and
//! `max_pool3d_with_index` (1.6's `adaptive_pool3d` of max), with their
//! grads.
use crate::tensor::gemm::{product, Gemm};
use fluidc_transpiler::ops::window_out;
use fluidc_transpiler::VarKind;
use ndarray::{ArrayView2, ArrayViewMut2};

use super::float::{self, f64s};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{dtype_name, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("conv3d", |l| conv_op(l, Kind::Conv));
    r.add("conv3d_grad", |l| conv_grad_op(l, Kind::Conv));
    r.add("conv3d_transpose", |l| conv_op(l, Kind::Transpose));
    r.add("conv3d_transpose_grad", |l| {
        conv_grad_op(l, Kind::Transpose)
    });
    r.add("pool3d", pool3d);
    r.add("pool3d_grad", pool3d_grad);
    r.add("max_pool3d_with_index", max_pool3d_with_index);
    // The 2-D grad's: each output's gradient to the position Mask names in
    // its input map, whatever the map's dims.
    r.add(
        "max_pool3d_with_index_grad",
        super::pool::max_pool_with_index_grad,
    );
}

/// The float types convolutions run in.
trait Elem: Element + Gemm {}
impl Elem for f32 {}
impl Elem for f64 {}

/// A 3-D window op's geometry: `n` images of `c` channels of size `i`
/// (d, h, w), `o` output positions, window `k`, strides `s`, leading
/// paddings `p` and dilations `d`.
#[derive(Debug, Clone, Copy)]
struct Window {
    n: usize,
    c: usize,
    i: [usize; 3],
    o: [usize; 3],
    k: [usize; 3],
    s: [usize; 3],
    p: [usize; 3],
    d: [usize; 3],
}

impl Window {
    fn volume(&self) -> usize {
        self.i.iter().product()
    }

    fn positions(&self) -> usize {
        self.o.iter().product()
    }

    fn taps(&self) -> usize {
        self.k.iter().product()
    }

    /// Each (tap, output position) pair's input offset in its channel's
    /// volume, or `None` where the window reads padding; tap-major.
    fn offsets(&self) -> Vec<Option<usize>> {
        let [ih, iw] = [self.i[1], self.i[2]];
        let mut v = Vec::with_capacity(self.taps() * self.positions());
        let at = |dim: usize, o: usize, k: usize| {
            let x = (o * self.s[dim] + k * self.d[dim]) as isize - self.p[dim] as isize;
            usize::try_from(x).ok().filter(|&x| x < self.i[dim])
        };
        for kd in 0..self.k[0] {
            for kh in 0..self.k[1] {
                for kw in 0..self.k[2] {
                    for od in 0..self.o[0] {
                        let z = at(0, od, kd);
                        for oh in 0..self.o[1] {
                            let y = at(1, oh, kh);
                            for ow in 0..self.o[2] {
                                let x = at(2, ow, kw);
                                v.push(match (z, y, x) {
                                    (Some(z), Some(y), Some(x)) => Some((z * ih + y) * iw + x),
                                    _ => None,
                                });
                            }
                        }
                    }
                }
            }
        }
        v
    }
}

/// One image's windows for channels `c0..c0 + cg` as a `[cg * taps,
/// positions]` matrix (zeros where a window reads padding).
fn vol2col<T: Elem>(
    x: &[T],
    g: &Window,
    offs: &[Option<usize>],
    c0: usize,
    cg: usize,
    col: &mut [T],
) {
    let (vol, per) = (g.volume(), offs.len());
    for ci in 0..cg {
        let v = &x[(c0 + ci) * vol..(c0 + ci + 1) * vol];
        for (d, o) in col[ci * per..(ci + 1) * per].iter_mut().zip(offs) {
            *d = o.map_or(T::ZERO, |o| v[o]);
        }
    }
}

/// The reverse of [`vol2col`]: adds each entry to the element it was read from.
fn col2vol_add<T: Elem>(
    col: &[T],
    g: &Window,
    offs: &[Option<usize>],
    c0: usize,
    cg: usize,
    dx: &mut [T],
) {
    let (vol, per) = (g.volume(), offs.len());
    for ci in 0..cg {
        let v = &mut dx[(c0 + ci) * vol..(c0 + ci + 1) * vol];
        for (&s, o) in col[ci * per..(ci + 1) * per].iter().zip(offs) {
            if let Some(o) = *o {
                v[o] = v[o] + s;
            }
        }
    }
}

fn shape_error(e: ndarray::ShapeError) -> KernelError {
    KernelError::Shape(format!("conv3d: {e}"))
}

fn view<T>(v: &[T], r: usize, c: usize) -> Result<ArrayView2<'_, T>, KernelError> {
    ArrayView2::from_shape((r, c), v).map_err(shape_error)
}

fn view_mut<T>(v: &mut [T], r: usize, c: usize) -> Result<ArrayViewMut2<'_, T>, KernelError> {
    ArrayViewMut2::from_shape((r, c), v).map_err(shape_error)
}

/// A convolution or its transpose.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Conv,
    Transpose,
}

/// The products of one conv: the window over the conv's input (a
/// transpose's output), the other side's channels (a conv's output
/// channels, a transpose's input channels) and `groups`.
struct Products<'a> {
    g: &'a Window,
    offs: Vec<Option<usize>>,
    other: usize,
    groups: usize,
}

impl Products<'_> {
    /// (window-side channels, other-side channels, rows of the unrolled
    /// matrix, positions) of one group.
    fn sizes(&self) -> (usize, usize, usize, usize) {
        let cg = self.g.c / self.groups;
        (
            cg,
            self.other / self.groups,
            cg * self.g.taps(),
            self.g.positions(),
        )
    }

    /// conv3d: per image and group, `out = W col(x)`.
    fn conv<T: Elem>(&self, x: &[T], f: &[T]) -> Result<Vec<T>, KernelError> {
        let (g, (cg, og, k, pos)) = (self.g, self.sizes());
        let mut out = vec![T::ZERO; g.n * self.other * pos];
        let mut col = vec![T::ZERO; k * pos];
        let img = g.c * g.volume();
        for n in 0..g.n {
            for grp in 0..self.groups {
                vol2col(
                    &x[n * img..(n + 1) * img],
                    g,
                    &self.offs,
                    grp * cg,
                    cg,
                    &mut col,
                );
                let at = (n * self.other + grp * og) * pos;
                let w = view(&f[grp * og * k..(grp + 1) * og * k], og, k)?;
                let mut o = view_mut(&mut out[at..at + og * pos], og, pos)?;
                product(T::one(), &w, &view(&col, k, pos)?, T::ZERO, &mut o);
            }
        }
        Ok(out)
    }

    /// conv3d's (Input@GRAD, Filter@GRAD): `dW += dout col^T`, `dx +=
    /// col2vol(W^T dout)`.
    fn conv_grad<T: Elem>(
        &self,
        x: &[T],
        f: &[T],
        d: &[T],
    ) -> Result<(Vec<T>, Vec<T>), KernelError> {
        let (g, (cg, og, k, pos)) = (self.g, self.sizes());
        let (mut gx, mut gf) = (vec![T::ZERO; x.len()], vec![T::ZERO; f.len()]);
        let (mut col, mut dcol) = (vec![T::ZERO; k * pos], vec![T::ZERO; k * pos]);
        let img = g.c * g.volume();
        for n in 0..g.n {
            for grp in 0..self.groups {
                vol2col(
                    &x[n * img..(n + 1) * img],
                    g,
                    &self.offs,
                    grp * cg,
                    cg,
                    &mut col,
                );
                let at = (n * self.other + grp * og) * pos;
                let dg = view(&d[at..at + og * pos], og, pos)?;
                let fr = grp * og * k..(grp + 1) * og * k;
                let mut gfg = view_mut(&mut gf[fr.clone()], og, k)?;
                product(T::one(), &dg, &view(&col, k, pos)?.t(), T::one(), &mut gfg);
                let w = view(&f[fr], og, k)?;
                let mut dc = view_mut(&mut dcol, k, pos)?;
                product(T::one(), &w.t(), &dg, T::ZERO, &mut dc);
                col2vol_add(
                    &dcol,
                    g,
                    &self.offs,
                    grp * cg,
                    cg,
                    &mut gx[n * img..(n + 1) * img],
                );
            }
        }
        Ok((gx, gf))
    }

    /// conv3d_transpose of `x` (`[n, other, o...]`) by `f` (`[other, c /
    /// groups, k...]`): per image and group, col2vol of `W^T x`.
    fn transpose<T: Elem>(&self, x: &[T], f: &[T]) -> Result<Vec<T>, KernelError> {
        let (g, (cg, og, k, pos)) = (self.g, self.sizes());
        let img = g.c * g.volume();
        let mut out = vec![T::ZERO; g.n * img];
        let mut col = vec![T::ZERO; k * pos];
        for n in 0..g.n {
            for grp in 0..self.groups {
                let at = (n * self.other + grp * og) * pos;
                let w = view(&f[grp * og * k..(grp + 1) * og * k], og, k)?;
                let mut c = view_mut(&mut col, k, pos)?;
                product(
                    T::one(),
                    &w.t(),
                    &view(&x[at..at + og * pos], og, pos)?,
                    T::ZERO,
                    &mut c,
                );
                col2vol_add(
                    &col,
                    g,
                    &self.offs,
                    grp * cg,
                    cg,
                    &mut out[n * img..(n + 1) * img],
                );
            }
        }
        Ok(out)
    }

    /// conv3d_transpose's (Input@GRAD, Filter@GRAD): with `col =
    /// vol2col(dout)`, `dx = W col` and `dW += x col^T`.
    fn transpose_grad<T: Elem>(
        &self,
        x: &[T],
        f: &[T],
        d: &[T],
    ) -> Result<(Vec<T>, Vec<T>), KernelError> {
        let (g, (cg, og, k, pos)) = (self.g, self.sizes());
        let (mut gx, mut gf) = (vec![T::ZERO; x.len()], vec![T::ZERO; f.len()]);
        let mut col = vec![T::ZERO; k * pos];
        let img = g.c * g.volume();
        for n in 0..g.n {
            for grp in 0..self.groups {
                vol2col(
                    &d[n * img..(n + 1) * img],
                    g,
                    &self.offs,
                    grp * cg,
                    cg,
                    &mut col,
                );
                let c = view(&col, k, pos)?;
                let fr = grp * og * k..(grp + 1) * og * k;
                let at = (n * self.other + grp * og) * pos;
                let xg = view(&x[at..at + og * pos], og, pos)?;
                let mut gfg = view_mut(&mut gf[fr.clone()], og, k)?;
                product(T::one(), &xg, &c.t(), T::one(), &mut gfg);
                let mut dxg = view_mut(&mut gx[at..at + og * pos], og, pos)?;
                product(T::one(), &view(&f[fr], og, k)?, &c, T::ZERO, &mut dxg);
            }
        }
        Ok((gx, gf))
    }
}

/// Three positive values (strides, dilations, a window).
fn triple(v: &[i64], what: &str) -> Result<[usize; 3], KernelError> {
    match *v {
        [a, b, c] if a > 0 && b > 0 && c > 0 => Ok([a as usize, b as usize, c as usize]),
        _ => Err(KernelError::Attribute(format!(
            "{what} {v:?} must be three positive values"
        ))),
    }
}

/// The layout attribute: NCDHW only (1.x's `NCHW` for conv3d_transpose).
fn ncdhw(l: &OpReader) -> Result<(), KernelError> {
    match l.string("data_format")?.unwrap_or("NCDHW") {
        "NCDHW" | "NCHW" | "AnyLayout" => Ok(()),
        other => Err(KernelError::Unsupported(format!(
            "{} supports the NCDHW layout only, not {other}",
            l.op.ty
        ))),
    }
}

/// Strides, paddings (3 symmetric or 6 as before/after per dim) and the
/// padding algorithm of a 3-D window op.
#[derive(Debug, Clone)]
struct Geometry {
    strides: Vec<i64>,
    pads: Vec<i64>,
    dilations: Vec<i64>,
    algorithm: String,
}

impl Geometry {
    fn load(l: &OpReader, dilations: bool) -> Result<Geometry, KernelError> {
        ncdhw(l)?;
        Ok(Geometry {
            strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1, 1]),
            pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0, 0]),
            dilations: if dilations {
                l.ints("dilations")?.unwrap_or_else(|| vec![1, 1, 1])
            } else {
                vec![1, 1, 1]
            },
            algorithm: l
                .string("padding_algorithm")?
                .unwrap_or("EXPLICIT")
                .to_string(),
        })
    }

    /// Strides, dilations and (before, after) paddings for a window `k`
    /// over `input`: `SAME` pads to cover the input (dilations become 1),
    /// `VALID` pads nothing.
    fn resolve(&self, input: [usize; 3], k: [usize; 3]) -> Result<Resolved, KernelError> {
        let s = triple(&self.strides, "strides")?;
        let mut d = triple(&self.dilations, "dilations")?;
        let mut p = [(0, 0); 3];
        match self.algorithm.as_str() {
            "VALID" => {}
            "SAME" => {
                for i in 0..3 {
                    let o = input[i].div_ceil(s[i]);
                    let need = ((o.max(1) - 1) * s[i] + k[i]).saturating_sub(input[i]);
                    p[i] = (need / 2, need - need / 2);
                    d[i] = 1;
                }
            }
            _ => {
                let u = |v: i64| {
                    usize::try_from(v)
                        .map_err(|_| KernelError::Attribute(format!("padding {v} is negative")))
                };
                match *self.pads {
                    [a, b, c] => p = [(u(a)?, u(a)?), (u(b)?, u(b)?), (u(c)?, u(c)?)],
                    [a, b, c, e, f, g] => p = [(u(a)?, u(b)?), (u(c)?, u(e)?), (u(f)?, u(g)?)],
                    _ => {
                        return Err(KernelError::Attribute(format!(
                            "paddings {:?} must have 3 or 6 values",
                            self.pads
                        )))
                    }
                }
            }
        }
        Ok((s, d, p))
    }
}

/// Strides, dilations and (before, after) paddings.
type Resolved = ([usize; 3], [usize; 3], [(usize, usize); 3]);

/// A conv3d's attributes.
#[derive(Debug, Clone)]
struct ConvAttrs {
    geo: Geometry,
    groups: usize,
    output_size: Vec<i64>,
    output_padding: Vec<i64>,
}

fn five(v: &[i64], what: &str) -> Result<[usize; 5], KernelError> {
    match *v {
        [a, b, c, d, e] => Ok([a, b, c, d, e].map(|x| x.max(0) as usize)),
        _ => Err(KernelError::Shape(format!(
            "{what} must be 5-D, it is {v:?}"
        ))),
    }
}

impl ConvAttrs {
    fn load(l: &OpReader) -> Result<ConvAttrs, KernelError> {
        Ok(ConvAttrs {
            geo: Geometry::load(l, true)?,
            groups: usize::try_from(l.int_or("groups", 1)?).unwrap_or(1).max(1),
            output_size: l.ints("output_size")?.unwrap_or_default(),
            output_padding: l.ints("output_padding")?.unwrap_or_default(),
        })
    }

    /// The window (over the conv's input, a transpose's output), the
    /// other side's channels and the output's shape.
    fn window(
        &self,
        kind: Kind,
        x: &[i64],
        f: &[i64],
    ) -> Result<(Window, usize, [i64; 5]), KernelError> {
        let [n, c, xd, xh, xw] = five(x, "conv3d's Input")?;
        let [f0, f1, kd, kh, kw] = five(f, "conv3d's Filter")?;
        let k = [kd, kh, kw];
        let g = self.groups;
        match kind {
            Kind::Conv => {
                if f1 * g != c || f0 % g != 0 {
                    return Err(KernelError::Shape(format!(
                        "conv3d: filter {f:?} with {g} groups does not fit input {x:?}"
                    )));
                }
                let input = [xd, xh, xw];
                let (s, d, p) = self.geo.resolve(input, k)?;
                let mut o = [0; 3];
                for i in 0..3 {
                    let ke = d[i] * (k[i].max(1) - 1) + 1;
                    let pads = (p[i].0 as i64, p[i].1 as i64);
                    let n = window_out(input[i] as i64, ke as i64, pads, s[i] as i64, false);
                    o[i] = usize::try_from(n).ok().filter(|&n| n > 0).ok_or_else(|| {
                        KernelError::Shape(format!(
                            "conv3d: the filter {f:?} is larger than the padded input {x:?}"
                        ))
                    })?;
                }
                let w = Window {
                    n,
                    c,
                    i: input,
                    o,
                    k,
                    s,
                    p: p.map(|p| p.0),
                    d,
                };
                let shape = [n, f0, o[0], o[1], o[2]].map(|v| v as i64);
                Ok((w, f0, shape))
            }
            Kind::Transpose => {
                if f0 != c || c % g != 0 {
                    return Err(KernelError::Shape(format!(
                        "conv3d_transpose: filter {f:?} with {g} groups does not fit input {x:?} (its first dim must be the input's channels)"
                    )));
                }
                let positions = [xd, xh, xw];
                let (s, d, p) = self.geo.resolve(positions, k)?;
                if !matches!(self.output_size.len(), 0 | 3)
                    || !matches!(self.output_padding.len(), 0 | 3)
                {
                    return Err(KernelError::Attribute(format!(
                        "output_size {:?} and output_padding {:?} must have 0 or 3 values",
                        self.output_size, self.output_padding
                    )));
                }
                let mut out = [0; 3];
                for i in 0..3 {
                    let inferred =
                        ((positions[i].max(1) - 1) * s[i] + d[i] * (k[i].max(1) - 1) + 1)
                            .checked_sub(p[i].0 + p[i].1)
                            .filter(|&v| v > 0)
                            .ok_or_else(|| {
                                KernelError::Shape(format!(
                                    "conv3d_transpose of {x:?} by {f:?} has no output size"
                                ))
                            })?;
                    out[i] = if let Some(&want) = self.output_size.get(i) {
                        let want = want.max(0) as usize;
                        if want < inferred || want >= inferred + s[i] {
                            return Err(KernelError::Shape(format!(
                                "output_size {:?} does not fit conv3d_transpose of {x:?} by {f:?}: dim {i} must be at least {inferred} and below {}",
                                self.output_size,
                                inferred + s[i]
                            )));
                        }
                        want
                    } else if let Some(&e) = self.output_padding.get(i) {
                        if e < 0 || e as usize >= s[i].max(d[i]) {
                            return Err(KernelError::Attribute(format!(
                                "output_padding {:?} must be below the strides and dilations",
                                self.output_padding
                            )));
                        }
                        inferred + e as usize
                    } else {
                        inferred
                    };
                }
                let oc = f1 * g;
                let w = Window {
                    n,
                    c: oc,
                    i: out,
                    o: positions,
                    k,
                    s,
                    p: p.map(|p| p.0),
                    d,
                };
                let shape = [n, oc, out[0], out[1], out[2]].map(|v| v as i64);
                Ok((w, c, shape))
            }
        }
    }
}

/// The float dtype shared by the conv's tensors.
fn conv_dtype(ts: &[&Tensor]) -> Result<VarKind, KernelError> {
    let d = ts[0].dtype();
    if !matches!(d, VarKind::Fp32 | VarKind::Fp64) || ts.iter().any(|t| t.dtype() != d) {
        let names: Vec<String> = ts.iter().map(|t| dtype_name(t.dtype())).collect();
        return Err(KernelError::Dtype(format!(
            "conv3d needs float32 or float64 tensors of one dtype, got {}",
            names.join(", ")
        )));
    }
    Ok(d)
}

fn values<T: Element>(t: &Tensor) -> Result<&[T], KernelError> {
    t.values::<T>()
        .ok_or_else(|| KernelError::Dtype(format!("conv3d: unexpected {}", dtype_name(t.dtype()))))
}

fn run_forward<T: Elem>(
    kind: Kind,
    p: &Products,
    x: &Tensor,
    f: &Tensor,
) -> Result<Vec<T>, KernelError> {
    let (x, f) = (values(x)?, values(f)?);
    match kind {
        Kind::Conv => p.conv(x, f),
        Kind::Transpose => p.transpose(x, f),
    }
}

fn run_backward<T: Elem>(
    kind: Kind,
    p: &Products,
    x: &Tensor,
    f: &Tensor,
    d: &Tensor,
) -> Result<(Tensor, Tensor), KernelError> {
    let (xs, fs, ds) = (values(x)?, values(f)?, values(d)?);
    let (gx, gf) = match kind {
        Kind::Conv => p.conv_grad::<T>(xs, fs, ds),
        Kind::Transpose => p.transpose_grad::<T>(xs, fs, ds),
    }?;
    Ok((
        Tensor::from_vec(x.shape(), gx)?,
        Tensor::from_vec(f.shape(), gf)?,
    ))
}

fn refuse_bias(l: &OpReader) -> Result<(), KernelError> {
    if l.given(&["Bias"]) {
        return Err(KernelError::Unsupported(format!(
            "{}'s Bias input is not supported (1.x's op had none): add the bias with elementwise_add",
            l.op.ty
        )));
    }
    Ok(())
}

fn conv_op(l: &OpReader, kind: Kind) -> Result<Exec, KernelError> {
    refuse_bias(l)?;
    let (input, filter, out) = (l.input("Input")?, l.input("Filter")?, l.output("Output")?);
    let a = ConvAttrs::load(l)?;
    compute(move |s| {
        let (xt, ft) = (s.tensor(&input)?, s.tensor(&filter)?);
        let (g, other, shape) = a.window(kind, xt.shape(), ft.shape())?;
        crate::tensor::alloc::check(&shape, xt.dtype())?;
        let p = Products {
            g: &g,
            offs: g.offsets(),
            other,
            groups: a.groups,
        };
        let t = match conv_dtype(&[&xt, &ft])? {
            VarKind::Fp64 => Tensor::from_vec(&shape, run_forward::<f64>(kind, &p, &xt, &ft)?),
            _ => Tensor::from_vec(&shape, run_forward::<f32>(kind, &p, &xt, &ft)?),
        }?;
        drop((xt, ft));
        s.set_tensor(&out, t);
        Ok(())
    })
}

fn conv_grad_op(l: &OpReader, kind: Kind) -> Result<Exec, KernelError> {
    let (input, filter, dout) = (
        l.input("Input")?,
        l.input("Filter")?,
        l.input("Output@GRAD")?,
    );
    let (dx, df) = (l.opt_output("Input@GRAD")?, l.opt_output("Filter@GRAD")?);
    let a = ConvAttrs::load(l)?;
    compute(move |s| {
        let (xt, ft, dt) = (s.tensor(&input)?, s.tensor(&filter)?, s.tensor(&dout)?);
        let (g, other, shape) = a.window(kind, xt.shape(), ft.shape())?;
        if dt.shape() != shape {
            return Err(KernelError::Shape(format!(
                "Output@GRAD of shape {:?} does not fit the conv's output {shape:?}",
                dt.shape()
            )));
        }
        let p = Products {
            g: &g,
            offs: g.offsets(),
            other,
            groups: a.groups,
        };
        let (tx, tf) = match conv_dtype(&[&xt, &ft, &dt])? {
            VarKind::Fp64 => run_backward::<f64>(kind, &p, &xt, &ft, &dt)?,
            _ => run_backward::<f32>(kind, &p, &xt, &ft, &dt)?,
        };
        drop((xt, ft, dt));
        float::set_grads(s, vec![(&dx, Some(tx)), (&df, Some(tf))]);
        Ok(())
    })
}

/// pool3d's attributes.
#[derive(Debug, Clone)]
struct PoolAttrs {
    max: bool,
    ksize: Vec<i64>,
    geo: Geometry,
    global: bool,
    ceil: bool,
    exclusive: bool,
    adaptive: bool,
}

/// (n * c planes, input volume, output dims, each output's window).
type Pooling = (usize, [usize; 3], [usize; 3], Vec<Cell>);

/// One output position's window (`start..end` per dim) and the divisor
/// of an average.
#[derive(Debug, Clone, Copy)]
struct Cell {
    r: [(usize, usize); 3],
    size: f64,
}

impl PoolAttrs {
    /// pool3d's: max or average (`pooling_type`) over its windows.
    fn load(l: &OpReader) -> Result<PoolAttrs, KernelError> {
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
            ..PoolAttrs::load_windows(l)?
        })
    }

    /// The windows' attributes, which `max_pool3d_with_index` shares
    /// (`max` false: the windows as average pooling's).
    fn load_windows(l: &OpReader) -> Result<PoolAttrs, KernelError> {
        Ok(PoolAttrs {
            max: false,
            ksize: l.ints("ksize")?.unwrap_or_default(),
            geo: Geometry::load(l, false)?,
            global: l.bool_or("global_pooling", false)?,
            ceil: l.bool_or("ceil_mode", false)?,
            exclusive: l.bool_or("exclusive", true)?,
            adaptive: l.bool_or("adaptive", false)?,
        })
    }

    /// (n * c planes, input volume, output dims) and each output's window.
    fn cells(&self, x: &[i64]) -> Result<Pooling, KernelError> {
        let [n, c, d, h, w] = five(x, "pool3d's X")?;
        let input = [d, h, w];
        let (k, s, p) = if self.global {
            (input, [1, 1, 1], [(0, 0); 3])
        } else {
            let k = triple(&self.ksize, "ksize")?;
            let (s, _, p) = self.geo.resolve(input, k)?;
            (k, s, p)
        };
        let mut o = [0; 3];
        for i in 0..3 {
            if self.adaptive && !self.global {
                o[i] = k[i];
                continue;
            }
            let pads = (p[i].0 as i64, p[i].1 as i64);
            let n = window_out(input[i] as i64, k[i] as i64, pads, s[i] as i64, self.ceil);
            if n <= 0 {
                return Err(KernelError::Shape(format!(
                    "pool3d: ksize {k:?} is larger than the padded input {x:?}"
                )));
            }
            o[i] = n as usize;
        }
        // Adaptive windows: output cell `a` of `o` over `floor(a D / o)` to
        // `ceil((a + 1) D / o)`. Paddle 3.3.1's CPU max pooling keeps
        // plain `ksize` windows at `strides` (as its 2-D one, measured),
        // with `ksize` output dims; average pooling and
        // `max_pool3d_with_index` adapt.
        let adaptive_windows = self.adaptive && !self.global && !self.max;
        let range = |i: usize, at: usize| {
            if adaptive_windows {
                return (at * input[i] / o[i], ((at + 1) * input[i]).div_ceil(o[i]));
            }
            let start = (at * s[i]) as isize - p[i].0 as isize;
            let end = (start + k[i] as isize).min(input[i] as isize);
            (start.max(0) as usize, end.max(0) as usize)
        };
        let mut cells = Vec::with_capacity(o.iter().product());
        for a in 0..o[0] {
            for b in 0..o[1] {
                for e in 0..o[2] {
                    let r = [range(0, a), range(1, b), range(2, e)];
                    let area: usize = r.iter().map(|(s, e)| e.saturating_sub(*s)).product();
                    // 1.x's divisor without `exclusive`: the whole window.
                    let size = if self.exclusive {
                        area
                    } else {
                        k.iter().product()
                    } as f64;
                    cells.push(Cell { r, size });
                }
            }
        }
        Ok((n * c, input, o, cells))
    }
}

/// The input offsets of a cell's window, in (d, h, w) order.
fn cell_offsets(cell: &Cell, input: [usize; 3]) -> impl Iterator<Item = usize> + '_ {
    let [(ds, de), (hs, he), (ws, we)] = cell.r;
    (ds..de).flat_map(move |z| {
        (hs..he).flat_map(move |y| (ws..we).map(move |x| (z * input[1] + y) * input[2] + x))
    })
}

fn pool3d(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let a = PoolAttrs::load(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (shape, values, _) = pooled(&a, a.max, &xt, "pool3d")?;
        let t = float::tensor(xt.dtype(), &shape, values)?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `max_pool3d_with_index`: each window's max (the first of equal ones,
/// in d, h, w order) and its position `(z H + y) W + x` in its input map,
/// int32; the windows are average pooling's (they adapt with `adaptive`),
/// as Paddle's kernel for this op computes them.
fn max_pool3d_with_index(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, mask) = (l.input("X")?, l.output("Out")?, l.opt_output("Mask")?);
    let a = PoolAttrs::load_windows(l)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (shape, values, at) = pooled(&a, true, &xt, "max_pool3d_with_index")?;
        let t = float::tensor(xt.dtype(), &shape, values)?;
        drop(xt);
        s.set_tensor(&out, t);
        if let Some(mask) = &mask {
            s.set_tensor(mask, Tensor::from_vec(&shape, at)?);
        }
        Ok(())
    })
}

/// A pooling's output shape, values and positions of its maxima.
type Pooled = (Vec<i64>, Vec<f64>, Vec<i32>);

/// `x` pooled over `a`'s windows: the output's shape, its values (the max
/// of each window, or the mean), and with `max` the position of each max
/// (the first of equal ones) in its input map.
fn pooled(a: &PoolAttrs, max: bool, xt: &Tensor, op: &str) -> Result<Pooled, KernelError> {
    let (planes, input, o, cells) = a.cells(xt.shape())?;
    let v = f64s(xt, op)?;
    let vol: usize = input.iter().product();
    let mut values = Vec::with_capacity(planes * cells.len());
    let mut positions = Vec::with_capacity(if max { values.capacity() } else { 0 });
    for plane in 0..planes {
        let pv = &v[plane * vol..(plane + 1) * vol];
        for cell in &cells {
            if max {
                let (mut best, mut at) = (f64::from(-f32::MAX), 0usize);
                for i in cell_offsets(cell, input) {
                    if pv[i] > best {
                        (best, at) = (pv[i], i);
                    }
                }
                values.push(best);
                positions.push(at as i32);
            } else {
                values.push(cell_offsets(cell, input).map(|i| pv[i]).sum::<f64>() / cell.size);
            }
        }
    }
    let shape = [xt.shape()[0], xt.shape()[1]]
        .into_iter()
        .chain(o.iter().map(|&d| d as i64))
        .collect();
    Ok((shape, values, positions))
}

/// `pool3d_grad`: max routes each output's gradient to the first input
/// equal to it in its window (d, h, w order); avg spreads it evenly.
fn pool3d_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, dout) = (l.input("X")?, l.input("Out")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let a = PoolAttrs::load(l)?;
    compute(move |s| {
        let (xt, ot, dt) = (s.tensor(&x)?, s.tensor(&out)?, s.tensor(&dout)?);
        let (planes, input, _, cells) = a.cells(xt.shape())?;
        let (v, o, d) = (
            f64s(&xt, "pool3d_grad")?,
            f64s(&ot, "pool3d_grad")?,
            f64s(&dt, "pool3d_grad")?,
        );
        if d.len() != planes * cells.len() || o.len() != d.len() {
            return Err(KernelError::Shape(
                "pool3d_grad: Out@GRAD does not fit the pooling".into(),
            ));
        }
        let vol: usize = input.iter().product();
        let mut g = vec![0.0; v.len()];
        for plane in 0..planes {
            let base = plane * vol;
            for (k, cell) in cells.iter().enumerate() {
                let at = plane * cells.len() + k;
                if a.max {
                    if let Some(i) = cell_offsets(cell, input).find(|&i| v[base + i] == o[at]) {
                        g[base + i] += d[at];
                    }
                } else {
                    for i in cell_offsets(cell, input) {
                        g[base + i] += d[at] / cell.size;
                    }
                }
            }
        }
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        drop((v, o, d));
        drop((xt, ot, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}
