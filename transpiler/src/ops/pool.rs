//! Pooling: `pool2d` (max and average, global, ceil mode, adaptive).
use super::conv::{explicit_padding, layout, pads, window_out};
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("pool2d", pool2d));
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
