//! Losses: `softmax_with_cross_entropy`, `sigmoid_cross_entropy_with_logits`,
//! `log_loss`, `nce` (noise-contrastive estimation), and Paddle 1.x's
//! `smooth_l1_loss`, `margin_rank_loss` and `rank_loss`, which 3.3.1
//! dropped (see `data/fluidc_ops.json`), `hierarchical_sigmoid`, and 1.6's
//! `center_loss` (3.3.1 dropped it too).
use super::arg::axis_index;
use super::infer::{same_as_x, same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};

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
    // It draws its negative classes (unless `custom_neg_classes` names
    // them): never folded.
    r.push(Behaviour::pure("nce", nce).not_foldable());
    r.push(Behaviour::pure("smooth_l1_loss", smooth_l1_loss));
    r.push(Behaviour::pure("margin_rank_loss", margin_rank_loss));
    r.push(Behaviour::pure("rank_loss", rank_loss));
    r.push(Behaviour::pure(
        "hierarchical_sigmoid",
        hierarchical_sigmoid,
    ));
    r.push(Behaviour::pure("kldiv_loss", kldiv_loss));
    r.push(Behaviour::pure("bpr_loss", bpr_loss).shares_lod("X", "Y"));
    // It updates Centers in place (CentersOut): never folded.
    r.push(
        Behaviour::pure("center_loss", center_loss)
            .shares_lod("X", "Loss")
            .not_foldable(),
    );
}

/// `bpr_loss` (1.x): `Y` is `X`'s dims with the last (the classes) 1;
/// `Label` has them too.
fn bpr_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(label)) = (c.input("X"), c.input("Label")) else {
        return Ok(Vec::new());
    };
    let Some((_, lead)) = x.dims.split_last() else {
        return Err("X of bpr_loss must have a rank of at least 1".into());
    };
    let mut dims = lead.to_vec();
    dims.push(1);
    if !fit(&label.dims, &dims) {
        return Err(format!(
            "Label {:?} of bpr_loss must be X's dims {:?} with the last 1",
            label.dims, x.dims
        ));
    }
    Ok(vec![("Y", TensorType::new(x.dtype, dims))])
}

/// `kldiv_loss`: `Loss` shaped as `X` (`reduction` none) or `[1]` (1.x's
/// shape of a reduced loss); `Target` shaped as `X`.
fn kldiv_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(t)) = (c.input("X"), c.input("Target")) else {
        return Ok(Vec::new());
    };
    if !fit(&x.dims, &t.dims) {
        return Err(format!(
            "Target {:?} of kldiv_loss must be shaped as X {:?}",
            t.dims, x.dims
        ));
    }
    let dims = match c.string("reduction").unwrap_or("mean") {
        "none" => x.dims.clone(),
        "mean" | "batchmean" | "sum" => vec![1],
        other => {
            return Err(format!(
                "reduction of kldiv_loss must be none, batchmean, mean or sum, not {other:?}"
            ))
        }
    };
    Ok(vec![("Loss", TensorType::new(x.dtype, dims))])
}

/// The bits of the longest class code of `hierarchical_sigmoid`'s default
/// tree over `num_classes` classes (Paddle's `FindLastSet(num_classes -
/// 1)`). Shared with the runtime's kernel.
pub fn hsigmoid_code_length(num_classes: i64) -> i64 {
    64 - (num_classes - 1).max(0).leading_zeros() as i64
}

