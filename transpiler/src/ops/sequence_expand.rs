//! `sequence_expand`: each row (or sequence) of `X` repeated as `Y`'s LoD
//! says.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("sequence_expand", sequence_expand)
            .not_foldable()
            .reads_lod(),
    );
}

/// `sequence_expand`: `X`'s dims with an unknown first (how many rows
/// depends on `Y`'s LoD, known only when it runs). `X` is a batch of rows
/// (rank at least 2), as Paddle's `InferShape` requires.
fn sequence_expand(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!(
            "X {:?} must have rank 2 or more (a batch of rows); reshape it to [-1, 1] first",
            x.dims
        ));
    }
    let mut dims = x.dims.clone();
    dims[0] = -1;
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}
