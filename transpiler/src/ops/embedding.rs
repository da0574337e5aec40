//! Embeddings: `lookup_table` (1.x's, ids `[N, 1]`) and `lookup_table_v2`,
//! and the ops on their sparse (`SELECTED_ROWS`) gradients that 1.x's
//! clipping appends: `merge_selected_rows` and
//! `get_tensor_from_selected_rows` (neither has a gradient).
use super::infer::{same_as_x, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("lookup_table", |c| lookup_table(c, true)).shares_lod("Ids", "Out"));
    r.push(Behaviour::pure("lookup_table_v2", |c| lookup_table(c, false)).shares_lod("Ids", "Out"));
    // Both declare `Out` with `X`'s dims (its height and width), as
    // Paddle's InferShape does; the value tensor has one row per row of
    // the gradient when it runs.
    r.push(Behaviour::pure("merge_selected_rows", same_as_x));
    r.push(Behaviour::pure("get_tensor_from_selected_rows", same_as_x));
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
        // lookup_table (1.x's `embedding`) takes ids as a column; 1.x
        // refused other ids when the layer was built.
        if let Some(&last) = dims.last().filter(|&&d| d >= 0 && d != 1) {
            return Err(format!(
                "ShapeError: The last dimensions of the 'Ids' tensor must be 1. But received \
                 Ids's last dimensions = {last}, Ids's shape = {:?}.",
                ids.dims
            ));
        }
        dims.pop();
    }
    dims.push(w.dims[1]);
    Ok(vec![("Out", TensorType::new(w.dtype, dims))])
}
