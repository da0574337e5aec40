//! SSD's matching of predictions to ground truth, as Paddle 1.x's CPU
//! kernels (`operators/detection/`): `bipartite_match`, `target_assign`
//! and `mine_hard_examples`.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("bipartite_match", bipartite_match);
    r.add("target_assign", target_assign);
    r.add("mine_hard_examples", mine_hard_examples);
}

/// The row ranges of a LoD tensor's sequences (one level), or all its
/// rows as one when it has no LoD.
fn sequences(t: &Tensor, op: &str) -> Result<Vec<(usize, usize)>, KernelError> {
    let rows = t.shape().first().map_or(0, |&r| r.max(0) as usize);
    match t.lod() {
        [] => Ok(vec![(0, rows)]),
        [level] => {
            Tensor::check_lod(t.lod(), rows)?;
            Ok(level.windows(2).map(|w| (w[0], w[1])).collect())
        }
        lod => Err(KernelError::Invalid(format!(
            "{op}: only 1 level of LoD is supported, the input has {}",
            lod.len()
        ))),
    }
}

/// `bipartite_match`: for each image (a LoD sequence of `DistMat`'s rows)
/// the greedy bipartite matching of its columns to its rows (the largest
/// distance first, each row used once), then, for `per_prediction`, each
/// column still unmatched to its largest row at least `dist_threshold`.
/// Unmatched columns get index -1 and distance 0.
fn bipartite_match(l: &OpReader) -> Result<Exec, KernelError> {
    let dist = l.input("DistMat")?;
    let (indices, distances) = (
        l.output("ColToRowMatchIndices")?,
        l.output("ColToRowMatchDist")?,
    );
    let per_prediction = match l.string("match_type")? {
        Some("bipartite") => false,
        Some("per_prediction") => true,
        other => {
            return Err(KernelError::Attribute(format!(
                "match_type must be 'bipartite' or 'per_prediction', it is {other:?}"
            )))
        }
    };
    let threshold = l.float("dist_threshold")?;
    compute(move |s| {
        let dt = s.tensor(&dist)?;
        let [_, col] = *dt.shape() else {
            return Err(KernelError::Shape(format!(
                "bipartite_match: the rank of DistMat must be 2, its dims are {:?}",
                dt.shape()
            )));
        };
        let col = col.max(0) as usize;
        let images = sequences(&dt, "bipartite_match")?;
        // Paddle's `T` comparisons: its epsilon is a `T`.
        let eps = if dt.dtype() == VarKind::Fp32 {
            f64::from(1e-6f32)
        } else {
            1e-6
        };
        let d = f64s(&dt, "bipartite_match")?;
        let mut idx = vec![-1i32; images.len() * col];
        let mut md = vec![0.0; images.len() * col];
        for (i, &(start, end)) in images.iter().enumerate() {
            let m = Match {
                d: &d[start * col..end * col],
                rows: end - start,
                col,
                eps,
            };
            let (ix, dx) = (
                &mut idx[i * col..(i + 1) * col],
                &mut md[i * col..(i + 1) * col],
            );
            m.bipartite(ix, dx);
            if per_prediction {
                m.arg_max(ix, dx, threshold);
            }
        }
        let shape = [images.len() as i64, col as i64];
        let out = float::tensor(dt.dtype(), &shape, md)?;
        drop(d);
        drop(dt);
        s.set_tensor(&indices, Tensor::from_vec(&shape, idx)?);
        s.set_tensor(&distances, out);
        Ok(())
    })
}

/// One image's distance matrix (`rows` x `col`).
struct Match<'a> {
    d: &'a [f64],
    rows: usize,
    col: usize,
    eps: f64,
}

