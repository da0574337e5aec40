//! Sequence labelling: Paddle 1.x's linear-chain CRF (`linear_chain_crf`,
//! its cost, fluidc-only as Paddle 3.3.1 dropped it, see
//! `data/fluidc_ops.json`) and its Viterbi decoder `crf_decoding` (the
//! chunk evaluator is `chunk_eval`). Each reads its inputs' LoD, known only
//! when it runs; inference checks the dims as their 1.x `InferShape` did.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("linear_chain_crf", linear_chain_crf)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("crf_decoding", crf_decoding)
            .not_foldable()
            .reads_lod(),
    );
}

/// Two dims equal unless one is unknown.
pub(super) fn agree(a: i64, b: i64) -> bool {
    a < 0 || b < 0 || a == b
}

/// `Transition` is `[D + 2, D]`: start weights, end weights, then a row of
/// weights from each tag to every tag.
fn check_transition(t: &TensorType, emission_tags: i64) -> Result<(), String> {
    let [rows, tags] = t.dims[..] else {
        return Err(format!(
            "Transition {:?} must be a 2-D tensor [D + 2, D] (D tags)",
            t.dims
        ));
    };
    if rows >= 0 && tags >= 0 && rows - 2 != tags {
        return Err(format!(
            "Transition {:?} must be [D + 2, D]: the start and end weights, then D rows of transition weights",
            t.dims
        ));
    }
    if !agree(emission_tags, tags) {
        return Err(format!(
            "Emission has {emission_tags} columns but Transition {:?} is for {tags} tags; they must be the tag number",
            t.dims
        ));
    }
    Ok(())
}

/// A label column `[N, 1]` for an emission of `rows` rows.
fn check_label(label: &TensorType, rows: i64) -> Result<(), String> {
    if label.dims.len() != 2 || !agree(label.dims[1], 1) {
        return Err(format!(
            "Label {:?} must be a 2-D tensor [N, 1], one tag per row",
            label.dims
        ));
    }
    if !agree(label.dims[0], rows) {
        return Err(format!(
            "Label has {} rows but Emission {rows}; they must be as many",
            label.dims[0]
        ));
    }
    Ok(())
}

/// `Alpha` and `EmissionExps` shaped like `Emission` `[N, D]`,
/// `TransitionExps` like `Transition`, `LogLikelihood` `[N, 1]` (at run
/// time one row per sequence: 1.x's InferShape could not see the LoD).
fn linear_chain_crf(c: &InferCtx) -> Out {
    let Some(e) = c.input("Emission") else {
        return Ok(Vec::new());
    };
    let [rows, tags] = e.dims[..] else {
        return Err(format!(
            "Emission {:?} must be a 2-D tensor [N, D]: a row of D tag scores per word",
            e.dims
        ));
    };
    let mut out = vec![
        ("Alpha", e.clone()),
        ("EmissionExps", e.clone()),
        ("LogLikelihood", TensorType::new(e.dtype, vec![rows, 1])),
    ];
    if let Some(t) = c.input("Transition") {
        check_transition(t, tags)?;
        out.push(("TransitionExps", TensorType::new(e.dtype, t.dims.clone())));
    }
    if let Some(label) = c.input("Label") {
        check_label(label, rows)?;
    }
    Ok(out)
}

/// `ViterbiPath` `[N, 1]` (`[B, S]` for a padded `[B, S, D]` emission with
/// `Length`), declared with the emission's dtype as 1.x's layer declared
/// it (the op writes int64 tags, or 0/1 marks when `Label` is given).
fn crf_decoding(c: &InferCtx) -> Out {
    let Some(e) = c.input("Emission") else {
        return Ok(Vec::new());
    };
    let padded = c.has_input("Length");
    let rank = if padded { 3 } else { 2 };
    if e.dims.len() != rank {
        return Err(format!(
            "Emission {:?} must be a {rank}-D tensor ({})",
            e.dims,
            if padded {
                "[B, S, D] with Length"
            } else {
                "[N, D]: a row of D tag scores per word"
            }
        ));
    }
    if let Some(t) = c.input("Transition") {
        check_transition(t, e.dims[rank - 1])?;
    }
    if !padded {
        if let Some(label) = c.input("Label") {
            check_label(label, e.dims[0])?;
        }
    }
    let dims = if padded {
        vec![e.dims[0], e.dims[1]]
    } else {
        vec![e.dims[0], 1]
    };
    Ok(vec![("ViterbiPath", TensorType::new(e.dtype, dims))])
}
