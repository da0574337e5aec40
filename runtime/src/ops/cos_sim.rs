//! `cos_sim` and `cos_sim_grad`: Paddle 1.x's cosine similarity of each
//! row of `X` with the same row of `Y`, or with `Y`'s one row. Paddle
//! 3.3.1 dropped the op (fluidc declares it as 1.x did, see
//! `transpiler/data/fluidc_ops.json`), so these follow 1.x's CPU functors
//! (`operators/math/cos_sim_functor.{h,cc}`): row by row in the input's
//! precision, each squared norm clamped at 1e-8 before its square root
//! (so a zero row gives 0, not NaN), the norms kept as `XNorm` and `YNorm`
//! for the gradient. `Out` keeps `X`'s LoD (its definition's `Lod`).
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::needs_float;
use crate::ops::optim::Real;
use crate::tensor::{dtype_name, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("cos_sim", cos_sim);
    r.add("cos_sim_grad", cos_sim_grad);
}

/// The rows of `X` and of `Y` and the width of a row, checked as 1.x's
/// `InferShape` checks them: one rank of at least 2, the same dims after
/// the first, and `Y` with `X`'s rows or one.
fn rows(x: &Tensor, y: &Tensor) -> Result<(usize, usize, usize), KernelError> {
    let (xs, ys) = (x.shape(), y.shape());
    let fits = xs.len() == ys.len()
        && xs.len() >= 2
        && xs[1..] == ys[1..]
        && (xs[0] == ys[0] || ys[0] == 1);
    if !fits {
        return Err(KernelError::Shape(format!(
            "cos_sim takes X [N, ...] and Y [N or 1, ...] of one rank (at least 2) and the same dims after the first; got X {xs:?} and Y {ys:?}"
        )));
    }
    let width = xs[1..].iter().product::<i64>() as usize;
    Ok((xs[0] as usize, ys[0] as usize, width))
}

/// `X` and `Y`'s elements as `T`, when both are `T`.
fn pair<'a, T: Element>(x: &'a Tensor, y: &'a Tensor) -> Result<(&'a [T], &'a [T]), KernelError> {
    match (x.values::<T>(), y.values::<T>()) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(KernelError::Dtype(format!(
            "cos_sim: X is {} and Y {}; cast them to one float dtype",
            dtype_name(x.dtype()),
            dtype_name(y.dtype())
        ))),
    }
}

/// One row's norm from its sum of squares, clamped as 1.x's functor does.
fn norm<T: Real>(sum_sq: T) -> T {
    let eps = T::from(1e-8).unwrap_or_else(T::epsilon);
    (if sum_sq > eps { sum_sq } else { eps }).sqrt()
}

/// `(Out, XNorm, YNorm)` of `x` (`n` rows of `w`) and `y` (`n` rows, or
/// one when `m` is 1 and `n` is not). `Y`'s norms come first, so a
/// broadcast row's is computed once.
fn forward<T: Real>(x: &[T], y: &[T], n: usize, m: usize, w: usize) -> (Vec<T>, Vec<T>, Vec<T>) {
    let dot = |a: &[T], b: &[T]| a.iter().zip(b).fold(T::zero(), |s, (&p, &q)| s + p * q);
    let ynorm: Vec<T> = (0..m)
        .map(|r| norm(dot(&y[r * w..(r + 1) * w], &y[r * w..(r + 1) * w])))
        .collect();
    let (mut out, mut xnorm) = (vec![T::zero(); n], vec![T::zero(); n]);
    for r in 0..n {
        let k = if m == n { r } else { 0 };
        let xr = &x[r * w..(r + 1) * w];
        let xn = norm(dot(xr, xr));
        xnorm[r] = xn;
        out[r] = dot(xr, &y[k * w..(k + 1) * w]) / (xn * ynorm[k]);
    }
    (out, xnorm, ynorm)
}

/// `Out = X.Y / (|X| |Y|)` per row, with the norms.
fn cos_sim(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.input("Y")?);
    let (out, xnorm, ynorm) = (l.output("Out")?, l.output("XNorm")?, l.output("YNorm")?);
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        let (n, m, w) = rows(&xt, &yt)?;
        fn run<T: Real>(
            x: &Tensor,
            y: &Tensor,
            n: usize,
            m: usize,
            w: usize,
        ) -> Result<[Tensor; 3], KernelError> {
            let (x, y) = pair::<T>(x, y)?;
            let (o, xn, yn) = forward(x, y, n, m, w);
            let column = |rows: usize, v: Vec<T>| Tensor::from_vec(&[rows as i64, 1], v);
            Ok([column(n, o)?, column(n, xn)?, column(m, yn)?])
        }
        let [o, xn, yn] = match xt.dtype() {
            VarKind::Fp32 => run::<f32>(&xt, &yt, n, m, w)?,
            VarKind::Fp64 => run::<f64>(&xt, &yt, n, m, w)?,
            _ => return Err(needs_float("cos_sim", &xt)),
        };
        drop((xt, yt));
        s.set_tensor(&out, o);
        s.set_tensor(&xnorm, xn);
        s.set_tensor(&ynorm, yn);
        Ok(())
    })
}