impl Match<'_> {
    /// 1.x's greedy matching: from 130 rows up, the pairs sorted by
    /// distance, each taken when its row and column are both free and the
    /// distance positive; below, repeatedly the largest distance (not
    /// under epsilon) between a free column and a free row, the first
    /// found (column-major) among equal ones.
    fn bipartite(&self, idx: &mut [i32], md: &mut [f64]) {
        let (rows, col, d) = (self.rows, self.col, self.d);
        if rows >= 130 {
            let mut pairs: Vec<(usize, usize)> = (0..rows)
                .flat_map(|i| (0..col).map(move |j| (i, j)))
                .collect();
            pairs.sort_by(|a, b| d[b.0 * col + b.1].total_cmp(&d[a.0 * col + a.1]));
            let mut row_used = vec![false; rows];
            let mut taken = 0;
            for (i, j) in pairs {
                if taken >= rows {
                    break;
                }
                let v = d[i * col + j];
                if idx[j] == -1 && !row_used[i] && v > 0.0 {
                    idx[j] = i as i32;
                    row_used[i] = true;
                    md[j] = v;
                    taken += 1;
                }
            }
            return;
        }
        let mut pool: Vec<usize> = (0..rows).collect();
        while !pool.is_empty() {
            let mut best: Option<(usize, usize)> = None;
            let mut max = -1.0;
            for j in 0..col {
                if idx[j] != -1 {
                    continue;
                }
                for &m in &pool {
                    let v = d[m * col + j];
                    if v < self.eps {
                        continue;
                    }
                    if v > max {
                        best = Some((j, m));
                        max = v;
                    }
                }
            }
            let Some((j, m)) = best else { break };
            idx[j] = m as i32;
            md[j] = max;
            pool.retain(|&r| r != m);
        }
    }

    /// `per_prediction`'s second pass: each unmatched column to its
    /// largest row at least `threshold` (and not under epsilon).
    fn arg_max(&self, idx: &mut [i32], md: &mut [f64], threshold: f64) {
        let (rows, col, d) = (self.rows, self.col, self.d);
        for j in 0..col {
            if idx[j] != -1 {
                continue;
            }
            let mut best: Option<usize> = None;
            let mut max = -1.0;
            for i in 0..rows {
                let v = d[i * col + j];
                if v < self.eps {
                    continue;
                }
                if v >= threshold && v > max {
                    best = Some(i);
                    max = v;
                }
            }
            if let Some(i) = best {
                idx[j] = i as i32;
                md[j] = max;
            }
        }
    }
}

/// The offsets of a tensor's one LoD level, which must describe its rows
/// and hold at least `images` sequences.
fn one_level(t: &Tensor, slot: &str, images: usize) -> Result<Vec<usize>, KernelError> {
    let rows = t.shape().first().map_or(0, |&r| r.max(0) as usize);
    match t.lod() {
        [level] if level.len() > images => {
            Tensor::check_lod(t.lod(), rows)?;
            Ok(level.clone())
        }
        [level] => Err(KernelError::Invalid(format!(
            "target_assign: {slot} holds {} sequences, MatchIndices {images} rows",
            level.len().saturating_sub(1)
        ))),
        lod => Err(KernelError::Invalid(format!(
            "target_assign: {slot} must have 1 level of LoD, it has {}",
            lod.len()
        ))),
    }
}

/// A tensor's elements as `f64` (floats, or int32 ids) and back.
fn values(t: &Tensor, op: &str) -> Result<Vec<f64>, KernelError> {
    match t.dtype() {
        VarKind::Fp32 | VarKind::Fp64 => Ok(f64s(t, op)?.into_owned()),
        _ => Ok(float::i64s(t)?.iter().map(|&v| v as f64).collect()),
    }
}

fn of_dtype(dtype: VarKind, shape: &[i64], v: Vec<f64>) -> Result<Tensor, KernelError> {
    match dtype {
        VarKind::Fp32 | VarKind::Fp64 => float::tensor(dtype, shape, v),
        _ => Tensor::from_vec(shape, v.into_iter().map(|x| x as i32).collect()),
    }
}

