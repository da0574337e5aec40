//! `cos_sim` (Paddle 1.x's, which 3.3.1 dropped: see `data/fluidc_ops.json`).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("cos_sim", cos_sim).shares_lod("X", "Out"));
}

/// `cos_sim`: `Out` and `XNorm` `[N, 1]` for `X` `[N, ...]`, `YNorm`
/// `[M, 1]` for `Y` `[M, ...]`. `Y` has `X`'s rank (at least 2) and dims
/// after the first, and `M` is `N` or 1 (one row compared with every row
/// of `X`). Paddle checks this only where all dims are known; a dim still
/// unknown (-1) here is left to the kernel, as there.
fn cos_sim(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != y.dims.len() || x.dims.len() < 2 {
        return Err(format!(
            "X {:?} and Y {:?} must have one rank, at least 2 (a batch of rows); reshape them first",
            x.dims, y.dims
        ));
    }
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if !x.dims[1..]
        .iter()
        .zip(&y.dims[1..])
        .all(|(&a, &b)| known(a, b))
    {
        return Err(format!(
            "X {:?} and Y {:?} must have the same dims after the first; compare rows of one width (e.g. fc layers of one size)",
            x.dims, y.dims
        ));
    }
    let (n, m) = (x.dims[0], y.dims[0]);
    if !(known(n, m) || m == 1) {
        return Err(format!(
            "Y has {m} rows and X {n}: Y needs as many rows as X, or one row to compare with each"
        ));
    }
    let column = |rows: i64| TensorType::new(x.dtype, vec![rows, 1]);
    Ok(vec![
        ("Out", column(n)),
        ("XNorm", column(n)),
        ("YNorm", column(m)),
    ])
}
