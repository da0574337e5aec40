//! Beam search decoding as Paddle 1.x's CPU kernels did it
//! (`beam_search_op`, `math/beam_search.cc` and `beam_search_decode_op.h`
//! of 1.2-1.5); the LoD ops its decoders use, `lod_reset` and `is_empty`,
//! are in `super::lod`.
//!
//! A step's tensors carry a 2-level LoD: level 0 gives each source
//! sentence its prefixes (the hypotheses still growing), level 1 each
//! prefix its rows. `beam_search` keeps, for each source, the `beam_size`
//! best candidates over all its prefixes' rows (a prefix that ended,
//! `pre_id == end_id`, offers only `end_id` with its old score), and
//! outputs them with the LoD [source -> input rows, input row ->
//! selected]: each input row becomes a prefix of the next step. A source
//! whose candidates are all `end_id` after ended prefixes is pruned (its
//! prefixes get no rows). `beam_search_decode` walks the steps back from
//! the last, following each candidate to the row it grew from, and
//! outputs `beam_size` sentences per source, best first.
use std::sync::Arc;

use fluidc_transpiler::VarKind;

use super::lod::rows;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{dtype_name, Lod, Tensor};
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("beam_search", beam_search);
    r.add("beam_search_decode", beam_search_decode);
    r.add("gather_tree", gather_tree);
}

/// One candidate: the row (prefix) it extends, its id and its score.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Item {
    offset: usize,
    id: i64,
    score: f32,
}

impl Item {
    /// 1.x's order: by score, then by row.
    fn less(&self, other: &Item) -> bool {
        self.score < other.score || (self.score == other.score && self.offset < other.offset)
    }
}

/// Inserts `item` into `top` (best first, at most `beam` items) as 1.x's
/// `Insert` did: after the items it is not greater than, and replacing
/// the last when full and not less than it.
fn insert(top: &mut Vec<Item>, item: Item, beam: usize) {
    if top.len() < beam {
        top.push(item);
    } else if top.last().is_none_or(|last| item.less(last)) {
        return;
    }
    let n = top.len();
    for k in (0..n - 1).rev() {
        if top[k].less(&item) {
            top[k + 1] = top[k];
        } else {
            top[k + 1] = item;
            return;
        }
    }
    top[0] = item;
}

/// One `beam_search` step's inputs, flattened: `rows` prefixes, each with
/// `width` candidates.
#[derive(Debug)]
pub(crate) struct StepInput<'a> {
    pub pre_ids: &'a [i64],
    pub pre_scores: &'a [f32],
    /// `None`: the candidate's column is its id.
    pub ids: Option<&'a [i64]>,
    pub scores: &'a [f32],
    pub width: usize,
    /// Each source's first row, and the end (level 0 in rows).
    pub sources: &'a [usize],
}

/// A step's choices: ids, scores, the row each grew from, and the LoD.
#[derive(Debug, PartialEq)]
pub(crate) struct Selected {
    pub ids: Vec<i64>,
    pub scores: Vec<f32>,
    pub parents: Vec<i32>,
    pub lod: Lod,
}

