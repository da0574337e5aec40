//! `one_hot_v2`, and 1.x's `one_hot` (ids `[..., 1]`), which saved 1.x
//! models hold.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("one_hot_v2", one_hot_v2).shares_lod("X", "Out"));
    r.push(Behaviour::pure("one_hot", one_hot).shares_lod("X", "Out"));
}

/// 1.x's `one_hot`: ids `[..., 1]` give `[..., depth]`. Its InferShape
/// asked only for a last dim of at least 1 (a declaration that does not
/// fit the ids fed is the kernel's to refuse, as 1.x's op test expects).
fn one_hot(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.last() == Some(&0) || x.dims.len() < 2 {
        return Err(format!(
            "X {:?} of one_hot must have a rank of 2 or more and end in a dim of 1 (an id per row)",
            x.dims
        ));
    }
    let mut out = one_hot_v2(c)?;
    if let Some((_, t)) = out.first_mut() {
        // X's last dim of 1 gives way to depth.
        let depth = t.dims.pop().unwrap_or(-1);
        t.dims.pop();
        t.dims.push(depth);
    }
    Ok(out)
}

/// `one_hot_v2`: `X`'s dims with `depth` appended, in the `dtype`
/// attribute's dtype (float32 by default); unknown when the depth is a
/// tensor (`depth_tensor`). `X` holds int32 or int64 ids, the dtypes
/// Paddle's kernel takes; other ids are refused when it runs, not when it
/// is built, as 1.x's InferShape checked no dtype.
fn one_hot_v2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let depth = match c.int("depth") {
        Some(d) if d >= 1 && !c.has_input("depth_tensor") => d,
        _ => -1,
    };
    let dtype = c.dtype("dtype").unwrap_or(VarKind::Fp32);
    let mut dims = x.dims.clone();
    dims.push(depth);
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}
