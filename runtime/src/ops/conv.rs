//! `conv2d` and `conv2d_grad` (NCHW, groups, strides, paddings,
//! dilations) as Paddle's CPU kernels compute them: each image's windows
//! unrolled into a matrix (im2col) and multiplied by the filter with GEMM,
//! in the tensor's dtype. `conv2d_transpose` and its grad are the same
//! products the other way round: the filter's transpose times the input
//! gives the columns, which col2im adds into the output image. The window
//! geometry (`ConvAttrs`, `Window`, `Spatial`) is shared with `super::pool`.
use crate::tensor::gemm::{product, Gemm};
use fluidc_transpiler::ops::window_out;
use fluidc_transpiler::VarKind;
use ndarray::{ArrayView2, ArrayViewMut2};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{dtype_name, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("conv2d", conv2d);
    r.add("conv2d_grad", conv2d_grad);
    // `depthwise_conv2d` is conv2d with groups == channels (its own op in
    // Paddle for its CUDA kernel); the same computation here.
    r.add("depthwise_conv2d", conv2d);
    r.add("depthwise_conv2d_grad", conv2d_grad);
    r.add("conv2d_transpose", conv2d_transpose);
    r.add("conv2d_transpose_grad", conv2d_transpose_grad);
    r.add("depthwise_conv2d_transpose", conv2d_transpose);
    r.add("depthwise_conv2d_transpose_grad", conv2d_transpose_grad);
}

/// The float types convolutions run in.
trait ConvElem: Element + Gemm {}
impl ConvElem for f32 {}
impl ConvElem for f64 {}

/// One image's windows for the channels `c0..c0 + icg` as a `[icg * kh *
/// kw, oh * ow]` matrix (zeros where a window reads padding).
fn im2col<T: ConvElem>(x: &[T], g: &Window, c0: usize, icg: usize, col: &mut [T]) {
    let ohw = g.oh * g.ow;
    for ci in 0..icg {
        let plane = &x[(c0 + ci) * g.h * g.w..(c0 + ci + 1) * g.h * g.w];
        for ky in 0..g.kh {
            for kx in 0..g.kw {
                let row = ((ci * g.kh + ky) * g.kw + kx) * ohw;
                for y in 0..g.oh {
                    let iy = (y * g.sh + ky * g.dh) as isize - g.ph as isize;
                    let dst = &mut col[row + y * g.ow..row + (y + 1) * g.ow];
                    if iy < 0 || iy >= g.h as isize {
                        dst.iter_mut().for_each(|v| *v = T::ZERO);
                        continue;
                    }
                    let src = &plane[iy as usize * g.w..(iy as usize + 1) * g.w];
                    for (x, d) in dst.iter_mut().enumerate() {
                        let ix = (x * g.sw + kx * g.dw) as isize - g.pw as isize;
                        *d = if ix < 0 || ix >= g.w as isize {
                            T::ZERO
                        } else {
                            src[ix as usize]
                        };
                    }
                }
            }
        }
    }
}

/// The reverse of [`im2col`]: adds each column entry to the input element
/// it was read from.
fn col2im_add<T: ConvElem>(col: &[T], g: &Window, c0: usize, icg: usize, dx: &mut [T]) {
    let ohw = g.oh * g.ow;
    for ci in 0..icg {
        let plane = &mut dx[(c0 + ci) * g.h * g.w..(c0 + ci + 1) * g.h * g.w];
        for ky in 0..g.kh {
            for kx in 0..g.kw {
                let row = ((ci * g.kh + ky) * g.kw + kx) * ohw;
                for y in 0..g.oh {
                    let iy = (y * g.sh + ky * g.dh) as isize - g.ph as isize;
                    if iy < 0 || iy >= g.h as isize {
                        continue;
                    }
                    let src = &col[row + y * g.ow..row + (y + 1) * g.ow];
                    let dst = &mut plane[iy as usize * g.w..(iy as usize + 1) * g.w];
                    for (x, &v) in src.iter().enumerate() {
                        let ix = (x * g.sw + kx * g.dw) as isize - g.pw as isize;
                        if ix >= 0 && ix < g.w as isize {
                            dst[ix as usize] = dst[ix as usize] + v;
                        }
                    }
                }
            }
        }
    }
}

fn shape_error(e: ndarray::ShapeError) -> KernelError {
    KernelError::Shape(format!("conv2d: {e}"))
}

/// The sizes of one group's product: (input channels, output channels,
/// rows of the unrolled matrix, output positions).
fn sizes(g: &Window, oc: usize, groups: usize) -> (usize, usize, usize, usize) {
    let icg = g.c / groups;
    (icg, oc / groups, icg * g.kh * g.kw, g.oh * g.ow)
}

