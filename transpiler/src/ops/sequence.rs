//! Ops on the sequences of a LoD tensor: `sequence_pool`, `sequence_conv`,
//! `sequence_softmax`; `sequence_mask`, which turns sequence lengths
//! into a mask (no LoD); and 1.x's `sequence_pad` and `sequence_unpad`
//! (fluidc-only, `data/fluidc_ops.json`: Paddle 3.3.1 dropped them),
//! between a LoD batch and a padded `[sequences, length, ...]` tensor;
//! `row_conv`, a lookahead convolution within each sequence; and
//! `im2sequence`, image patches to a sequence per image.
use super::infer::{same_as_x, Out, TensorType};
use super::{Behaviour, InferCtx};
use crate::model::VarKind;

pub(super) fn register(r: &mut Vec<Behaviour>) {
    r.push(
        Behaviour::pure("sequence_pool", sequence_pool)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_softmax", same_as_x)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_conv", sequence_conv)
            .not_foldable()
            .reads_lod(),
    );
    r.push(Behaviour::pure("sequence_mask", sequence_mask));
    r.push(
        Behaviour::pure("sequence_pad", sequence_pad)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("sequence_unpad", sequence_unpad)
            .not_foldable()
            .reads_lod(),
    );
    r.push(
        Behaviour::pure("row_conv", row_conv)
            .not_foldable()
            .shares_lod("X", "Out"),
    );
    // Its kernel gives `Out` a LoD of one sequence per image.
    r.push(Behaviour::pure("im2sequence", im2sequence).not_foldable());
}

/// `im2sequence` as 1.x's `InferShape`: an NCHW `X`; `Out` is `[X's
/// first dim, C * kernel height * kernel width]` (the rows, one per
/// patch, are known when it runs). `kernels` and `strides` hold 2 ints,
/// `paddings` 4 (up, left, down, right).
fn im2sequence(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 4 {
        return Err(format!(
            "X {:?}: Input(X) format must be 4D tensor, eg., NCHW",
            x.dims
        ));
    }
    let kernels = c.ints("kernels").unwrap_or_default();
    for (name, n) in [("kernels", 2), ("strides", 2), ("paddings", 4)] {
        let v = c.ints(name).unwrap_or_default();
        if v.len() != n || v.iter().any(|&d| d < 0) || (name != "paddings" && v.contains(&0)) {
            return Err(format!(
                "{name} {v:?} must hold {n} {} ints",
                if name == "paddings" {
                    "non-negative"
                } else {
                    "positive"
                }
            ));
        }
    }
    let width = if x.dims[1] < 0 {
        -1
    } else {
        x.dims[1] * kernels[0] * kernels[1]
    };
    Ok(vec![(
        "Out",
        TensorType::new(x.dtype, vec![x.dims[0], width]),
    )])
}

/// `row_conv` (DeepSpeech2's lookahead convolution) as 1.x's `InferShape`:
/// `Filter` `[future context + 1, width]` of rank 2; `Out` is `X`'s type.
fn row_conv(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("X"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    if f.dims.len() != 2 {
        return Err(format!("Filter {:?} must have rank 2", f.dims));
    }
    Ok(vec![("Out", x.clone())])
}

/// Whether two dims may be equal (`-1` is unknown).
fn may_equal(a: &[i64], b: &[i64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(&p, &q)| p < 0 || q < 0 || p == q)
}

/// `sequence_pad` as 1.x's `InferShape`: `X` a batch of steps (rank 2 or
/// more), `PadValue` a `[1]` scalar or one step; `Out` is `[-1,
/// padded_length, step dims...]` (`padded_length` -1, the longest
/// sequence, shows as 1 before it runs, as in 1.x), `Length` `[-1]` int64
/// (what its kernel writes).
fn sequence_pad(c: &InferCtx) -> Out {
    let (Some(x), Some(pad)) = (c.input("X"), c.input("PadValue")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!(
            "X {:?} must have rank 2 or more (a batch of time steps)",
            x.dims
        ));
    }
    let step = &x.dims[1..];
    if !may_equal(&pad.dims, &[1]) && !may_equal(&pad.dims, step) {
        return Err(format!(
            "PadValue {:?} must be a scalar ([1]) or one time step {step:?}",
            pad.dims
        ));
    }
    let padded = match c.int("padded_length") {
        Some(-1) | None => 1,
        Some(n) => n,
    };
    let mut dims = vec![-1, padded];
    dims.extend_from_slice(step);
    Ok(vec![
        ("Out", TensorType::new(x.dtype, dims)),
        // 1.2-1.5's `[batch, 1]` (1.6 made it `[batch]`): 2019 programs
        // built masks from it and transposed them as 3-D.
        ("Length", TensorType::new(VarKind::Int64, vec![-1, 1])),
    ])
}