/// `hierarchical_sigmoid`: `Out` `[N, 1]` for `X` `[N, ...]`; `PreOut` `[N, L]`, `L` the
/// longest code (`PathTable`'s width with a custom tree). `W_Out` is `W`
/// itself (1.x's remote prefetch), left alone.
fn hierarchical_sigmoid(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    // 1.x's InferShape read only the batch dim of X (its kernel takes a
    // matrix; 1.x's test_layers builds one over a 3-D X).
    if x.dims.len() < 2 {
        return Err(format!(
            "X of hierarchical_sigmoid must have a batch and a feature dim, not dims {:?}",
            x.dims
        ));
    }
    let width = if c.has_input("PathTable") {
        match c.input("PathTable") {
            Some(t) if t.dims.len() >= 2 => t.dims[t.dims.len() - 1],
            Some(t) => return Err(format!("PathTable must be 2-D, not of dims {:?}", t.dims)),
            None => -1,
        }
    } else {
        let n = c.int("num_classes").unwrap_or(2);
        if n < 2 {
            return Err(format!(
                "num_classes must be at least 2 with the default tree, not {n}"
            ));
        }
        hsigmoid_code_length(n)
    };
    Ok(vec![
        ("Out", TensorType::new(x.dtype, vec![x.dims[0], 1])),
        ("PreOut", TensorType::new(x.dtype, vec![x.dims[0], width])),
    ])
}

/// Whether two dims lists can be one shape (an unknown dim fits any).
fn fit(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&p, &q)| p < 0 || q < 0 || p == q)
}

/// `smooth_l1_loss`, as 1.x's InferShape: `X` of rank at least 2, `Y` and
/// the weights of its shape; `Diff` is `X`'s shape and `Out` `[N, 1]`.
/// 1.x needed `OutsideWeight` with `InsideWeight` (and its kernel ignored
/// an `OutsideWeight` alone): either without the other is refused.
fn smooth_l1_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!(
            "X is {:?}; smooth_l1_loss takes a batch of rank at least 2 ([N, ...])",
            x.dims
        ));
    }
    if !fit(&x.dims, &y.dims) {
        return Err(format!(
            "X is {:?} and Y {:?}; they must have one shape",
            x.dims, y.dims
        ));
    }
    match (c.has_input("InsideWeight"), c.has_input("OutsideWeight")) {
        (true, true) | (false, false) => {}
        _ => {
            return Err(
                "If weights are provided, must specify both inside and outside weights".into(),
            )
        }
    }
    for slot in ["InsideWeight", "OutsideWeight"] {
        if let Some(w) = c.input(slot) {
            if !fit(&w.dims, &x.dims) {
                return Err(format!(
                    "{slot} is {:?} but X {:?}; the weights must have X's shape",
                    w.dims, x.dims
                ));
            }
        }
    }
    Ok(vec![
        ("Diff", x.clone()),
        ("Out", TensorType::new(x.dtype, vec![x.dims[0], 1])),
    ])
}

/// `margin_rank_loss`: `Label`, `X1` and `X2` one shape `[N, 1]`;
/// `Activated` and `Out` too.
fn margin_rank_loss(c: &InferCtx) -> Out {
    let (Some(label), Some(x1), Some(x2)) = (c.input("Label"), c.input("X1"), c.input("X2")) else {
        return Ok(Vec::new());
    };
    let column = |t: &TensorType| t.dims.len() == 2 && matches!(t.dims[1], 1 | -1);
    if !(fit(&label.dims, &x1.dims) && fit(&x1.dims, &x2.dims) && column(label)) {
        return Err(format!(
            "All inputs must be 2-D tensor with shape [batch_size x 1]; Label is {:?}, X1 {:?} and X2 {:?}",
            label.dims, x1.dims, x2.dims
        ));
    }
    Ok(vec![("Activated", x1.clone()), ("Out", x1.clone())])
}

/// `rank_loss`: `Label`, `Left` and `Right` each `[N]` or `[N, 1]`, with
/// one `N`; `Out` is `Label`'s shape (of `Left`'s dtype).
fn rank_loss(c: &InferCtx) -> Out {
    let (Some(label), Some(left), Some(right)) =
        (c.input("Label"), c.input("Left"), c.input("Right"))
    else {
        return Ok(Vec::new());
    };
    for (slot, t) in [("Label", label), ("Left", left), ("Right", right)] {
        let ok = match t.dims.as_slice() {
            [_] => true,
            [_, last] => matches!(last, 1 | -1),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "Input({slot}) is {:?}; it must be [N] or [N, 1], one score per pair",
                t.dims
            ));
        }
    }
    let n = label.dims[0];
    for (slot, t) in [("Left", left), ("Right", right)] {
        let m = t.dims[0];
        if n >= 0 && m >= 0 && n != m {
            return Err(format!(
                "The first dimension of Input(Label) and Input({slot}) must have the same value; they are {n} and {m}"
            ));
        }
    }
    Ok(vec![(
        "Out",
        TensorType::new(left.dtype, label.dims.clone()),
    )])
}

