//! Reductions: `mean`, `reduce_*` (`reduce_prod`, `reduce_all` and `reduce_any` too), `cross_entropy`, `squared_l2_norm`, `clip_by_norm`,
//! and the running sum `cumsum`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("mean", mean).lod(super::Lod::GradShares));
    // 1.x's ReduceOp shares X's LoD with Out when it does not reduce dim
    // 0 (`if (dims[0] != 0) ShareLoD`: Out keeps X's rows, so a sequence
    // op can read the result), and its ReduceGradOp X's with X@GRAD.
    let shares = super::Lod::Shares("X", "Out");
    r.push(Behaviour::pure("reduce_sum", reduce_sum).lod(shares));
    for ty in ["reduce_mean", "reduce_max", "reduce_min", "reduce_prod"] {
        r.push(Behaviour::pure(ty, reduce).lod(shares));
    }
    r.push(Behaviour::pure("reduce_all", reduce_logic).lod(shares));
    r.push(Behaviour::pure("reduce_any", reduce_logic).lod(shares));
    r.push(Behaviour::pure("cross_entropy", cross_entropy));
    r.push(Behaviour::pure("cross_entropy2", cross_entropy2));
    r.push(Behaviour::pure("squared_l2_norm", squared_l2_norm));
    r.push(Behaviour::pure("clip_by_norm", super::infer::same_as_x));
    r.push(Behaviour::pure("cumsum", cumsum));
}

/// `cumsum`: `Out` is `X` (flattened to one dim with `flatten`); `axis`
/// must name a dim of `X`.
fn cumsum(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if c.bool("flatten").unwrap_or(false) {
        let n = if x.dims.iter().any(|&d| d < 0) {
            -1
        } else {
            x.dims.iter().product()
        };
        return Ok(vec![("Out", TensorType::new(x.dtype, vec![n]))]);
    }
    let axis = c.int("axis").unwrap_or(-1);
    let rank = x.dims.len() as i64;
    if axis < -rank.max(1) || axis >= rank.max(1) {
        return Err(format!(
            "axis {axis} is out of range for X {:?}: it must be in [-{rank}, {rank})",
            x.dims
        ));
    }
    Ok(vec![("Out", x.clone())])
}

/// `squared_l2_norm`: the sum of squares, shape `[1]` as Paddle infers it.
fn squared_l2_norm(c: &InferCtx) -> Out {
    Ok(c.input("X")
        .map(|x| ("Out", TensorType::new(x.dtype, vec![1])))
        .into_iter()
        .collect())
}

/// `mean` of everything: one element (Paddle 3 writes a 0-D tensor, 1.x `[1]`;
/// the rank is left to the declaration).
fn mean(c: &InferCtx) -> Out {
    Ok(c.input("X")
        .map(|x| ("Out", TensorType::new(x.dtype, Vec::new())))
        .into_iter()
        .collect())
}

fn reduce(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let rank = x.dims.len() as i64;
    let dims = c.ints("dim").unwrap_or_default();
    let all = c.bool("reduce_all").unwrap_or(false) || dims.is_empty() || rank == 0;
    let mut reduced = vec![all; x.dims.len()];
    if !all {
        for d in dims {
            let i = if d < 0 { d + rank } else { d };
            match usize::try_from(i).ok().and_then(|i| reduced.get_mut(i)) {
                Some(r) => *r = true,
                None => {
                    return Err(format!(
                        "dim {d} is out of range for an input of rank {rank}"
                    ))
                }
            }
        }
    }
    let keep = c.bool("keep_dim").unwrap_or(false);
    let out_dims = x
        .dims
        .iter()
        .zip(&reduced)
        .filter_map(|(&d, &r)| match (r, keep) {
            (false, _) => Some(d),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let dtype = c.dtype("out_dtype").unwrap_or(x.dtype);
    Ok(vec![("Out", TensorType::new(dtype, out_dims))])
}

/// `reduce_all`/`reduce_any`: a bool result of bools (Paddle's kernel
/// takes bool tensors).
fn reduce_logic(c: &InferCtx) -> Out {
    if let Some(x) = c.input("X") {
        if x.dtype != VarKind::Bool {
            return Err(format!(
                "input is {}; it takes bool tensors (compare or cast first)",
                crate::model::dtype_name(x.dtype)
            ));
        }
    }
    reduce(c)
}

/// `reduce_sum` without `out_dtype` sums bool and int32 into int64, as
/// Paddle's `SumRawInferMeta` declares it (and its kernel computes).
fn reduce_sum(c: &InferCtx) -> Out {
    let mut out = reduce(c)?;
    if c.dtype("out_dtype").is_none() {
        for (_, t) in &mut out {
            if matches!(t.dtype, VarKind::Bool | VarKind::Int32) {
                t.dtype = VarKind::Int64;
            }
        }
    }
    Ok(out)
}

/// `Y` has `X`'s dims with the last one 1.
/// `cross_entropy2`: `Y` and `MatchX` as `cross_entropy`'s `Y`, `XShape`
/// `[...X's dims, 0]`.
fn cross_entropy2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut out = cross_entropy(c)?;
    let y = out[0].1.clone();
    out.push(("MatchX", y));
    let mut xshape = x.dims.clone();
    xshape.push(0);
    out.push(("XShape", TensorType::new(x.dtype, xshape)));
    Ok(out)
}

fn cross_entropy(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(last) = dims.last_mut() {
        *last = 1;
    }
    Ok(vec![("Y", TensorType::new(x.dtype, dims))])
}