/// `sequence_unpad` as 1.x's `InferShape`: `X` padded sequences (rank 2
/// or more), `Length` `[batch, 1]` (1.2-1.5, as `sequence_pad` gives it)
/// or `[batch]` (1.6); `Out` is `[-1, X's dims after the
/// second...]`, `[-1, 1]` for a rank-2 `X`.
fn sequence_unpad(c: &InferCtx) -> Out {
    let (Some(x), Some(len)) = (c.input("X"), c.input("Length")) else {
        return Ok(Vec::new());
    };
    if x.dims.len() < 2 {
        return Err(format!("X {:?} must have rank 2 or more", x.dims));
    }
    if !(len.dims.len() == 1 || len.dims.len() == 2 && may_equal(&len.dims[1..], &[1])) {
        return Err(format!(
            "Length {:?} must have shape [batch_size, 1] or [batch_size]",
            len.dims
        ));
    }
    if !may_equal(&len.dims[..1], &x.dims[..1]) {
        return Err(format!(
            "X {:?} and Length {:?} must have the same first dimension",
            x.dims, len.dims
        ));
    }
    let mut dims = vec![-1];
    if x.dims.len() == 2 {
        dims.push(1);
    } else {
        dims.extend_from_slice(&x.dims[2..]);
    }
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `sequence_mask`: `Y` is `X`'s dims with the mask length appended
/// (`maxlen`, unknown when it is -1, the lengths' maximum, or comes as
/// `MaxLenTensor`), in `out_dtype`. `X` holds int32, int64, float32 or
/// float64 lengths, the dtypes 1.x's kernel took (1.5's basic_lstm fed
/// float32 ones).
fn sequence_mask(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if !matches!(
        x.dtype,
        VarKind::Int32 | VarKind::Int64 | VarKind::Fp32 | VarKind::Fp64
    ) {
        return Err(format!(
            "X is {}; it takes int32, int64, float32 or float64 lengths",
            crate::model::dtype_name(x.dtype)
        ));
    }
    let maxlen = match c.int("maxlen") {
        Some(m) if m > 0 && !c.has_input("MaxLenTensor") => m,
        _ => -1,
    };
    let dtype = c.dtype("out_dtype").unwrap_or(VarKind::Int64);
    let mut dims = x.dims.clone();
    dims.push(maxlen);
    Ok(vec![("Y", TensorType::new(dtype, dims))])
}

/// One row per sequence: `X`'s dims with an unknown first; `MaxIndex`
/// the same in int32, declared only for MAX pooling as Paddle's
/// InferMeta declares it.
fn sequence_pool(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let mut dims = x.dims.clone();
    if let Some(d) = dims.first_mut() {
        *d = -1;
    }
    let mut out = vec![("Out", TensorType::new(x.dtype, dims.clone()))];
    if c.string("pooltype")
        .is_some_and(|p| p.eq_ignore_ascii_case("MAX"))
    {
        out.push(("MaxIndex", TensorType::new(VarKind::Int32, dims)));
    }
    Ok(out)
}

/// `[T, M]`: `X`'s rows, `Filter`'s columns.
fn sequence_conv(c: &InferCtx) -> Out {
    let (Some(x), Some(f)) = (c.input("X"), c.input("Filter")) else {
        return Ok(Vec::new());
    };
    let rows = x.dims.first().copied().unwrap_or(-1);
    let m = f.dims.get(1).copied().unwrap_or(-1);
    Ok(vec![("Out", TensorType::new(x.dtype, vec![rows, m]))])
}
