//! Ops on the sequences of a LoD tensor: `sequence_pool`, `sequence_conv`,
//! `sequence_softmax`; and `sequence_mask`, which turns sequence lengths
//! into a mask (no LoD).
use super::infer::{same_as_x, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("sequence_pool", sequence_pool)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_softmax", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_conv", sequence_conv)
            .not_foldable()
            .reads_lod(),
    );
    r.push(Behaviour::pure("sequence_mask", sequence_mask));
}

/// `sequence_mask`: `Y` is `X`'s dims with the mask length appended
/// (`maxlen`, unknown when it is -1, the lengths' maximum, or comes as
/// `MaxLenTensor`), in `out_dtype`. `X` holds int32 or int64 lengths, the
/// dtypes Paddle's kernel takes.
fn sequence_mask(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !matches!(x.dtype, VarKind::Int32 | VarKind::Int64) {
        return Err(format!(
            "X is {}; it takes int32 or int64 lengths",
            crate::model::dtype_name(x.dtype)
        ));
    }
    let maxlen = match c.int("maxlen") {
        Some(m) if m > 0 && !c.has_input("MaxLenTensor") => m,
        _ => -1,
    };
    let dtype = c.dtype("out_dtype").unwrap_or(VarKind::Int64);
    let mut dims = x.dims.clone();
    dims.push(maxlen);
    Ok(vec![("Y", TensorType::new(dtype, dims))])
}

/// One row per sequence: `X`'s dims with an unknown first; `MaxIndex`
/// the same in int32, declared only for MAX pooling as Paddle's
/// InferMeta declares it.
fn sequence_pool(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(d) = dims.first_mut() {
        *d = -1;
    }
    let mut out = vec![("Out", TensorType::new(x.dtype, dims.clone()))];
    if c.string("pooltype")
        .is_some_and(|p| p.eq_ignore_ascii_case("MAX"))
    {
        out.push(("MaxIndex", TensorType::new(VarKind::Int32, dims)));
    }
    Ok(out)
}

/// `[T, M]`: `X`'s rows, `Filter`'s columns.
fn sequence_conv(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("X"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let m = f.dims.get(1).copied().unwrap_or(-1);
    Ok(vec![("Out", TensorType::new(x.dtype, vec![rows, m]))])
}
