//! Matrix products: `matmul`, `matmul_v2`, `mul`.
use super::infer::{same_dtype, Out, TensorType};
use super::{Behaviour, InferCtx};

pub(super) fn register(r: &mut Vec<Behaviour>) {
    // 1.x's matmul shares X's LoD (its first dim kept).
    r.push(
        Behaviour::pure("matmul", |c| matmul(c, "transpose_X", "transpose_Y"))
            .shares_lod("X", "Out"),
    );
    r.push(Behaviour::pure("matmul_v2", |c| {
        matmul(c, "trans_x", "trans_y")
    }));
    r.push(Behaviour::pure("mul", mul).shares_lod("X", "Out"));
}

/// Whether two dims can be equal (unknown matches anything).
fn agree(a: i64, b: i64) -> bool {
    a == b || a < 0 || b < 0
}

/// The shape of a `matmul`: numpy's rule, shared by inference and the
/// runtime's kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatmulDims {
    /// The broadcast batch dims.
    pub batch: Vec<i64>,
    pub m: i64,
    pub k: i64,
    pub n: i64,
    /// The operands' batch dims (without the matrix dims), to broadcast.
    pub x_batch: Vec<i64>,
    pub y_batch: Vec<i64>,
    /// The result's dims: batch, then `m` unless X was 1-D, `n` unless Y was.
    pub out: Vec<i64>,
}

/// numpy's matmul: a 1-D X is a row and a 1-D Y a column, and that dim is
/// dropped from the result; batch dims broadcast. Transposes apply to the
/// last two dims of operands of rank 2 or more.
pub fn matmul_dims(x: &[i64], y: &[i64], tx: bool, ty: bool) -> Result<MatmulDims, String> {
    if x.is_empty() || y.is_empty() {
        return Err(format!(
            "matmul needs operands of rank 1 or more, got {x:?} and {y:?}"
        ));
    }
    let (xv, yv) = (x.len() == 1, y.len() == 1);
    let xs = if xv { vec![1, x[0]] } else { x.to_vec() };
    let ys = if yv { vec![y[0], 1] } else { y.to_vec() };
    let (tx, ty) = (tx && !xv, ty && !yv);
    let (xr, yr) = (xs.len(), ys.len());
    let (m, kx) = if tx {
        (xs[xr - 1], xs[xr - 2])
    } else {
        (xs[xr - 2], xs[xr - 1])
    };
    let (ky, n) = if ty {
        (ys[yr - 1], ys[yr - 2])
    } else {
        (ys[yr - 2], ys[yr - 1])
    };
    if !agree(kx, ky) {
        return Err(format!(
            "the inner dims differ: X {x:?} gives {kx}, Y {y:?} gives {ky}"
        ));
    }
    let (x_batch, y_batch) = (xs[..xr - 2].to_vec(), ys[..yr - 2].to_vec());
    let batch = super::infer::broadcast(&x_batch, &y_batch, -1)?;
    let mut out = batch.clone();
    if !xv {
        out.push(m);
    }
    if !yv {
        out.push(n);
    }
    Ok(MatmulDims {
        batch,
        m,
        k: kx.max(ky),
        n,
        x_batch,
        y_batch,
        out,
    })
}

/// 1.x's `matmul` (v1) made a 1-D X a row and a 1-D Y a column *before*
/// its transpose flags applied, so a 1-D X with `transpose_X` is a column
/// `[K, 1]` and a 1-D Y with `transpose_Y` a row `[1, N]` (numpy, and
/// `matmul_v2`, ignore the flag on a vector; Paddle 3.3.1's matmul refuses
/// such shapes). When a flag is set on a 1-D operand: both operands as
/// matrices and the flags left to apply.
pub fn v1_vector_operands(
    x: &[i64],
    y: &[i64],
    tx: bool,
    ty: bool,
) -> Option<(Vec<i64>, Vec<i64>, bool, bool)> {
    let (xv, yv) = (x.len() == 1, y.len() == 1);
    if !((tx && xv) || (ty && yv)) {
        return None;
    }
    let (x2, tx) = match (xv, tx) {
        (true, true) => (vec![x[0], 1], false),
        (true, false) => (vec![1, x[0]], false),
        _ => (x.to_vec(), tx),
    };
    let (y2, ty) = match (yv, ty) {
        (true, true) => (vec![1, y[0]], false),
        (true, false) => (vec![y[0], 1], false),
        _ => (y.to_vec(), ty),
    };
    Some((x2, y2, tx, ty))
}

/// 1.x's result dims after [`v1_vector_operands`] (`xv`, `yv`: the
/// operand was 1-D): a vector's dim is dropped from the product where it
/// is 1 (matmul_op.cc's InferShape).
pub fn v1_vector_out(mut out: Vec<i64>, xv: bool, yv: bool) -> Vec<i64> {
    if xv && out.len() >= 2 && out[out.len() - 2] == 1 {
        out.remove(out.len() - 2);
    }
    if yv && out.last() == Some(&1) {
        out.pop();
    }
    out
}

fn matmul(c: &InferCtx, tx: &str, ty: &str) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    same_dtype(x, y)?;
    let v1 = tx == "transpose_X";
    let tx = c.bool(tx).unwrap_or(false);
    let ty = c.bool(ty).unwrap_or(false);
    let out = match v1_vector_operands(&x.dims, &y.dims, tx, ty).filter(|_| v1) {
        Some((x2, y2, tx, ty)) => v1_vector_out(
            matmul_dims(&x2, &y2, tx, ty)?.out,
            x.dims.len() == 1,
            y.dims.len() == 1,
        ),
        None => matmul_dims(&x.dims, &y.dims, tx, ty)?.out,
    };
    Ok(vec![("Out", TensorType::new(x.dtype, out))])
}

/// `mul` (fc's product): X flattened to a matrix at `x_num_col_dims`, Y at
/// `y_num_col_dims`; the result keeps X's leading and Y's trailing dims.
fn mul(c: &InferCtx) -> Out {
    let (Some(x), Some(y)) = (c.input("X"), c.input("Y")) else {
        return Ok(Vec::new());
    };
    same_dtype(x, y)?;
    let xn = c.int("x_num_col_dims").unwrap_or(1);
    let yn = c.int("y_num_col_dims").unwrap_or(1);
    let split = |dims: &[i64], n: i64, name: &str| -> Result<usize, String> {
        usize::try_from(n)
            .ok()
            .filter(|n| *n >= 1 && *n < dims.len())
            .ok_or_else(|| {
                format!(
                    "{name}_num_col_dims {n} does not fit {name}'s rank {}",
                    dims.len()
                )
            })
    };
    let (xs, ys) = (split(&x.dims, xn, "x")?, split(&y.dims, yn, "y")?);
    let prod = |d: &[i64]| {
        d.iter()
            .try_fold(1i64, |a, &b| if b < 0 { None } else { a.checked_mul(b) })
    };
    if let (Some(k1), Some(k2)) = (prod(&x.dims[xs..]), prod(&y.dims[..ys])) {
        if k1 != k2 {
            return Err(format!(
                "X {:?} flattened at {xn} has {k1} columns but Y {:?} flattened at {yn} has {k2} rows",
                x.dims, y.dims
            ));
        }
    }
    let mut dims = x.dims[..xs].to_vec();
    dims.extend_from_slice(&y.dims[ys..]);
    Ok(vec![("Out", TensorType::new(x.dtype, dims))])
}
