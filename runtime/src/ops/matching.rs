//! SSD's matching of predictions to ground truth, as Paddle 1.x's CPU
//! kernels (`operators/detection/`): `bipartite_match`, `target_assign`
//! and `mine_hard_examples`; `detection_map` (`detection_map_op.h`).
use std::collections::BTreeMap;

use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s, needs_float};
use crate::ops::optim::Real;
use crate::scope::{VarRef, Vars};
use crate::tensor::{Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("bipartite_match", bipartite_match);
    r.add("target_assign", target_assign);
    r.add("mine_hard_examples", mine_hard_examples);
    r.add("detection_map", detection_map);
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

/// A box of `detection_map`: `[xmin, ymin, xmax, ymax]`, difficult or not.
#[derive(Clone, Copy)]
struct MapBox<T> {
    b: [T; 4],
    difficult: bool,
}

/// 1.x's `JaccardOverlap` (0 for boxes apart), in `T`.
fn jaccard<T: Real>(a: &[T; 4], b: &[T; 4]) -> T {
    if b[0] > a[2] || b[2] < a[0] || b[1] > a[3] || b[3] < a[1] {
        return T::zero();
    }
    let w = a[2].min(b[2]) - a[0].max(b[0]);
    let h = a[3].min(b[3]) - a[1].max(b[1]);
    let inter = w * h;
    let area = |x: &[T; 4]| (x[2] - x[0]) * (x[3] - x[1]);
    inter / (area(a) + area(b) - inter)
}

/// Per class: (score, flag) rows, in the order they were found.
type Flags<T> = BTreeMap<i64, Vec<(T, i64)>>;

/// `detection_map`'s settings.
struct MapAttrs {
    threshold: f64,
    difficult: bool,
    eleven_point: bool,
    classes: usize,
    background: i64,
}

/// The (score, box) detections and the ground truth boxes of each image,
/// by class.
type Images<T> = Vec<(
    BTreeMap<i64, Vec<(T, [T; 4])>>,
    BTreeMap<i64, Vec<MapBox<T>>>,
)>;

/// 1.x's `CalcTrueAndFalsePositive`: the positives of each class counted
/// (without the difficult ones unless evaluated), each detection a true
/// positive when it overlaps, above the threshold, a ground truth box of
/// its class no higher-scored detection took (detections clipped to
/// [0, 1]; one matching a difficult box not evaluated is dropped).
fn tally<T: Real>(
    images: &Images<T>,
    a: &MapAttrs,
    pos: &mut BTreeMap<i64, i64>,
    tp: &mut Flags<T>,
    fp: &mut Flags<T>,
) {
    for (_, gts) in images {
        for (&label, boxes) in gts {
            let count = boxes.iter().filter(|b| a.difficult || !b.difficult).count() as i64;
            if count > 0 {
                *pos.entry(label).or_insert(0) += count;
            }
        }
    }
    let threshold = T::of(a.threshold);
    for (dets, gts) in images {
        for (&label, preds) in dets {
            let mut mark = |score: T, hit: bool| {
                tp.entry(label).or_default().push((score, i64::from(hit)));
                fp.entry(label).or_default().push((score, i64::from(!hit)));
            };
            let Some(gt) = gts.get(&label) else {
                preds.iter().for_each(|&(score, _)| mark(score, false));
                continue;
            };
            let mut preds = preds.clone();
            preds.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
            let mut visited = vec![false; gt.len()];
            for (score, b) in preds {
                let clipped = b.map(|v| v.min(T::one()).max(T::zero()));
                let (mut best, mut at) = (T::of(-1.0), 0);
                for (j, g) in gt.iter().enumerate() {
                    let o = jaccard(&clipped, &g.b);
                    if o > best {
                        (best, at) = (o, j);
                    }
                }
                if best > threshold {
                    if a.difficult || !gt[at].difficult {
                        mark(score, !visited[at]);
                        visited[at] = true;
                    }
                } else {
                    mark(score, false);
                }
            }
        }
    }
}

/// 1.x's `GetAccumulation`: the flags' running sums, highest score first
/// (a stable sort).
fn running_sums<T: Real>(rows: &[(T, i64)]) -> Vec<i64> {
    let mut rows = rows.to_vec();
    rows.sort_by(|x, y| y.0.partial_cmp(&x.0).unwrap_or(std::cmp::Ordering::Equal));
    let mut sum = 0;
    rows.iter()
        .map(|r| {
            sum += r.1;
            sum
        })
        .collect()
}

/// 1.x's `CalcMAP`: the mean over the classes with positives and
/// detections of their average precision, 11-point (VOC2007) or
/// integral, with 1.x's arithmetic (its integral sums in `float`). As in
/// 1.x, a class is skipped when its positive count equals
/// `background_label`.
fn mean_ap<T: Real>(a: &MapAttrs, pos: &BTreeMap<i64, i64>, tp: &Flags<T>, fp: &Flags<T>) -> T {
    let (mut map, mut count) = (T::zero(), 0);
    for (label, &npos) in pos {
        let (Some(t), Some(f)) = (tp.get(label), fp.get(label)) else {
            continue;
        };
        if npos == a.background {
            continue;
        }
        let (ts, fs) = (running_sums(t), running_sums(f));
        let precision: Vec<T> = ts
            .iter()
            .zip(&fs)
            .map(|(&t, &f)| T::of(t as f64) / T::of((t + f) as f64))
            .collect();
        let recall: Vec<T> = ts
            .iter()
            .map(|&t| T::of(t as f64) / T::of(npos as f64))
            .collect();
        if a.eleven_point {
            let mut best = [T::zero(); 11];
            let mut start = recall.len() as i64 - 1;
            for j in (0..=10usize).rev() {
                let mut i = start;
                while i >= 0 {
                    let k = i as usize;
                    if Element::to_f64(recall[k]) < j as f64 / 10.0 {
                        start = i;
                        if j > 0 {
                            best[j - 1] = best[j];
                        }
                        break;
                    }
                    if best[j] < precision[k] {
                        best[j] = precision[k];
                    }
                    i -= 1;
                }
            }
            for j in (0..=10).rev() {
                map = map + best[j] / T::of(11.0);
            }
        } else {
            let (mut ap, mut prev) = (0f32, 0f32);
            for (p, r) in precision.iter().zip(&recall) {
                let step = (*r - T::of(f64::from(prev))).abs();
                if Element::to_f64(step) > 1e-6 {
                    ap = Element::to_f64(T::of(f64::from(ap)) + *p * step) as f32;
                }
                prev = Element::to_f64(*r) as f32;
            }
            map = map + T::of(f64::from(ap));
        }
        count += 1;
    }
    if count != 0 {
        map = map / T::of(f64::from(count));
    }
    map
}

/// The per-class (score, flag) rows of an `AccumTruePos`-like tensor
/// (one LoD sequence per class).
fn flags_of<T: Real>(t: &Tensor, what: &str, into: &mut Flags<T>) -> Result<(), KernelError> {
    let v = f64s(t, "detection_map")?;
    let Some(level) = t.lod().first() else {
        return Err(KernelError::Invalid(format!(
            "detection_map: Input({what}) needs a LoD (its rows of each class)"
        )));
    };
    Tensor::check_lod(t.lod(), v.len() / 2)?;
    for (class, w) in level.windows(2).enumerate() {
        for j in w[0]..w[1] {
            into.entry(class as i64)
                .or_default()
                .push((T::of(v[2 * j]), v[2 * j + 1] as i64));
        }
    }
    Ok(())
}

/// `detection_map`: the mAP of `DetectRes` (`[label, score, xmin, ymin,
/// xmax, ymax]` rows, one LoD sequence per image) against `Label`
/// (`[label, difficult, box]` or `[label, box]` rows) as 1.x's kernel
/// computes it; with `HasState` non-zero, the counts and flags of
/// `PosCount`, `TruePos` and `FalsePos` are added first, and the
/// `Accum*` outputs give the sums for the next batch.
fn detection_map(l: &OpReader) -> Result<Exec, KernelError> {
    let (det, label) = (l.input("DetectRes")?, l.input("Label")?);
    let has_state = l.opt_input("HasState")?;
    let states = match (l.opt_input("PosCount")?, l.opt_input("TruePos")?, l.opt_input("FalsePos")?) {
        (Some(p), Some(t), Some(f)) => Some((p, t, f)),
        (None, _, _) => None,
        _ => {
            return Err(KernelError::Invalid(
                "detection_map: Input(TruePos) and Input(FalsePos) should not be null when Input(PosCount) is given".into(),
            ))
        }
    };
    let (map, pos_out, tp_out, fp_out) = (
        l.output("MAP")?,
        l.output("AccumPosCount")?,
        l.output("AccumTruePos")?,
        l.output("AccumFalsePos")?,
    );
    let a = MapAttrs {
        threshold: l.float("overlap_threshold")?,
        difficult: l.bool("evaluate_difficult")?,
        eleven_point: match l.string("ap_type")? {
            Some("integral") => false,
            Some("11point") => true,
            other => {
                return Err(KernelError::Attribute(format!(
                    "The ap_type should be 'integral' or '11point', it is {other:?}"
                )))
            }
        },
        classes: usize::try_from(l.int("class_num")?).map_err(|_| {
            KernelError::Attribute("detection_map: class_num must not be negative".into())
        })?,
        background: l.int("background_label")?,
    };
    compute(move |s| {
        let state = match &has_state {
            Some(h) => {
                let h = s.tensor(h)?;
                let v = f64s(&h.cast(VarKind::Fp64)?, "detection_map")?
                    .first()
                    .copied();
                v.unwrap_or(0.0) as i64 != 0
            }
            None => false,
        };
        let dt = s.tensor(&det)?;
        let dtype = dt.dtype();
        if !matches!(dtype, VarKind::Fp32 | VarKind::Fp64) {
            return Err(needs_float("detection_map", &dt));
        }
        drop(dt);
        match dtype {
            VarKind::Fp32 => run_map::<f32>(
                s,
                &a,
                state,
                [&det, &label],
                states.as_ref(),
                [&map, &pos_out, &tp_out, &fp_out],
            ),
            _ => run_map::<f64>(
                s,
                &a,
                state,
                [&det, &label],
                states.as_ref(),
                [&map, &pos_out, &tp_out, &fp_out],
            ),
        }
    })
}

fn run_map<T: Real>(
    s: &mut Vars,
    a: &MapAttrs,
    state: bool,
    [det, label]: [&VarRef; 2],
    states: Option<&(VarRef, VarRef, VarRef)>,
    [map, pos_out, tp_out, fp_out]: [&VarRef; 4],
) -> Result<(), KernelError> {
    let (dt, lt) = (s.tensor(det)?, s.tensor(label)?);
    let (ds, ls) = (dt.shape().to_vec(), lt.shape().to_vec());
    if ds.len() != 2 || ds[1] != 6 {
        return Err(KernelError::Shape(format!(
            "detection_map: Input(DetectRes) is [N, 6] ([label, score, xmin, ymin, xmax, ymax] rows), its dims are {ds:?}"
        )));
    }
    if ls.len() != 2 || (ls[1] != 6 && ls[1] != 5) {
        return Err(KernelError::Shape(format!(
            "The shape of Input(Label) is [N, 6] or [N, 5], its dims are {ls:?}"
        )));
    }
    if lt.lod().len() != 1 {
        return Err(KernelError::Invalid(
            "Only support one level sequence now.".into(),
        ));
    }
    let (Some(dl), Some(ll)) = (dt.lod().first(), lt.lod().first()) else {
        return Err(KernelError::Invalid(
            "The batch_size of input(Label) and input(Detection) must be the same.".into(),
        ));
    };
    if dl.len() != ll.len() {
        return Err(KernelError::Invalid(
            "The batch_size of input(Label) and input(Detection) must be the same.".into(),
        ));
    }
    Tensor::check_lod(dt.lod(), ds[0] as usize)?;
    Tensor::check_lod(lt.lod(), ls[0] as usize)?;
    let (dv, lv) = (f64s(&dt, "detection_map")?, f64s(&lt, "detection_map")?);
    let width = ls[1] as usize;
    let mut images: Images<T> = Vec::new();
    for (dw, lw) in dl.windows(2).zip(ll.windows(2)) {
        let mut gts: BTreeMap<i64, Vec<MapBox<T>>> = BTreeMap::new();
        for i in lw[0]..lw[1] {
            let r = &lv[i * width..(i + 1) * width];
            let at = if width == 6 { 2 } else { 1 };
            let b = [r[at], r[at + 1], r[at + 2], r[at + 3]].map(T::of);
            let difficult = width == 6 && r[1].abs() >= 1e-6;
            gts.entry(Element::to_i64(T::of(r[0])))
                .or_default()
                .push(MapBox { b, difficult });
        }
        let mut dets: BTreeMap<i64, Vec<(T, [T; 4])>> = BTreeMap::new();
        for i in dw[0]..dw[1] {
            let r = &dv[i * 6..(i + 1) * 6];
            let b = [r[2], r[3], r[4], r[5]].map(T::of);
            dets.entry(Element::to_i64(T::of(r[0])))
                .or_default()
                .push((T::of(r[1]), b));
        }
        images.push((dets, gts));
    }
    drop((dv, lv));
    drop((dt, lt));
    let (mut pos, mut tp, mut fp) = (BTreeMap::new(), Flags::<T>::new(), Flags::<T>::new());
    if let (Some((p, t, f)), true) = (states, state) {
        let pt = s.tensor(p)?.cast(VarKind::Int64)?;
        let pv = pt.values::<i64>().unwrap_or(&[]);
        if pv.len() < a.classes {
            return Err(KernelError::Shape(format!(
                "detection_map: Input(PosCount) has {} counts for {} classes",
                pv.len(),
                a.classes
            )));
        }
        for (i, &c) in pv.iter().take(a.classes).enumerate() {
            pos.insert(i as i64, c);
        }
        flags_of(&s.tensor(t)?.into_owned(), "TruePos", &mut tp)?;
        flags_of(&s.tensor(f)?.into_owned(), "FalsePos", &mut fp)?;
    }
    tally(&images, a, &mut pos, &mut tp, &mut fp);
    let m = mean_ap(a, &pos, &tp, &fp);
    let counts: Vec<i32> = (0..a.classes as i64)
        .map(|i| pos.get(&i).copied().unwrap_or(0) as i32)
        .collect();
    let rows = |flags: &Flags<T>| {
        let (mut v, mut lod) = (Vec::new(), vec![0usize]);
        for i in 0..a.classes as i64 {
            for &(score, flag) in flags.get(&i).map_or(&[][..], Vec::as_slice) {
                v.push(Element::to_f64(score));
                v.push(flag as f64);
            }
            lod.push(v.len() / 2);
        }
        (v, lod)
    };
    let dtype = if std::mem::size_of::<T>() == 4 {
        VarKind::Fp32
    } else {
        VarKind::Fp64
    };
    let (tv, tl) = rows(&tp);
    let (fv, fl) = rows(&fp);
    let (nt, nf) = ((tv.len() / 2) as i64, (fv.len() / 2) as i64);
    s.set_tensor(map, float::tensor(dtype, &[1], vec![Element::to_f64(m)])?);
    s.set_tensor(pos_out, Tensor::from_vec(&[a.classes as i64, 1], counts)?);
    s.set_tensor(
        tp_out,
        float::tensor(dtype, &[nt, 2], tv)?.with_lod(vec![tl]),
    );
    s.set_tensor(
        fp_out,
        float::tensor(dtype, &[nf, 2], fv)?.with_lod(vec![fl]),
    );
    Ok(())
}
