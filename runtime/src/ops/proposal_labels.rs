//! `generate_proposal_labels`: Faster R-CNN's second-stage targets (1.x's
//! CPU kernel, `detection/generate_proposal_labels_op.cc`; Paddle 3.3.1
//! dropped the op). Per image, the RPN's proposals (mapped back to the
//! original image by `ImInfo`'s scale) and the ground-truth boxes are the
//! candidates; each is foreground when its best IoU with a ground-truth
//! box reaches `fg_thresh`, background when it lies in `[bg_thresh_lo,
//! bg_thresh_hi)`; up to `batch_size_per_im` of them are kept (a
//! `fg_fraction` of those foreground), and each kept foreground RoI gets
//! its box's class and the box's regression targets in that class's four
//! columns.
use fluidc_transpiler::VarKind;

use super::boxes::{float_dtype, floats, pixel_overlap};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{self, f64s, i64s};
use crate::ops::optim::Real;
use crate::random::{StdMt19937_64, UniformReal};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("generate_proposal_labels", generate_proposal_labels);
}

/// The op's attributes.
#[derive(Clone)]
struct Settings {
    batch: i64,
    fg_fraction: f64,
    fg_thresh: f64,
    bg_hi: f64,
    bg_lo: f64,
    weights: Vec<f32>,
    classes: usize,
    use_random: bool,
    cascade: bool,
    agnostic: bool,
}

const INPUTS: [&str; 5] = ["RpnRois", "GtClasses", "IsCrowd", "GtBoxes", "ImInfo"];

fn generate_proposal_labels(l: &OpReader) -> Result<Exec, KernelError> {
    let ins = INPUTS
        .iter()
        .map(|n| l.input(n))
        .collect::<Result<Vec<_>, _>>()?;
    let outs = [
        "Rois",
        "LabelsInt32",
        "BboxTargets",
        "BboxInsideWeights",
        "BboxOutsideWeights",
    ]
    .iter()
    .map(|n| l.output(n))
    .collect::<Result<Vec<_>, _>>()?;
    let weights = floats(l, "bbox_reg_weights")?;
    if weights.len() != 4 {
        return Err(KernelError::Invalid(format!(
            "generate_proposal_labels: bbox_reg_weights needs 4 values, not {weights:?}"
        )));
    }
    let classes = l.int("class_nums")?;
    if classes < 1 {
        return Err(KernelError::Invalid(format!(
            "generate_proposal_labels: class_nums must be positive, not {classes}"
        )));
    }
    let p = Settings {
        batch: l.int("batch_size_per_im")?,
        fg_fraction: l.float("fg_fraction")?,
        fg_thresh: l.float("fg_thresh")?,
        bg_hi: l.float("bg_thresh_hi")?,
        bg_lo: l.float("bg_thresh_lo")?,
        weights,
        classes: classes as usize,
        use_random: l.bool("use_random")?,
        cascade: l.bool("is_cascade_rcnn")?,
        agnostic: l.bool("is_cls_agnostic")?,
    };
    compute(move |s| {
        let ts = ins
            .iter()
            .map(|v| s.tensor(v))
            .collect::<Result<Vec<_>, _>>()?;
        let dtype = float_dtype("generate_proposal_labels", &ts[0])?;
        let d = Inputs::read(&ts, &ins)?;
        drop(ts);
        // A foreground RoI's targets go to its class's four columns (the
        // second four when class-agnostic, its label still its class);
        // 1.x wrote past the row for a class outside `class_nums`.
        if p.agnostic && p.classes < 2 {
            return Err(KernelError::Invalid(format!(
                "generate_proposal_labels: class-agnostic targets go to the second four \
                 columns, so class_nums must be 2 or more, not {}",
                p.classes
            )));
        }
        if let Some(c) = d
            .classes
            .iter()
            .find(|&&c| c < 0 || (!p.agnostic && c >= p.classes as i64))
        {
            return Err(KernelError::Invalid(format!(
                "generate_proposal_labels: GtClasses has class {c}, outside class_nums {}",
                p.classes
            )));
        }
        let engine = p
            .use_random
            .then(|| StdMt19937_64::new(crate::random::with_engine(0, |e| e.next_u64())));
        let o = match dtype {
            VarKind::Fp32 => label_proposals::<f32>(&d, &p, engine),
            _ => label_proposals::<f64>(&d, &p, engine),
        };
        let (n, w) = (o.labels.len() as i64, 4 * p.classes as i64);
        let lod = vec![o.lod];
        s.set_tensor(
            &outs[0],
            float::tensor(dtype, &[n, 4], o.rois)?.with_lod(lod.clone()),
        );
        s.set_tensor(
            &outs[1],
            Tensor::from_vec(&[n, 1], o.labels)?.with_lod(lod.clone()),
        );
        s.set_tensor(
            &outs[2],
            float::tensor(dtype, &[n, w], o.targets)?.with_lod(lod.clone()),
        );
        s.set_tensor(
            &outs[3],
            float::tensor(dtype, &[n, w], o.weights.clone())?.with_lod(lod.clone()),
        );
        s.set_tensor(
            &outs[4],
            float::tensor(dtype, &[n, w], o.weights)?.with_lod(lod),
        );
        Ok(())
    })
}

