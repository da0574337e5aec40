//! Pooling: `pool2d` (max and average, global, ceil mode, adaptive),
//! `max_pool2d_with_index` (max pooling that also gives each max's
//! position), `maxout` (the max over groups of channels), `roi_pool` and
//! `roi_align` (a fixed-size map pooled out of each region of interest).
use super::conv::{explicit_padding, layout, pads, window_out};
use super::infer::{same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("pool2d", pool2d));
    r.push(Behaviour::pure("maxout", maxout));
    r.push(Behaviour::pure(
        "max_pool2d_with_index",
        max_pool2d_with_index,
    ));
    r.push(Behaviour::pure("roi_pool", roi).reads_lod());
    r.push(Behaviour::pure("roi_align", roi).reads_lod());
}

/// `roi_pool` and `roi_align` (Paddle's `RoiPoolInferMeta` and
/// `RoiAlignInferMeta`): `X` `[N, C, H, W]`, `ROIs` `[R, 4]` (its LoD, or
/// `RoisNum`, gives each image's regions); `Out` `[R, C, pooled_height,
/// pooled_width]`, and `roi_pool`'s `Argmax` the same dims in int64.
fn roi(c: &InferCtx) -> Out {
    let (Some(x), Some(rois)) = (c.input("X"), c.input("ROIs")) else {
        return Ok(Vec::new());
    };
    let ty = c.op.ty.as_str();
    if x.dims.len() != 4 {
        return Err(format!(
            "The input data of {ty} should be 4-D (NCHW), got {:?}",
            x.dims
        ));
    }
    if rois.dims.len() != 2 || rois.dims[1] >= 0 && rois.dims[1] != 4 {
        return Err(format!(
            "ROIs of {ty} should be a 2-D tensor of shape (num_rois, 4), got {:?}",
            rois.dims
        ));
    }
    if let Some(n) = c.input("RoisNum") {
        if n.dims.len() != 1 {
            return Err(format!("RoisNum of {ty} should be 1-D, got {:?}", n.dims));
        }
    }
    let (ph, pw) = (
        c.int("pooled_height").unwrap_or(1),
        c.int("pooled_width").unwrap_or(1),
    );
    if ph <= 0 || pw <= 0 {
        return Err(format!(
            "The pooled output height and width of {ty} must be greater than 0, got {ph} and {pw}"
        ));
    }
    if let Some(crate::model::AttrValue::Float(s)) = c.attr("spatial_scale") {
        if *s <= 0.0 {
            return Err(format!(
                "The spatial scale of {ty} must be greater than 0, got {s}"
            ));
        }
    }
    same_dtype(x, rois)?;
    let dims = vec![rois.dims[0], x.dims[1], ph, pw];
    let mut out = vec![("Out", TensorType::new(x.dtype, dims.clone()))];
    if ty == "roi_pool" {
        out.push((
            "Argmax",
            TensorType::new(crate::model::VarKind::Int64, dims),
        ));
    }
    Ok(out)
}

/// `max_pool2d_with_index` (1.6's `adaptive_pool2d` of max): `Out` as
/// `pool2d`'s, `Mask` the same dims in int32 (each max's position in its
/// input map).
fn max_pool2d_with_index(c: &InferCtx) -> Out {
    let mut out = pool2d(c)?;
    if let Some((_, t)) = out.first() {
        let mask = TensorType::new(crate::model::VarKind::Int32, t.dims.clone());
        out.push(("Mask", mask));
    }
    Ok(out)
}

/// `maxout`: the channel dim (`axis`, 1 or 3 of a 4-D `X`) shrunk
/// `groups` times: each output channel is the max of `groups` in a row.
fn maxout(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!("X of maxout must be 4-D, not of dims {:?}", x.dims));
    }
    let groups = c.int("groups").unwrap_or(0);
    let axis = maxout_axis(c.int("axis").unwrap_or(1))?;
    if groups <= 0 {
        return Err(format!("groups of maxout must be positive, not {groups}"));
    }
    let mut dims = x.dims.clone();
    if dims[axis] >= 0 {
        if dims[axis] % groups != 0 {
            return Err(format!(
                "the channels of X {:?} do not divide into groups of {groups}",
                x.dims
            ));
        }
        dims[axis] /= groups;
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `maxout`'s channel axis: 1 (NCHW) or 3 (NHWC, also -1). Shared with
/// the runtime's kernel.
pub fn maxout_axis(axis: i64) -> Result<usize, String> {
    match axis {
        1 => Ok(1),
        3 | -1 => Ok(3),
        _ => Err(format!("axis of maxout must be 1, 3 or -1, not {axis}")),
    }
}

fn pool2d(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let Some(l) = layout(c, "data_format") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 || !explicit_padding(c) {
        return Ok(Vec::new());
    }
    let mut out = x.dims.clone();
    if c.bool("global_pooling").unwrap_or(false) {
        out[l[2]] = 1;
        out[l[3]] = 1;
        return Ok(vec![("Out", TensorType::new(x.dtype, out))]);
    }
    let Some(k) = c.ints("ksize").filter(|k| k.len() == 2) else {
        return Ok(Vec::new());
    };
    if c.bool("adaptive").unwrap_or(false) {
        out[l[2]] = k[0];
        out[l[3]] = k[1];
        return Ok(vec![("Out", TensorType::new(x.dtype, out))]);
    }
    let strides = c.ints("strides").unwrap_or_else(|| vec![1, 1]);
    let Some(p) = pads(&c.ints("paddings").unwrap_or_else(|| vec![0, 0])) else {
        return Ok(Vec::new());
    };
    if strides.len() != 2 {
        return Ok(Vec::new());
    }
    let ceil = c.bool("ceil_mode").unwrap_or(false);
    for i in 0..2 {
        out[l[2 + i]] = window_out(x.dims[l[2 + i]], k[i], p[i], strides[i], ceil);
    }
    Ok(vec![("Out", TensorType::new(x.dtype, out))])
}
