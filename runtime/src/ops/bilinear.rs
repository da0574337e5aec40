//! `bilinear_tensor_product` and its grad, as Paddle's CPU kernels
//! (phi `bilinear_kernel_impl.h`, `bilinear_grad_kernel_impl.h`): for each
//! output column `s`, `Out[:, s] = rowsum((X · W_s) ∘ Y) + Bias[s]`, in the
//! input's precision, each `W_s` slice taken in turn as Paddle loops over
//! them.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::needs_float;
use crate::ops::optim::Real;
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("bilinear_tensor_product", bilinear);
    r.add("bilinear_tensor_product_grad", bilinear_grad);
}

/// `(B, M, N, S)` of `X` `[B, M]`, `Y` `[B, N]` and `Weight` `[S, M, N]`,
/// checked as the op's InferShape checks them.
fn dims(x: &Tensor, y: &Tensor, w: &Tensor) -> Result<(usize, usize, usize, usize), KernelError> {
    let (xs, ys, ws) = (x.shape(), y.shape(), w.shape());
    if xs.len() != 2
        || ys.len() != 2
        || ws.len() != 3
        || xs[0] != ys[0]
        || ws[1] != xs[1]
        || ws[2] != ys[1]
    {
        return Err(KernelError::Shape(format!(
            "bilinear_tensor_product takes X [B, M], Y [B, N] and Weight [S, M, N]; got X {xs:?}, Y {ys:?}, Weight {ws:?}"
        )));
    }
    Ok((
        xs[0] as usize,
        xs[1] as usize,
        ys[1] as usize,
        ws[0] as usize,
    ))
}

/// The elements of each tensor as `T`, when all are `T`.
fn all_of<'a, T: Real>(what: &str, ts: &[&'a Tensor]) -> Result<Vec<&'a [T]>, KernelError> {
    ts.iter()
        .map(|t| {
            t.values::<T>().ok_or_else(|| {
                KernelError::Dtype(format!(
                    "{what}: an input is {}, where X is {}; cast them to one float dtype",
                    dtype_name(t.dtype()),
                    dtype_name(T::KIND)
                ))
            })
        })
        .collect()
}

/// `a[r] · w` for every row `r` of `a` (`rows` × `k`), `w` being `k` × `n`:
/// the GEMM Paddle calls for one weight slice.
fn times<T: Real>(a: &[T], w: &[T], rows: usize, k: usize, n: usize) -> Vec<T> {
    let mut out = vec![T::zero(); rows * n];
    for r in 0..rows {
        let o = &mut out[r * n..(r + 1) * n];
        for (i, &av) in a[r * k..(r + 1) * k].iter().enumerate() {
            for (ov, &wv) in o.iter_mut().zip(&w[i * n..(i + 1) * n]) {
                *ov = *ov + av * wv;
            }
        }
    }
    out
}

fn forward<T: Real>(
    v: &[&[T]],
    bias: Option<&[T]>,
    (b, m, n, s): (usize, usize, usize, usize),
) -> Vec<T> {
    let (x, y, w) = (v[0], v[1], v[2]);
    let mut out = vec![T::zero(); b * s];
    for k in 0..s {
        let left = times(x, &w[k * m * n..(k + 1) * m * n], b, m, n);
        for r in 0..b {
            let dot = left[r * n..(r + 1) * n]
                .iter()
                .zip(&y[r * n..(r + 1) * n])
                .fold(T::zero(), |acc, (&p, &q)| acc + p * q);
            out[r * s + k] = dot + bias.map_or(T::zero(), |bv| bv[k]);
        }
    }
    out
}

/// `Out[b, s] = X[b] · Weight[s] · Y[b] + Bias[s]`.
fn bilinear(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, w) = (l.input("X")?, l.input("Y")?, l.input("Weight")?);
    let bias = l.opt_input("Bias")?;
    let out = l.output("Out")?;
    compute(move |s| {
        let (xt, yt, wt) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&w)?);
        let bt = bias.as_ref().map(|r| s.tensor(r)).transpose()?;
        let d = dims(&xt, &yt, &wt)?;
        if let Some(bt) = &bt {
            if bt.numel() != d.3 {
                return Err(KernelError::Shape(format!(
                    "bilinear_tensor_product: Bias {:?} must be [1, {}]",
                    bt.shape(),
                    d.3
                )));
            }
        }
        fn run<T: Real>(
            ts: &[&Tensor],
            bias: Option<&Tensor>,
            d: (usize, usize, usize, usize),
        ) -> Result<Tensor, KernelError> {
            let v = all_of::<T>("bilinear_tensor_product", ts)?;
            let bv = bias
                .map(|b| all_of::<T>("bilinear_tensor_product", &[b]))
                .transpose()?;
            Tensor::from_vec(&[d.0 as i64, d.3 as i64], forward(&v, bv.map(|b| b[0]), d))
        }
        let ts = [&*xt, &*yt, &*wt];
        let o = match xt.dtype() {
            VarKind::Fp32 => run::<f32>(&ts, bt.as_deref(), d)?,
            VarKind::Fp64 => run::<f64>(&ts, bt.as_deref(), d)?,
            _ => return Err(needs_float("bilinear_tensor_product", &xt)),
        };
        drop((xt, yt, wt, bt));
        s.set_tensor(&out, o);
        Ok(())
    })
}