/// The op's inputs as values, with each one's per-image LoD.
struct Inputs {
    rois: Vec<f64>,
    rois_lod: Vec<usize>,
    classes: Vec<i64>,
    classes_lod: Vec<usize>,
    crowd: Vec<i64>,
    crowd_lod: Vec<usize>,
    gts: Vec<f64>,
    gts_lod: Vec<usize>,
    info: Vec<f64>,
}

impl Inputs {
    /// Checks what 1.x's kernel assumed: one LoD level on each of the
    /// first four inputs, the same number of images in each, and as many
    /// rows as each LoD says.
    fn read(
        ts: &[impl std::ops::Deref<Target = Tensor>],
        vars: &[crate::scope::VarRef],
    ) -> Result<Self, KernelError> {
        let level = |k: usize| -> Result<Vec<usize>, KernelError> {
            match ts[k].lod() {
                [one] => Ok(one.clone()),
                _ => Err(KernelError::Invalid(format!(
                    "generate_proposal_labels: {} `{}` needs 1 level of LoD (one sequence per image)",
                    INPUTS[k], vars[k].name
                ))),
            }
        };
        let lods = (0..4).map(level).collect::<Result<Vec<_>, _>>()?;
        let images = lods[0].len() - 1;
        let rows = |k: usize, per_row: usize| ts[k].numel() == per_row * lods[k][lods[k].len() - 1];
        if lods.iter().any(|l| l.len() != images + 1)
            || ts[4].numel() < 3 * images
            || !rows(0, 4)
            || !rows(1, 1)
            || !rows(2, 1)
            || !rows(3, 4)
        {
            return Err(KernelError::Shape(format!(
                "generate_proposal_labels: RpnRois {:?} (LoD {:?}), GtClasses {:?}, IsCrowd {:?} \
                 and GtBoxes {:?} (LoDs {:?}, {:?}, {:?}) and ImInfo {:?} must describe the same \
                 images, boxes of 4 values and one class and crowd flag per box",
                ts[0].shape(),
                lods[0],
                ts[1].shape(),
                ts[2].shape(),
                ts[3].shape(),
                lods[1],
                lods[2],
                lods[3],
                ts[4].shape()
            )));
        }
        let ints = |k: usize| -> Result<Vec<i64>, KernelError> {
            if !matches!(ts[k].dtype(), VarKind::Int32 | VarKind::Int64) {
                return Err(KernelError::Dtype(format!(
                    "generate_proposal_labels: {} must be int32, not {}",
                    INPUTS[k],
                    crate::tensor::dtype_name(ts[k].dtype())
                )));
            }
            Ok(i64s(&ts[k])?.into_owned())
        };
        let floats =
            |k: usize| Ok::<_, KernelError>(f64s(&ts[k], "generate_proposal_labels")?.into_owned());
        let mut lods = lods.into_iter();
        let mut next = || lods.next().unwrap_or_default();
        Ok(Inputs {
            rois: floats(0)?,
            rois_lod: next(),
            classes: ints(1)?,
            classes_lod: next(),
            crowd: ints(2)?,
            crowd_lod: next(),
            gts: floats(3)?,
            gts_lod: next(),
            info: floats(4)?,
        })
    }
}

