//! `conv2d` and `conv2d_grad` (NCHW, groups, strides, paddings,
//! dilations) as Paddle's CPU kernels compute them: each image's windows
//! unrolled into a matrix (im2col) and multiplied by the filter with GEMM,
//! in the tensor's dtype. `conv2d_transpose` and its grad are the same
//! products the other way round: the filter's transpose times the input
//! gives the columns, which col2im adds into the output image. The geometry (`ConvAttrs`, `Window`) is shared
//! with the layer ops in `super::nn`.
use fluidc_transpiler::VarKind;
use ndarray::linalg::general_mat_mul;
use ndarray::{ArrayView2, ArrayViewMut2, LinalgScalar};

use super::nn::{ConvAttrs, Window};
use super::{compute, Exec, Registry};
use crate::error::KernelError;
use crate::loader::OpLoader;
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
trait ConvElem: Element + LinalgScalar {}
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
            general_mat_mul(T::one(), &w, &c, T::ZERO, &mut o);
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
            general_mat_mul(T::one(), &dg, &c.t(), T::one(), &mut gfg);
            let w = ArrayView2::from_shape((ocg, k), &f[fr]).map_err(shape_error)?;
            let mut dc = ArrayViewMut2::from_shape((k, ohw), &mut dcol[..]).map_err(shape_error)?;
            general_mat_mul(T::one(), &w.t(), &dg, T::ZERO, &mut dc);
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
            general_mat_mul(T::one(), &w.t(), &xg, T::ZERO, &mut c);
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
            general_mat_mul(T::one(), &xg, &c.t(), T::one(), &mut gfg);
            let mut dxg = ArrayViewMut2::from_shape((icg, ohw), &mut gx[at..at + icg * ohw])
                .map_err(shape_error)?;
            general_mat_mul(T::one(), &w, &c, T::ZERO, &mut dxg);
        }
    }
    Ok((gx, gf))
}

/// Paddle 3's conv2d_transpose takes an optional `Bias`, which its grad
/// maker leaves out; 1.x's op had none (the layer adds the bias with
/// `elementwise_add`), so fluidc refuses it rather than train it wrong.
fn refuse_bias(l: &OpLoader) -> Result<(), String> {
    if l.given(&["Bias"]) {
        return Err(format!(
            "{}'s Bias input is not supported (1.x's op had none): add the bias with elementwise_add",
            l.op.ty
        ));
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

fn conv2d(l: &OpLoader) -> Result<Exec, String> {
    conv_op(l, Kind::Conv)
}

fn conv2d_grad(l: &OpLoader) -> Result<Exec, String> {
    conv_grad_op(l, Kind::Conv)
}

fn conv2d_transpose(l: &OpLoader) -> Result<Exec, String> {
    refuse_bias(l)?;
    conv_op(l, Kind::Transpose)
}

fn conv2d_transpose_grad(l: &OpLoader) -> Result<Exec, String> {
    conv_grad_op(l, Kind::Transpose)
}

fn conv_op(l: &OpLoader, kind: Kind) -> Result<Exec, String> {
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

fn conv_grad_op(l: &OpLoader, kind: Kind) -> Result<Exec, String> {
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
