//! Image resizing: Paddle 1.x's `bilinear_interp` and `nearest_interp`
//! (`image_resize`, `resize_bilinear`, `resize_nearest`).
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::AttrValue;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("bilinear_interp", interp));
    r.push(Behaviour::pure("nearest_interp", interp));
}

/// The op's `scale` attribute (0 when unset).
fn scale(c: &InferCtx) -> f32 {
    match c.attr("scale") {
        Some(AttrValue::Float(v)) => *v,
        Some(AttrValue::Float64(v)) => *v as f32,
        _ => 0.0,
    }
}

/// Both interps, as 1.x's InferShape: `X` is NCHW; `Out` is `[N, C,
/// out_h, out_w]`, from `scale` when it is positive (rounded down) or else
/// from `out_h` and `out_w`, which must then be positive (an `OutSize`
/// input replaces them at run time).
fn interp(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let method = c.string("interp_method").unwrap_or("bilinear");
    if method != "bilinear" && method != "nearest" {
        return Err(format!(
            "Interpolation method can only be \"bilinear\" or \"nearest\", not {method:?}"
        ));
    }
    if x.dims.len() != 4 {
        return Err(format!("X's dimension must be 4, but X is {:?}", x.dims));
    }
    for slot in ["SizeTensor", "Scale"] {
        if c.has_input(slot) {
            return Err(format!(
                "{slot} is Paddle 1.6's input; fluidc's {method}_interp takes the size from out_h/out_w, scale or OutSize"
            ));
        }
    }
    if c.string("data_layout")
        .is_some_and(|l| l != "NCHW" && l != "AnyLayout")
    {
        return Err("fluidc's interp ops take NCHW images (data_layout \"NCHW\")".into());
    }
    let s = scale(c);
    let (oh, ow) = if s > 0.0 {
        let by = |d: i64| {
            let o = (d as f32 * s) as i64;
            if d < 0 || o <= 0 {
                -1
            } else {
                o
            }
        };
        (by(x.dims[2]), by(x.dims[3]))
    } else {
        let (oh, ow) = (c.int("out_h").unwrap_or(0), c.int("out_w").unwrap_or(0));
        if oh <= 0 || ow <= 0 {
            return Err(format!(
                "out_h and out_w should be greater than 0, but they are {oh} and {ow}"
            ));
        }
        (oh, ow)
    };
    Ok(vec![(
        "Out",
        TensorType::new(x.dtype, vec![x.dims[0], x.dims[1], oh, ow]),
    )])
}
