//! 1.x's normalizing and loss layers' ops: `batch_norm`, `layer_norm`, `norm` (`l2_normalize`), `lrn`, `prelu`, `label_smooth`,
//! `huber_loss`, `spectral_norm` and `data_norm` (1.x's; 3.3.1 dropped it). Their checks are the ones Paddle 3.3.1's InferMeta makes,
//! so a mistake is an error at the layer call, not in the kernel.
use super::infer::{same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(Behaviour::pure("layer_norm", layer_norm).shares_lod("X", "Y"));
    r.push(Behaviour::pure("norm", norm));
    r.push(Behaviour::pure("lrn", lrn).shares_lod("X", "Out"));
    r.push(Behaviour::pure("prelu", prelu));
    r.push(Behaviour::pure("label_smooth", label_smooth));
    r.push(Behaviour::pure("huber_loss", huber_loss));
    r.push(Behaviour::pure("spectral_norm", spectral_norm));
    r.push(Behaviour::pure("batch_norm", batch_norm).not_foldable());
    r.push(Behaviour::pure("instance_norm", |c| {
        grouped(c, "SavedMean", "SavedVariance")
    }));
    r.push(Behaviour::pure("group_norm", |c| {
        grouped(c, "Mean", "Variance")
    }));
    r.push(Behaviour::pure("affine_channel", affine_channel).shares_lod("X", "Out"));
    r.push(Behaviour::pure("data_norm", data_norm).shares_lod("X", "Y"));
}

/// `data_norm` (1.x's `InferShape`): `X` of rank 2 to 5, `C` its dim 1
/// (the last with NHWC); `BatchSize`, `BatchSum` and `BatchSquareSum` `[C]`
/// of `X`'s dtype; `Y` is `X`, `Means` and `Scales` `[C]`. `epsilon` must
/// be in [0, 0.001] (1.x's attribute checker).
fn data_norm(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !(2..=5).contains(&x.dims.len()) {
        return Err(format!(
            "Input X must have 2 to 5 dimensions, got {:?}",
            x.dims
        ));
    }
    if let Some(crate::model::AttrValue::Float(e)) = c.attr("epsilon") {
        if !(0.0..=0.001).contains(e) {
            return Err("'epsilon' should be between 0.0 and 0.001.".into());
        }
    }
    let ch = match c.string("data_layout").unwrap_or("NCHW") {
        "NCHW" => x.dims[1],
        "NHWC" | "AnyLayout" => x.dims[x.dims.len() - 1],
        other => return Err(format!("Unknown storage order string: {other}")),
    };
    for slot in ["BatchSize", "BatchSum", "BatchSquareSum"] {
        if let Some(t) = c.input(slot) {
            if t.dtype != x.dtype {
                return Err(format!("{slot} input should be of float type (X's)"));
            }
            if t.dims.len() != 1 || ch >= 0 && t.dims[0] >= 0 && t.dims[0] != ch {
                return Err(format!(
                    "{slot} must be [{ch}] for X {:?}, got {:?}",
                    x.dims, t.dims
                ));
            }
        }
    }
    let stats = TensorType::new(x.dtype, vec![ch]);
    Ok(vec![
        ("Y", x.clone()),
        ("Means", stats.clone()),
        ("Scales", stats),
    ])
}

/// `affine_channel`: `Out` shaped as `X` (rank 2 or more); `Scale` and
/// `Bias` hold one value per channel (dim 1, or the last with NHWC).
fn affine_channel(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!(
            "X of affine_channel must have a rank of at least 2, not {:?}",
            x.dims
        ));
    }
    let ch = if c.string("data_layout") == Some("NHWC") {
        x.dims[x.dims.len() - 1]
    } else {
        x.dims[1]
    };
    for slot in ["Scale", "Bias"] {
        if let Some(t) = c.input(slot) {
            let n = product(&t.dims);
            if t.dims.len() != 1 || (ch >= 0 && n >= 0 && n != ch) {
                return Err(format!(
                    "{slot} {:?} of affine_channel must hold one value per channel of X {:?}",
                    t.dims, x.dims
                ));
            }
        }
    }
    Ok(vec![("Out", TensorType::new(x.dtype, x.dims.clone()))])
}

