//! The box ops of Paddle 1.x's SSD-style detection layers
//! (`layers/detection.py`): `prior_box` and `density_prior_box` (1.x's;
//! Paddle 3.3.1 dropped it), which lay boxes over a feature map;
//! `box_coder`, which codes boxes against them, `iou_similarity` (1.x's);
//! `anchor_generator`, `box_clip` and `multiclass_nms` (and 1.6's
//! `multiclass_nms2`, which also gives the kept boxes' indices); 1.6's
//! `yolo_box`, which decodes a YOLOv3 head, and `yolov3_loss` (the one
//! with a gradient, to its `X`); and 1.x's `polygon_box_transform` (EAST
//! text detection's geometry map to corner coordinates) and
//! `roi_perspective_transform` (with a gradient, to its `X`); Faster
//! R-CNN's `generate_proposals` and `rpn_target_assign`. The others have none (1.x registered them with
//! `EmptyGradOpMaker`), so the boxes they make are constants of the
//! feature map's shape.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::{AttrValue, VarKind};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("prior_box", prior_box));
    r.push(Behaviour::pure("density_prior_box", density_prior_box));
    r.push(Behaviour::pure("box_coder", box_coder).shares_lod("TargetBox", "OutputBox"));
    r.push(Behaviour::pure("iou_similarity", iou_similarity).shares_lod("X", "Out"));
    r.push(Behaviour::pure("anchor_generator", anchor_generator));
    r.push(Behaviour::pure("box_clip", box_clip).shares_lod("Input", "Output"));
    r.push(Behaviour::pure("multiclass_nms", multiclass_nms).not_foldable());
    r.push(Behaviour::pure("multiclass_nms2", multiclass_nms2).not_foldable());
    r.push(Behaviour::pure("yolo_box", yolo_box));
    r.push(Behaviour::pure("yolov3_loss", yolov3_loss).not_foldable());
    r.push(Behaviour::pure(
        "polygon_box_transform",
        polygon_box_transform,
    ));
    r.push(
        Behaviour::pure("roi_perspective_transform", roi_perspective_transform)
            .not_foldable()
            .shares_lod("ROIs", "Out")
            // Paddle 1.6 added the mask and the homographies.
            .slots_after_1_0(&["Mask", "TransformMatrix"]),
    );
    r.push(
        Behaviour::pure("generate_proposals", generate_proposals)
            .not_foldable()
            // Paddle 1.7 added the per-image counts.
            .slots_after_1_0(&["RpnRoisNum"]),
    );
    r.push(
        Behaviour::pure("rpn_target_assign", rpn_target_assign)
            .not_foldable()
            .reads_lod(),
    );
}

/// `polygon_box_transform` (1.x's `InferShape`): `Input` is
/// `[batch, geometry channels (even), height, width]`; `Output` its dims.
fn polygon_box_transform(c: &InferCtx) -> Out {
    let Some(x) = c.input("Input") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!("Input {:?}: input's rank must be 4", x.dims));
    }
    if x.dims[1] >= 0 && x.dims[1] % 2 != 0 {
        return Err(format!(
            "Input {:?}: input's second dimension must be even",
            x.dims
        ));
    }
    Ok(vec![("Output", x.clone())])
}

/// A FLOATS attribute (empty when unset).
pub fn floats(c: &InferCtx, name: &str) -> Vec<f32> {
    match c.attr(name) {
        Some(AttrValue::Floats(v)) => v.clone(),
        Some(AttrValue::Float64s(v)) => v.iter().map(|&x| x as f32).collect(),
        _ => Vec::new(),
    }
}

/// 1.x's `ExpandAspectRatios`: 1 first, then each ratio not yet listed
/// (within 1e-6), followed by its inverse when `flip`.
pub fn expand_aspect_ratios(ratios: &[f32], flip: bool) -> Vec<f32> {
    let mut out = vec![1.0f32];
    for &ar in ratios {
        if out.iter().any(|&o| (ar - o).abs() < 1e-6) {
            continue;
        }
        out.push(ar);
        if flip {
            out.push(1.0 / ar);
        }
    }
    out
}

