//! 1.x's ops that rearrange the sequences of a LoD tensor (fluidc-only,
//! `data/fluidc_ops.json`: Paddle 3.3.1 dropped them): `sequence_reverse`,
//! `sequence_concat`, `sequence_slice`, `sequence_reshape`,
//! `sequence_enumerate`, `sequence_expand_as`, `sequence_scatter` and
//! `sequence_erase`. Their outputs' rows and
//! LoD depend on the inputs' LoD, known only when they run; their kernels
//! set the LoD as 1.x's did.
use super::infer::{Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    for (ty, infer) in [
        ("sequence_reverse", reverse as super::InferFn),
        ("sequence_concat", concat),
        ("sequence_slice", slice),
        ("sequence_reshape", reshape),
        ("sequence_enumerate", enumerate),
        ("sequence_expand_as", expand_as),
        ("sequence_scatter", scatter),
        ("sequence_erase", erase),
    ] {
        r.push(Behaviour::pure(ty, infer).not_foldable().reads_lod());
    }
}

fn rank_at_least(x: &TensorType, slot: &str, rank: usize) -> Result<(), String> {
    if x.dims.len() < rank {
        return Err(format!("{slot} {:?} must have rank {rank} or more", x.dims));
    }
    Ok(())
}

/// `Y` is `X` (rank 2 or more), each sequence reversed.
fn reverse(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    rank_at_least(x, "X", 2)?;
    Ok(vec![("Y", x.clone())])
}

/// Two or more inputs with the same row width; `Out` the first's dims
/// with the rows summed (unknown when any is).
fn concat(c: &InferCtx) -> Out {
    let Some(xs) = c.inputs("X") else {
        return Ok(Vec::new());
    };
    if xs.len() < 2 {
        return Err(format!(
            "X has {} input(s); sequence_concat takes at least two",
            xs.len()
        ));
    }
    let width = |t: &TensorType| -> Option<i64> {
        t.dims[1..]
            .iter()
            .try_fold(1i64, |p, &d| (d >= 0).then_some(p * d))
    };
    let first = xs[0];
    if first.dims.is_empty() {
        return Err("X must be batches of rows (rank 1 or more)".into());
    }
    let mut rows = 0i64;
    for x in &xs {
        if x.dims.is_empty() {
            return Err("X must be batches of rows (rank 1 or more)".into());
        }
        if let (Some(a), Some(b)) = (width(first), width(x)) {
            if a != b {
                return Err(format!(
                    "the inputs of sequence_concat must have the same row size: {:?} and {:?}",
                    first.dims, x.dims
                ));
            }
        }
        rows = if rows < 0 || x.dims[0] < 0 {
            -1
        } else {
            rows + x.dims[0]
        };
    }
    let mut dims = first.dims.clone();
    dims[0] = rows;
    Ok(vec![("Out", TensorType::new(first.dtype, dims))])
}

/// `Offset` and `Length` of rank 2 (a column per sequence); `Out` has
/// `X`'s dims before it runs, as 1.x's `InferShape` set them.
fn slice(c: &InferCtx) -> Out {
    let (Some(x), Some(offset), Some(length)) =
        (c.input("X"), c.input("Offset"), c.input("Length"))
    else {
        return Ok(Vec::new());
    };
    for (slot, t) in [("Offset", offset), ("Length", length)] {
        if t.dims.len() != 2 {
            return Err(format!(
                "{slot} {:?} must have rank 2 (one sequence level only)",
                t.dims
            ));
        }
    }
    Ok(vec![("Out", x.clone())])
}

/// `X` of rank 2; `Out` `[-1, new_dim]`.
fn reshape(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 {
        return Err(format!("X {:?} must have rank 2", x.dims));
    }
    let new_dim = c.int("new_dim").unwrap_or(-1);
    if new_dim == 0 || new_dim < -1 {
        return Err(format!("new_dim {new_dim} must be positive"));
    }
    Ok(vec![("Out", TensorType::new(x.dtype, vec![-1, new_dim]))])
}

/// `Out` `[X rows, win_size]`; `win_size` at least 2 (1.x's attribute
/// checker).
fn enumerate(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    let win = c.int("win_size").unwrap_or(-1);
    if win < 2 {
        return Err(format!(
            "win_size {win}: the window size should be not less than 2"
        ));
    }
    let rows = x.dims.first().copied().unwrap_or(-1);
    Ok(vec![("Out", TensorType::new(x.dtype, vec![rows, win]))])
}

/// `X` of rank 2 or more; `Out` its dims with unknown rows.
fn expand_as(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    rank_at_least(x, "X", 2)?;
    let mut dims = x.dims.clone();
    dims[0] = -1;
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}

/// `sequence_scatter` (1.x's `InferShape`): `Out` is `X`; `Updates` and
/// `Ids` have the same rows (`Ids`' LoD gives the row of `X` each
/// sequence adds to).
fn scatter(c: &InferCtx) -> Out {
    let (Some(x), Some(ids), Some(updates)) = (c.input("X"), c.input("Ids"), c.input("Updates"))
    else {
        return Ok(Vec::new());
    };
    let (a, b) = (
        updates.dims.first().copied().unwrap_or(-1),
        ids.dims.first().copied().unwrap_or(-1),
    );
    if a >= 0 && b >= 0 && a != b {
        return Err(format!(
            "Updates and Ids should have same shape: {:?} and {:?}",
            updates.dims, ids.dims
        ));
    }
    if updates.dtype != x.dtype {
        return Err("Updates of sequence_scatter must have X's dtype".into());
    }
    Ok(vec![("Out", x.clone())])
}

/// `sequence_erase` (1.x's `InferShape`): `X` is `[rows, 1]`; `Out` has
/// its dims (1.x set them so; the kernel resizes the rows to those kept).
fn erase(c: &InferCtx) -> Out {
    let Some(x) = c.input("X") else {
        return Ok(Vec::new());
    };
    if x.dims.len() != 2 || !matches!(x.dims[1], 1 | -1) {
        return Err(format!(
            "X {:?} of sequence_erase should be a 2-D LoDTensor with the 2nd dimension equal to 1",
            x.dims
        ));
    }
    Ok(vec![("Out", x.clone())])
}