/// 1.x's `BeamSearchFunctor`: select, group by row, prune ended sources.
pub(crate) fn select(
    x: &StepInput,
    beam: usize,
    end_id: i64,
    accumulated: bool,
) -> Result<Selected, KernelError> {
    let rows = x.pre_ids.len();
    if x.sources.first() != Some(&0) || x.sources.last() != Some(&rows) {
        return Err(KernelError::Shape(format!(
            "the sources' rows {:?} must start at 0 and end at the {rows} rows of pre_ids",
            x.sources
        )));
    }
    // The best items of each source, then by row in that order.
    let mut by_row: Vec<Vec<Item>> = vec![Vec::new(); rows];
    for w in x.sources.windows(2) {
        let mut top = Vec::with_capacity(beam.min((w[1] - w[0]) * x.width.max(1)));
        for offset in w[0]..w[1] {
            let (pre_id, pre_score) = (x.pre_ids[offset], x.pre_scores[offset]);
            if pre_id == end_id {
                // An ended prefix offers only end_id, with its score.
                insert(
                    &mut top,
                    Item {
                        offset,
                        id: end_id,
                        score: pre_score,
                    },
                    beam,
                );
                continue;
            }
            for d in 0..x.width {
                let k = offset * x.width + d;
                let id = x.ids.map_or(d as i64, |ids| ids[k]);
                let score = if accumulated {
                    x.scores[k]
                } else {
                    pre_score + x.scores[k].ln()
                };
                insert(&mut top, Item { offset, id, score }, beam);
            }
        }
        for item in top {
            by_row[item.offset].push(item);
        }
    }
    // A source whose every candidate is end_id after an ended prefix has
    // finished (one step after its last end_id was written): prune it.
    for w in x.sources.windows(2) {
        let finished = (w[0]..w[1]).all(|o| {
            by_row[o]
                .iter()
                .all(|i| i.id == end_id && x.pre_ids[o] == end_id)
        });
        if finished {
            for items in &mut by_row[w[0]..w[1]] {
                items.clear();
            }
        }
    }
    let mut out = Selected {
        ids: Vec::new(),
        scores: Vec::new(),
        parents: Vec::new(),
        lod: vec![x.sources.to_vec(), vec![0]],
    };
    for (row, items) in by_row.iter().enumerate() {
        for item in items {
            out.ids.push(item.id);
            out.scores.push(item.score);
            out.parents.push(i32::try_from(row).unwrap_or(i32::MAX));
        }
        out.lod[1].push(out.ids.len());
    }
    Ok(out)
}

/// LoD level `level` in rows (1.x's `ToAbsOffset`).
fn absolute(lod: &[Vec<usize>], level: usize) -> Vec<usize> {
    let mut offsets = lod[level].clone();
    for next in &lod[level + 1..] {
        for o in &mut offsets {
            *o = next.get(*o).copied().unwrap_or(usize::MAX);
        }
    }
    offsets
}

fn beam_search(l: &OpReader) -> Result<Exec, KernelError> {
    let (pre_ids, pre_scores, scores) = (
        l.input("pre_ids")?,
        l.input("pre_scores")?,
        l.input("scores")?,
    );
    let ids = l.opt_input("ids")?;
    let (sel_ids, sel_scores) = (l.output("selected_ids")?, l.output("selected_scores")?);
    let parent = l.opt_output("parent_idx")?;
    let level = l.int_or("level", 0)?;
    let beam = l.int_or("beam_size", 1)?;
    let end_id = l.int_or("end_id", 0)?;
    let accumulated = l.bool("is_accumulated")?;
    let op = "beam_search";
    if beam < 1 {
        return Err(KernelError::Attribute(format!(
            "{op}: beam_size is {beam}; it must be at least 1"
        )));
    }
    let level = usize::try_from(level)
        .map_err(|_| KernelError::Attribute(format!("{op}: level {level} is negative")))?;
    compute(move |s| {
        let (pi, ps, sc) = (
            s.tensor(&pre_ids)?,
            s.tensor(&pre_scores)?,
            s.tensor(&scores)?,
        );
        let it = match &ids {
            Some(ids) => Some(s.tensor(ids)?),
            None => None,
        };
        let Some(pre_id_values) = pi.values::<i64>() else {
            return Err(KernelError::Dtype(format!(
                "{op}: pre_ids `{}` is {}; it must be int64",
                pre_ids.name,
                dtype_name(pi.dtype())
            )));
        };
        let floats = |t: &Tensor, slot: &str, name: &str| -> Result<Vec<f32>, KernelError> {
            t.values::<f32>().map(<[f32]>::to_vec).ok_or_else(|| {
                KernelError::Dtype(format!(
                    "{op}: {slot} `{name}` is {}; 1.x's kernel reads it as float32",
                    dtype_name(t.dtype())
                ))
            })
        };
        let pre_score_values = floats(&ps, "pre_scores", &pre_scores.name)?;
        let score_values = floats(&sc, "scores", &scores.name)?;
        let n = rows(&sc);
        if sc.lod().len() <= level {
            return Err(KernelError::Invalid(format!(
                "{op}: scores `{}` has {} LoD levels; it needs level {level} (sources) and the level of its prefixes: give it pre_scores' LoD (lod_reset)",
                scores.name,
                sc.lod().len()
            )));
        }
        let sources = absolute(sc.lod(), level);
        if pre_id_values.len() != n || pre_score_values.len() != n {
            return Err(KernelError::Shape(format!(
                "{op}: pre_ids has {} and pre_scores {} elements, but scores has {n} rows; they need one per row",
                pre_id_values.len(),
                pre_score_values.len()
            )));
        }
        let width = score_values.len().checked_div(n).unwrap_or(0);
        let id_values = match &it {
            Some(t) => match t.values::<i64>() {
                Some(v) if v.len() == score_values.len() => Some(v),
                Some(v) => {
                    return Err(KernelError::Shape(format!(
                        "{op}: ids has {} elements but scores {}; they must have the same shape",
                        v.len(),
                        score_values.len()
                    )))
                }
                None => {
                    return Err(KernelError::Dtype(format!(
                        "{op}: ids is {}; it must be int64",
                        dtype_name(t.dtype())
                    )))
                }
            },
            None => None,
        };
        let step = StepInput {
            pre_ids: pre_id_values,
            pre_scores: &pre_score_values,
            ids: id_values,
            scores: &score_values,
            width,
            sources: &sources,
        };
        let out = select(&step, beam as usize, end_id, accumulated)
            .map_err(|e| e.map_message(|e| format!("{op}: scores `{}`: {e}", scores.name)))?;
        let count = out.ids.len() as i64;
        drop((pi, ps, sc, it));
        s.set_tensor(
            &sel_ids,
            Tensor::from_vec(&[count, 1], out.ids)?.with_lod(out.lod.clone()),
        );
        s.set_tensor(
            &sel_scores,
            Tensor::from_vec(&[count, 1], out.scores)?.with_lod(out.lod),
        );
        if let Some(parent) = &parent {
            s.set_tensor(parent, Tensor::from_vec(&[count], out.parents)?);
        }
        Ok(())
    })
}

