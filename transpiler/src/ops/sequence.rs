//! Ops on the sequences of a LoD tensor: `sequence_pool`, `sequence_conv`,
//! `sequence_softmax`.
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
