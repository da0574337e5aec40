//! `cvm` and its gradient, as 1.6's CPU kernels (`cvm_op.h`). Forward:
//! each row of `X` `[N, D]` keeps its features after the first two
//! (show, click), which become `log(show + 1)` and `log(click + 1) -
//! log(show + 1)` with `use_cvm`, or are dropped without it. Backward: each
//! row of `X@GRAD` is `Y@GRAD`'s row (in the kept columns) with the first
//! two set to the row's `CVM` values, one `CVM` row per sequence of `X`'s
//! LoD (per row of `X` without one): not the forward's derivative, as in
//! Paddle.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s};
use crate::tensor::Tensor;

use super::boxes::float_dtype;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("cvm", cvm);
    r.add("cvm_grad", cvm_grad);
}

/// `X`'s rows and their width, checked to hold at least the two values.
fn rows_of(op: &str, t: &Tensor) -> Result<(usize, usize), KernelError> {
    match *t.shape() {
        [n, d] if d >= 2 => Ok((n.max(0) as usize, d as usize)),
        ref dims => Err(KernelError::Shape(format!(
            "{op}: X must be [N, D] with D >= 2 (show, click, features), not {dims:?}"
        ))),
    }
}

fn cvm(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.output("Y")?);
    let use_cvm = l.bool("use_cvm")?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let dtype = float_dtype("cvm", &t)?;
        let (n, d) = rows_of("cvm", &t)?;
        let v = f64s(&t, "cvm")?;
        let lod = t.lod().to_vec();
        let skip = if use_cvm { 0 } else { 2 };
        let mut out = Vec::with_capacity(n * (d - skip));
        for row in v.chunks_exact(d).take(n) {
            let start = out.len();
            out.extend_from_slice(&row[skip..]);
            if use_cvm {
                // In the dtype's precision, as Paddle's `log` of T.
                let round = |v: f64| match dtype {
                    VarKind::Fp32 => f64::from(v as f32),
                    _ => v,
                };
                let show = round(round(out[start] + 1.0).ln());
                let click = round(round(round(out[start + 1] + 1.0).ln()) - show);
                out[start] = show;
                out[start + 1] = click;
            }
        }
        drop(v);
        drop(t);
        let result = float::tensor(dtype, &[n as i64, (d - skip) as i64], out)?;
        s.set_tensor(&y, result.with_lod(lod));
        Ok(())
    })
}

fn cvm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, cvm, dy) = (l.input("X")?, l.input("CVM")?, l.input("Y@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let use_cvm = l.bool("use_cvm")?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let dtype = float_dtype("cvm_grad", &xt)?;
        let (n, d) = rows_of("cvm_grad", &xt)?;
        let lod = xt.lod().to_vec();
        drop(xt);
        let (ct, gt) = (s.tensor(&cvm)?, s.tensor(&dy)?);
        let skip = if use_cvm { 0 } else { 2 };
        let kept = d - skip;
        if gt.numel() != n * kept {
            return Err(KernelError::Shape(format!(
                "cvm_grad: Y@GRAD {:?} must have the {n} rows of {kept} values Y had",
                gt.shape()
            )));
        }
        // The CVM row of each row of X: one per sequence of its LoD.
        let owner: Vec<usize> = match lod.first() {
            Some(level) => (0..level.len().saturating_sub(1))
                .flat_map(|seq| std::iter::repeat_n(seq, level[seq + 1] - level[seq]))
                .collect(),
            None => (0..n).collect(),
        };
        let cv = f64s(&ct, "cvm_grad")?;
        if owner.len() != n || owner.last().is_some_and(|&o| 2 * o + 1 >= cv.len()) {
            return Err(KernelError::Shape(format!(
                "cvm_grad: CVM {:?} needs a row for each {} of X",
                ct.shape(),
                if lod.is_empty() { "row" } else { "sequence" }
            )));
        }
        let g = f64s(&gt, "cvm_grad")?;
        let mut out = vec![0.0; n * d];
        for (i, (row, &o)) in out.chunks_exact_mut(d).zip(&owner).enumerate() {
            row[skip..].copy_from_slice(&g[i * kept..(i + 1) * kept]);
            row[0] = cv[2 * o];
            row[1] = cv[2 * o + 1];
        }
        drop((cv, g));
        drop((ct, gt));
        let result = float::tensor(dtype, &[n as i64, d as i64], out)?;
        s.set_tensor(&dx, result.with_lod(lod));
        Ok(())
    })
}