/// One step of the arrays `beam_search_decode` reads: its ids, scores
/// (as f64, exact for float32) and 2-level LoD.
#[derive(Debug)]
pub(crate) struct StepChoice<'a> {
    pub ids: &'a [i64],
    pub scores: Vec<f64>,
    pub lod: &'a [Vec<usize>],
}

/// The decoded sentences: ids, scores, LoD [source -> sentences,
/// sentence -> words].
#[derive(Debug, PartialEq)]
pub(crate) struct Sentences {
    pub ids: Vec<i64>,
    pub scores: Vec<f64>,
    pub lod: Lod,
}

#[derive(Debug, Clone, Default)]
struct Sentence {
    ids: Vec<i64>,
    scores: Vec<f64>,
}

/// 1.x's `BeamSearchDecoder::Backtrace` with its conversion to tensors.
pub(crate) fn backtrace(
    steps: &[StepChoice],
    beam: usize,
    end_id: i64,
) -> Result<Sentences, KernelError> {
    let Some(first) = steps.first() else {
        return Err(KernelError::Invalid(
            "the ids array is empty: no step was written".into(),
        ));
    };
    for (t, step) in steps.iter().enumerate() {
        if step.lod.len() != 2 {
            return Err(KernelError::Invalid(format!(
                "step {t} has {} LoD levels; each step's ids must have beam_search's 2 levels (sources, prefixes)",
                step.lod.len()
            )));
        }
        if step.scores.len() != step.ids.len() {
            return Err(KernelError::Invalid(format!(
                "step {t} has {} ids but {} scores",
                step.ids.len(),
                step.scores.len()
            )));
        }
    }
    let sources = first.lod[0].len().saturating_sub(1);
    if sources == 0 {
        return Err(KernelError::Invalid(
            "the first step has no source sentence".into(),
        ));
    }
    let mut sentences = vec![vec![Sentence::default(); beam]; sources];
    let mut prefixes: Vec<Vec<usize>> = vec![Vec::new(); sources];
    for (t, step) in steps.iter().enumerate().rev() {
        let (src_level, sent_level) = (&step.lod[0], &step.lod[1]);
        if src_level.len() != sources + 1 {
            return Err(KernelError::Invalid(format!(
                "step {t} has {} sources but the first step {sources}",
                src_level.len() - 1
            )));
        }
        let bad = || {
            KernelError::Invalid(format!(
                "the LoD {:?} of step {t} does not describe its rows",
                step.lod
            ))
        };
        let word = |row: usize| -> Result<(i64, f64), KernelError> {
            match (step.ids.get(row), step.scores.get(row)) {
                (Some(&id), Some(&score)) => Ok((id, score)),
                _ => Err(bad()),
            }
        };
        for src in 0..sources {
            let (first_prefix, end_prefix) = (src_level[src], src_level[src + 1]);
            let sent = &mut sentences[src];
            let path = &mut prefixes[src];
            if path.is_empty() {
                // The last step, or the step before its source was pruned:
                // each candidate starts a sentence.
                for prefix in first_prefix..end_prefix {
                    let (start, end) = match (sent_level.get(prefix), sent_level.get(prefix + 1)) {
                        (Some(&a), Some(&b)) if a <= b => (a, b),
                        _ => return Err(bad()),
                    };
                    for row in start..end {
                        path.push(prefix);
                        let Some(s) = sent.get_mut(path.len() - 1) else {
                            return Err(KernelError::Invalid(format!(
                                "step {t} has more than beam_size {beam} candidates for source {src}"
                            )));
                        };
                        let (id, score) = word(row)?;
                        s.ids.push(id);
                        s.scores.push(score);
                    }
                }
            } else {
                let lens = |p: usize| match (sent_level.get(p), sent_level.get(p + 1)) {
                    (Some(&a), Some(&b)) if a <= b => Ok(b - a),
                    _ => Err(bad()),
                };
                let start = *sent_level.get(first_prefix).ok_or_else(bad)?;
                let mut prefix = first_prefix;
                let mut seen = lens(prefix)?;
                for (k, at) in path.iter_mut().enumerate() {
                    let row = *at;
                    let (id, score) = word(row)?;
                    let s = &mut sent[k];
                    // An ended sentence repeats end_id: keep its last one.
                    if id != end_id || s.ids.is_empty() {
                        s.ids.push(id);
                        s.scores.push(score);
                    }
                    while start + seen <= row {
                        prefix += 1;
                        seen += lens(prefix)?;
                    }
                    *at = prefix;
                }
            }
        }
    }
    // Best first by the last score (the sentences are still reversed); a
    // sentence with no words (fewer candidates than beam_size) goes last.
    // An insertion sort, stable as 1.x's std::sort is for a beam of at
    // most 16.
    let key = |s: &Sentence| s.scores.first().copied();
    let better = |a: &Sentence, b: &Sentence| match (key(a), key(b)) {
        (Some(x), Some(y)) => x > y,
        (Some(_), None) => true,
        _ => false,
    };
    let mut out = Sentences {
        ids: Vec::new(),
        scores: Vec::new(),
        lod: vec![vec![0], vec![0]],
    };
    for mut list in sentences {
        for i in 1..list.len() {
            let mut j = i;
            while j > 0 && better(&list[j], &list[j - 1]) {
                list.swap(j, j - 1);
                j -= 1;
            }
        }
        for s in &list {
            out.ids.extend(s.ids.iter().rev());
            out.scores.extend(s.scores.iter().rev());
            out.lod[1].push(out.ids.len());
        }
        let n = out.lod[1].len() - 1;
        out.lod[0].push(n);
    }
    Ok(out)
}

