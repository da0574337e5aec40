//! Neural-network layers' ops: `softmax_with_cross_entropy`,
//! `sigmoid_cross_entropy_with_logits`, `log_loss`, embeddings
//! (`lookup_table`, `lookup_table_v2`), `conv2d`, `conv2d_transpose`, `pool2d`, `batch_norm`,
//! `dropout`, `top_k`, `arg_max`/`arg_min`, `accuracy`, and the RNN cells
//! `gru_unit` and `lstm_unit`, `cos_sim` (`lstm_unit` and `cos_sim`
//! are Paddle 1.x's, which 3.3.1 dropped: see `data/fluidc_ops.json`),
//! `one_hot_v2`, and the `auc` metric.
use super::infer::{same_as_x, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure(
        "softmax_with_cross_entropy",
        softmax_with_cross_entropy,
    ));
    r.push(Behaviour::pure(
        "sigmoid_cross_entropy_with_logits",
        same_as_x,
    ));
    r.push(Behaviour::pure("log_loss", log_loss));
    r.push(Behaviour::pure("lookup_table", |c| lookup_table(c, true)).shares_lod("Ids", "Out"));
    r.push(Behaviour::pure("lookup_table_v2", |c| lookup_table(c, false)).shares_lod("Ids", "Out"));
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
    r.push(Behaviour::pure("pool2d", pool2d));
    r.push(Behaviour::pure("batch_norm", batch_norm).not_foldable());
    // Draws its mask from the random engine when training.
    r.push(
        Behaviour::pure("dropout", dropout)
            .not_foldable()
            .shares_lod("X", "Out"),
    );
    // 1.x's InferShape shares X's LoD with Out (beam_search reads it).
    r.push(Behaviour::pure("top_k", top_k).shares_lod("X", "Out"));
    r.push(Behaviour::pure("arg_max", arg_extreme));
    r.push(Behaviour::pure("arg_min", arg_extreme));
    r.push(Behaviour::pure("accuracy", accuracy));
    r.push(Behaviour::pure("gru_unit", gru_unit));
    r.push(Behaviour::pure("lstm_unit", lstm_unit));
    r.push(Behaviour::pure("cos_sim", cos_sim).shares_lod("X", "Out"));
    r.push(Behaviour::pure("one_hot_v2", one_hot_v2).shares_lod("X", "Out"));
    // Its statistics are persistable state it updates on every run.
    r.push(Behaviour::pure("auc", auc).not_foldable());
}

/// `auc`: the area (float64, 0-D as Paddle 3.3.1 declares it) from the
/// positive and negative counts per probability bucket, which it updates
/// in place (`StatPosOut` is `StatPos`). Paddle's kernel takes float32
/// probabilities and int64 labels only.
fn auc(c: &InferCtx) -> Out {
    if let Some(p) = c.input("Predict") {
        if p.dtype != VarKind::Fp32 || p.dims.len() != 2 {
            return Err(format!(
                "Predict is {} {:?}; auc takes float32 probabilities [batch, classes] (the last column is the positive class's): cast or reshape them first",
                crate::model::dtype_name(p.dtype),
                p.dims
            ));
        }
    }
    if let Some(l) = c.input("Label") {
        if l.dtype != VarKind::Int64 {
            return Err(format!(
                "Label is {}; auc takes int64 labels (cast them first)",
                crate::model::dtype_name(l.dtype)
            ));
        }
    }
    let mut out = vec![("AUC", TensorType::new(VarKind::Fp64, vec![]))];
    for (slot, input) in [("StatPosOut", "StatPos"), ("StatNegOut", "StatNeg")] {
        if let Some(t) = c.input(input) {
            out.push((slot, t.clone()));
        }
    }
    Ok(out)
}

/// `one_hot_v2`: `X`'s dims with `depth` appended, in the `dtype`
/// attribute's dtype (float32 by default); unknown when the depth is a
/// tensor (`depth_tensor`). `X` holds int32 or int64 ids, the dtypes
/// Paddle's kernel takes.
fn one_hot_v2(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !matches!(x.dtype, VarKind::Int32 | VarKind::Int64) {
        return Err(format!(
            "X is {}; it takes int32 or int64 ids (cast them first)",
            crate::model::dtype_name(x.dtype)
        ));
    }
    let depth = match c.int("depth") {
        Some(d) if d >= 1 && !c.has_input("depth_tensor") => d,
        _ => -1,
    };
    let dtype = c.dtype("dtype").unwrap_or(VarKind::Fp32);
    let mut dims = x.dims.clone();
    dims.push(depth);
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}