/// The grads, as Paddle's kernel: per weight slice `W_s` and `g = Out@GRAD[:, s]`,
/// `X@GRAD += (g ∘ Y) · W_sᵀ`, `Y@GRAD += (g ∘ X) · W_s`,
/// `Weight@GRAD[s] = (g ∘ X)ᵀ · Y`; `Bias@GRAD` sums `Out@GRAD` over the batch.
fn backward<T: Real>(v: &[&[T]], (b, m, n, s): (usize, usize, usize, usize)) -> [Vec<T>; 4] {
    let (x, y, w, dout) = (v[0], v[1], v[2], v[3]);
    let (mut dx, mut dy, mut dw) = (
        vec![T::zero(); b * m],
        vec![T::zero(); b * n],
        vec![T::zero(); s * m * n],
    );
    for k in 0..s {
        let wk = &w[k * m * n..(k + 1) * m * n];
        let g = |r: usize| dout[r * s + k];
        for r in 0..b {
            // (g ∘ Y)[r] · W_sᵀ: row r of X@GRAD.
            for i in 0..m {
                let dot = wk[i * n..(i + 1) * n]
                    .iter()
                    .zip(&y[r * n..(r + 1) * n])
                    .fold(T::zero(), |acc, (&wv, &yv)| acc + g(r) * yv * wv);
                dx[r * m + i] = dx[r * m + i] + dot;
            }
        }
        let xs: Vec<T> = (0..b * m).map(|e| g(e / m) * x[e]).collect();
        let gy = times(&xs, wk, b, m, n);
        for (d, &v) in dy.iter_mut().zip(&gy) {
            *d = *d + v;
        }
        let dwk = &mut dw[k * m * n..(k + 1) * m * n];
        for r in 0..b {
            for i in 0..m {
                let a = xs[r * m + i];
                for (d, &yv) in dwk[i * n..(i + 1) * n]
                    .iter_mut()
                    .zip(&y[r * n..(r + 1) * n])
                {
                    *d = *d + a * yv;
                }
            }
        }
    }
    let db = (0..s)
        .map(|k| (0..b).fold(T::zero(), |acc, r| acc + dout[r * s + k]))
        .collect();
    [dx, dy, dw, db]
}

fn bilinear_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let ins = ["X", "Y", "Weight", "Out@GRAD"].map(|n| l.input(n));
    let [x, y, w, dout] = ins;
    let (x, y, w, dout) = (x?, y?, w?, dout?);
    let outs = [
        l.opt_output("X@GRAD")?,
        l.opt_output("Y@GRAD")?,
        l.opt_output("Weight@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    ];
    compute(move |s| {
        let ts = [
            s.tensor(&x)?,
            s.tensor(&y)?,
            s.tensor(&w)?,
            s.tensor(&dout)?,
        ];
        let d = dims(&ts[0], &ts[1], &ts[2])?;
        if ts[3].numel() != d.0 * d.3 {
            return Err(KernelError::Shape(format!(
                "bilinear_tensor_product_grad: Out@GRAD {:?} must be [{}, {}]",
                ts[3].shape(),
                d.0,
                d.3
            )));
        }
        let shapes = [
            ts[0].shape().to_vec(),
            ts[1].shape().to_vec(),
            ts[2].shape().to_vec(),
            vec![1, d.3 as i64],
        ];
        fn run<T: Real>(
            ts: &[&Tensor],
            d: (usize, usize, usize, usize),
            shapes: &[Vec<i64>; 4],
        ) -> Result<Vec<Tensor>, KernelError> {
            let v = all_of::<T>("bilinear_tensor_product_grad", ts)?;
            backward(&v, d)
                .into_iter()
                .zip(shapes)
                .map(|(g, sh)| Tensor::from_vec(sh, g))
                .collect()
        }
        let refs: Vec<&Tensor> = ts.iter().map(|t| &**t).collect();
        let grads = match refs[0].dtype() {
            VarKind::Fp32 => run::<f32>(&refs, d, &shapes)?,
            VarKind::Fp64 => run::<f64>(&refs, d, &shapes)?,
            _ => return Err(needs_float("bilinear_tensor_product_grad", refs[0])),
        };
        drop(ts);
        for (out, g) in outs.iter().zip(grads) {
            if let Some(out) = out {
                s.set_tensor(out, g);
            }
        }
        Ok(())
    })
}
