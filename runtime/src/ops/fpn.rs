//! FPN's RoI routing, after 1.6's CPU kernels
//! (`detection/distribute_fpn_proposals_op.h`,
//! `collect_fpn_proposals_op.h`), computed in the RoIs' dtype as they did.
//!
//! `distribute_fpn_proposals`: each RoI of `FpnRois` (one LoD sequence per
//! image) goes to level `floor(log2(sqrt(area) / refer_scale + 1e-6) +
//! refer_level)`, clamped to `[min_level, max_level]` (area with `+ 1`
//! sides under `pixel_offset`, 1.6's only form); `MultiFpnRois` holds each
//! level's RoIs, image by image in their order, with one LoD sequence per
//! image, and `RestoreIndex` each RoI's row in the levels' concatenation.
//!
//! `collect_fpn_proposals`: the RoIs of every level with their scores,
//! the `post_nms_topN` best over the whole batch (ties keep the levels'
//! order), then grouped by image in that order; one LoD sequence per
//! image (1.6 miscounted images with no RoIs; fluidc gives them an empty
//! sequence).
use fluidc_transpiler::VarKind;

use super::boxes::float_dtype;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s};
use crate::ops::optim::Real;
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("distribute_fpn_proposals", distribute);
    r.add("collect_fpn_proposals", collect);
}

/// The one LoD level of `t` (one sequence per image), or 1.x's error.
fn images(op: &str, t: &Tensor, rows: usize) -> Result<Vec<usize>, KernelError> {
    match t.lod() {
        [one] if one.last() == Some(&rows) => Ok(one.clone()),
        _ => Err(KernelError::Invalid(format!(
            "{op} needs 1 level of LoD (one sequence per image) describing its {rows} rows, not {:?}",
            t.lod()
        ))),
    }
}

fn distribute(l: &OpReader) -> Result<Exec, KernelError> {
    let (rois, outs, restore_out) = (
        l.input("FpnRois")?,
        l.outputs("MultiFpnRois")?,
        l.output("RestoreIndex")?,
    );
    if l.opt_input("RoisNum")?.is_some() || !l.outputs("MultiLevelRoIsNum")?.is_empty() {
        return Err(KernelError::Invalid(
            "distribute_fpn_proposals: RoisNum and MultiLevelRoIsNum (Paddle 2's) are not \
             supported; fluidc takes the RoIs' LoD, as 1.6 did"
                .into(),
        ));
    }
    let (min, max) = (l.int("min_level")?, l.int("max_level")?);
    let (refer_level, refer_scale) = (l.int("refer_level")?, l.int("refer_scale")?);
    let offset = l.bool("pixel_offset")?;
    if max < min || outs.len() as i64 != max - min + 1 {
        return Err(KernelError::Invalid(format!(
            "distribute_fpn_proposals: levels {min}..={max} need {} MultiFpnRois outputs, it has {}",
            max - min + 1,
            outs.len()
        )));
    }
    compute(move |s| {
        let t = s.tensor(&rois)?;
        let dtype = float_dtype("distribute_fpn_proposals", &t)?;
        if t.shape().len() != 2 || t.shape()[1] != 4 {
            return Err(KernelError::Shape(format!(
                "distribute_fpn_proposals: FpnRois must be [N, 4], not {:?}",
                t.shape()
            )));
        }
        let n = t.shape()[0].max(0) as usize;
        let lod = images("distribute_fpn_proposals", &t, n)?;
        let boxes = f64s(&t, "distribute_fpn_proposals")?.into_owned();
        drop(t);
        let levels: Vec<usize> = match dtype {
            VarKind::Fp32 => levels_of::<f32>(&boxes, (min, max, refer_level, refer_scale), offset),
            _ => levels_of::<f64>(&boxes, (min, max, refer_level, refer_scale), offset),
        };
        let count = outs.len();
        // Each level's RoIs, image by image, and each RoI's row there.
        let mut rows: Vec<Vec<f64>> = vec![Vec::new(); count];
        let mut lods: Vec<Vec<usize>> = vec![vec![0]; count];
        let mut place = vec![(0usize, 0usize); n];
        for img in 0..lod.len() - 1 {
            for i in lod[img]..lod[img + 1] {
                let lvl = levels[i];
                place[i] = (lvl, rows[lvl].len() / 4);
                rows[lvl].extend_from_slice(&boxes[i * 4..i * 4 + 4]);
            }
            for (lvl, level_lod) in lods.iter_mut().enumerate() {
                level_lod.push(rows[lvl].len() / 4);
            }
        }
        let starts: Vec<usize> = rows
            .iter()
            .scan(0, |acc, r| {
                let start = *acc;
                *acc += r.len() / 4;
                Some(start)
            })
            .collect();
        let restore: Vec<i32> = place
            .iter()
            .map(|&(lvl, row)| (starts[lvl] + row) as i32)
            .collect();
        for ((out, r), lod) in outs.iter().zip(rows).zip(lods) {
            let k = (r.len() / 4) as i64;
            s.set_tensor(out, float::tensor(dtype, &[k, 4], r)?.with_lod(vec![lod]));
        }
        s.set_tensor(&restore_out, Tensor::from_vec(&[n as i64, 1], restore)?);
        Ok(())
    })
}

