//! SSD's matching of predictions to ground truth, as Paddle 1.x's CPU
//! kernels (`operators/detection/`): `bipartite_match`.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("bipartite_match", bipartite_match);
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

