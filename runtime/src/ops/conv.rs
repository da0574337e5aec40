//! `conv2d` and `conv2d_grad` (NCHW, groups, strides, paddings,
//! dilations) as Paddle's CPU kernels compute them: each image's windows
//! unrolled into a matrix (im2col) and multiplied by the filter with GEMM,
//! in the tensor's dtype. The geometry (`ConvAttrs`, `Window`) is shared
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

fn conv2d(l: &OpLoader) -> Result<Exec, String> {
    let (input, filter, out) = (l.input("Input")?, l.input("Filter")?, l.output("Output")?);
    let a = ConvAttrs::load(l)?;
    compute(move |s| {
        let (xt, ft) = (s.tensor(&input)?, s.tensor(&filter)?);
        let g = a.window(xt.shape(), ft.shape())?;
        let oc = ft.shape()[0] as usize;
        let shape = [g.n as i64, oc as i64, g.oh as i64, g.ow as i64];
        crate::tensor::alloc::check(&shape, xt.dtype())?;
        let t = match dtype(&[&xt, &ft])? {
            VarKind::Fp64 => Tensor::from_vec(
                &shape,
                forward::<f64>(values(&xt)?, values(&ft)?, &g, oc, a.groups)?,
            ),
            _ => Tensor::from_vec(
                &shape,
                forward::<f32>(values(&xt)?, values(&ft)?, &g, oc, a.groups)?,
            ),
        }?;
        drop((xt, ft));
        s.set_tensor(&out, t);
        Ok(())
    })
}

fn values<T: Element>(t: &Tensor) -> Result<&[T], KernelError> {
    t.values::<T>()
        .ok_or_else(|| KernelError::Dtype(format!("conv2d: unexpected {}", dtype_name(t.dtype()))))
}

fn conv2d_grad(l: &OpLoader) -> Result<Exec, String> {
    let (input, filter, dout) = (
        l.input("Input")?,
        l.input("Filter")?,
        l.input("Output@GRAD")?,
    );
    let (dx, df) = (l.opt_output("Input@GRAD")?, l.opt_output("Filter@GRAD")?);
    let a = ConvAttrs::load(l)?;
    compute(move |s| {
        let (xt, ft, dt) = (s.tensor(&input)?, s.tensor(&filter)?, s.tensor(&dout)?);
        let g = a.window(xt.shape(), ft.shape())?;
        let oc = ft.shape()[0] as usize;
        if dt.numel() != g.n * oc * g.oh * g.ow {
            return Err(KernelError::Shape(format!(
                "Output@GRAD of shape {:?} does not fit the conv",
                dt.shape()
            )));
        }
        let (tx, tf) = match dtype(&[&xt, &ft, &dt])? {
            VarKind::Fp64 => {
                let (gx, gf) =
                    backward::<f64>(values(&xt)?, values(&ft)?, values(&dt)?, &g, oc, a.groups)?;
                (
                    Tensor::from_vec(xt.shape(), gx)?,
                    Tensor::from_vec(ft.shape(), gf)?,
                )
            }
            _ => {
                let (gx, gf) =
                    backward::<f32>(values(&xt)?, values(&ft)?, values(&dt)?, &g, oc, a.groups)?;
                (
                    Tensor::from_vec(xt.shape(), gx)?,
                    Tensor::from_vec(ft.shape(), gf)?,
                )
            }
        };
        drop((xt, ft, dt));
        super::float::set_grads(s, vec![(&dx, Some(tx)), (&df, Some(tf))]);
        Ok(())
    })
}