/// Each RoI's level, as an index from `min_level`, computed in `T`.
fn levels_of<T: Real>(
    boxes: &[f64],
    (min, max, refer_level, refer_scale): (i64, i64, i64, i64),
    offset: bool,
) -> Vec<usize> {
    let off = if offset { T::one() } else { T::zero() };
    boxes
        .chunks_exact(4)
        .map(|b| {
            let b: [T; 4] = std::array::from_fn(|j| T::of(b[j]));
            // 1.x's BBoxArea: 0 for an inverted box.
            let area = if b[2] < b[0] || b[3] < b[1] {
                T::zero()
            } else {
                (b[2] - b[0] + off) * (b[3] - b[1] + off)
            };
            let scale = area.sqrt();
            let level = ((scale / T::of(refer_scale as f64) + T::of(1e-6)).log2()
                + T::of(refer_level as f64))
            .floor()
            .to_f64();
            // A NaN or infinite level (an empty box) clamps to the lowest.
            let level = if level.is_finite() { level as i64 } else { min };
            (level.clamp(min, max) - min) as usize
        })
        .collect()
}

fn collect(l: &OpReader) -> Result<Exec, KernelError> {
    let (rois, scores) = (l.inputs("MultiLevelRois")?, l.inputs("MultiLevelScores")?);
    let (out, rois_num) = (l.output("FpnRois")?, l.opt_output("RoisNum")?);
    if !l.inputs("MultiLevelRoIsNum")?.is_empty() {
        return Err(KernelError::Invalid(
            "collect_fpn_proposals: MultiLevelRoIsNum (Paddle 2's) is not supported; fluidc \
             takes the levels' LoD, as 1.6 did"
                .into(),
        ));
    }
    if rois.len() != scores.len() || rois.is_empty() {
        return Err(KernelError::Invalid(format!(
            "collect_fpn_proposals: {} levels of RoIs and {} of scores",
            rois.len(),
            scores.len()
        )));
    }
    let top = l.int("post_nms_topN")?;
    if top < 0 {
        return Err(KernelError::Attribute(format!(
            "collect_fpn_proposals: post_nms_topN must be 0 or more, not {top}"
        )));
    }
    compute(move |s| {
        // (score, image, level, row) of every RoI, and the levels' boxes.
        let mut all: Vec<(f64, usize, usize, usize)> = Vec::new();
        let mut boxes: Vec<Vec<f64>> = Vec::new();
        let mut dtype = VarKind::Fp32;
        let mut batch = 0;
        for (lvl, (r, sc)) in rois.iter().zip(&scores).enumerate() {
            let (rt, st) = (s.tensor(r)?, s.tensor(sc)?);
            dtype = float_dtype("collect_fpn_proposals", &rt)?;
            let n = rt.numel() / 4;
            if rt.numel() != 4 * n || st.numel() != n {
                return Err(KernelError::Shape(format!(
                    "collect_fpn_proposals: level {lvl} has RoIs {:?} and scores {:?}",
                    rt.shape(),
                    st.shape()
                )));
            }
            let lod = images("collect_fpn_proposals", &st, n)?;
            batch = batch.max(lod.len() - 1);
            let values = f64s(&st, "collect_fpn_proposals")?;
            for img in 0..lod.len() - 1 {
                for row in lod[img]..lod[img + 1] {
                    all.push((values[row], img, lvl, row));
                }
            }
            boxes.push(f64s(&rt, "collect_fpn_proposals")?.into_owned());
        }
        // The best over the batch (a stable sort keeps the levels' order
        // among equal scores), then grouped by image.
        all.sort_by(|a, b| b.0.total_cmp(&a.0));
        all.truncate(top as usize);
        all.sort_by_key(|&(_, img, _, _)| img);
        let mut kept = Vec::with_capacity(all.len() * 4);
        let mut counts = vec![0usize; batch];
        for &(_, img, lvl, row) in &all {
            kept.extend_from_slice(&boxes[lvl][row * 4..row * 4 + 4]);
            counts[img] += 1;
        }
        let lod: Vec<usize> = std::iter::once(0)
            .chain(counts.iter().scan(0, |acc, &c| {
                *acc += c;
                Some(*acc)
            }))
            .collect();
        let k = all.len() as i64;
        s.set_tensor(
            &out,
            float::tensor(dtype, &[k, 4], kept)?.with_lod(vec![lod]),
        );
        if let Some(num) = &rois_num {
            let counts: Vec<i32> = counts.iter().map(|&c| c as i32).collect();
            s.set_tensor(num, Tensor::from_vec(&[batch as i64], counts)?);
        }
        Ok(())
    })
}