/// The product of `dims`, or -1 if one is unknown.
fn product(dims: &[i64]) -> i64 {
    if dims.iter().any(|&d| d < 0) {
        -1
    } else {
        dims.iter().product()
    }
}

/// `layer_norm`: `Y` is `X`; `Mean` and `Variance` hold one value per row
/// of `X` flattened at `begin_norm_axis` (a vector, as 1.x's InferShape
/// declared them: `{left}`; Paddle 3.3.1 keeps the dims before the axis),
/// and `Scale`/`Bias` one per column.
fn layer_norm(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let axis = c.int("begin_norm_axis").unwrap_or(1);
    let rank = x.dims.len() as i64;
    if axis < 1 || axis >= rank.max(1) {
        return Err(format!(
            "begin_norm_axis {axis} must be in [1, {rank}) for X {:?}: the dims before it are the rows normalized one by one",
            x.dims
        ));
    }
    let (left, right) = x.dims.split_at(axis as usize);
    let right = product(right);
    for slot in ["Scale", "Bias"] {
        if let Some(p) = c.input(slot) {
            let n = product(&p.dims);
            if right >= 0 && n >= 0 && n != right {
                return Err(format!(
                    "{slot} has {n} elements but X {:?} has {right} per row from begin_norm_axis {axis}",
                    x.dims
                ));
            }
        }
    }
    let row = TensorType::new(x.dtype, vec![product(left)]);
    Ok(vec![
        ("Y", x.clone()),
        ("Mean", row.clone()),
        ("Variance", row),
    ])
}

/// `norm` (`l2_normalize`): `Out` is `X`; `Norm` is `X` with the `axis`
/// dim 1.
fn norm(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let axis = c.int("axis").unwrap_or(-1);
    let rank = x.dims.len() as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    if a < 0 || a >= rank {
        return Err(format!(
            "axis {axis} is out of range for X {:?} (rank {rank})",
            x.dims
        ));
    }
    let mut dims = x.dims.clone();
    dims[a as usize] = 1;
    Ok(vec![
        ("Out", x.clone()),
        ("Norm", TensorType::new(x.dtype, dims)),
    ])
}

/// `lrn`, as Paddle's InferShape: `X` is NCHW (rank 4) and `n` a positive
/// odd number of channels; `Out` and `MidOut` are `X`'s shape.
fn lrn(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!(
            "Input(X)'rank of LRNOp should be 4, but X is {:?}",
            x.dims
        ));
    }
    let n = c.int("n").unwrap_or(5);
    if n <= 0 || n % 2 == 0 {
        return Err(format!("n should be positive odd value, but it is {n}"));
    }
    Ok(vec![("Out", x.clone()), ("MidOut", x.clone())])
}

/// `prelu`: `Out` is `X`; `Alpha` has one element (`all`), one per channel
/// (`channel`), or one per element of a sample (`element`).
fn prelu(c: &InferCtx) -> Out {
    let (Some(x), Some(alpha)) = (c.input("X"), c.input("Alpha")) else {
        return Ok(c
            .input("X")
            .map(|x| ("Out", x.clone()))
            .into_iter()
            .collect());
    };
    let mode = c.string("mode").unwrap_or("all");
    let nhwc = c.string("data_format") == Some("NHWC");
    let want = match mode {
        "all" => 1,
        "channel" => {
            let ch = if nhwc { x.dims.last() } else { x.dims.get(1) };
            *ch.ok_or_else(|| {
                format!("mode 'channel' needs X of rank 2 or more, got {:?}", x.dims)
            })?
        }
        "element" => product(x.dims.get(1..).unwrap_or_default()),
        other => {
            return Err(format!(
                "mode is '{other}'; it must be 'all', 'channel' or 'element'"
            ))
        }
    };
    let n = product(&alpha.dims);
    if want >= 0 && n >= 0 && n != want {
        return Err(format!(
            "Alpha has {n} elements; mode '{mode}' on X {:?} needs {want}",
            x.dims
        ));
    }
    Ok(vec![("Out", x.clone())])
}

