//! Convolutions: `conv2d`, `depthwise_conv2d`, `conv2d_transpose` and
//! `depthwise_conv2d_transpose`, and the window geometry `pool2d` shares.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("conv2d", conv2d));
    // A grouped conv2d with groups == input channels (1.x's conv2d layer
    // builds it when use_cudnn is off): the same attributes and shapes.
    r.push(Behaviour::pure("depthwise_conv2d", conv2d));
    // The transpose of conv2d (1.x's `conv2d_transpose` layer); the
    // depthwise type is the same op with groups == channels == filters.
    r.push(Behaviour::pure("conv2d_transpose", conv2d_transpose));
    r.push(Behaviour::pure(
        "depthwise_conv2d_transpose",
        conv2d_transpose,
    ));
}

/// One spatial output dim of a window of `k` (dilated) with `stride` and
/// the two paddings, as Paddle's ConvOutputSize and PoolOutputSize: C++'s
/// truncating division, so a window past the end by less than a stride
/// still gives one output (a size <= 0 is the caller's error); unknown
/// stays unknown. The runtime sizes its outputs with it too.
pub fn window_out(size: i64, k: i64, pad: (i64, i64), stride: i64, ceil: bool) -> i64 {
    if size < 0 || k < 0 || stride <= 0 {
        return -1;
    }
    let span = size + pad.0 + pad.1 - k;
    if ceil {
        (span + stride - 1) / stride + 1
    } else {
        span / stride + 1
    }
}

/// Paddings as (before, after) per spatial dim: 2 values are symmetric, 4
/// are (top, bottom, left, right).
pub(super) fn pads(p: &[i64]) -> Option<[(i64, i64); 2]> {
    match *p {
        [h, w] => Some([(h, h), (w, w)]),
        [t, b, l, r] => Some([(t, b), (l, r)]),
        _ => None,
    }
}

/// The (N, C, H, W) positions of `data_format`.
pub(super) fn layout(c: &InferCtx, attr: &str) -> Option<[usize; 4]> {
    match c.attr(attr) {
        Some(crate::model::AttrValue::String(s)) if s == "NHWC" => Some([0, 3, 1, 2]),
        Some(crate::model::AttrValue::String(s)) if s == "NCHW" || s == "AnyLayout" => {
            Some([0, 1, 2, 3])
        }
        None => Some([0, 1, 2, 3]),
        _ => None,
    }
}

pub(super) fn explicit_padding(c: &InferCtx) -> bool {
    !matches!(c.attr("padding_algorithm"), Some(crate::model::AttrValue::String(s)) if s != "EXPLICIT")
}

/// What conv2d and conv2d_transpose read: the input and filter (4-D, one
/// dtype), the layout, strides, dilations and explicit paddings; `None`
/// where inference cannot say (an unknown input, a padding algorithm).
type ConvGeometry<'a> = (
    &'a TensorType,
    &'a TensorType,
    [usize; 4],
    Vec<i64>,
    Vec<i64>,
    [(i64, i64); 2],
);

fn conv_geometry<'a>(c: &'a InferCtx) -> Result<Option<ConvGeometry<'a>>, String> {
    let (Some(x), Some(f)) = (c.input("Input"), c.input("Filter")) else {
        return Ok(None);
    };
    super::infer::same_dtype(x, f)?;
    let Some(l) = layout(c, "data_format") else {
        return Ok(None);
    };
    if x.dims.len() != 4 || f.dims.len() != 4 || !explicit_padding(c) {
        return Ok(None);
    }
    let strides = c.ints("strides").unwrap_or_else(|| vec![1, 1]);
    let dil = c.ints("dilations").unwrap_or_else(|| vec![1, 1]);
    let Some(p) = pads(&c.ints("paddings").unwrap_or_else(|| vec![0, 0])) else {
        return Ok(None);
    };
    if strides.len() != 2 || dil.len() != 2 {
        return Ok(None);
    }
    Ok(Some((x, f, l, strides, dil, p)))
}