/// The elements of a tensor array variable.
fn array_items(v: &Value, name: &str, op: &str) -> Result<Arc<Vec<Value>>, KernelError> {
    match v {
        Value::TensorArray(items) => Ok(items.clone()),
        Value::Empty => Err(KernelError::MissingInput(format!(
            "{op}: the array `{name}` was never written"
        ))),
        other => Err(KernelError::Invalid(format!(
            "{op}: `{name}` must be a tensor array, not {}",
            other.describe()
        ))),
    }
}

fn beam_search_decode(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, scores) = (l.input("Ids")?, l.input("Scores")?);
    let (out_ids, out_scores) = (l.output("SentenceIds")?, l.output("SentenceScores")?);
    let beam = l.int_or("beam_size", 1)?;
    let end_id = l.int_or("end_id", 0)?;
    let op = "beam_search_decode";
    if beam < 1 {
        return Err(KernelError::Attribute(format!(
            "{op}: beam_size is {beam}; it must be at least 1"
        )));
    }
    compute(move |s| {
        let id_items = s.with(&ids, |v| array_items(v, &ids.name, op))?;
        let score_items = s.with(&scores, |v| array_items(v, &scores.name, op))?;
        if id_items.len() != score_items.len() {
            return Err(KernelError::Invalid(format!(
                "{op}: Ids has {} steps but Scores {}; they must be as many",
                id_items.len(),
                score_items.len()
            )));
        }
        let tensor = |v: &Value, t: usize| match v {
            Value::Tensor(x) => Ok((**x).clone()),
            other => other.to_tensor().ok_or_else(|| {
                KernelError::Invalid(format!("{op}: step {t} of the arrays was never written"))
            }),
        };
        let mut id_tensors = Vec::with_capacity(id_items.len());
        let mut score_tensors = Vec::with_capacity(id_items.len());
        let mut dtype = VarKind::Fp32;
        for (t, (i, sc)) in id_items.iter().zip(score_items.iter()).enumerate() {
            let (it, st) = (tensor(i, t)?, tensor(sc, t)?);
            if it.values::<i64>().is_none() {
                return Err(KernelError::Dtype(format!(
                    "{op}: step {t} of Ids is {}; it must be int64",
                    dtype_name(it.dtype())
                )));
            }
            if !matches!(st.dtype(), VarKind::Fp32 | VarKind::Fp64) {
                return Err(KernelError::Dtype(format!(
                    "{op}: step {t} of Scores is {}; it must be float32 or float64",
                    dtype_name(st.dtype())
                )));
            }
            dtype = st.dtype();
            id_tensors.push(it);
            score_tensors.push(st);
        }
        let steps: Vec<StepChoice> = id_tensors
            .iter()
            .zip(&score_tensors)
            .map(|(it, st)| StepChoice {
                ids: it.values::<i64>().unwrap_or(&[]),
                scores: super::float::f64s(st, op)
                    .map(|c| c.into_owned())
                    .unwrap_or_default(),
                lod: it.lod(),
            })
            .collect();
        let out = backtrace(&steps, beam as usize, end_id)
            .map_err(|e| e.map_message(|e| format!("{op}: {e}")))?;
        let n = out.ids.len() as i64;
        let score_tensor = Tensor::from_vec(&[n], out.scores)?.cast(dtype)?;
        s.set_tensor(
            &out_ids,
            Tensor::from_vec(&[n], out.ids)?.with_lod(out.lod.clone()),
        );
        s.set_tensor(&out_scores, score_tensor.with_lod(out.lod));
        Ok(())
    })
}