/// `target_assign`: for image `i` (a LoD sequence of `X`'s rows) and
/// prediction `j`, `Out[i][j]` is `X[lod[i] + id][j % P]` where `id =
/// MatchIndices[i][j]` is not -1 (weight 1), else `mismatch_value`
/// (weight 0); then each of image `i`'s `NegIndices` gets
/// `mismatch_value` and weight 1. 1.x wrote those weights at `(i M + id)
/// K + k` for `k < K` (the right place for K = 1, the labels `ssd_loss`
/// assigns so); fluidc writes the same places and refuses one past the
/// weights, which 1.x wrote outside its buffer.
fn target_assign(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, matched, neg) = (
        l.input("X")?,
        l.input("MatchIndices")?,
        l.opt_input("NegIndices")?,
    );
    let (out, out_weight) = (l.output("Out")?, l.output("OutWeight")?);
    let mismatch = l.int("mismatch_value")? as i32;
    compute(move |s| {
        let (xt, mt) = (s.tensor(&x)?, s.tensor(&matched)?);
        let (&[_, p, k], &[n, m]) = (xt.shape(), mt.shape()) else {
            return Err(KernelError::Shape(format!(
                "target_assign: X must be [M, P, K] and MatchIndices [N, P], they are {:?} and {:?}",
                xt.shape(),
                mt.shape()
            )));
        };
        let (p, k, n, m) = (
            p.max(0) as usize,
            k.max(0) as usize,
            n.max(0) as usize,
            m.max(0) as usize,
        );
        let lod = one_level(&xt, "X", n)?;
        let xv = values(&xt, "target_assign")?;
        let ids = float::i64s(&mt)?;
        let fill = f64::from(mismatch);
        let mut o = vec![fill; n * m * k];
        let mut w = vec![0f32; n * m];
        for i in 0..n * m {
            let (h, col) = (i / m, i % m);
            let id = ids[i];
            if id <= -1 {
                continue;
            }
            let row = lod[h] + id as usize;
            if row >= lod[h + 1] || p == 0 {
                return Err(KernelError::Invalid(format!(
                    "target_assign: MatchIndices[{h}][{col}] is {id}, image {h} has {} rows",
                    lod[h + 1] - lod[h]
                )));
            }
            let at = (row * p + col % p) * k;
            o[i * k..(i + 1) * k].copy_from_slice(&xv[at..at + k]);
            w[i] = 1.0;
        }
        let dtype = xt.dtype();
        drop(ids);
        drop((xt, mt));
        if let Some(neg) = &neg {
            let nt = s.tensor(neg)?;
            let nlod = one_level(&nt, "NegIndices", n)?;
            let negs = float::i64s(&nt)?;
            for i in 0..n {
                for &id in &negs[nlod[i]..nlod[i + 1]] {
                    let id = usize::try_from(id)
                        .ok()
                        .filter(|&id| id < m)
                        .ok_or_else(|| {
                            KernelError::Invalid(format!(
                            "target_assign: a negative index of image {i} is {id}, outside [0, {m})"
                        ))
                        })?;
                    let off = (i * m + id) * k;
                    o[off..off + k].fill(fill);
                    for kk in 0..k {
                        *w.get_mut(off + kk).ok_or_else(|| {
                            KernelError::Invalid(format!(
                                "target_assign: with K = {k}, the weight of negative index {id} of image {i} falls outside OutWeight (Paddle 1.x wrote it past its buffer)"
                            ))
                        })? = 1.0;
                    }
                }
            }
        }
        let o = of_dtype(dtype, &[n as i64, m as i64, k as i64], o)?;
        s.set_tensor(&out, o);
        s.set_tensor(&out_weight, Tensor::from_vec(&[n as i64, m as i64, 1], w)?);
        Ok(())
    })
}

/// `mine_hard_examples`' algorithm.
#[derive(Clone, Copy, PartialEq)]
enum Mining {
    MaxNegative,
    HardExample,
}