/// `nce`, as Paddle's InferShape: `Cost` is `[N, 1]`; `SampleLogits` and
/// `SampleLabels` (`Label`'s dtype) are `[N, num_true + num_neg_samples]`;
/// `Weight` has `num_total_classes` rows, as many as `Bias`, and
/// `custom_neg_classes`, when given, has `num_neg_samples` classes.
fn nce(c: &InferCtx) -> Out {
    let (Some(x), Some(label), Some(w)) = (c.input("Input"), c.input("Label"), c.input("Weight"))
    else {
        return Ok(Vec::new());
    };
    let n = x.dims.first().copied().unwrap_or(-1);
    if let Some(&ln) = label.dims.first() {
        if n > 0 && ln > 0 && n != ln {
            return Err(format!(
                "Input is {:?} and Label {:?}; their first dims must be equal",
                x.dims, label.dims
            ));
        }
    }
    let rows = w.dims.first().copied().unwrap_or(-1);
    if let Some(b) = c.input("Bias") {
        let b0 = b.dims.first().copied().unwrap_or(-1);
        if rows >= 0 && b0 >= 0 && rows != b0 {
            return Err(format!(
                "Weight is {:?} and Bias {:?}; their first dims must be equal",
                w.dims, b.dims
            ));
        }
    }
    let total = c.int("num_total_classes").unwrap_or(-1);
    if rows >= 0 && total != rows {
        return Err(format!(
            "num_total_classes is {total} but Weight is {:?}; they must agree",
            w.dims
        ));
    }
    let neg = c.int("num_neg_samples").unwrap_or(10);
    let custom = c.ints("custom_neg_classes").unwrap_or_default();
    if !custom.is_empty() && custom.len() as i64 != neg {
        return Err(format!(
            "custom_neg_classes has {} classes but num_neg_samples is {neg}",
            custom.len()
        ));
    }
    let num_true = if label.dims.len() == 2 {
        label.dims[1]
    } else {
        1
    };
    let width = if num_true < 0 { -1 } else { num_true + neg };
    Ok(vec![
        ("Cost", TensorType::new(x.dtype, vec![n, 1])),
        ("SampleLogits", TensorType::new(x.dtype, vec![n, width])),
        ("SampleLabels", TensorType::new(label.dtype, vec![n, width])),
    ])
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

/// `center_loss` (1.6's `InferShape`): `SampleCenterDiff` is `X` as
/// `[N, rest]`, `Loss` `[N, 1]`, `CentersOut` `Centers`; `Centers` must be
/// `[cluster_num, rest]` of `X`'s dtype.
fn center_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(centers)) = (c.input("X"), c.input("Centers")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!("X of center_loss must be [N, D], got {:?}", x.dims));
    }
    same_dtype(x, centers)?;
    let rest: i64 = if x.dims[1..].iter().any(|&d| d < 0) {
        -1
    } else {
        x.dims[1..].iter().product()
    };
    if centers.dims.len() != 2
        || rest >= 0 && centers.dims[1] >= 0 && centers.dims[1] != rest
        || c.int("cluster_num")
            .is_some_and(|k| centers.dims[0] >= 0 && centers.dims[0] != k)
    {
        return Err(format!(
            "Centers of center_loss must be [cluster_num, {rest}], got {:?}",
            centers.dims
        ));
    }
    Ok(vec![
        (
            "SampleCenterDiff",
            TensorType::new(x.dtype, vec![x.dims[0], rest]),
        ),
        ("Loss", TensorType::new(x.dtype, vec![x.dims[0], 1])),
        ("CentersOut", centers.clone()),
    ])
}