/// `gather_tree`, as Paddle's CPU kernel: for each batch entry and beam,
/// the last step's id, then back through the steps, each step's id at the
/// beam its successor names as parent. A parent outside `[0, beam)` is
/// Paddle's error.
fn gather_tree(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, parents, out) = (l.input("Ids")?, l.input("Parents")?, l.output("Out")?);
    compute(move |s| {
        let (it, pt) = (s.tensor(&ids)?, s.tensor(&parents)?);
        if it.shape().len() != 3 || it.shape() != pt.shape() {
            return Err(KernelError::Shape(format!(
                "gather_tree takes Ids and Parents of one shape [max_time, batch, beam], got {:?} and {:?}",
                it.shape(),
                pt.shape()
            )));
        }
        let dims: Vec<usize> = it.shape().iter().map(|&d| d.max(0) as usize).collect();
        let shape = it.shape().to_vec();
        let result = match (
            it.values::<i64>(),
            pt.values::<i64>(),
            it.values::<i32>(),
            pt.values::<i32>(),
        ) {
            (Some(i), Some(p), _, _) => Tensor::from_vec(&shape, backtrack(i, p, &dims)?)?,
            (_, _, Some(i), Some(p)) => Tensor::from_vec(&shape, backtrack(i, p, &dims)?)?,
            _ => {
                return Err(KernelError::Dtype(format!(
                    "gather_tree's Ids and Parents must be both int32 or both int64, got {} and {}",
                    dtype_name(it.dtype()),
                    dtype_name(pt.dtype())
                )))
            }
        };
        drop((it, pt));
        s.set_tensor(&out, result);
        Ok(())
    })
}

