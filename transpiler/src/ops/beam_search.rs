//! Beam search decoding, as Paddle 1.x's machine_translation inference
//! used it: `beam_search` (one step: the `beam_size` best candidates of
//! each source sentence, with a 2-level LoD of sources and prefixes) and
//! `beam_search_decode` (the sentences, backtracked through the tensor
//! arrays of each step's choices). Both read LoD known only when they run;
//! neither has a gradient. `gather_tree` (1.6's `BeamSearchDecoder`)
//! backtracks dense `[time, batch, beam]` choices instead.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("gather_tree", gather_tree));
    r.push(
        Behaviour::pure("beam_search", beam_search)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("beam_search_decode", beam_search_decode)
            .not_foldable()
            .reads_lod(),
    );
}

/// `beam_size` and `end_id` as 1.x's layer passes them.
fn check_attrs(c: &InferCtx) -> Result<(), String> {
    match c.int("beam_size") {
        Some(b) if b < 1 => Err(format!("beam_size is {b}; it must be at least 1")),
        _ => Ok(()),
    }
}

/// `selected_ids` and `selected_scores` `[-1, 1]` (how many candidates
/// survive is known only when it runs) in the dtypes of `pre_ids` and
/// `pre_scores`; `parent_idx` an int32 `[-1]`.
fn beam_search(c: &InferCtx) -> Out {
    check_attrs(c)?;
    if let Some(level) = c.int("level").filter(|&l| l != 0) {
        return Err(format!(
            "level is {level}; beam_search reads the 2-level LoD of sources and prefixes at level 0 (1.x's layer says it must not change)"
        ));
    }
    let mut out = vec![("parent_idx", TensorType::new(VarKind::Int32, vec![-1]))];
    if let Some(ids) = c.input("pre_ids") {
        out.push(("selected_ids", TensorType::new(ids.dtype, vec![-1, 1])));
    }
    if let Some(s) = c.input("pre_scores") {
        out.push(("selected_scores", TensorType::new(s.dtype, vec![-1, 1])));
    }
    Ok(out)
}

/// `SentenceIds` an int64 `[-1]` and `SentenceScores` `[-1]` (float32: the
/// arrays' element types are not declared).
fn beam_search_decode(c: &InferCtx) -> Out {
    check_attrs(c)?;
    Ok(vec![
        ("SentenceIds", TensorType::new(VarKind::Int64, vec![-1])),
        ("SentenceScores", TensorType::new(VarKind::Fp32, vec![-1])),
    ])
}

/// `gather_tree` (Paddle's `GatherTreeInferMeta`): `Ids` and `Parents`
/// `[max_time, batch, beam]` of one integer dtype; `Out` is `Ids`.
fn gather_tree(c: &InferCtx) -> Out {
    let (Some(ids), Some(parents)) = (c.input("Ids"), c.input("Parents")) else {
        return Ok(Vec::new());
    };
    if ids.dims.len() != 3 || parents.dims.len() != 3 {
        return Err(format!(
            "gather_tree takes Ids and Parents of rank 3 ([max_time, batch, beam]), got {:?} and {:?}",
            ids.dims, parents.dims
        ));
    }
    let agree = ids
        .dims
        .iter()
        .zip(&parents.dims)
        .all(|(&a, &b)| a == b || a < 0 || b < 0);
    if !agree {
        return Err(format!(
            "The shape of Input(Parents) must be same with the shape of Input(Ids): {:?} and {:?}",
            parents.dims, ids.dims
        ));
    }
    if !matches!(ids.dtype, VarKind::Int32 | VarKind::Int64) || ids.dtype != parents.dtype {
        return Err("gather_tree's Ids and Parents must be both int32 or both int64".into());
    }
    Ok(vec![("Out", ids.clone())])
}