/// `Input` and `Image` are NCHW; `Boxes` and `Variances` are `[H, W,
/// num_priors, 4]` of `Input`'s dtype, `num_priors` the expanded aspect
/// ratios times `min_sizes`, plus one per `max_sizes` (as many as
/// `min_sizes`, each above its min size), as 1.x's `InferShape`.
fn prior_box(c: &InferCtx) -> Out {
    let (Some(input), Some(image)) = (c.input("Input"), c.input("Image")) else {
        return Ok(Vec::new());
    };
    if image.dims.len() != 4 || input.dims.len() != 4 {
        return Err(format!(
            "The layout of image and input is NCHW, but Image is {:?} and Input is {:?}",
            image.dims, input.dims
        ));
    }
    let min_sizes = floats(c, "min_sizes");
    let max_sizes = floats(c, "max_sizes");
    let ratios = expand_aspect_ratios(&floats(c, "aspect_ratios"), c.bool("flip").unwrap_or(true));
    let mut num_priors = ratios.len() * min_sizes.len();
    if !max_sizes.is_empty() {
        if max_sizes.len() != min_sizes.len() {
            return Err(format!(
                "The number of min_size and max_size must be equal ({} and {})",
                min_sizes.len(),
                max_sizes.len()
            ));
        }
        num_priors += max_sizes.len();
        for (i, (mx, mn)) in max_sizes.iter().zip(&min_sizes).enumerate() {
            if mx <= mn {
                return Err(format!(
                    "max_size[{i}] must be greater than min_size[{i}] ({mx} <= {mn})"
                ));
            }
        }
    }
    let t = TensorType::new(
        input.dtype,
        vec![input.dims[2], input.dims[3], num_priors as i64, 4],
    );
    Ok(vec![("Boxes", t.clone()), ("Variances", t)])
}

/// 1.x's `InferShape`: `Input` smaller than `Image` (NCHW both), as many
/// `fixed_sizes` as `densities`; `num_priors` is the sum over densities
/// of `fixed_ratios` times density squared; `[H, W, num_priors, 4]`, or
/// `[H W num_priors, 4]` with `flatten_to_2d`.
fn density_prior_box(c: &InferCtx) -> Out {
    let (Some(input), Some(image)) = (c.input("Input"), c.input("Image")) else {
        return Ok(Vec::new());
    };
    if image.dims.len() != 4 || input.dims.len() != 4 {
        return Err(format!(
            "The layout of image and input is NCHW, but Image is {:?} and Input is {:?}",
            image.dims, input.dims
        ));
    }
    for (i, what) in [(2, "height"), (3, "width")] {
        let (f, m) = (input.dims[i], image.dims[i]);
        if f >= 0 && m >= 0 && f >= m {
            return Err(format!(
                "The {what} of input must smaller than image ({f} >= {m})"
            ));
        }
    }
    let densities = c.ints("densities").unwrap_or_default();
    let ratios = floats(c, "fixed_ratios").len() as i64;
    if floats(c, "fixed_sizes").len() != densities.len() {
        return Err("The number of fixed_sizes and densities must be equal.".into());
    }
    let num_priors: i64 = densities.iter().map(|d| ratios * d * d).sum();
    let (h, w) = (input.dims[2], input.dims[3]);
    let dims = if c.bool("flatten_to_2d").unwrap_or(false) {
        let n = if h < 0 || w < 0 {
            -1
        } else {
            h * w * num_priors
        };
        vec![n, 4]
    } else {
        vec![h, w, num_priors, 4]
    };
    let t = TensorType::new(input.dtype, dims);
    Ok(vec![("Boxes", t.clone()), ("Variances", t)])
}

/// 1.x's `InferShape`: encode takes `TargetBox` `[N, 4]` and gives `[N,
/// M, 4]` for `PriorBox` `[M, 4]`; decode takes `TargetBox` `[N, M, 4]`
/// (prior boxes along `axis` 0 or 1) and gives its shape. `OutputBox` is
/// `PriorBox`'s dtype (the layer's).
fn box_coder(c: &InferCtx) -> Out {
    let (Some(prior), Some(target)) = (c.input("PriorBox"), c.input("TargetBox")) else {
        return Ok(Vec::new());
    };
    let dims = match c.string("code_type").unwrap_or("encode_center_size") {
        "encode_center_size" => {
            if target.dims.len() != 2 || !matches!(target.dims[1], 4 | -1) {
                return Err(format!(
                    "The shape of TargetBox is [M, 4] to encode, not {:?}",
                    target.dims
                ));
            }
            vec![target.dims[0], prior.dims.first().copied().unwrap_or(-1), 4]
        }
        "decode_center_size" => {
            if target.dims.len() != 3 {
                return Err(format!(
                    "The rank of Input TargetBox must be 3 to decode, not {:?}",
                    target.dims
                ));
            }
            let axis = c.int("axis").unwrap_or(0);
            if axis != 0 && axis != 1 {
                return Err(format!("axis must be 0 or 1, not {axis}"));
            }
            target.dims.clone()
        }
        other => return Err(format!("Not support type {other}.")),
    };
    Ok(vec![("OutputBox", TensorType::new(prior.dtype, dims))])
}