/// `mine_hard_examples`: per image, the candidates (`max_negative`: the
/// unmatched predictions whose match distance is under
/// `neg_dist_threshold`; `hard_example`: all) sorted by loss (`ClsLoss`,
/// plus `LocLoss` for `hard_example`), the largest `min(neg_pos_ratio *
/// positives, candidates)` (or `min(sample_size, candidates)`) taken.
/// `NegIndices` lists the taken unmatched ones in ascending order, one LoD
/// sequence per image; `hard_example` also unmatches, in
/// `UpdatedMatchIndices`, the matched predictions not taken.
fn mine_hard_examples(l: &OpReader) -> Result<Exec, KernelError> {
    let (cls, loc) = (l.input("ClsLoss")?, l.opt_input("LocLoss")?);
    let (matched, dist) = (l.input("MatchIndices")?, l.input("MatchDist")?);
    let (neg_out, updated) = (l.output("NegIndices")?, l.output("UpdatedMatchIndices")?);
    let mining = match l.string("mining_type")? {
        Some("max_negative") => Mining::MaxNegative,
        Some("hard_example") => Mining::HardExample,
        other => {
            return Err(KernelError::Attribute(format!(
                "mining_type must be hard_example or max_negative, it is {other:?}"
            )))
        }
    };
    let ratio = l.float("neg_pos_ratio")? as f32;
    let threshold = l.float("neg_dist_threshold")?;
    let sample_size = l.int("sample_size")?;
    compute(move |s| {
        let (ct, mt, dt) = (s.tensor(&cls)?, s.tensor(&matched)?, s.tensor(&dist)?);
        let [n, np] = *mt.shape() else {
            return Err(KernelError::Shape(format!(
                "mine_hard_examples: MatchIndices must be [N, Np], it is {:?}",
                mt.shape()
            )));
        };
        if ct.shape() != mt.shape() || dt.shape() != mt.shape() {
            return Err(KernelError::Shape(format!(
                "mine_hard_examples: ClsLoss {:?}, MatchIndices {:?} and MatchDist {:?} must be the same [N, Np]",
                ct.shape(),
                mt.shape(),
                dt.shape()
            )));
        }
        let single = ct.dtype() == VarKind::Fp32;
        // Paddle's `T`: a float32 loss sum and threshold are rounded so.
        let round = |v: f64| if single { f64::from(v as f32) } else { v };
        let threshold = round(threshold);
        let (n, np) = (n.max(0) as usize, np.max(0) as usize);
        let mut loss = f64s(&ct, "mine_hard_examples")?.into_owned();
        if let (Some(loc), Mining::HardExample) = (&loc, mining) {
            let lt = s.tensor(loc)?;
            if lt.shape() != ct.shape() {
                return Err(KernelError::Shape(format!(
                    "mine_hard_examples: LocLoss {:?} must be ClsLoss's {:?}",
                    lt.shape(),
                    ct.shape()
                )));
            }
            for (c, &v) in loss.iter_mut().zip(f64s(&lt, "mine_hard_examples")?.iter()) {
                *c = round(*c + v);
            }
        }
        let ids = float::i64s(&mt)?.into_owned();
        let md = f64s(&dt, "mine_hard_examples")?.into_owned();
        drop((ct, mt, dt));
        let mut upd: Vec<i32> = ids.iter().map(|&v| v as i32).collect();
        let (mut negs, mut starts) = (Vec::new(), vec![0usize]);
        for img in 0..n {
            let row = img * np..(img + 1) * np;
            let (ids, md, loss) = (&ids[row.clone()], &md[row.clone()], &loss[row]);
            let mut cand: Vec<usize> = (0..np)
                .filter(|&m| match mining {
                    Mining::MaxNegative => ids[m] == -1 && md[m] < threshold,
                    Mining::HardExample => true,
                })
                .collect();
            let take = match mining {
                Mining::MaxNegative => {
                    let pos = ids.iter().filter(|&&v| v != -1).count();
                    ((pos as f32 * ratio) as i64).min(cand.len() as i64)
                }
                Mining::HardExample => sample_size.min(cand.len() as i64),
            };
            cand.sort_by(|&a, &b| loss[b].total_cmp(&loss[a]));
            let mut sel: Vec<usize> = cand[..take.max(0) as usize].to_vec();
            sel.sort_unstable();
            match mining {
                Mining::MaxNegative => negs.extend(sel.iter().map(|&m| m as i32)),
                Mining::HardExample => {
                    for m in 0..np {
                        let taken = sel.binary_search(&m).is_ok();
                        if ids[m] > -1 && !taken {
                            upd[img * np + m] = -1;
                        } else if ids[m] <= -1 && taken {
                            negs.push(m as i32);
                        }
                    }
                }
            }
            starts.push(negs.len());
        }
        let total = negs.len() as i64;
        let nt = Tensor::from_vec(&[total, 1], negs)?.with_lod(vec![starts]);
        s.set_tensor(&neg_out, nt);
        s.set_tensor(&updated, Tensor::from_vec(&[n as i64, np as i64], upd)?);
        Ok(())
    })
}
