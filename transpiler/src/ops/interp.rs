//! Image resizing: Paddle 1.x's `bilinear_interp` and `nearest_interp`
//! (`image_resize`, `resize_bilinear`, `resize_nearest`), and the spatial
//! transformer's `affine_grid` and `grid_sampler`.
use super::infer::{same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::AttrValue;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("bilinear_interp", interp));
    r.push(Behaviour::pure("nearest_interp", interp));
    r.push(Behaviour::pure("grid_sampler", grid_sampler).shares_lod("X", "Output"));
    r.push(Behaviour::pure("affine_grid", affine_grid).shares_lod("Theta", "Output"));
}

/// `grid_sampler` (1.x's `InferShape`): `X` `[N, C, H, W]`, `Grid` `[N,
/// H, W, 2]` (1.x sampled at X's own size); `Output` is `X`'s shape. Only
/// 1.x's bilinear sampling with zero padding (3.3.1's `mode` and
/// `padding_mode` defaults) is implemented.
fn grid_sampler(c: &InferCtx) -> Out {
    let (Some(x), Some(grid)) = (c.input("X"), c.input("Grid")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 || grid.dims.len() != 4 {
        return Err(format!(
            "Input(X) and Input(Grid) of GridSampleOp should be 4-D Tensors, got {:?} and {:?}",
            x.dims, grid.dims
        ));
    }
    if grid.dims[3] > 0 && grid.dims[3] != 2 {
        return Err(format!(
            "Input(Grid) dims[3] should be 2, got {:?}",
            grid.dims
        ));
    }
    for (g, xi, what) in [
        (0, 0, "dims[0]"),
        (1, 2, "dims[1] and X's dims[2]"),
        (2, 3, "dims[2] and X's dims[3]"),
    ] {
        if grid.dims[g] >= 0 && x.dims[xi] >= 0 && grid.dims[g] != x.dims[xi] {
            return Err(format!(
                "Input(Grid) {what} should be equal (1.x samples at X's size): X {:?}, Grid {:?}",
                x.dims, grid.dims
            ));
        }
    }
    same_dtype(x, grid)?;
    if c.string("mode").is_some_and(|m| m != "bilinear")
        || c.string("padding_mode").is_some_and(|m| m != "zeros")
    {
        return Err(
            "fluidc's grid_sampler is 1.x's: mode 'bilinear' and padding_mode 'zeros' only".into(),
        );
    }
    Ok(vec![("Output", x.clone())])
}

/// `affine_grid` (1.x's `InferShape`): `Theta` `[N, 2, 3]`; `Output` `[N,
/// -1, -1, 2]` (H and W from `output_shape`, `[N, C, H, W]`, or when that
/// is empty from the `OutputShape` tensor, known when it runs).
fn affine_grid(c: &InferCtx) -> Out {
    let Some(theta) = c.input("Theta") else {
        return Ok(Vec::new());
    };
    if theta.dims.len() != 3 {
        return Err(format!(
            "AffineGrid's Input(Theta) should be 3-D tensor, got {:?}",
            theta.dims
        ));
    }
    if theta.dims[1] >= 0 && theta.dims[1] != 2 || theta.dims[2] >= 0 && theta.dims[2] != 3 {
        return Err(format!(
            "Input(theta) dims should be [N, 2, 3], got {:?}",
            theta.dims
        ));
    }
    let shape = c.ints("output_shape").unwrap_or_default();
    if shape.is_empty() {
        match c.input("OutputShape") {
            Some(s) if s.dims.len() == 1 => {}
            Some(s) => {
                return Err(format!("AffineGrid's Input(OutputShape) should be 1-D tensor, got {:?}", s.dims))
            }
            None => {
                return Err(
                    "Input(OutputShape) of AffineGridOp should not be null if attr(output_shape) is not configured."
                        .into(),
                )
            }
        }
    } else if shape.len() != 4 {
        return Err(format!(
            "The size of attr(output_shape) should be 4, got {shape:?}"
        ));
    }
    // 1.x left H and W unknown whatever output_shape says.
    Ok(vec![(
        "Output",
        TensorType::new(theta.dtype, vec![theta.dims[0], -1, -1, 2]),
    )])
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
