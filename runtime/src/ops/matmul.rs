//! Matrix products: matmul (v1, with alpha), matmul_v2 and mul (fc's op,
//! which flattens its operands to matrices at `x_num_col_dims`/`y_num_col_dims`).
//!
//! matmul follows numpy: 1-D operands become a row (X) or a column (Y) and
//! that dim is dropped from the result; leading batch dims broadcast.
use super::elementwise::dtype_mismatch;
use super::{compute, Exec, Registry};
use crate::load::OpLoader;
use crate::tensor::broadcast::broadcast;
use crate::tensor::num::{with_numeric_pair, Num};
use crate::tensor::{Buffer, Element, Shape, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("matmul", |l| matmul(l, "transpose_X", "transpose_Y"));
    r.add("matmul_v2", |l| matmul(l, "trans_x", "trans_y"));
    r.add("mul", mul);
}

fn matmul(l: &OpLoader, tx: &str, ty: &str) -> Result<Exec, String> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let (tx, ty) = (l.bool(tx, false)?, l.bool(ty, false)?);
    let alpha = l.float("alpha", 1.0)?;
    compute(move |s| {
        let mut t = matmul_tensors(&*s.tensor(&x)?, &*s.tensor(&y)?, tx, ty)?;
        if alpha != 1.0 {
            t = super::elementwise::arith(
                super::elementwise::Arith::Mul,
                &t,
                &Tensor::full(t.dtype(), &[], alpha)?,
                -1,
            )?;
        }
        s.set_tensor(&out, t);
        Ok(())
    })
}

pub(crate) fn matmul_tensors(x: &Tensor, y: &Tensor, tx: bool, ty: bool) -> Result<Tensor, String> {
    let (xs, ys) = (x.shape(), y.shape());
    if xs.is_empty() || ys.is_empty() {
        return Err(format!(
            "matmul needs operands of rank 1 or more, got {xs:?} and {ys:?}"
        ));
    }
    let (x_vec, y_vec) = (xs.len() == 1, ys.len() == 1);
    let xs: Vec<i64> = if x_vec { vec![1, xs[0]] } else { xs.to_vec() };
    let ys: Vec<i64> = if y_vec { vec![ys[0], 1] } else { ys.to_vec() };
    let (tx, ty) = (tx && !x_vec, ty && !y_vec);
    let (xr, yr) = (xs.len(), ys.len());
    let (m, kx) = if tx {
        (xs[xr - 1], xs[xr - 2])
    } else {
        (xs[xr - 2], xs[xr - 1])
    };
    let (ky, n) = if ty {
        (ys[yr - 1], ys[yr - 2])
    } else {
        (ys[yr - 2], ys[yr - 1])
    };
    if kx != ky {
        return Err(format!(
            "matmul shapes {:?} and {:?} do not fit: {kx} columns against {ky} rows",
            x.shape(),
            y.shape()
        ));
    }
    let batch = broadcast(&xs[..xr - 2], &ys[..yr - 2], -1)?;
    let count = |s: &[i64]| s.iter().product::<i64>() as usize;
    let (xb, yb) = (count(&xs[..xr - 2]), count(&ys[..yr - 2]));
    let xi: Vec<usize> = (0..xb).collect();
    let yi: Vec<usize> = (0..yb).collect();
    let pairs: Buffer<(usize, usize)> = batch.zip(&xi, &yi, |a, b| (a, b));
    let (m, k, n) = (m as usize, kx as usize, n as usize);

    let mut shape = Shape::from_slice(&batch.out_shape);
    if !x_vec {
        shape.push(m as i64);
    }
    if !y_vec {
        shape.push(n as i64);
    }
    let data = with_numeric_pair!(
        x.data(),
        y.data(),
        |a, b: T| {
            let mut out = Vec::with_capacity(pairs.len() * m * n);
            for &(p, q) in pairs.iter() {
                let (a, b) = (
                    &a[p * m * k..(p + 1) * m * k],
                    &b[q * k * n..(q + 1) * k * n],
                );
                for i in 0..m {
                    for j in 0..n {
                        let mut acc = T::ZERO;
                        for l in 0..k {
                            let av = if tx { a[l * m + i] } else { a[i * k + l] };
                            let bv = if ty { b[j * k + l] } else { b[l * n + j] };
                            acc = acc.add(av.mul(bv));
                        }
                        out.push(acc);
                    }
                }
            }
            T::wrap(out.into())
        },
        return Err(dtype_mismatch(x, y))
    );
    Tensor::new(&shape, data)
}

/// `mul`: X flattened to `[prod(X[..xn]), prod(X[xn..])]`, Y likewise at
/// `yn`; the result has shape `X[..xn] ++ Y[yn..]`.
fn mul(l: &OpLoader) -> Result<Exec, String> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let xn = l.int("x_num_col_dims", 1)?;
    let yn = l.int("y_num_col_dims", 1)?;
    compute(move |s| {
        let (a, b) = (s.tensor(&x)?, s.tensor(&y)?);
        let split = |t: &Tensor, at: i64| -> Result<(Vec<i64>, Vec<i64>), String> {
            let at = usize::try_from(at)
                .ok()
                .filter(|&a| a >= 1 && a <= t.shape().len())
                .ok_or_else(|| {
                    format!(
                        "num_col_dims {at} is out of range for shape {:?}",
                        t.shape()
                    )
                })?;
            Ok((t.shape()[..at].to_vec(), t.shape()[at..].to_vec()))
        };
        let ((xl, xr), (yl, yr)) = (split(&a, xn)?, split(&b, yn)?);
        let prod = |s: &[i64]| s.iter().product::<i64>();
        let a2 = a.reshaped(&[prod(&xl), prod(&xr)])?;
        let b2 = b.reshaped(&[prod(&yl), prod(&yr)])?;
        let r = matmul_tensors(&a2, &b2, false, false)?;
        let shape: Vec<i64> = xl.iter().chain(&yr).copied().collect();
        s.set_tensor(&out, r.reshaped(&shape)?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_2d_transposes_vectors_and_batches() {
        let x = Tensor::from_vec(&[2, 3], vec![1i64, 2, 3, 4, 5, 6]).expect("tensor");
        let y = Tensor::from_vec(&[3, 2], vec![1i64, 0, 0, 1, 1, 1]).expect("tensor");
        let r = matmul_tensors(&x, &y, false, false).expect("ok");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2, 2][..], Some(&[4, 5, 10, 11][..]))
        );
        let r = matmul_tensors(&x, &x, false, true).expect("x x^T");
        assert_eq!(r.values::<i64>(), Some(&[14, 32, 32, 77][..]));
        let v = Tensor::from_vec(&[3], vec![1i64, 1, 1]).expect("tensor");
        let r = matmul_tensors(&x, &v, false, false).expect("matrix-vector");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2][..], Some(&[6, 15][..]))
        );
        let b = Tensor::from_vec(&[2, 1, 3], vec![1i64, 2, 3, 4, 5, 6]).expect("tensor");
        let r = matmul_tensors(&b, &y, false, false).expect("batched");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2, 1, 2][..], Some(&[4, 5, 10, 11][..]))
        );
        assert!(matmul_tensors(&x, &x, false, false)
            .unwrap_err()
            .contains("do not fit"));
    }
}