/// `log_loss`: `Loss` shaped as `Predicted`, a column of probabilities
/// `[N, 1]` (Paddle's `LogLossInferMeta`), with `Labels` of its shape.
fn log_loss(c: &InferCtx) -> Out {
    let (Some(p), Some(l)) = (c.input("Predicted"), c.input("Labels")) else {
        return Ok(Vec::new());
    };
    if p.dims.len() != 2 || !matches!(p.dims[1], 1 | -1) {
        return Err(format!(
            "input is {:?}; log_loss takes a column of probabilities [N, 1]",
            p.dims
        ));
    }
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if l.dims.len() != 2 || !p.dims.iter().zip(&l.dims).all(|(&a, &b)| known(a, b)) {
        return Err(format!(
            "label is {:?} but input is {:?}; they must have one shape",
            l.dims, p.dims
        ));
    }
    if p.dtype != l.dtype {
        return Err(format!(
            "label is {} but input is {}; cast the label to the input's dtype",
            crate::model::dtype_name(l.dtype),
            crate::model::dtype_name(p.dtype)
        ));
    }
    Ok(vec![("Loss", p.clone())])
}

/// `cos_sim`: `Out` and `XNorm` `[N, 1]` for `X` `[N, ...]`, `YNorm`
/// `[M, 1]` for `Y` `[M, ...]`. `Y` has `X`'s rank (at least 2) and dims
/// after the first, and `M` is `N` or 1 (one row compared with every row
/// of `X`). Paddle checks this only where all dims are known; a dim still
/// unknown (-1) here is left to the kernel, as there.
fn cos_sim(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() != y.dims.len() || x.dims.len() < 2 {
        return Err(format!(
            "X {:?} and Y {:?} must have one rank, at least 2 (a batch of rows); reshape them first",
            x.dims, y.dims
        ));
    }
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if !x.dims[1..]
        .iter()
        .zip(&y.dims[1..])
        .all(|(&a, &b)| known(a, b))
    {
        return Err(format!(
            "X {:?} and Y {:?} must have the same dims after the first; compare rows of one width (e.g. fc layers of one size)",
            x.dims, y.dims
        ));
    }
    let (n, m) = (x.dims[0], y.dims[0]);
    if !(known(n, m) || m == 1) {
        return Err(format!(
            "Y has {m} rows and X {n}: Y needs as many rows as X, or one row to compare with each"
        ));
    }
    let column = |rows: i64| TensorType::new(x.dtype, vec![rows, 1]);
    Ok(vec![
        ("Out", column(n)),
        ("XNorm", column(n)),
        ("YNorm", column(m)),
    ])
}

/// `gru_unit`: `Gate` `[batch, 3 * frame]`, `ResetHiddenPrev` and `Hidden`
/// `[batch, frame]`, the batch from `Input`, the frame from `HiddenPrev`.
fn gru_unit(c: &InferCtx) -> Out {
    let (Some(x), Some(h)) = (c.input("Input"), c.input("HiddenPrev")) else {
        return Ok(Vec::new());
    };
    let batch = x.dims.first().copied().unwrap_or(-1);
    let frame = h.dims.get(1).copied().unwrap_or(-1);
    let gate = if frame < 0 { -1 } else { frame * 3 };
    let hidden = TensorType::new(x.dtype, vec![batch, frame]);
    Ok(vec![
        ("Gate", TensorType::new(x.dtype, vec![batch, gate])),
        ("ResetHiddenPrev", hidden.clone()),
        ("Hidden", hidden),
    ])
}

/// `lstm_unit`: `C` and `H` shaped like `C_prev`.
fn lstm_unit(c: &InferCtx) -> Out {
    let (Some(x), Some(prev)) = (c.input("X"), c.input("C_prev")) else {
        return Ok(Vec::new());
    };
    let t = TensorType::new(x.dtype, prev.dims.clone());
    Ok(vec![("C", t.clone()), ("H", t)])
}