fn forward<T: ConvElem>(
    x: &[T],
    f: &[T],
    g: &Window,
    oc: usize,
    groups: usize,
) -> Result<Vec<T>, KernelError> {
    let (icg, ocg, k, ohw) = sizes(g, oc, groups);
    let mut out = vec![T::ZERO; g.n * oc * ohw];
    let mut col = vec![T::ZERO; k * ohw];
    for n in 0..g.n {
        let image = &x[n * g.c * g.h * g.w..(n + 1) * g.c * g.h * g.w];
        for grp in 0..groups {
            im2col(image, g, grp * icg, icg, &mut col);
            let w = ArrayView2::from_shape((ocg, k), &f[grp * ocg * k..(grp + 1) * ocg * k])
                .map_err(shape_error)?;
            let c = ArrayView2::from_shape((k, ohw), &col[..]).map_err(shape_error)?;
            let at = (n * oc + grp * ocg) * ohw;
            let mut o = ArrayViewMut2::from_shape((ocg, ohw), &mut out[at..at + ocg * ohw])
                .map_err(shape_error)?;
            product(T::one(), &w, &c, T::ZERO, &mut o);
        }
    }
    Ok(out)
}

/// (Input@GRAD, Filter@GRAD) of one conv.
fn backward<T: ConvElem>(
    x: &[T],
    f: &[T],
    d: &[T],
    g: &Window,
    oc: usize,
    groups: usize,
) -> Result<(Vec<T>, Vec<T>), KernelError> {
    let (icg, ocg, k, ohw) = sizes(g, oc, groups);
    let mut gx = vec![T::ZERO; x.len()];
    let mut gf = vec![T::ZERO; f.len()];
    let mut col = vec![T::ZERO; k * ohw];
    let mut dcol = vec![T::ZERO; k * ohw];
    let image_len = g.c * g.h * g.w;
    for n in 0..g.n {
        let image = &x[n * image_len..(n + 1) * image_len];
        for grp in 0..groups {
            im2col(image, g, grp * icg, icg, &mut col);
            let at = (n * oc + grp * ocg) * ohw;
            let dg =
                ArrayView2::from_shape((ocg, ohw), &d[at..at + ocg * ohw]).map_err(shape_error)?;
            let c = ArrayView2::from_shape((k, ohw), &col[..]).map_err(shape_error)?;
            let fr = grp * ocg * k..(grp + 1) * ocg * k;
            let mut gfg =
                ArrayViewMut2::from_shape((ocg, k), &mut gf[fr.clone()]).map_err(shape_error)?;
            product(T::one(), &dg, &c.t(), T::one(), &mut gfg);
            let w = ArrayView2::from_shape((ocg, k), &f[fr]).map_err(shape_error)?;
            let mut dc = ArrayViewMut2::from_shape((k, ohw), &mut dcol[..]).map_err(shape_error)?;
            product(T::one(), &w.t(), &dg, T::ZERO, &mut dc);
            col2im_add(
                &dcol,
                g,
                grp * icg,
                icg,
                &mut gx[n * image_len..(n + 1) * image_len],
            );
        }
    }
    Ok((gx, gf))
}

/// The float dtype shared by the conv's tensors.
fn dtype(ts: &[&Tensor]) -> Result<VarKind, KernelError> {
    let d = ts[0].dtype();
    if !matches!(d, VarKind::Fp32 | VarKind::Fp64) || ts.iter().any(|t| t.dtype() != d) {
        let names: Vec<String> = ts.iter().map(|t| dtype_name(t.dtype())).collect();
        return Err(KernelError::Dtype(format!(
            "conv2d needs float32 or float64 tensors of one dtype, got {}",
            names.join(", ")
        )));
    }
    Ok(d)
}

fn values<T: Element>(t: &Tensor) -> Result<&[T], KernelError> {
    t.values::<T>()
        .ok_or_else(|| KernelError::Dtype(format!("conv2d: unexpected {}", dtype_name(t.dtype()))))
}

/// The sizes of one group of a transpose with `ic` input channels over the
/// window `g` (whose `c` is the output's channels): (input channels,
/// output channels, rows of the unrolled matrix, input positions).
fn transpose_sizes(g: &Window, ic: usize, groups: usize) -> (usize, usize, usize, usize) {
    let ocg = g.c / groups;
    (ic / groups, ocg, ocg * g.kh * g.kw, g.oh * g.ow)
}

