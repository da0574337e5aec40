//! Embeddings: `lookup_table` (1.x's, ids `[N, 1]`) and `lookup_table_v2`.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("lookup_table", |c| lookup_table(c, true)).shares_lod("Ids", "Out"));
    r.push(Behaviour::pure("lookup_table_v2", |c| lookup_table(c, false)).shares_lod("Ids", "Out"));
}

/// `Out` is `Ids`' dims (v1: without its last, which is 1) then the row width of `W`.
fn lookup_table(c: &InferCtx, v1: bool) -> Out {
    let (Some(w), Some(ids)) = (c.input("W"), c.input("Ids")) else {
        return Ok(Vec::new());
    };
    if w.dims.len() != 2 {
        return Err(format!("W must be a matrix, it has dims {:?}", w.dims));
    }
    let mut dims = ids.dims.clone();
    if v1 {
        dims.pop();
    }
    dims.push(w.dims[1]);
    Ok(vec![("Out", TensorType::new(w.dtype, dims))])
}