type Out = Result<Vec<(&'static str, TensorType)>, String>;

/// The index of dim `axis` (negative counts from the end) of a rank-`rank` tensor.
fn axis_index(axis: i64, rank: usize) -> Result<usize, String> {
    let r = rank as i64;
    let a = if axis < 0 { axis + r } else { axis };
    usize::try_from(a)
        .ok()
        .filter(|&a| a < rank.max(1))
        .ok_or_else(|| format!("axis {axis} is out of range for rank {rank}"))
}

/// `arg_max`/`arg_min`: int64 (or `dtype`) indices, `X`'s dims without
/// `axis` (kept as 1 with `keepdims`; one index for all with `flatten`).
fn arg_extreme(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let dtype = match c.int("dtype").unwrap_or(3) {
        2 => VarKind::Int32,
        _ => VarKind::Int64,
    };
    let keep = c.bool("keepdims").unwrap_or(false);
    let dims = if c.bool("flatten").unwrap_or(false) {
        if keep {
            vec![1; x.dims.len()]
        } else {
            Vec::new()
        }
    } else {
        let a = axis_index(c.int("axis").unwrap_or(0), x.dims.len())?;
        let mut d = x.dims.clone();
        if keep {
            if let Some(v) = d.get_mut(a) {
                *v = 1;
            }
        } else if a < d.len() {
            d.remove(a);
        }
        d
    };
    Ok(vec![("Out", TensorType::new(dtype, dims))])
}

/// `Softmax` has `Logits`' dims; `Loss` the same with the class dim 1.
fn softmax_with_cross_entropy(c: &InferCtx) -> Out {
    let Some(x) = c.input("Logits") else {
        return Ok(Vec::new());
    };
    let a = axis_index(c.int("axis").unwrap_or(-1), x.dims.len())?;
    let mut loss = x.dims.clone();
    if let Some(d) = loss.get_mut(a) {
        *d = 1;
    }
    Ok(vec![
        ("Softmax", x.clone()),
        ("Loss", TensorType::new(x.dtype, loss)),
    ])
}

/// `Out` is `Ids`' dims (v1: without its last, which is 1) then the row width of `W`.
fn lookup_table(c: &InferCtx, v1: bool) -> Out {
    let (Some(w), Some(ids)) = (c.input("W"), c.input("Ids")) else {
        return Ok(Vec::new());
    };
    if w.dims.len() != 2 {
        return Err(format!("W must be a matrix, it has dims {:?}", w.dims));
    }
    let mut dims = ids.dims.clone();
    if v1 {
        dims.pop();
    }
    dims.push(w.dims[1]);
    Ok(vec![("Out", TensorType::new(w.dtype, dims))])
}

/// One spatial output dim of a window of `k` (dilated) with `stride` and
/// the two paddings; unknown stays unknown.
fn window_out(size: i64, k: i64, pad: (i64, i64), stride: i64, ceil: bool) -> i64 {
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
fn pads(p: &[i64]) -> Option<[(i64, i64); 2]> {
    match *p {
        [h, w] => Some([(h, h), (w, w)]),
        [t, b, l, r] => Some([(t, b), (l, r)]),
        _ => None,
    }
}

/// The (N, C, H, W) positions of `data_format`.
fn layout(c: &InferCtx, attr: &str) -> Option<[usize; 4]> {
    match c.attr(attr) {
        Some(crate::model::AttrValue::String(s)) if s == "NHWC" => Some([0, 3, 1, 2]),
        Some(crate::model::AttrValue::String(s)) if s == "NCHW" || s == "AnyLayout" => {
            Some([0, 1, 2, 3])
        }
        None => Some([0, 1, 2, 3]),
        _ => None,
    }
}

fn explicit_padding(c: &InferCtx) -> bool {
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

/// `Y` is `X`; the running statistics keep their own types.
fn batch_norm(c: &InferCtx) -> Out {
    let mut out = Vec::new();
    if let Some(x) = c.input("X") {
        out.push(("Y", x.clone()));
    }
    if let Some(m) = c.input("Mean") {
        out.push(("MeanOut", m.clone()));
    }
    if let Some(v) = c.input("Variance") {
        out.push(("VarianceOut", v.clone()));
    }
    Ok(out)
}

/// `Out` is `X`; `Mask` has `X`'s dims as uint8.
fn dropout(c: &InferCtx) -> Out {
    let mut out = same_as_x(c)?;
    if let Some(x) = c.input("X") {
        out.push(("Mask", TensorType::new(VarKind::Uint8, x.dims.clone())));
    }
    Ok(out)
}

/// `Out` and `Indices` (int64) are `X` with the last dim `k`.
fn top_k(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(last) = dims.last_mut() {
        *last = if c.has_input("K") {
            -1
        } else {
            c.int("k").unwrap_or(1)
        };
    }
    Ok(vec![
        ("Out", TensorType::new(x.dtype, dims.clone())),
        ("Indices", TensorType::new(VarKind::Int64, dims)),
    ])
}

/// `Accuracy` float32 `[1]`, `Correct` and `Total` int32 `[1]`.
/// `accuracy`: Accuracy has the input's float type. Correct and Total are
/// int32 at run time, but Paddle 3.3.1's Python declares them float32
/// (its `create_variable_for_type_inference` ignores the 1.x dtype), so
/// their declared dtype is not checked: programs Paddle builds must load.
/// `accuracy`: Accuracy, Correct and Total, 0-D of Out's dtype (Paddle
/// 3.3.1's `AccuracyInferMeta` gives all three Out's dtype).
fn accuracy(c: &InferCtx) -> Out {
    let acc = c.input("Out").map_or(VarKind::Fp32, |o| o.dtype);
    Ok(vec![
        ("Accuracy", TensorType::new(acc, vec![])),
        ("Correct", TensorType::new(acc, vec![])),
        ("Total", TensorType::new(acc, vec![])),
    ])
}