/// `X` `[N, 4]` and `Y` `[M, 4]` boxes give `Out` `[N, M]` (X's dtype).
fn iou_similarity(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    for (slot, t) in [("X", x), ("Y", y)] {
        if t.dims.len() != 2 || !matches!(t.dims[1], 4 | -1) {
            return Err(format!("The shape of {slot} is [N, 4], not {:?}", t.dims));
        }
    }
    Ok(vec![(
        "Out",
        TensorType::new(x.dtype, vec![x.dims[0], y.dims[0]]),
    )])
}

/// `Input` NCHW gives `Anchors` and `Variances` `[H, W, num_anchors, 4]`,
/// `num_anchors` the aspect ratios times the anchor sizes.
fn anchor_generator(c: &InferCtx) -> Out {
    let Some(input) = c.input("Input") else {
        return Ok(Vec::new());
    };
    if input.dims.len() != 4 {
        return Err(format!("The layout of input is NCHW, not {:?}", input.dims));
    }
    let n = floats(c, "aspect_ratios").len() * floats(c, "anchor_sizes").len();
    let t = TensorType::new(input.dtype, vec![input.dims[2], input.dims[3], n as i64, 4]);
    Ok(vec![("Anchors", t.clone()), ("Variances", t)])
}

/// `Output` is `Input`'s type (boxes `[..., 4]`), clipped per image.
fn box_clip(c: &InferCtx) -> Out {
    let Some(input) = c.input("Input") else {
        return Ok(Vec::new());
    };
    Ok(vec![("Output", input.clone())])
}

/// 1.x's `InferShape`: `Out` is `[M, box_size + 2]` for `Scores` `[N, C,
/// M]` (the kernel sets the real rows), `[-1, box_size + 2]` for 2-D
/// `Scores`; `BBoxes`'s dtype.
fn multiclass_nms(c: &InferCtx) -> Out {
    let (Some(boxes), Some(scores)) = (c.input("BBoxes"), c.input("Scores")) else {
        return Ok(Vec::new());
    };
    if boxes.dims.len() != 3 {
        return Err(format!(
            "The rank of Input(BBoxes) must be 3, not {:?}",
            boxes.dims
        ));
    }
    let width = if boxes.dims[2] < 0 {
        -1
    } else {
        boxes.dims[2] + 2
    };
    let dims = match scores.dims.len() {
        3 => vec![boxes.dims[1], width],
        2 => vec![-1, width],
        _ => {
            return Err(format!(
                "The rank of Input(Scores) must be 2 or 3, not {:?}",
                scores.dims
            ))
        }
    };
    Ok(vec![("Out", TensorType::new(boxes.dtype, dims))])
}

/// `multiclass_nms`'s `Out`, and `Index` `[M or -1, 1]` int32 (1.6).
fn multiclass_nms2(c: &InferCtx) -> Out {
    let mut out = multiclass_nms(c)?;
    if let Some((_, t)) = out.first() {
        let rows = t.dims[0];
        out.push(("Index", TensorType::new(VarKind::Int32, vec![rows, 1])));
    }
    Ok(out)
}

