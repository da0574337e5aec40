//! Encodings of positions and ids: `add_position_encoding` (1.x's
//! Transformer-style sinusoids added to a sequence batch) and
//! `shard_index` (ids mapped into one shard of a split vocabulary).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("add_position_encoding", add_position_encoding).shares_lod("X", "Out"));
    r.push(Behaviour::pure("shard_index", shard_index).shares_lod("X", "Out"));
}

/// `add_position_encoding`: `Out` is `X`, float, `[N, enc]` (a LoD batch)
/// or `[batch, steps, enc]`, `enc` even (sines then cosines).
fn add_position_encoding(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !matches!(x.dims.len(), 2 | 3) {
        return Err(format!(
            "The input(X)'s rank of add_position_encoding must be 2 (with LoD) or 3, got {:?}",
            x.dims
        ));
    }
    let enc = x.dims[x.dims.len() - 1];
    if enc >= 0 && enc % 2 != 0 {
        return Err(format!(
            "The input(X)'s last dim of add_position_encoding must be even (half sines, half cosines), got {enc}"
        ));
    }
    Ok(vec![("Out", x.clone())])
}

/// `shard_index`: `Out` is `X`, int32/int64 `[..., 1]`; `0 <= shard_id <
/// nshards` and `index_num` positive, as Paddle's InferMeta checks.
fn shard_index(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !matches!(x.dtype, VarKind::Int32 | VarKind::Int64) {
        return Err("shard_index's input must be int32 or int64".into());
    }
    if x.dims.len() < 2 || x.dims[x.dims.len() - 1] != 1 {
        return Err(format!(
            "Rank of Input(X) should be at least 2, and the last dimension should be 1, got {:?}",
            x.dims
        ));
    }
    let (num, shards, id) = (
        c.int("index_num").unwrap_or(0),
        c.int("nshards").unwrap_or(0),
        c.int("shard_id").unwrap_or(-1),
    );
    if num <= 0 || shards <= 0 || id < 0 || id >= shards {
        return Err(format!(
            "shard_index needs index_num > 0, nshards > 0 and 0 <= shard_id < nshards, got {num}, {shards}, {id}"
        ));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, x.dims.clone()))])
}
