//! `chunk_eval`: precision, recall and F1 of the chunks (labelled
//! segments) a tagger found, as Paddle 1.x's CPU kernel
//! (`chunk_eval_op.h`) counts them, over the sequences of `Label`'s LoD or,
//! for padded `[B, S]` tags, of `SeqLength`.
//!
//! A tag id `t` is tag type `t % n` and chunk type `t / n`, where `n` is
//! the scheme's number of tag types (IOB 2: begin, inside; IOE 2: inside,
//! end; IOBES 4: begin, inside, end, single; plain 1) and chunk type
//! `num_chunk_types` is "outside". A chunk is correct when the inferred
//! and the labelled chunk have the same first and last word and type;
//! chunks of `excluded_chunk_types` are not counted. The ratios are
//! float32, as the kernel computed them.
use std::collections::BTreeSet;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("chunk_eval", chunk_eval);
}

/// A scheme's tag types (-1: the scheme has no such tag).
#[derive(Debug, Clone, Copy)]
struct Scheme {
    tag_types: i64,
    begin: i64,
    inside: i64,
    end: i64,
    single: i64,
}

impl Scheme {
    fn parse(name: &str) -> Option<Scheme> {
        let s = |tag_types, begin, inside, end, single| Scheme {
            tag_types,
            begin,
            inside,
            end,
            single,
        };
        Some(match name {
            "IOB" => s(2, 0, 1, -1, -1),
            "IOE" => s(2, -1, 0, 1, -1),
            "IOBES" => s(4, 0, 1, 2, 3),
            "plain" => s(1, -1, -1, -1, -1),
            _ => return None,
        })
    }

    /// Whether a chunk of `prev` ends before a word of `cur` (tag, type).
    fn ends(&self, prev: (i64, i64), cur: (i64, i64), other: i64) -> bool {
        let ((pt, pc), (t, c)) = (prev, cur);
        if pc == other {
            return false;
        }
        if c == other || c != pc {
            return true;
        }
        if pt == self.begin || pt == self.inside {
            return t == self.begin || t == self.single;
        }
        pt == self.end || pt == self.single
    }

    /// Whether a word of `cur` begins a chunk after a word of `prev`.
    fn begins(&self, prev: (i64, i64), cur: (i64, i64), other: i64) -> bool {
        let ((pt, pc), (t, c)) = (prev, cur);
        if pc == other {
            return c != other;
        }
        if c == other {
            return false;
        }
        if c != pc || t == self.begin {
            return true;
        }
        if t == self.inside || t == self.end {
            return pt == self.end || pt == self.single;
        }
        t == self.single
    }
}

/// A chunk: first word, last word, chunk type.
type Chunk = (usize, usize, i64);

/// The chunks of one sequence of tag ids.
fn chunks(tags: &[i64], scheme: &Scheme, types: i64) -> Result<Vec<Chunk>, KernelError> {
    let other = types;
    let mut out = Vec::new();
    let mut start = 0;
    let mut inside = false;
    let mut cur = (-1, other);
    for (i, &id) in tags.iter().enumerate() {
        if id > types * scheme.tag_types {
            return Err(KernelError::Invalid(format!(
                "chunk_eval: tag id {id} is out of range: with {types} chunk types of {} tag types it must be at most {}",
                scheme.tag_types,
                types * scheme.tag_types
            )));
        }
        let prev = cur;
        cur = (id % scheme.tag_types, id / scheme.tag_types);
        if inside && scheme.ends(prev, cur, other) {
            out.push((start, i - 1, prev.1));
            inside = false;
        }
        if scheme.begins(prev, cur, other) {
            start = i;
            inside = true;
        }
    }
    if inside {
        out.push((start, tags.len() - 1, cur.1));
    }
    Ok(out)
}

/// Counts (inferred, labelled, correct) over one sequence.
fn count(inferred: &[Chunk], labelled: &[Chunk], excluded: &BTreeSet<i64>, totals: &mut [i64; 3]) {
    let (mut i, mut j) = (0, 0);
    while i < inferred.len() && j < labelled.len() {
        if inferred[i] == labelled[j] && !excluded.contains(&inferred[i].2) {
            totals[2] += 1;
        }
        match inferred[i].1.cmp(&labelled[j].1) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    let kept = |c: &[Chunk]| c.iter().filter(|c| !excluded.contains(&c.2)).count() as i64;
    totals[0] += kept(inferred);
    totals[1] += kept(labelled);
}

fn int64s<'a>(t: &'a Tensor, slot: &str) -> Result<&'a [i64], KernelError> {
    t.values::<i64>().ok_or_else(|| {
        KernelError::Dtype(format!(
            "chunk_eval: {slot} is {}; it must hold int64 tag ids",
            dtype_name(t.dtype())
        ))
    })
}

