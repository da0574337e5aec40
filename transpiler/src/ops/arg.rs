//! `arg_max` and `arg_min`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("arg_max", arg_extreme));
    r.push(Behaviour::pure("arg_min", arg_extreme));
}

/// The index of dim `axis` (negative counts from the end) of a rank-`rank` tensor.
pub(super) fn axis_index(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    usize::try_from(a)
        .ok()
        .filter(|&a| a < rank.max(1))
        .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))
}

/// `arg_max`/`arg_min`: int64 (or `dtype`) indices, `X`'s dims without
/// `axis` (kept as 1 with `keepdims`; one index for all with `flatten`).
fn arg_extreme(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let dtype = match c.int("dtype").unwrap_or(3) {
        2 => VarKind::Int32,
        _ => VarKind::Int64,
    };
    let keep = c.bool("keepdims").unwrap_or(false);
    let dims = if c.bool("flatten").unwrap_or(false) {
        if keep {
            vec![1; x.dims.len()]
        } else {
            Vec::new()
        }
    } else {
        let a = axis_index(c.int("axis").unwrap_or(0), x.dims.len())?;
        let mut d = x.dims.clone();
        if keep {
            if let Some(v) = d.get_mut(a) {
                *v = 1;
            }
        } else if a < d.len() {
            d.remove(a);
        }
        d
    };
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}