/// conv2d_transpose of `x` (`[n, ic, oh, ow]` in the window's terms) by
/// `f` (`[ic, oc / groups, kh, kw]`): per image and group, `col = W^T x`,
/// then col2im into the `[oc, h, w]` output.
fn transpose_forward<T: ConvElem>(
    x: &[T],
    f: &[T],
    g: &Window,
    ic: usize,
    groups: usize,
) -> Result<Vec<T>, KernelError> {
    let (icg, ocg, k, ohw) = transpose_sizes(g, ic, groups);
    let image_len = g.c * g.h * g.w;
    let mut out = vec![T::ZERO; g.n * image_len];
    let mut col = vec![T::ZERO; k * ohw];
    for n in 0..g.n {
        for grp in 0..groups {
            let at = (n * ic + grp * icg) * ohw;
            let xg =
                ArrayView2::from_shape((icg, ohw), &x[at..at + icg * ohw]).map_err(shape_error)?;
            let w = ArrayView2::from_shape((icg, k), &f[grp * icg * k..(grp + 1) * icg * k])
                .map_err(shape_error)?;
            let mut c = ArrayViewMut2::from_shape((k, ohw), &mut col[..]).map_err(shape_error)?;
            product(T::one(), &w.t(), &xg, T::ZERO, &mut c);
            col2im_add(
                &col,
                g,
                grp * ocg,
                ocg,
                &mut out[n * image_len..(n + 1) * image_len],
            );
        }
    }
    Ok(out)
}

/// (Input@GRAD, Filter@GRAD) of one conv2d_transpose: the output's
/// gradient unrolled by im2col gives `dx = W col` and `dW += x col^T`.
fn transpose_backward<T: ConvElem>(
    x: &[T],
    f: &[T],
    d: &[T],
    g: &Window,
    ic: usize,
    groups: usize,
) -> Result<(Vec<T>, Vec<T>), KernelError> {
    let (icg, ocg, k, ohw) = transpose_sizes(g, ic, groups);
    let image_len = g.c * g.h * g.w;
    let mut gx = vec![T::ZERO; x.len()];
    let mut gf = vec![T::ZERO; f.len()];
    let mut col = vec![T::ZERO; k * ohw];
    for n in 0..g.n {
        let image = &d[n * image_len..(n + 1) * image_len];
        for grp in 0..groups {
            im2col(image, g, grp * ocg, ocg, &mut col);
            let c = ArrayView2::from_shape((k, ohw), &col[..]).map_err(shape_error)?;
            let fr = grp * icg * k..(grp + 1) * icg * k;
            let w = ArrayView2::from_shape((icg, k), &f[fr.clone()]).map_err(shape_error)?;
            let at = (n * ic + grp * icg) * ohw;
            let xg =
                ArrayView2::from_shape((icg, ohw), &x[at..at + icg * ohw]).map_err(shape_error)?;
            let mut gfg = ArrayViewMut2::from_shape((icg, k), &mut gf[fr]).map_err(shape_error)?;
            product(T::one(), &xg, &c.t(), T::one(), &mut gfg);
            let mut dxg = ArrayViewMut2::from_shape((icg, ohw), &mut gx[at..at + icg * ohw])
                .map_err(shape_error)?;
            product(T::one(), &w, &c, T::ZERO, &mut dxg);
        }
    }
    Ok((gx, gf))
}

/// Paddle 3's conv2d_transpose takes an optional `Bias`, which its grad
/// maker leaves out; 1.x's op had none (the layer adds the bias with
/// `elementwise_add`), so fluidc refuses it rather than train it wrong.
fn refuse_bias(l: &OpReader) -> Result<(), KernelError> {
    if l.given(&["Bias"]) {
        return Err(KernelError::Unsupported(format!(
            "{}'s Bias input is not supported (1.x's op had none): add the bias with elementwise_add",
            l.op.ty
        )));
    }
    Ok(())
}

/// A convolution or its transpose: the same products the other way round.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Conv,
    Transpose,
}

/// A conv's geometry for its input and filter: the window, the channel
/// count its products take (a conv's output channels, a transpose's input
/// channels) and the output's shape.
type Geometry = (Window, usize, [i64; 4]);

impl Kind {
    fn geometry(self, a: &ConvAttrs, x: &[i64], f: &[i64]) -> Result<Geometry, KernelError> {
        Ok(match self {
            Kind::Conv => {
                let g = a.window(x, f)?;
                let oc = f[0] as usize;
                let shape = [g.n, oc, g.oh, g.ow].map(|d| d as i64);
                (g, oc, shape)
            }
            Kind::Transpose => {
                let g = a.transpose_window(x, f)?;
                let shape = [g.n, g.c, g.h, g.w].map(|d| d as i64);
                (g, x[1] as usize, shape)
            }
        })
    }

    fn forward<T: ConvElem>(
        self,
        x: &Tensor,
        f: &Tensor,
        (g, ch, _): &Geometry,
        groups: usize,
    ) -> Result<Vec<T>, KernelError> {
        let (x, f) = (values(x)?, values(f)?);
        match self {
            Kind::Conv => forward(x, f, g, *ch, groups),
            Kind::Transpose => transpose_forward(x, f, g, *ch, groups),
        }
    }