fn chunk_eval(l: &OpReader) -> Result<Exec, KernelError> {
    let (inference, label) = (l.input("Inference")?, l.input("Label")?);
    let seq_length = l.opt_input("SeqLength")?;
    let outs = [
        "Precision",
        "Recall",
        "F1-Score",
        "NumInferChunks",
        "NumLabelChunks",
        "NumCorrectChunks",
    ]
    .map(|slot| l.opt_output(slot));
    let [p, r, f1, ni, nl, nc] = outs;
    let outs = [p?, r?, f1?, ni?, nl?, nc?];
    let types = l.int_or("num_chunk_types", 0)?;
    let scheme_name = l.string("chunk_scheme")?.unwrap_or("IOB").to_string();
    let excluded: BTreeSet<i64> = l
        .ints("excluded_chunk_types")?
        .unwrap_or_default()
        .into_iter()
        .collect();
    compute(move |s| {
        let Some(scheme) = Scheme::parse(&scheme_name) else {
            return Err(KernelError::Attribute(format!(
                "chunk_eval: unknown chunk scheme `{scheme_name}`; it must be IOB, IOE, IOBES or plain"
            )));
        };
        let (it, lt) = (s.tensor(&inference)?, s.tensor(&label)?);
        if it.shape() != lt.shape() {
            return Err(KernelError::Shape(format!(
                "chunk_eval: Inference has shape {:?} and Label {:?}; they must be the same",
                it.shape(),
                lt.shape()
            )));
        }
        let (iv, lv) = (int64s(&it, "Inference")?, int64s(&lt, "Label")?);
        // Each sequence as (first element, length).
        let seqs: Vec<(usize, usize)> = if lt.lod().is_empty() {
            let Some(sl) = &seq_length else {
                return Err(KernelError::Invalid(format!(
                    "chunk_eval: Label `{}` has no LoD; feed sequences as LoD tensors, or give seq_length for padded [batch, length] tags",
                    label.name
                )));
            };
            let st = s.tensor(sl)?;
            let lens = int64s(&st, "SeqLength")?;
            let width = it.shape().get(1).copied().unwrap_or(0).max(0) as usize;
            let mut seqs = Vec::with_capacity(lens.len());
            for (i, &n) in lens.iter().enumerate() {
                if n < 0 || n as usize > width || (i + 1) * width > iv.len() {
                    return Err(KernelError::Invalid(format!(
                        "chunk_eval: SeqLength {n} of sequence {i} does not fit the padded tags of shape {:?}",
                        it.shape()
                    )));
                }
                seqs.push((i * width, n as usize));
            }
            seqs
        } else {
            let [offsets] = lt.lod() else {
                return Err(KernelError::Invalid(format!(
                    "chunk_eval: Label `{}` has {} LoD levels; only one level of sequences is supported",
                    label.name,
                    lt.lod().len()
                )));
            };
            if it.lod() != lt.lod() {
                return Err(KernelError::Invalid(format!(
                    "chunk_eval: Inference `{}` and Label `{}` must have the same LoD",
                    inference.name, label.name
                )));
            }
            if offsets.last().copied().unwrap_or(0) > lv.len() {
                return Err(KernelError::Shape(format!(
                    "chunk_eval: the LoD of Label `{}` ends past its {} tags",
                    label.name,
                    lv.len()
                )));
            }
            offsets.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
        };
        let mut totals = [0i64; 3];
        for (start, len) in seqs {
            let inferred = chunks(&iv[start..start + len], &scheme, types)?;
            let labelled = chunks(&lv[start..start + len], &scheme, types)?;
            count(&inferred, &labelled, &excluded, &mut totals);
        }
        drop((it, lt));
        let [infer_n, label_n, correct] = totals;
        let ratio = |a: i64, b: i64| if b == 0 { 0.0f32 } else { a as f32 / b as f32 };
        let precision = ratio(correct, infer_n);
        let recall = ratio(correct, label_n);
        let f1 = if correct == 0 {
            0.0f32
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        let values = [
            Tensor::from_vec(&[1], vec![precision])?,
            Tensor::from_vec(&[1], vec![recall])?,
            Tensor::from_vec(&[1], vec![f1])?,
            Tensor::from_vec(&[1], vec![infer_n])?,
            Tensor::from_vec(&[1], vec![label_n])?,
            Tensor::from_vec(&[1], vec![correct])?,
        ];
        for (r, t) in outs.iter().zip(values) {
            if let Some(r) = r {
                s.set_tensor(r, t);
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 1.x docs' NER example in IOB with ORG 0, PER 1, LOC 2 (B-X is
    /// 2x, I-X 2x + 1, O is 6): "Li Ming works at Agricultural Bank of
    /// China in Beijing" has three chunks.
    #[test]
    fn iob_chunks_of_the_docs_example() {
        let scheme = Scheme::parse("IOB").expect("IOB");
        let tags = [2, 3, 6, 6, 0, 1, 1, 1, 6, 4];
        let got = chunks(&tags, &scheme, 3).expect("chunks");
        assert_eq!(got, vec![(0, 1, 1), (4, 7, 0), (9, 9, 2)]);
    }

    /// In IOBES a single-word chunk (S) ends at itself, and E closes one.
    #[test]
    fn iobes_single_and_end_tags_close_chunks() {
        let scheme = Scheme::parse("IOBES").expect("IOBES");
        // B-0 E-0 S-1 S-1 O(8) I-0 E-0
        let got = chunks(&[0, 2, 7, 7, 8, 1, 2], &scheme, 2).expect("chunks");
        assert_eq!(got, vec![(0, 1, 0), (2, 2, 1), (3, 3, 1), (5, 6, 0)]);
    }
}