/// `label_smooth`: `Out` is `X` (one-hot rows); `PriorDist` has one value
/// per class.
fn label_smooth(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if let (Some(p), Some(&classes)) = (c.input("PriorDist"), x.dims.last()) {
        let n = product(&p.dims);
        if classes >= 0 && n >= 0 && n != classes {
            return Err(format!(
                "prior_dist has {n} values but the labels have {classes} classes"
            ));
        }
    }
    Ok(vec![("Out", x.clone())])
}

/// `huber_loss`: `Out` and `Residual` (`Y - X`) are `X`, which is `Y`'s
/// shape: a column `[N, 1]` or a vector.
fn huber_loss(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    same_dtype(x, y)?;
    let known = |a: i64, b: i64| a < 0 || b < 0 || a == b;
    if x.dims.len() != y.dims.len() || !x.dims.iter().zip(&y.dims).all(|(&a, &b)| known(a, b)) {
        return Err(format!(
            "input is {:?} but label is {:?}; they must have one shape",
            x.dims, y.dims
        ));
    }
    if x.dims.len() == 2 && !matches!(x.dims[1], 1 | -1) {
        return Err(format!(
            "input is {:?}; huber_loss takes a column [N, 1]",
            x.dims
        ));
    }
    Ok(vec![("Out", x.clone()), ("Residual", x.clone())])
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

/// `instance_norm` and `group_norm`: `Y` is `X` (`[N, C, ...]`); the
/// statistics are one per sample and channel (`instance_norm`, `[N * C]`)
/// or per sample and group of channels (`group_norm`, `[N, groups]`, which
/// must divide C).
fn grouped(c: &InferCtx, mean: &'static str, var: &'static str) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!("X {:?} must be [N, C, ...]", x.dims));
    }
    let (n, ch) = (x.dims[0], x.dims[1]);
    let stats = if c.op.ty == "group_norm" {
        if c.string("data_layout").is_some_and(|l| l != "NCHW") {
            return Err("fluidc's group_norm takes data_layout NCHW only".into());
        }
        let groups = c.int("groups").unwrap_or(-1);
        if groups <= 0 || (ch >= 0 && ch % groups != 0) {
            return Err(format!(
                "groups {groups} must be positive and divide the {ch} channels"
            ));
        }
        vec![n, groups]
    } else {
        vec![if n < 0 || ch < 0 { -1 } else { n * ch }]
    };
    Ok(vec![
        ("Y", x.clone()),
        (mean, TensorType::new(x.dtype, stats.clone())),
        (var, TensorType::new(x.dtype, stats)),
    ])
}

/// `spectral_norm` (1.x's `InferShape`): `Weight` of rank 2 to 5, `dim`
/// 0 or 1, `power_iters` not negative, `U` `[Weight.dims[dim]]` and `V`
/// the product of the other dims; `Out` is `Weight`.
fn spectral_norm(c: &InferCtx) -> Out {
    let Some(w) = c.input("Weight") else {
        return Ok(Vec::new());
    };
    if !(2..=5).contains(&w.dims.len()) {
        return Err(format!(
            "The rank of Input(Weights) can only be 2, 3, 4, 5 for fc, conv1d, conv2d, conv3d layers, got {:?}",
            w.dims
        ));
    }
    let dim = c.int("dim").unwrap_or(0);
    if dim != 0 && dim != 1 {
        return Err("Attr(dim) can only be 0 or 1".into());
    }
    if c.int("power_iters").is_some_and(|p| p < 0) {
        return Err("Attr(power_iters) should be greater equal then 0".into());
    }
    let h = w.dims[dim as usize];
    let rest: Vec<i64> = (0..w.dims.len())
        .filter(|&i| i != dim as usize)
        .map(|i| w.dims[i])
        .collect();
    let wd = if rest.iter().any(|&d| d < 0) {
        -1
    } else {
        rest.iter().product()
    };
    for (slot, want) in [("U", h), ("V", wd)] {
        if let Some(t) = c.input(slot) {
            same_dtype(w, t)?;
            if want >= 0 && t.dims.first().is_some_and(|&d| d >= 0 && d != want) {
                return Err(format!(
                    "Input({slot}) dims[0] should be {want} for Weight {:?} and dim {dim}, got {:?}",
                    w.dims, t.dims
                ));
            }
        }
    }
    Ok(vec![("Out", w.clone())])
}