    fn backward<T: ConvElem>(
        self,
        x: &Tensor,
        f: &Tensor,
        d: &Tensor,
        (g, ch, _): &Geometry,
        groups: usize,
    ) -> Result<(Tensor, Tensor), KernelError> {
        let (xs, fs, ds) = (values(x)?, values(f)?, values(d)?);
        let (gx, gf) = match self {
            Kind::Conv => backward::<T>(xs, fs, ds, g, *ch, groups),
            Kind::Transpose => transpose_backward::<T>(xs, fs, ds, g, *ch, groups),
        }?;
        Ok((
            Tensor::from_vec(x.shape(), gx)?,
            Tensor::from_vec(f.shape(), gf)?,
        ))
    }
}

fn conv2d(l: &OpReader) -> Result<Exec, KernelError> {
    conv_op(l, Kind::Conv)
}

fn conv2d_grad(l: &OpReader) -> Result<Exec, KernelError> {
    conv_grad_op(l, Kind::Conv)
}

fn conv2d_transpose(l: &OpReader) -> Result<Exec, KernelError> {
    refuse_bias(l)?;
    conv_op(l, Kind::Transpose)
}

fn conv2d_transpose_grad(l: &OpReader) -> Result<Exec, KernelError> {
    conv_grad_op(l, Kind::Transpose)
}

fn conv_op(l: &OpReader, kind: Kind) -> Result<Exec, KernelError> {
    let (input, filter, out) = (l.input("Input")?, l.input("Filter")?, l.output("Output")?);
    let a = ConvAttrs::load(l)?;
    compute(move |s| {
        let (xt, ft) = (s.tensor(&input)?, s.tensor(&filter)?);
        let geo = kind.geometry(&a, xt.shape(), ft.shape())?;
        let shape = geo.2;
        crate::tensor::alloc::check(&shape, xt.dtype())?;
        let t = match dtype(&[&xt, &ft])? {
            VarKind::Fp64 => {
                Tensor::from_vec(&shape, kind.forward::<f64>(&xt, &ft, &geo, a.groups)?)
            }
            _ => Tensor::from_vec(&shape, kind.forward::<f32>(&xt, &ft, &geo, a.groups)?),
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
        let geo = kind.geometry(&a, xt.shape(), ft.shape())?;
        if dt.numel() as i64 != geo.2.iter().product::<i64>() {
            return Err(KernelError::Shape(format!(
                "Output@GRAD of shape {:?} does not fit the conv's output {:?}",
                dt.shape(),
                geo.2
            )));
        }
        let (tx, tf) = match dtype(&[&xt, &ft, &dt])? {
            VarKind::Fp64 => kind.backward::<f64>(&xt, &ft, &dt, &geo, a.groups)?,
            _ => kind.backward::<f32>(&xt, &ft, &dt, &geo, a.groups)?,
        };
        drop((xt, ft, dt));
        super::float::set_grads(s, vec![(&dx, Some(tx)), (&df, Some(tf))]);
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
pub(super) fn paddings(
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

pub(super) fn pair(v: &[i64], what: &str) -> Result<[usize; 2], KernelError> {
    match *v {
        [a, b] if a > 0 && b > 0 => Ok([a as usize, b as usize]),
        _ => Err(KernelError::Attribute(format!(
            "{what} {v:?} must be two positive values"
        ))),
    }
}

pub(super) fn nchw(l: &OpReader, attr: &str) -> Result<(), KernelError> {
    match l.string(attr)?.unwrap_or("NCHW") {
        "NCHW" | "AnyLayout" => Ok(()),
        other => Err(KernelError::Unsupported(format!(
            "{} supports the NCHW layout only, not {other}",
            l.op.ty
        ))),
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
    pub(crate) fn load(l: &OpReader) -> Result<ConvAttrs, KernelError> {
        nchw(l, "data_format")?;
        Ok(ConvAttrs {
            strides: l.ints("strides")?.unwrap_or_else(|| vec![1, 1]),
            pads: l.ints("paddings")?.unwrap_or_else(|| vec![0, 0]),
            dilations: l.ints("dilations")?.unwrap_or_else(|| vec![1, 1]),
            groups: usize::try_from(l.int_or("groups", 1)?).unwrap_or(1).max(1),
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
        // Paddle's ConvOutputSize, in C++'s truncating division: a filter
        // larger than the input by less than a stride still gives one
        // output, its window's outside part reading zeros (1.x's im2col).
        let span = |i: usize, size: usize| -> Result<usize, KernelError> {
            let ke = dil[i] * (k[i].max(1) - 1) + 1;
            let pads = (p[i].0 as i64, p[i].1 as i64);
            let n = window_out(size as i64, ke as i64, pads, strides[i] as i64, false);
            usize::try_from(n).ok().filter(|&n| n > 0).ok_or_else(|| {
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
pub(super) struct Spatial {
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