/// The op's outputs, all images in turn.
#[derive(Default)]
struct Labelled {
    rois: Vec<f64>,
    labels: Vec<i32>,
    targets: Vec<f64>,
    /// Inside and outside weights (the same in 1.x).
    weights: Vec<f64>,
    lod: Vec<usize>,
}

/// A box of four values in `T`.
fn boxed<T: Real>(v: &[f64]) -> [T; 4] {
    std::array::from_fn(|j| T::of(v[j]))
}

/// 1.x's `SampleFgBgGt` and the rest of `SampleRoisForOneImage`, image by
/// image, computed in `T` as 1.x did.
fn label_proposals<T: Real>(d: &Inputs, p: &Settings, engine: Option<StdMt19937_64>) -> Labelled {
    let mut o = Labelled {
        lod: vec![0],
        ..Labelled::default()
    };
    for img in 0..d.rois_lod.len() - 1 {
        let (r0, r1) = (d.rois_lod[img], d.rois_lod[img + 1]);
        if r0 == r1 {
            o.lod.push(o.labels.len());
            continue;
        }
        let scale = T::of(d.info[img * 3 + 2]);
        let gts: Vec<[T; 4]> = (d.gts_lod[img]..d.gts_lod[img + 1])
            .map(|g| boxed(&d.gts[g * 4..]))
            .collect();
        let classes = &d.classes[d.classes_lod[img]..d.classes_lod[img + 1]];
        let crowd = &d.crowd[d.crowd_lod[img]..d.crowd_lod[img + 1]];
        // The candidates: the ground truth, then the proposals in the
        // original image (a cascade stage's proposals start with its
        // ground truth, which it skips).
        let skip = if p.cascade { gts.len().min(r1 - r0) } else { 0 };
        let boxes: Vec<[T; 4]> = gts
            .iter()
            .copied()
            .chain((r0 + skip..r1).map(|r| boxed::<T>(&d.rois[r * 4..]).map(|v| v / scale)))
            .collect();
        let (fg, gt_of, bg) = sample(&boxes, &gts, crowd, p, &engine);
        // Foreground then background RoIs; targets of the foreground.
        let width = 4 * p.classes;
        for (k, &b) in fg.iter().chain(&bg).enumerate() {
            let roi = boxes[b];
            o.rois.extend(roi.iter().map(|&v| (v * scale).to_f64()));
            let label = gt_of
                .get(k)
                .map_or(0, |&g| classes.get(g).copied().unwrap_or(0));
            o.labels.push(label as i32);
            let mut targets = vec![0.0; width];
            let mut weights = vec![0.0; width];
            if label > 0 {
                // Checked against class_nums when the op ran.
                let column = 4 * if p.agnostic { 1 } else { label as usize };
                let delta = box_to_delta(&roi, &gts[gt_of[k]], &p.weights);
                targets[column..column + 4].copy_from_slice(&delta.map(|v| v.to_f64()));
                weights[column..column + 4].fill(1.0);
            }
            o.targets.extend(targets);
            o.weights.extend(weights);
        }
        o.lod.push(o.labels.len());
    }
    o
}