/// `yolo_box` (1.6's `InferShape`): `X` NCHW with `C` = anchors / 2 times
/// (5 + `class_num`), `ImgSize` `[N, 2]`; `Boxes` `[N, A H W, 4]` and
/// `Scores` `[N, A H W, class_num]`, `X`'s dtype.
fn yolo_box(c: &InferCtx) -> Out {
    let (Some(x), Some(size)) = (c.input("X"), c.input("ImgSize")) else {
        return Ok(Vec::new());
    };
    let anchors = c.ints("anchors").unwrap_or_default();
    let classes = c.int("class_num").unwrap_or(0);
    if x.dims.len() != 4 {
        return Err(format!("Input(X) should be a 4-D tensor, not {:?}", x.dims));
    }
    if anchors.is_empty() || !anchors.len().is_multiple_of(2) {
        return Err(format!(
            "Attr(anchors) should be a non-empty list of (width, height) pairs, not {anchors:?}"
        ));
    }
    if classes <= 0 {
        return Err(format!(
            "Attr(class_num) should be an integer greater than 0, not {classes}"
        ));
    }
    let an = anchors.len() as i64 / 2;
    if x.dims[1] >= 0 && x.dims[1] != an * (5 + classes) {
        return Err(format!(
            "Input(X) dim[1] should be equal to (anchor_number * (5 + class_num)) = {}, not {}",
            an * (5 + classes),
            x.dims[1]
        ));
    }
    if size.dims.len() != 2 || !matches!(size.dims[1], 2 | -1) {
        return Err(format!(
            "Input(ImgSize) should be [N, 2], not {:?}",
            size.dims
        ));
    }
    let (n, h, w) = (x.dims[0], x.dims[2], x.dims[3]);
    if n >= 0 && size.dims[0] >= 0 && n != size.dims[0] {
        return Err(format!(
            "Input(ImgSize) dim[0] and Input(X) dim[0] should be the same ({} and {n})",
            size.dims[0]
        ));
    }
    let boxes = if h < 0 || w < 0 { -1 } else { an * h * w };
    Ok(vec![
        ("Boxes", TensorType::new(x.dtype, vec![n, boxes, 4])),
        ("Scores", TensorType::new(x.dtype, vec![n, boxes, classes])),
    ])
}

/// `yolov3_loss` (1.6's `InferShape`): `X` `[N, M (5 + class_num), H,
/// H]` for the `M` anchors of `anchor_mask` (indices into the `anchors`
/// pairs), `GTBox` `[N, B, 4]`, `GTLabel` `[N, B]`, `GTScore` `[N, B]`;
/// `Loss` `[N]` and `ObjectnessMask` `[N, M, H, W]` of `X`'s dtype,
/// `GTMatchMask` `[N, B]` int32.
fn yolov3_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(gt)) = (c.input("X"), c.input("GTBox")) else {
        return Ok(Vec::new());
    };
    let anchors = c.ints("anchors").unwrap_or_default();
    let mask = c.ints("anchor_mask").unwrap_or_default();
    let classes = c.int("class_num").unwrap_or(0);
    if x.dims.len() != 4 {
        return Err(format!("Input(X) should be a 4-D tensor, not {:?}", x.dims));
    }
    if x.dims[2] >= 0 && x.dims[3] >= 0 && x.dims[2] != x.dims[3] {
        return Err(format!(
            "Input(X) dims[2] and dims[3] should be equal, not {:?}",
            x.dims
        ));
    }
    if anchors.is_empty() || !anchors.len().is_multiple_of(2) {
        return Err(format!(
            "Attr(anchors) should be (width, height) pairs, not {anchors:?}"
        ));
    }
    let an = anchors.len() as i64 / 2;
    if let Some(m) = mask.iter().find(|&&m| m < 0 || m >= an) {
        return Err(format!(
            "Attr(anchor_mask) {m} out of range for {an} anchors"
        ));
    }
    if classes <= 0 {
        return Err(format!(
            "Attr(class_num) should be an integer greater than 0, not {classes}"
        ));
    }
    let m = mask.len() as i64;
    if x.dims[1] >= 0 && x.dims[1] != m * (5 + classes) {
        return Err(format!(
            "Input(X) dim[1] should be equal to (anchor_mask_number * (5 + class_num)) = {}, not {}",
            m * (5 + classes),
            x.dims[1]
        ));
    }
    if gt.dims.len() != 3 || !matches!(gt.dims[2], 4 | -1) {
        return Err(format!(
            "Input(GTBox) should be [N, B, 4], not {:?}",
            gt.dims
        ));
    }
    for slot in ["GTLabel", "GTScore"] {
        if let Some(t) = c.input(slot) {
            if t.dims.len() != 2 {
                return Err(format!("Input({slot}) should be [N, B], not {:?}", t.dims));
            }
        }
    }
    let (n, b) = (x.dims[0], gt.dims[1]);
    Ok(vec![
        ("Loss", TensorType::new(x.dtype, vec![n])),
        (
            "ObjectnessMask",
            TensorType::new(x.dtype, vec![n, m, x.dims[2], x.dims[3]]),
        ),
        ("GTMatchMask", TensorType::new(VarKind::Int32, vec![n, b])),
    ])
}

