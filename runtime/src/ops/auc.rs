//! `auc`: the area under the ROC curve from counts of positive and
//! negative examples per probability bucket, as Paddle's CPU kernel
//! computes it. `fluid.layers.auc` appends two: one over every batch so
//! far (`slide_steps` 0, statistics `[1, buckets]`) and one over the last
//! `slide_steps` batches, whose statistics hold a ring of per-batch
//! buckets, their running sum, and the batch counter:
//! `[(slide_steps + 1) * buckets + 1]`.
//!
//! A row's positive probability is its last column; its bucket is
//! `p * num_thresholds` truncated, computed in float32 as Paddle's float
//! kernel does. A label above 0 counts as positive, 0 as negative, and a
//! negative label is not counted.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::i64s;
use crate::tensor::{dtype_name, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("auc", auc);
}

fn auc(l: &OpReader) -> Result<Exec, KernelError> {
    let (predict, label) = (l.input("Predict")?, l.input("Label")?);
    let (stat_pos, stat_neg) = (l.input("StatPos")?, l.input("StatNeg")?);
    let out = l.output("AUC")?;
    let (pos_out, neg_out) = (l.output("StatPosOut")?, l.output("StatNegOut")?);
    let curve = l.string("curve")?.unwrap_or("ROC").to_string();
    let thresholds = l.int("num_thresholds")?;
    let slide_steps = l.int("slide_steps")?;
    if curve != "ROC" {
        return Err(KernelError::Attribute(format!(
            "curve is \"{curve}\"; Paddle's auc kernel computes \"ROC\" only"
        )));
    }
    let (Ok(thresholds), Ok(slide_steps)) =
        (u32::try_from(thresholds), usize::try_from(slide_steps))
    else {
        return Err(KernelError::Attribute(format!(
            "num_thresholds {thresholds} and slide_steps {slide_steps} must not be negative"
        )));
    };
    let buckets = thresholds as usize + 1;
    let stat_len = (slide_steps + 1) * buckets + usize::from(slide_steps > 0);
    compute(move |s| {
        let pt = s.tensor(&predict)?;
        let Some(p) = pt.values::<f32>().filter(|_| pt.shape().len() == 2) else {
            return Err(KernelError::Dtype(format!(
                "Predict is {} {:?}; auc takes float32 probabilities [batch, classes]",
                dtype_name(pt.dtype()),
                pt.shape()
            )));
        };
        let lt = s.tensor(&label)?;
        if lt.dtype() != VarKind::Int64 {
            return Err(KernelError::Dtype(format!(
                "Label is {}; auc takes int64 labels (cast them first)",
                dtype_name(lt.dtype())
            )));
        }
        let labels = i64s(&lt)?;
        let width = pt.shape()[1].max(0) as usize;
        let rows = p.len().checked_div(width).unwrap_or(0);
        if labels.len() < rows {
            return Err(KernelError::Shape(format!(
                "Label {:?} has fewer rows than Predict {:?}",
                lt.shape(),
                pt.shape()
            )));
        }
        let stats = |v| -> Result<(Vec<i64>, Vec<i64>), KernelError> {
            let t = s.tensor(v)?;
            match t.values::<i64>() {
                Some(x) if x.len() == stat_len => Ok((x.to_vec(), t.shape().to_vec())),
                _ => Err(KernelError::Shape(format!(
                    "StatPos and StatNeg hold {} {:?}; with num_thresholds {thresholds} and slide_steps {slide_steps} they must be int64 of {stat_len} values",
                    dtype_name(t.dtype()),
                    t.shape()
                ))),
            }
        };
        let ((mut pos, pos_shape), (mut neg, neg_shape)) = (stats(&stat_pos)?, stats(&stat_neg)?);
        // The buckets this batch counts into, and those the area is of.
        let (cur, sum) = if slide_steps == 0 {
            (0, 0)
        } else {
            // The batch counter, wrapped to int as Paddle's kernel reads it.
            let step = (pos[stat_len - 1] as i32).rem_euclid(slide_steps as i32) as usize;
            let (cur, sum) = (step * buckets, slide_steps * buckets);
            for k in 0..buckets {
                pos[sum + k] -= pos[cur + k];
                neg[sum + k] -= neg[cur + k];
            }
            pos[cur..cur + buckets].fill(0);
            neg[cur..cur + buckets].fill(0);
            (cur, sum)
        };
        for r in 0..rows {
            let prob = p[r * width + width - 1];
            if !(0.0..=1.0).contains(&prob) {
                return Err(KernelError::Invalid(format!(
                    "Predict row {r} has probability {prob}; auc takes probabilities in [0, 1] (apply softmax or sigmoid first)"
                )));
            }
            let bucket = cur + (prob * thresholds as f32) as usize;
            match labels[r] {
                l if l > 0 => pos[bucket] += 1,
                0 => neg[bucket] += 1,
                _ => {}
            }
        }
        if slide_steps > 0 {
            for k in 0..buckets {
                pos[sum + k] += pos[cur + k];
                neg[sum + k] += neg[cur + k];
            }
        }
        let area = area(&pos[sum..sum + buckets], &neg[sum..sum + buckets]);
        if slide_steps > 0 {
            pos[stat_len - 1] += 1;
            neg[stat_len - 1] += 1;
        }
        drop(labels);
        drop((pt, lt));
        s.set_tensor(&out, Tensor::scalar(area));
        s.set_tensor(&pos_out, Tensor::from_vec(&pos_shape, pos)?);
        s.set_tensor(&neg_out, Tensor::from_vec(&neg_shape, neg)?);
        Ok(())
    })
}

/// The ROC area by trapezoids, from the highest bucket down, over the
/// counts' product (or the raw sum when one class is absent, as Paddle).
fn area(pos: &[i64], neg: &[i64]) -> f64 {
    let (mut tot_pos, mut tot_neg, mut area) = (0.0f64, 0.0f64, 0.0f64);
    for (&p, &n) in pos.iter().zip(neg).rev() {
        let (prev_pos, prev_neg) = (tot_pos, tot_neg);
        tot_pos += p as f64;
        tot_neg += n as f64;
        area += (tot_neg - prev_neg).abs() * (tot_pos + prev_pos) / 2.0;
    }
    if tot_pos > 0.0 && tot_neg > 0.0 {
        area = area / tot_pos / tot_neg;
    }
    area
}