/// 1.x's `SampleFgBgGt`: the foreground candidates with their best
/// ground-truth box (the first within 1e-5 of the best IoU), and the
/// background ones, sampled unless a cascade stage asks for all.
fn sample<T: Real>(
    boxes: &[[T; 4]],
    gts: &[[T; 4]],
    crowd: &[i64],
    p: &Settings,
    engine: &Option<StdMt19937_64>,
) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let (mut fg, mut gt_of, mut bg) = (Vec::new(), Vec::new(), Vec::new());
    let eps = T::of(f64::from(0.00001f32));
    let one = T::one();
    for (i, b) in boxes.iter().enumerate() {
        let overlaps: Vec<T> = gts.iter().map(|g| pixel_overlap(b, g)).collect();
        // No ground truth: no overlap (1.x read past an empty row).
        let mut best = overlaps
            .iter()
            .copied()
            .fold(None, |m: Option<T>, v| Some(m.map_or(v, |m| m.max(v))))
            .unwrap_or(T::zero());
        if i < gts.len() && crowd.get(i).is_some_and(|&c| c != 0) {
            best = -one;
        }
        if p.cascade && (b[2] - b[0] + one <= T::zero() || b[3] - b[1] + one <= T::zero()) {
            continue;
        }
        if best >= T::of(p.fg_thresh) {
            if let Some(j) = overlaps.iter().position(|&v| (best - v).abs() < eps) {
                fg.push(i);
                gt_of.push(j);
            }
        } else if best >= T::of(p.bg_lo) && best < T::of(p.bg_hi) {
            bg.push(i);
        }
    }
    if p.cascade {
        return (fg, gt_of, bg);
    }
    // 1.x passed its engine by value: each image's sampling starts from
    // the same state, the foreground's draws then the background's.
    let mut engine = engine.clone();
    let uniform = UniformReal::new(0f32, 1f32);
    let fg_per_im = (p.batch as f32 * p.fg_fraction as f32).floor() as i64;
    let fg_keep = (fg_per_im.max(0) as usize).min(fg.len());
    if let Some(e) = engine.as_mut() {
        for i in fg_keep..fg.len() {
            let at = (uniform.sample(e) * i as f32).floor() as usize;
            if at < fg_keep {
                fg.swap(at, i);
                gt_of.swap(at, i);
            }
        }
    }
    fg.truncate(fg_keep);
    gt_of.truncate(fg_keep);
    let bg_keep = ((p.batch - fg_keep as i64).max(0) as usize).min(bg.len());
    if let Some(e) = engine.as_mut() {
        for i in bg_keep..bg.len() {
            let at = (uniform.sample(e) * i as f32).floor() as usize;
            // 1.x compared with the foreground's count here, not the
            // background's: kept, so the same RoIs are likely.
            if at < fg_keep {
                bg.swap(at, i);
            }
        }
    }
    bg.truncate(bg_keep);
    (fg, gt_of, bg)
}

/// 1.x's `BoxToDelta` of pixel boxes (`+ 1` sides), divided by the
/// regression weights.
fn box_to_delta<T: Real>(ex: &[T; 4], gt: &[T; 4], weights: &[f32]) -> [T; 4] {
    let one = T::one();
    let half = |lo: T, size: T| T::of(lo.to_f64() + 0.5 * size.to_f64());
    let (ew, eh) = (ex[2] - ex[0] + one, ex[3] - ex[1] + one);
    let (ex_x, ex_y) = (half(ex[0], ew), half(ex[1], eh));
    let (gw, gh) = (gt[2] - gt[0] + one, gt[3] - gt[1] + one);
    let (gt_x, gt_y) = (half(gt[0], gw), half(gt[1], gh));
    let raw = [
        (gt_x - ex_x) / ew,
        (gt_y - ex_y) / eh,
        (gw / ew).ln(),
        (gh / eh).ln(),
    ];
    std::array::from_fn(|k| raw[k] / T::of(f64::from(weights[k])))
}