/// [`gather_tree`]'s loops over `[time, batch, beam]` ids and parents.
fn backtrack<T: Copy + Default + TryInto<i64>>(
    ids: &[T],
    parents: &[T],
    dims: &[usize],
) -> Result<Vec<T>, KernelError> {
    let (time, batch, beam) = (dims[0], dims[1], dims[2]);
    let mut out = vec![T::default(); ids.len()];
    if time == 0 {
        return Ok(out);
    }
    for b in 0..batch {
        for k in 0..beam {
            let mut idx = (time - 1) * batch * beam + b * beam + k;
            out[idx] = ids[idx];
            let mut parent = parents[idx];
            for step in (0..time - 1).rev() {
                let p = parent.try_into().unwrap_or(-1);
                if p < 0 || p as usize >= beam {
                    return Err(KernelError::Invalid(format!(
                        "The parents must be less than beam size, but received parents {p} is greater than or equal to beam size {beam}."
                    )));
                }
                idx = step * batch * beam + b * beam;
                out[idx + k] = ids[idx + p as usize];
                parent = parents[idx + p as usize];
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fed step of testdata/run/beam_search_decoder.py, whose
    /// selections there print what Paddle 3.3.1's kernel prints: source 0
    /// has a growing prefix and an ended one, source 1 two ended prefixes
    /// (pruned), source 2 one prefix; probabilities, not accumulated.
    fn fed_step<T>(beam: usize, f: impl FnOnce(Selected) -> T) -> T {
        let pre_ids = [2, 3, 3, 3, 5];
        let pre_scores = [-0.5, -0.25, -1.0, -2.0, -0.75];
        let ids = [3, 4, 5, 0, 1, 2, 0, 1, 2, 0, 1, 2, 5, 3, 4];
        let mut scores = [0.5, 0.25, 0.125].repeat(4);
        scores.extend([0.375, 0.5, 0.125]);
        // Level 0 [0, 2, 4, 5] over one row per prefix.
        let sources = [0, 2, 4, 5];
        let x = StepInput {
            pre_ids: &pre_ids,
            pre_scores: &pre_scores,
            ids: Some(&ids),
            scores: &scores,
            width: 3,
            sources: &sources,
        };
        f(select(&x, beam, 3, false).unwrap())
    }

    fn rounded(v: &[f32]) -> Vec<f32> {
        v.iter().map(|x| (x * 1e4).round() / 1e4).collect()
    }

    #[test]
    fn an_ended_prefix_offers_end_id_and_a_finished_source_is_pruned() {
        fed_step(2, |out| {
            assert_eq!(out.ids, [3, 3, 3, 5]);
            assert_eq!(rounded(&out.scores), [-1.1931, -0.25, -1.4431, -1.7308]);
            assert_eq!(out.parents, [0, 1, 4, 4]);
            assert_eq!(out.lod, [vec![0, 2, 4, 5], vec![0, 1, 2, 2, 2, 4]]);
        });
    }

    #[test]
    fn beam_size_one_can_finish_a_source_with_an_unended_prefix() {
        // Source 0's best is its ended prefix's end_id: it is pruned too.
        fed_step(1, |out| {
            assert_eq!(out.ids, [3]);
            assert_eq!(rounded(&out.scores), [-1.4431]);
            assert_eq!(out.parents, [4]);
            assert_eq!(out.lod, [vec![0, 2, 4, 5], vec![0, 0, 0, 0, 0, 1]]);
        });
    }

    #[test]
    fn every_source_pruned_leaves_no_rows_and_keeps_the_prefix_level() {
        let x = StepInput {
            pre_ids: &[7, 7],
            pre_scores: &[-1.0, -2.0],
            ids: None,
            scores: &[0.1, 0.9, 0.2, 0.8],
            width: 2,
            sources: &[0, 1, 2],
        };
        let out = select(&x, 2, 7, true).unwrap();
        assert!(out.ids.is_empty() && out.parents.is_empty());
        assert_eq!(out.lod, [vec![0, 1, 2], vec![0, 0, 0]]);
    }

    #[test]
    fn ties_keep_the_later_row_first_and_the_column_is_the_id_without_ids() {
        // Equal scores: the later row is the greater item (1.x's order).
        let x = StepInput {
            pre_ids: &[0, 0],
            pre_scores: &[0.0, 0.0],
            ids: None,
            scores: &[-1.0, -3.0, -1.0, -2.0],
            width: 2,
            sources: &[0, 2],
        };
        let out = select(&x, 3, 9, true).unwrap();
        assert_eq!(out.ids, [0, 0, 1]);
        assert_eq!(out.scores, [-1.0, -1.0, -2.0]);
        assert_eq!(out.parents, [0, 1, 1]);
        assert_eq!(out.lod, [vec![0, 2], vec![0, 1, 3]]);
    }

    #[test]
    fn sources_not_covering_the_rows_are_an_error() {
        let x = StepInput {
            pre_ids: &[0, 0],
            pre_scores: &[0.0, 0.0],
            ids: None,
            scores: &[0.0, 0.0],
            width: 1,
            sources: &[0, 1],
        };
        assert!(select(&x, 1, 9, true).is_err());
    }

    fn step<'a>(ids: &'a [i64], scores: &[f64], lod: &'a [Vec<usize>]) -> StepChoice<'a> {
        StepChoice {
            ids,
            scores: scores.to_vec(),
            lod,
        }
    }

    #[test]
    fn backtrace_follows_prefixes_and_keeps_one_end_id() {
        // One source, beam 2, end_id 3: a sentence ends at step 1 (its
        // end_id carried to steps 2 and 3), the other at step 3; step 4
        // prunes the source.
        let l0 = vec![vec![0, 1], vec![0, 1]];
        let l1 = vec![vec![0, 1], vec![0, 2]];
        let l2 = vec![vec![0, 2], vec![0, 1, 2]];
        let l4 = vec![vec![0, 2], vec![0, 0, 0]];
        let steps = [
            step(&[0], &[0.0], &l0),
            step(&[4, 3], &[-0.1, -0.5], &l1),
            step(&[5, 3], &[-0.7, -0.5], &l2),
            step(&[3, 3], &[-0.9, -0.5], &l2),
            step(&[], &[], &l4),
        ];
        let out = backtrace(&steps, 2, 3).unwrap();
        assert_eq!(out.ids, [0, 3, 0, 4, 5, 3]);
        assert_eq!(out.scores, [0.0, -0.5, 0.0, -0.1, -0.7, -0.9]);
        assert_eq!(out.lod, [vec![0, 2], vec![0, 2, 6]]);
    }

    #[test]
    fn backtrace_of_a_source_pruned_early_starts_at_its_last_candidates() {
        // Two sources; source 1's prefixes get no rows at step 2.
        let l0 = vec![vec![0, 1, 2], vec![0, 1, 2]];
        let l1 = vec![vec![0, 1, 2], vec![0, 1, 2]];
        let l2 = vec![vec![0, 1, 2], vec![0, 1, 1]];
        let steps = [
            step(&[0, 0], &[0.0, 0.0], &l0),
            step(&[2, 9], &[-1.0, -0.5], &l1),
            step(&[4], &[-2.0], &l2),
        ];
        let out = backtrace(&steps, 1, 9).unwrap();
        assert_eq!(out.ids, [0, 2, 4, 0, 9]);
        assert_eq!(out.scores, [0.0, -1.0, -2.0, 0.0, -0.5]);
        assert_eq!(out.lod, [vec![0, 1, 2], vec![0, 3, 5]]);
    }

    #[test]
    fn backtrace_refuses_bad_steps() {
        let l = vec![vec![0, 1], vec![0, 2]];
        // More candidates than beam_size for a source.
        assert!(backtrace(&[step(&[1, 2], &[0.0, 0.0], &l)], 1, 0).is_err());
        // No steps, or a step without the 2 levels.
        assert!(backtrace(&[], 1, 0).is_err());
        let one = vec![vec![0, 2]];
        assert!(backtrace(&[step(&[1, 2], &[0.0, 0.0], &one)], 2, 0).is_err());
        // A LoD past the rows.
        let past = vec![vec![0, 1], vec![0, 3]];
        assert!(backtrace(&[step(&[1, 2], &[0.0, 0.0], &past)], 3, 0).is_err());
    }
}