/// What the gradient reads: the forward inputs and, per row, the norms,
/// `Out` and its gradient.
struct Saved<'a, T> {
    x: &'a [T],
    y: &'a [T],
    xnorm: &'a [T],
    ynorm: &'a [T],
    out: &'a [T],
    dout: &'a [T],
}

/// `(X@GRAD, Y@GRAD)`. Per row, with `z` its `Out` and `dz` the gradient:
/// `dX = dz (Y / (|X||Y|) - z X / |X|^2)` and `dY` the same with `X` and
/// `Y` swapped; a broadcast `Y`'s gradient adds up its rows' terms (1.x's
/// `CosSimDyFunctor`).
fn backward<T: Real>(v: &Saved<T>, n: usize, m: usize, w: usize) -> (Vec<T>, Vec<T>) {
    let (mut dx, mut dy) = (vec![T::zero(); v.x.len()], vec![T::zero(); v.y.len()]);
    for r in 0..n {
        let yr = if m == n { r } else { 0 };
        let (xn, yn, z, dz) = (v.xnorm[r], v.ynorm[yr], v.out[r], v.dout[r]);
        let inv_xy = T::one() / (xn * yn);
        let (inv_xx, inv_yy) = (T::one() / (xn * xn), T::one() / (yn * yn));
        for k in 0..w {
            let (a, b) = (v.x[r * w + k], v.y[yr * w + k]);
            dx[r * w + k] = dz * (b * inv_xy - z * a * inv_xx);
            dy[yr * w + k] = dy[yr * w + k] + dz * (a * inv_xy - z * b * inv_yy);
        }
    }
    (dx, dy)
}

/// Its grad: `X@GRAD` and `Y@GRAD`, each when backward asks for it.
fn cos_sim_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let slots = ["X", "Y", "XNorm", "YNorm", "Out", "Out@GRAD"];
    let ins = slots
        .iter()
        .map(|n| l.input(n))
        .collect::<Result<Vec<_>, _>>()?;
    let (dx, dy) = (l.opt_output("X@GRAD")?, l.opt_output("Y@GRAD")?);
    compute(move |s| {
        let ts = ins
            .iter()
            .map(|r| s.tensor(r))
            .collect::<Result<Vec<_>, _>>()?;
        let (n, m, w) = rows(&ts[0], &ts[1])?;
        for (k, rows) in [(2, n), (3, m), (4, n), (5, n)] {
            if ts[k].numel() != rows {
                return Err(KernelError::Shape(format!(
                    "cos_sim_grad: {} has shape {:?}; it must be [{rows}, 1], one value per row",
                    slots[k],
                    ts[k].shape()
                )));
            }
        }
        fn run<T: Real>(
            ts: &[&Tensor],
            n: usize,
            m: usize,
            w: usize,
        ) -> Result<[Tensor; 2], KernelError> {
            let (x, y) = pair::<T>(ts[0], ts[1])?;
            let [Some(xnorm), Some(ynorm), Some(out), Some(dout)] =
                [2, 3, 4, 5].map(|k| ts[k].values::<T>())
            else {
                return Err(KernelError::Dtype(
                    "cos_sim_grad: XNorm, YNorm, Out and Out@GRAD must have X's dtype".into(),
                ));
            };
            let (gx, gy) = backward(
                &Saved {
                    x,
                    y,
                    xnorm,
                    ynorm,
                    out,
                    dout,
                },
                n,
                m,
                w,
            );
            Ok([
                Tensor::from_vec(ts[0].shape(), gx)?,
                Tensor::from_vec(ts[1].shape(), gy)?,
            ])
        }
        let refs: Vec<&Tensor> = ts.iter().map(|t| &**t).collect();
        let [gx, gy] = match refs[0].dtype() {
            VarKind::Fp32 => run::<f32>(&refs, n, m, w)?,
            VarKind::Fp64 => run::<f64>(&refs, n, m, w)?,
            _ => return Err(needs_float("cos_sim_grad", refs[0])),
        };
        drop(refs);
        drop(ts);
        super::float::set_grads(s, vec![(&dx, Some(gx)), (&dy, Some(gy))]);
        Ok(())
    })
}