fn conv2d(c: &InferCtx) -> Out {
    let Some((x, f, l, strides, dil, p)) = conv_geometry(c)? else {
        return Ok(Vec::new());
    };
    let mut out = vec![0; 4];
    out[l[0]] = x.dims[l[0]];
    out[l[1]] = f.dims[0];
    for i in 0..2 {
        let k = f.dims[2 + i];
        let k = if k < 0 { -1 } else { dil[i] * (k - 1) + 1 };
        out[l[2 + i]] = window_out(x.dims[l[2 + i]], k, p[i], strides[i], false);
    }
    Ok(vec![("Output", TensorType::new(x.dtype, out))])
}

/// `conv2d_transpose`: `Input` `[N, C, H, W]` and `Filter` `[C, F / groups,
/// kh, kw]` give `[N, F, (H - 1) * stride - pads + dilation * (kh - 1) + 1,
/// ...]`, or `output_size` where it is given (it must lie within one
/// stride above that), plus `output_padding` (Paddle's
/// `ConvTransposeInferMeta`).
fn conv2d_transpose(c: &InferCtx) -> Out {
    let Some((x, f, l, strides, dil, p)) = conv_geometry(c)? else {
        return Ok(Vec::new());
    };
    let groups = c.int("groups").unwrap_or(1).max(1);
    let sizes = c.ints("output_size").unwrap_or_default();
    let extra = c.ints("output_padding").unwrap_or_default();
    if !matches!(sizes.len(), 0 | 2) {
        return Ok(Vec::new());
    }
    let channels = x.dims[l[1]];
    if channels >= 0 && f.dims[0] >= 0 && channels != f.dims[0] {
        return Err(format!(
            "the input has {channels} channels but the filter {:?} takes {} (its first dim)",
            f.dims, f.dims[0]
        ));
    }
    let mut out = vec![0; 4];
    out[l[0]] = x.dims[l[0]];
    out[l[1]] = if f.dims[1] < 0 {
        -1
    } else {
        f.dims[1].saturating_mul(groups)
    };
    for i in 0..2 {
        let (size, k) = (x.dims[l[2 + i]], f.dims[2 + i]);
        // The size Paddle infers (unknown for unknown or absurd operands;
        // the kernel reports those).
        let inferred = if size < 0 || k < 0 || strides[i] <= 0 || dil[i] <= 0 {
            None
        } else {
            (size - 1)
                .checked_mul(strides[i])
                .zip(dil[i].checked_mul(k - 1))
                .and_then(|(a, b)| a.checked_add(b)?.checked_sub(p[i].0)?.checked_sub(p[i].1))
                .and_then(|v| v.checked_add(1))
        }
        .unwrap_or(-1);
        out[l[2 + i]] = if let Some(&want) = sizes.get(i) {
            let below = inferred.saturating_add(strides[i]);
            if inferred >= 0 && (want < inferred || want >= below) {
                return Err(format!(
                    "output_size {sizes:?} does not fit: dim {i} must be at least {inferred} and below {below}"
                ));
            }
            want
        } else if let (Some(&e), true) = (extra.get(i), inferred >= 0) {
            inferred.saturating_add(e)
        } else {
            inferred
        };
    }
    Ok(vec![("Output", TensorType::new(x.dtype, out))])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (size + pads - kernel) / stride + 1, rounded up in ceil mode.
    #[test]
    fn window_output_sizes() {
        assert_eq!(window_out(7, 3, (1, 1), 2, false), 4);
        assert_eq!(window_out(6, 3, (0, 0), 2, false), 2);
        assert_eq!(window_out(6, 3, (0, 0), 2, true), 3);
        assert_eq!(window_out(-1, 3, (1, 1), 1, false), -1);
        assert_eq!(pads(&[1, 2]), Some([(1, 1), (2, 2)]));
        assert_eq!(pads(&[1, 2, 3, 4]), Some([(1, 2), (3, 4)]));
        assert_eq!(pads(&[1, 2, 3]), None);
    }
}