/// `roi_perspective_transform` (1.6's `InferShape`): `X` NCHW, `ROIs`
/// `[R, 8]` (four corners); `Out` `[R, C, transformed_height,
/// transformed_width]` of `X`'s dtype, `Mask` int32 `[R, 1, th, tw]`,
/// `TransformMatrix` `[R, 9]`, and the intermediates `Out`'s dims.
fn roi_perspective_transform(c: &InferCtx) -> Out {
    let (Some(x), Some(rois)) = (c.input("X"), c.input("ROIs")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!(
            "X {:?}: the format of input tensor is NCHW",
            x.dims
        ));
    }
    if rois.dims.len() != 2 || !matches!(rois.dims[1], 8 | -1) {
        return Err(format!(
            "ROIs {:?} should be a 2-D LoDTensor of shape (num_rois, 8) given as \
             [[x0, y0, x1, y1, x2, y2, x3, y3], ...]",
            rois.dims
        ));
    }
    let (th, tw) = (
        c.int("transformed_height").unwrap_or(1),
        c.int("transformed_width").unwrap_or(1),
    );
    if th <= 0 || tw <= 0 {
        return Err(format!(
            "the transformed output height {th} and width {tw} must be greater than 0"
        ));
    }
    let scale = match c.attr("spatial_scale") {
        Some(AttrValue::Float(v)) => Some(f64::from(*v)),
        Some(AttrValue::Float64(v)) => Some(*v),
        _ => None,
    };
    if scale.is_some_and(|s| s <= 0.0) {
        return Err("the spatial scale must be greater than 0".into());
    }
    let r = rois.dims[0];
    let out = vec![r, x.dims[1], th, tw];
    Ok(vec![
        ("Out", TensorType::new(x.dtype, out.clone())),
        ("Mask", TensorType::new(VarKind::Int32, vec![r, 1, th, tw])),
        ("TransformMatrix", TensorType::new(x.dtype, vec![r, 9])),
        ("Out2InIdx", TensorType::new(VarKind::Int32, out.clone())),
        ("Out2InWeights", TensorType::new(x.dtype, out)),
    ])
}

/// `generate_proposals` (1.x's `InferShape`): `RpnRois` `[-1, 4]` and
/// `RpnRoiProbs` `[-1, 1]`, of `Anchors`' dtype (the kernel's); 1.7's
/// `RpnRoisNum` int32, one count per image.
fn generate_proposals(c: &InferCtx) -> Out {
    let Some(anchors) = c.input("Anchors") else {
        return Ok(Vec::new());
    };
    let images = c
        .input("Scores")
        .map_or(-1, |s| s.dims.first().copied().unwrap_or(-1));
    Ok(vec![
        ("RpnRois", TensorType::new(anchors.dtype, vec![-1, 4])),
        ("RpnRoiProbs", TensorType::new(anchors.dtype, vec![-1, 1])),
        ("RpnRoisNum", TensorType::new(VarKind::Int32, vec![images])),
    ])
}

/// `rpn_target_assign` (1.x's `InferShape`): `Anchor`, `GtBoxes` and
/// `ImInfo` of rank 2; the sampled anchors' int32 indices and labels,
/// their box targets and inside weights of `Anchor`'s dtype, their
/// number known when it runs.
fn rpn_target_assign(c: &InferCtx) -> Out {
    let Some(anchor) = c.input("Anchor") else {
        return Ok(Vec::new());
    };
    for slot in ["Anchor", "GtBoxes", "ImInfo"] {
        if let Some(t) = c.input(slot) {
            if t.dims.len() != 2 {
                return Err(format!(
                    "the rank of Input({slot}) must be 2, not {:?}",
                    t.dims
                ));
            }
        }
    }
    Ok(vec![
        ("LocationIndex", TensorType::new(VarKind::Int32, vec![-1])),
        ("ScoreIndex", TensorType::new(VarKind::Int32, vec![-1])),
        ("TargetLabel", TensorType::new(VarKind::Int32, vec![-1, 1])),
        ("TargetBBox", TensorType::new(anchor.dtype, vec![-1, 4])),
        (
            "BBoxInsideWeight",
            TensorType::new(anchor.dtype, vec![-1, 4]),
        ),
    ])
}
