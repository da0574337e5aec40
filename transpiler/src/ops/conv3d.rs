//! 3-D (NCDHW) convolution and pooling: `conv3d`, `conv3d_transpose`,
//! `pool3d` and `max_pool3d_with_index` (1.x's `layers.conv3d`,
//! `conv3d_transpose`, `pool3d`, and 1.6's `adaptive_pool3d`).
use super::conv::window_out;
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::AttrValue;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("conv3d", conv3d));
    r.push(Behaviour::pure("conv3d_transpose", conv3d_transpose));
    r.push(Behaviour::pure("pool3d", pool3d));
    r.push(Behaviour::pure(
        "max_pool3d_with_index",
        max_pool3d_with_index,
    ));
}

/// `max_pool3d_with_index` (1.6's `adaptive_pool3d` of max): `Out` as
/// `pool3d`'s, `Mask` the same dims in int32 (each max's position in its
/// input map).
fn max_pool3d_with_index(c: &InferCtx) -> Out {
    let mut out = pool3d(c)?;
    if let Some((_, t)) = out.first() {
        let mask = TensorType::new(crate::model::VarKind::Int32, t.dims.clone());
        out.push(("Mask", mask));
    }
    Ok(out)
}

/// Whether `data_format` is NCDHW (conv3d_transpose's 1.x layer wrote
/// `NCHW` for it); other layouts infer nothing (the kernel refuses them).
fn channels_first(c: &InferCtx) -> bool {
    match c.attr("data_format") {
        Some(AttrValue::String(s)) => matches!(s.as_str(), "NCDHW" | "NCHW" | "AnyLayout"),
        _ => true,
    }
}

/// Strides, dilations and (before, after) paddings.
type Spatial = ([i64; 3], [i64; 3], [(i64, i64); 3]);

/// Strides, dilations (`dil`: whether the op has them) and (before,
/// after) paddings for a window `k` over `input`, after the padding
/// algorithm; `None` where inference cannot say.
fn spatial(c: &InferCtx, input: &[i64], k: &[i64], dil: bool) -> Option<Spatial> {
    let three = |v: Vec<i64>| <[i64; 3]>::try_from(v).ok();
    let s = three(c.ints("strides").unwrap_or_else(|| vec![1, 1, 1]))?;
    let mut d = if dil {
        three(c.ints("dilations").unwrap_or_else(|| vec![1, 1, 1]))?
    } else {
        [1, 1, 1]
    };
    let mut p = [(0, 0); 3];
    match c.string("padding_algorithm").unwrap_or("EXPLICIT") {
        "VALID" => {}
        "SAME" => {
            for i in 0..3 {
                if input[i] < 0 || k[i] < 0 || s[i] <= 0 {
                    return None;
                }
                let o = (input[i] + s[i] - 1) / s[i];
                let need = ((o.max(1) - 1) * s[i] + k[i] - input[i]).max(0);
                p[i] = (need / 2, need - need / 2);
                d[i] = 1;
            }
        }
        _ => match *c.ints("paddings").unwrap_or_else(|| vec![0, 0, 0]) {
            [a, b, e] => p = [(a, a), (b, b), (e, e)],
            [a, b, e, f, g, h] => p = [(a, b), (e, f), (g, h)],
            _ => return None,
        },
    }
    Some((s, d, p))
}

/// `conv3d`: `Input` `[N, C, D, H, W]` and `Filter` `[F, C / groups, kd,
/// kh, kw]` give `[N, F, D', H', W']`.
fn conv3d(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("Input"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    super::infer::same_dtype(x, f)?;
    if x.dims.len() != 5 || f.dims.len() != 5 {
        return Err(format!(
            "conv3d's Input and Filter must be 5-D, they are {:?} and {:?}",
            x.dims, f.dims
        ));
    }
    if !channels_first(c) {
        return Ok(Vec::new());
    }
    let Some((s, d, p)) = spatial(c, &x.dims[2..], &f.dims[2..], true) else {
        return Ok(Vec::new());
    };
    let mut out = vec![x.dims[0], f.dims[0]];
    for i in 0..3 {
        let k = f.dims[2 + i];
        let k = if k < 0 { -1 } else { d[i] * (k - 1) + 1 };
        out.push(window_out(x.dims[2 + i], k, p[i], s[i], false));
    }
    Ok(vec![("Output", TensorType::new(x.dtype, out))])
}

/// `conv3d_transpose`: `Input` `[N, C, D, H, W]` and `Filter` `[C, F /
/// groups, kd, kh, kw]` give `[N, F, (D - 1) * stride - pads + dilation *
/// (kd - 1) + 1, ...]`, or `output_size`, or that plus `output_padding`.
fn conv3d_transpose(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("Input"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    super::infer::same_dtype(x, f)?;
    if x.dims.len() != 5 || f.dims.len() != 5 {
        return Err(format!(
            "conv3d_transpose's Input and Filter must be 5-D, they are {:?} and {:?}",
            x.dims, f.dims
        ));
    }
    if x.dims[1] >= 0 && f.dims[0] >= 0 && x.dims[1] != f.dims[0] {
        return Err(format!(
            "the input has {} channels but the filter {:?} takes {} (its first dim)",
            x.dims[1], f.dims, f.dims[0]
        ));
    }
    if !channels_first(c) {
        return Ok(Vec::new());
    }
    let Some((s, d, p)) = spatial(c, &x.dims[2..], &f.dims[2..], true) else {
        return Ok(Vec::new());
    };
    let groups = c.int("groups").unwrap_or(1).max(1);
    let sizes = c.ints("output_size").unwrap_or_default();
    let extra = c.ints("output_padding").unwrap_or_default();
    let mut out = vec![
        x.dims[0],
        if f.dims[1] < 0 {
            -1
        } else {
            f.dims[1] * groups
        },
    ];
    for i in 0..3 {
        let (size, k) = (x.dims[2 + i], f.dims[2 + i]);
        let inferred = if size < 0 || k < 0 {
            -1
        } else {
            (size - 1) * s[i] - p[i].0 - p[i].1 + d[i] * (k - 1) + 1
        };
        out.push(match (sizes.get(i), extra.get(i)) {
            (Some(&want), _) => want,
            (None, Some(&e)) if inferred >= 0 => inferred + e,
            _ => inferred,
        });
    }
    Ok(vec![("Output", TensorType::new(x.dtype, out))])
}

/// `pool3d`: `X` `[N, C, D, H, W]` to `[N, C, D', H', W']` (ones with
/// `global_pooling`, `ksize` when `adaptive`).
fn pool3d(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 5 {
        return Err(format!("pool3d's X must be 5-D, it is {:?}", x.dims));
    }
    if !channels_first(c) {
        return Ok(Vec::new());
    }
    let mut out = x.dims[..2].to_vec();
    if c.bool("global_pooling") == Some(true) {
        out.extend([1, 1, 1]);
        return Ok(vec![("Out", TensorType::new(x.dtype, out))]);
    }
    let Some(k) = c.ints("ksize").filter(|k| k.len() == 3) else {
        return Ok(Vec::new());
    };
    if c.bool("adaptive") == Some(true) {
        out.extend(k);
        return Ok(vec![("Out", TensorType::new(x.dtype, out))]);
    }
    let Some((s, _, p)) = spatial(c, &x.dims[2..], &k, false) else {
        return Ok(Vec::new());
    };
    let ceil = c.bool("ceil_mode") == Some(true);
    for i in 0..3 {
        out.push(window_out(x.dims[2 + i], k[i], p[i], s[i], ceil));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, out))])
}
