//! Matrix products: matmul (v1, with alpha), matmul_v2 and mul (fc's op,
//! which flattens its operands to matrices at `x_num_col_dims`/`y_num_col_dims`).
//!
//! matmul follows numpy: 1-D operands become a row (X) or a column (Y) and
//! that dim is dropped from the result; leading batch dims broadcast.
use super::elementwise::dtype_mismatch;
use super::optim::{Dense, Real, Step};
use super::output::take_unless_input;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::broadcast::broadcast;
use crate::tensor::gemm::{min_cols, min_rows, product, Gemm};
use crate::tensor::num::{with_numeric_pair, Num};
use crate::tensor::{alloc, par, Buffer, Element, Shape, Tensor};
use fluidc_transpiler::ops::matmul::{v1_vector_operands, v1_vector_out};
use fluidc_transpiler::VarKind;
use ndarray::{ArrayView1, ArrayView2, ArrayViewMut2, Axis};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("matmul", |l| matmul(l, "transpose_X", "transpose_Y"));
    r.add("matmul_v2", |l| matmul(l, "trans_x", "trans_y"));
    r.add("mul", mul);
    r.add("mul_grad", mul_grad);
    r.add("matmul_grad", |l| {
        matmul_grad(l, "transpose_X", "transpose_Y")
    });
    r.add("matmul_v2_grad", |l| matmul_grad(l, "trans_x", "trans_y"));
}

/// `mul_grad`: with X and Y flattened to matrices as `mul` does,
/// `X@GRAD = Out@GRAD · Yᵀ` and `Y@GRAD = Xᵀ · Out@GRAD`, each in its
/// operand's shape (GEMM, as the forward).
fn mul_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, dout) = (l.input("X")?, l.input("Y")?, l.input("Out@GRAD")?);
    let (dx, dy) = (l.opt_output("X@GRAD")?, l.opt_output("Y@GRAD")?);
    let xn = l.int("x_num_col_dims")?;
    let yn = l.int("y_num_col_dims")?;
    compute(move |s| {
        // Last step's gradients, to write this step's into.
        let mut old = |g: &Option<_>| {
            g.as_ref()
                .and_then(|g| take_unless_input(s, g, &[&x, &y, &dout]))
        };
        let (old_dx, old_dy) = (old(&dx), old(&dy));
        let (a, b, d) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&dout)?);
        let (a2, b2, d2) = mul_grad_operands(&a, &b, &d, xn, yn)?;
        let gx = grad_x(&dx, &d2, &b2, a.shape(), old_dx)?;
        let gy = match dy {
            Some(_) => {
                Some(matmul_into(&a2, &d2, (true, false, 1.0), old_dy)?.reshaped(b.shape())?)
            }
            None => None,
        };
        drop((a, b, d));
        super::float::set_grads(s, vec![(&dx, gx), (&dy, gy)]);
        Ok(())
    })
}

/// A `mul_grad`'s `X@GRAD`, if it has one: `Out@GRAD · Yᵀ` (flattened
/// as [`mul_grad_operands`] gives them) in X's shape.
fn grad_x(
    dx: &Option<VarRef>,
    d2: &Tensor,
    b2: &Tensor,
    shape: &[i64],
    old: Option<Box<Tensor>>,
) -> Result<Option<Tensor>, KernelError> {
    dx.as_ref()
        .map(|_| matmul_into(d2, b2, (false, true, 1.0), old)?.reshaped(shape))
        .transpose()
}

/// A `mul_grad`'s matrices: X and Y flattened at their `num_col_dims` as
/// `mul` flattens them, and `Out@GRAD` in their product's shape.
fn mul_grad_operands(
    a: &Tensor,
    b: &Tensor,
    d: &Tensor,
    xn: i64,
    yn: i64,
) -> Result<(Tensor, Tensor, Tensor), KernelError> {
    let flat = |t: &Tensor, at: i64| -> Result<Tensor, KernelError> {
        let at = usize::try_from(at)
            .ok()
            .filter(|&a| a >= 1 && a <= t.shape().len())
            .ok_or_else(|| {
                KernelError::Attribute(format!(
                    "num_col_dims {at} is out of range for shape {:?}",
                    t.shape()
                ))
            })?;
        let prod = |s: &[i64]| s.iter().product::<i64>();
        t.reshaped(&[prod(&t.shape()[..at]), prod(&t.shape()[at..])])
    };
    let (a2, b2) = (flat(a, xn)?, flat(b, yn)?);
    let d2 = d.reshaped(&[a2.shape()[0], b2.shape()[1]])?;
    Ok((a2, b2, d2))
}

/// A `mul_grad` fused with the optimizer op that is the only reader of
/// its `Y@GRAD` (`crate::fuse` finds the pairs): `X@GRAD` as `mul_grad`
/// computes it, from Y before the update; then `Y@GRAD = Xᵀ · Out@GRAD`
/// a block of rows at a time into one small buffer, each block handed to
/// the optimizer's per-element update ([`Step::update`], the code its own
/// kernel runs) while it is in cache. `Y@GRAD` is never written.
///
/// A block of rows of the product has the bits the full product has
/// there: the GEMM computes each element from its row of Xᵀ and column of
/// `Out@GRAD` alone, in the same order whichever rows it is given, when
/// the block has [`min_rows`] rows or more (the two-thread split in
/// [`multiply`] relies on this too; [`crate::tensor::gemm`] says why, the
/// tests check it). A product that [`multiply`] would split over two threads is
/// computed whole instead, as it computes it, then updated.
pub(crate) fn mul_grad_fused(l: &OpReader, opt: Dense) -> Result<Exec, KernelError> {
    let (x, y, dout) = (l.input("X")?, l.input("Y")?, l.input("Out@GRAD")?);
    let dx = l.opt_output("X@GRAD")?;
    let xn = l.int("x_num_col_dims")?;
    let yn = l.int("y_num_col_dims")?;
    compute(move |s| {
        let old_dx = dx
            .as_ref()
            .and_then(|g| take_unless_input(s, g, &[&x, &y, &dout]));
        let (a, b, d) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&dout)?);
        let (a2, b2, d2) = mul_grad_operands(&a, &b, &d, xn, yn)?;
        let gx = grad_x(&dx, &d2, &b2, a.shape(), old_dx)?;
        // What `mul_grad` checks of `Y@GRAD`: its operands' dtypes, and
        // that it has Y's shape.
        if a2.dtype() != d2.dtype() {
            return Err(dtype_mismatch(&a2, &d2));
        }
        let (k, n) = (a2.shape()[1], d2.shape()[1]);
        let numel = usize::try_from(k.saturating_mul(n)).unwrap_or(usize::MAX);
        if numel != b.numel() {
            return Err(KernelError::Shape(format!(
                "cannot reshape [{k}, {n}] to {:?}",
                b.shape()
            )));
        }
        let gy = GradY::Rows {
            lhs: a2,
            lt: true,
            rhs: d2,
            rt: false,
            alpha: 1.0,
        };
        drop((a, b, d, b2));
        fused_update(s, &opt, &dx, gx, gy)
    })
}

/// [`mul_grad_fused`] for `matmul_grad` and `matmul_v2_grad`: X and Y
/// matrices (or vectors) give `Y@GRAD` a block of rows at a time; with
/// batch dims it is computed whole (summed over them, as `matmul_grad`
/// does), then updated.
pub(crate) fn matmul_grad_fused(l: &OpReader, opt: Dense) -> Result<Exec, KernelError> {
    let op = match l.op.ty.as_str() {
        "matmul_grad" => MatmulGradOp::load(l, "transpose_X", "transpose_Y")?,
        _ => MatmulGradOp::load(l, "trans_x", "trans_y")?,
    };
    compute(move |s| {
        let (g, gx, y_shape) = op.start(s)?;
        let gy = if g.a2.shape().len() == 2 && g.b2.shape().len() == 2 {
            // Y's factors are X's and Out@GRAD's, never Y's own.
            let (p, q, tp, tq) = g.factors(1);
            if p.dtype() != q.dtype() {
                return Err(dtype_mismatch(p, q));
            }
            GradY::Rows {
                lhs: p.clone(),
                lt: tp,
                rhs: q.clone(),
                rt: tq,
                alpha: op.alpha,
            }
        } else {
            GradY::Whole(g.product(1, op.alpha, &y_shape)?)
        };
        drop(g);
        fused_update(s, &opt, &op.dx, gx, gy)
    })
}

/// How a fused kernel gets `Y@GRAD`.
enum GradY {
    /// `alpha · op(lhs) · op(rhs)` of two matrices (`op` transposes when
    /// asked), computed a block of rows at a time.
    Rows {
        lhs: Tensor,
        lt: bool,
        rhs: Tensor,
        rt: bool,
        alpha: f64,
    },
    /// Computed whole.
    Whole(Tensor),
}

/// The end of a fused kernel: `X@GRAD` written, then the optimizer's
/// step with `Y@GRAD`.
fn fused_update(
    s: &mut Vars,
    opt: &Dense,
    dx: &Option<VarRef>,
    gx: Option<Tensor>,
    gy: GradY,
) -> Result<(), KernelError> {
    super::float::set_grads(s, vec![(dx, gx)]);
    if opt.skips(s)? {
        return Ok(());
    }
    match opt.dtype(s)? {
        VarKind::Fp64 => update_by_rows::<f64>(s, opt, &gy),
        _ => update_by_rows::<f32>(s, opt, &gy),
    }
}

/// Rows of `Y@GRAD` computed per block of [`mul_grad_fused`]: about this
/// many elements (16 KiB of float32), at least [`min_rows`].
const FUSED_BLOCK: usize = 4096;

/// The optimizer step of a fused kernel in `T`, the parameter's dtype.
fn update_by_rows<T: Real + MatElem>(
    s: &mut Vars,
    opt: &Dense,
    gy: &GradY,
) -> Result<(), KernelError> {
    let mut step = opt.begin::<T>(s)?;
    let result = match gy {
        GradY::Whole(g) => Dense::check_grad(&step, g.dtype(), g.numel()).and_then(|()| {
            // check_grad checked the dtype.
            step.update(0, g.values::<T>().unwrap_or_default())
        }),
        &GradY::Rows {
            ref lhs,
            lt,
            ref rhs,
            rt,
            alpha,
        } => by_rows(&mut step, (lhs, lt), (rhs, rt), alpha),
    };
    opt.finish(s, step, result)
}

/// `alpha · op(lhs) · op(rhs)` a block of rows at a time, each block given
/// to `step` (see [`mul_grad_fused`]).
fn by_rows<T: Real + MatElem>(
    step: &mut Step<T>,
    (lhs, lt): (&Tensor, bool),
    (rhs, rt): (&Tensor, bool),
    alpha: f64,
) -> Result<(), KernelError> {
    let shape_err = |e: ndarray::ShapeError| KernelError::Shape(format!("matmul: {e}"));
    let dims = |t: &Tensor, trans: bool| match (t.shape(), trans) {
        (&[r, c], false) => Ok((r.max(0) as usize, c.max(0) as usize)),
        (&[r, c], true) => Ok((c.max(0) as usize, r.max(0) as usize)),
        (other, _) => Err(KernelError::Shape(format!("{other:?} is not a matrix"))),
    };
    let ((m, k), (k2, n)) = (dims(lhs, lt)?, dims(rhs, rt)?);
    if k != k2 {
        return Err(KernelError::Shape(format!(
            "matmul: [{m}, {k}] by [{k2}, {n}]"
        )));
    }
    Dense::check_grad(step, lhs.dtype(), m * n)?;
    /// A factor's values, in `T`.
    fn values<T: Element>(t: &Tensor) -> Result<&[T], KernelError> {
        t.values::<T>()
            .ok_or_else(|| KernelError::Dtype("matmul: a factor changed dtype".into()))
    }
    /// A factor as the GEMM reads it (as `multiply` views it).
    fn view<T: Element>(
        t: &Tensor,
        (r, c): (usize, usize),
        trans: bool,
    ) -> Result<ArrayView2<'_, T>, KernelError> {
        let shape_err = |e: ndarray::ShapeError| KernelError::Shape(format!("matmul: {e}"));
        let v = values::<T>(t)?;
        Ok(if trans {
            ArrayView2::from_shape((c, r), v)
                .map_err(shape_err)?
                .reversed_axes()
        } else {
            ArrayView2::from_shape((r, c), v).map_err(shape_err)?
        })
    }
    let (p, q) = (view::<T>(lhs, (m, k), lt)?, view::<T>(rhs, (k, n), rt)?);
    let alpha = T::from_f64(alpha);
    if m * n == 0 {
        return Ok(());
    }
    if m == 1 && !rt {
        // As `multiply` computes a product with one row ([`row_times`]).
        let mut g = vec![T::ZERO; n];
        row_times(alpha, values::<T>(lhs)?, values::<T>(rhs)?, &mut g);
        return step.update(0, &g);
    }
    if splits_rows(m, k, n) {
        // As `multiply` computes it (two threads), then updated whole.
        alloc::check(&Shape::from_slice(&[m as i64, n as i64]), T::KIND)?;
        let mut g = vec![T::ZERO; m * n];
        let c = ArrayViewMut2::from_shape((m, n), &mut g[..]).map_err(shape_err)?;
        let (p1, p2) = p.split_at(Axis(0), m / 2);
        let (c1, c2) = c.split_at(Axis(0), m / 2);
        par::join(|| T::gemm(alpha, p1, q, c1), || T::gemm(alpha, p2, q, c2));
        return step.update(0, &g);
    }
    let blocks = row_blocks(m, n, FUSED_BLOCK / n);
    let most = blocks.clone().map(|r| r.len()).max().unwrap_or(0);
    let mut buf = vec![T::ZERO; most * n];
    for std::ops::Range { start: r0, end: r1 } in blocks {
        let c = &mut buf[..(r1 - r0) * n];
        let block = p.slice_axis(Axis(0), ndarray::Slice::from(r0..r1));
        let cv = ArrayViewMut2::from_shape((r1 - r0, n), &mut c[..]).map_err(shape_err)?;
        T::gemm(alpha, block, q, cv);
        step.update(r0 * n, c)?;
    }
    Ok(())
}

/// The rows of an `[m, n]` product in blocks of about `want` rows that
/// keep the whole product's bits: at least [`min_rows`] each, the last
/// block taking the rest.
fn row_blocks(
    m: usize,
    n: usize,
    want: usize,
) -> impl Iterator<Item = std::ops::Range<usize>> + Clone {
    let rows = want.max(min_rows(n)).min(m.max(1));
    let count = (m / rows).max(1);
    (0..count).map(move |i| i * rows..if i + 1 == count { m } else { (i + 1) * rows })
}

/// Sums a gradient computed at the broadcast batch shape down to the
/// operand's own shape (`want`, its matrix dims last), as Paddle reduces
/// over broadcast batch dims.
fn reduce_to(g: Tensor, want: &[i64]) -> Result<Tensor, KernelError> {
    let have = g.shape().to_vec();
    if have == want {
        return Ok(g);
    }
    let extra = have.len().saturating_sub(want.len());
    let mut dims: Vec<i64> = (0..extra as i64).collect();
    for (i, &w) in want.iter().enumerate() {
        if w == 1 && have[extra + i] != 1 {
            dims.push((extra + i) as i64);
        }
    }
    let r = super::reduce::reduce_tensor(super::reduce::Reduce::Sum, &g, &dims, false)?;
    r.reshaped(want)
}

/// `matmul_grad`/`matmul_v2_grad`: the products of `Out@GRAD` with the
/// other operand for each transpose case (times `alpha` for v1), 1-D
/// operands treated as `matmul` treats them, batch dims summed back to each
/// operand's shape.
fn matmul_grad(l: &OpReader, tx: &str, ty: &str) -> Result<Exec, KernelError> {
    let op = MatmulGradOp::load(l, tx, ty)?;
    let dy = l.opt_output("Y@GRAD")?;
    compute(move |s| {
        let (g, gx, y_shape) = op.start(s)?;
        let gy = dy
            .as_ref()
            .map(|_| g.product(1, op.alpha, &y_shape))
            .transpose()?;
        drop(g);
        super::float::set_grads(s, vec![(&op.dx, gx), (&dy, gy)]);
        Ok(())
    })
}

/// What a `matmul_grad` or `matmul_v2_grad` reads and its `X@GRAD`,
/// resolved at load time (the transpose attributes are named `tx` and `ty`).
struct MatmulGradOp {
    x: VarRef,
    y: VarRef,
    dout: VarRef,
    dx: Option<VarRef>,
    tx: bool,
    ty: bool,
    alpha: f64,
    /// 1.x's `matmul_grad` (see [`v1_vectors`]).
    v1: bool,
}

impl MatmulGradOp {
    fn load(l: &OpReader, tx: &str, ty: &str) -> Result<MatmulGradOp, KernelError> {
        Ok(MatmulGradOp {
            v1: tx == "transpose_X",
            x: l.input("X")?,
            y: l.input("Y")?,
            dout: l.input("Out@GRAD")?,
            dx: l.opt_output("X@GRAD")?,
            tx: l.bool_or(tx, false)?,
            ty: l.bool_or(ty, false)?,
            alpha: l.float_or("alpha", 1.0)?,
        })
    }

    /// The operands, `X@GRAD` if wanted, and Y's shape.
    fn start(&self, s: &Vars) -> Result<(MatmulGrad, Option<Tensor>, Vec<i64>), KernelError> {
        let (a, b, d) = (
            s.tensor(&self.x)?,
            s.tensor(&self.y)?,
            s.tensor(&self.dout)?,
        );
        let g = match v1_vectors(self.v1, &a, &b, self.tx, self.ty)? {
            Some((a2, b2, tx, ty)) => MatmulGrad::new(&a2, &b2, &d, tx, ty)?,
            None => MatmulGrad::new(&a, &b, &d, self.tx, self.ty)?,
        };
        let gx = self
            .dx
            .as_ref()
            .map(|_| g.product(0, self.alpha, a.shape()))
            .transpose()?;
        Ok((g, gx, b.shape().to_vec()))
    }
}

/// A `matmul_grad`'s operands: X and Y as matrices (a 1-D X a row, a 1-D
/// Y a column, as `matmul` reads them), `Out@GRAD` in their product's
/// shape, and the transposes that apply.
struct MatmulGrad {
    a2: Tensor,
    b2: Tensor,
    d2: Tensor,
    tx: bool,
    ty: bool,
}

impl MatmulGrad {
    fn new(a: &Tensor, b: &Tensor, d: &Tensor, tx: bool, ty: bool) -> Result<Self, KernelError> {
        let (xv, yv) = (a.shape().len() == 1, b.shape().len() == 1);
        let (tx, ty) = (tx && !xv, ty && !yv);
        let a2 = if xv {
            a.reshaped(&[1, a.shape()[0]])?
        } else {
            a.clone()
        };
        let b2 = if yv {
            b.reshaped(&[b.shape()[0], 1])?
        } else {
            b.clone()
        };
        let p = plan(a2.shape(), b2.shape(), tx, ty)?;
        // The operands are matrices here, so the product's shape keeps both dims.
        let d2 = d.reshaped(&p.shape)?;
        Ok(MatmulGrad { a2, b2, d2, tx, ty })
    }

    /// (lhs, rhs, transpose lhs, transpose rhs) of X's gradient (`which`
    /// 0) or Y's (1).
    fn factors(&self, which: usize) -> (&Tensor, &Tensor, bool, bool) {
        let (a2, b2, d2) = (&self.a2, &self.b2, &self.d2);
        let (for_x, for_y) = match (self.tx, self.ty) {
            (false, false) => ((d2, b2, false, true), (a2, d2, true, false)),
            (true, false) => ((b2, d2, false, true), (a2, d2, false, false)),
            (false, true) => ((d2, b2, false, false), (d2, a2, true, false)),
            (true, true) => ((b2, d2, true, true), (d2, a2, true, true)),
        };
        if which == 0 {
            for_x
        } else {
            for_y
        }
    }

    /// X's gradient (`which` 0) or Y's (1), times `alpha`, batch dims
    /// summed back to the operand's, in `shape`.
    fn product(&self, which: usize, alpha: f64, shape: &[i64]) -> Result<Tensor, KernelError> {
        let (p, q, tp, tq) = self.factors(which);
        let want = if which == 0 { &self.a2 } else { &self.b2 };
        let g = matmul_into(p, q, (tp, tq, alpha), None)?;
        reduce_to(g, want.shape())?.reshaped(shape)
    }
}

fn matmul(l: &OpReader, tx: &str, ty: &str) -> Result<Exec, KernelError> {
    let v1 = tx == "transpose_X";
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let (tx, ty) = (l.bool_or(tx, false)?, l.bool_or(ty, false)?);
    let alpha = l.float_or("alpha", 1.0)?;
    compute(move |s| {
        let old = take_unless_input(s, &out, &[&x, &y]);
        let (a, b) = (s.tensor(&x)?, s.tensor(&y)?);
        let t = match v1_vectors(v1, &a, &b, tx, ty)? {
            Some((a2, b2, tx2, ty2)) => {
                let t = matmul_into(&a2, &b2, (tx2, ty2, alpha), old)?;
                let dims = v1_vector_out(
                    t.shape().to_vec(),
                    a.shape().len() == 1,
                    b.shape().len() == 1,
                );
                t.reshaped(&dims)?
            }
            None => matmul_into(&a, &b, (tx, ty, alpha), old)?,
        };
        drop((a, b));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// For 1.x's `matmul` (`v1`) with a transpose flag on a 1-D operand, the
/// operands as the matrices 1.x read them and the flags left
/// ([`v1_vector_operands`]).
fn v1_vectors(
    v1: bool,
    a: &Tensor,
    b: &Tensor,
    tx: bool,
    ty: bool,
) -> Result<Option<(Tensor, Tensor, bool, bool)>, KernelError> {
    let Some((x2, y2, tx, ty)) = v1_vector_operands(a.shape(), b.shape(), tx, ty).filter(|_| v1)
    else {
        return Ok(None);
    };
    Ok(Some((a.reshaped(&x2)?, b.reshaped(&y2)?, tx, ty)))
}

/// The dims of one matmul: `pairs` lists, per output batch, the batch of X
/// and of Y it multiplies (leading dims broadcast); each product is
/// `[m, k] x [k, n]` after the transposes.
struct Plan {
    shape: Shape,
    pairs: Vec<(usize, usize)>,
    m: usize,
    k: usize,
    n: usize,
    tx: bool,
    ty: bool,
}

fn plan(x: &[i64], y: &[i64], tx: bool, ty: bool) -> Result<Plan, KernelError> {
    // The shape rule is the op definition's, shared with shape inference.
    let d = fluidc_transpiler::ops::matmul::matmul_dims(x, y, tx, ty).map_err(|e| {
        KernelError::Shape(format!("matmul shapes {x:?} and {y:?} do not fit: {e}"))
    })?;
    let (tx, ty) = (tx && x.len() > 1, ty && y.len() > 1);
    let batch = broadcast(&d.x_batch, &d.y_batch, -1)?;
    let count = |s: &[i64]| s.iter().product::<i64>() as usize;
    let xi: Vec<usize> = (0..count(&d.x_batch)).collect();
    let yi: Vec<usize> = (0..count(&d.y_batch)).collect();
    let pairs: Buffer<(usize, usize)> = batch.zip(&xi, &yi, None, |a, b| (a, b));
    Ok(Plan {
        shape: Shape::from_slice(&d.out),
        pairs: pairs.to_vec(),
        m: d.m as usize,
        k: d.k as usize,
        n: d.n as usize,
        tx,
        ty,
    })
}

/// `alpha * op(X) op(Y)` (`op` transposes when asked), batched with numpy's
/// rules (see the module docs).
#[cfg(test)]
fn matmul_tensors(
    x: &Tensor,
    y: &Tensor,
    tx: bool,
    ty: bool,
    alpha: f64,
) -> Result<Tensor, KernelError> {
    matmul_into(x, y, (tx, ty, alpha), None)
}

/// [`matmul_tensors`] written into `old`'s buffer when it has one owner
/// and room.
fn matmul_into(
    x: &Tensor,
    y: &Tensor,
    (tx, ty, alpha): (bool, bool, f64),
    old: Option<Box<Tensor>>,
) -> Result<Tensor, KernelError> {
    let p = plan(x.shape(), y.shape(), tx, ty)?;
    let data = with_numeric_pair!(
        x.data(),
        y.data(),
        |a, b: T| {
            let n = alloc::check(&p.shape, T::KIND)?;
            let old = old.and_then(|t| t.into_buffer::<T>());
            let mut out = Buffer::reuse_vec(old, n, T::ZERO);
            multiply(&p, a, b, T::from_f64(alpha), &mut out)?;
            T::wrap(out.into())
        },
        return Err(dtype_mismatch(x, y))
    );
    Ok(Tensor::from_parts(p.shape, data))
}

/// Fills `out` (one `[m, n]` block per batch) with the products of `plan`.
fn multiply<T: MatElem>(
    p: &Plan,
    a: &[T],
    b: &[T],
    alpha: T,
    out: &mut [T],
) -> Result<(), KernelError> {
    let (m, k, n) = (p.m, p.k, p.n);
    if m * n == 0 {
        return Ok(());
    }
    let shape_err = |e: ndarray::ShapeError| KernelError::Shape(format!("matmul: {e}"));
    for (&(i, j), c) in p.pairs.iter().zip(out.chunks_exact_mut(m * n)) {
        let a = &a[i * m * k..(i + 1) * m * k];
        let b = &b[j * k * n..(j + 1) * k * n];
        if m == 1 && !p.ty {
            // A row (transposed or not, its k values in order) times a
            // row-major matrix: an fc at batch 1.
            row_times(alpha, a, b, c);
            continue;
        }
        let a = if p.tx {
            ArrayView2::from_shape((k, m), a).map(|v| v.reversed_axes())
        } else {
            ArrayView2::from_shape((m, k), a)
        }
        .map_err(shape_err)?;
        let b = if p.ty {
            ArrayView2::from_shape((n, k), b).map(|v| v.reversed_axes())
        } else {
            ArrayView2::from_shape((k, n), b)
        }
        .map_err(shape_err)?;
        let c = ArrayViewMut2::from_shape((m, n), c).map_err(shape_err)?;
        if splits_rows(m, k, n) {
            // Two threads, each with half of the rows of the product.
            let (a1, a2) = a.split_at(Axis(0), m / 2);
            let (c1, c2) = c.split_at(Axis(0), m / 2);
            par::join(|| T::gemm(alpha, a1, b, c1), || T::gemm(alpha, a2, b, c2));
        } else {
            T::gemm(alpha, a, b, c);
        }
    }
    Ok(())
}

/// `c = alpha · a b` for one row `a` (`k` values) and a row-major `b`
/// (`k` rows of `c.len()` values): the vector-matrix product of an `fc` at
/// batch 1, where a GEMM would first copy all of `b` into its panel layout
/// (reading the weight three times instead of once). Each `c[j]` is summed
/// over `k` in order from zero, as the plain loop
/// ([`MatElem::gemm`]'s default) sums it, so it has the plain loop's bits
/// (`row_times_has_the_plain_loops_bits`); the rows of `b` are added one
/// at a time along `c`, which the compiler vectorizes.
fn row_times<T: Num>(alpha: T, a: &[T], b: &[T], c: &mut [T]) {
    pulp::Arch::new().dispatch(RowTimes { alpha, a, b, c });
}

/// [`row_times`]'s loops under `pulp`'s dispatch (see [`Outer`]: the
/// same bits at any vector width).
struct RowTimes<'a, T> {
    alpha: T,
    a: &'a [T],
    b: &'a [T],
    c: &'a mut [T],
}

impl<T: Num> pulp::WithSimd for RowTimes<'_, T> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        row_times_plain(self.alpha, self.a, self.b, self.c);
    }
}

#[inline(always)]
fn row_times_plain<T: Num>(alpha: T, a: &[T], b: &[T], c: &mut [T]) {
    c.fill(T::ZERO);
    let n = c.len();
    if n == 0 {
        return;
    }
    for (&x, row) in a.iter().zip(b.chunks_exact(n)) {
        for (out, &y) in c.iter_mut().zip(row) {
            *out = out.add(x.mul(y));
        }
    }
    if alpha != T::from_i64(1) {
        for out in c.iter_mut() {
            *out = out.mul(alpha);
        }
    }
}

/// `c = a · b` for the recurrent ops (sequence_rnn.rs):
/// `a` is `[m, k]` row-major (`[k, m]` read transposed with `ta`), `b`
/// `[k, n]` (`[n, k]` with `tb`), `c` `[m, n]`. One GEMM per time step
/// reads the recurrent weight once for every sequence of the batch, where
/// a vector-matrix product per row would read it once per row.
pub(crate) fn gemm<T: Gemm>(
    (a, ta): (&[T], bool),
    (b, tb): (&[T], bool),
    (m, k, n): (usize, usize, usize),
    c: &mut [T],
) -> Result<(), KernelError> {
    if m * n == 0 {
        return Ok(());
    }
    let shape_err = |e: ndarray::ShapeError| KernelError::Shape(format!("gemm: {e}"));
    let a = if ta {
        ArrayView2::from_shape((k, m), a).map(|v| v.reversed_axes())
    } else {
        ArrayView2::from_shape((m, k), a)
    }
    .map_err(shape_err)?;
    let b = if tb {
        ArrayView2::from_shape((n, k), b).map(|v| v.reversed_axes())
    } else {
        ArrayView2::from_shape((k, n), b)
    }
    .map_err(shape_err)?;
    let mut c = ArrayViewMut2::from_shape((m, n), c).map_err(shape_err)?;
    if splits_rows(m, k, n) {
        let (a1, a2) = a.split_at(Axis(0), m / 2);
        let (mut c1, mut c2) = c.split_at(Axis(0), m / 2);
        par::join(
            || product(T::one(), &a1, &b, T::zero(), &mut c1),
            || product(T::one(), &a2, &b, T::zero(), &mut c2),
        );
    } else if n / 2 >= min_cols(m) && m * n * k >= PARALLEL_MACS && par::threads() > 1 {
        // One row (or a few) against a wide weight: split the columns.
        let (b1, b2) = b.split_at(Axis(1), n / 2);
        let (mut c1, mut c2) = c.split_at(Axis(1), n / 2);
        par::join(
            || product(T::one(), &a, &b1, T::zero(), &mut c1),
            || product(T::one(), &a, &b2, T::zero(), &mut c2),
        );
    } else {
        product(T::one(), &a, &b, T::zero(), &mut c);
    }
    Ok(())
}

/// Products of at least this many multiply-adds (128^3) use two threads:
/// below it, starting a thread costs more than it saves.
const PARALLEL_MACS: usize = 1 << 21;

/// Whether an `[m, k]` by `[k, n]` product is split by rows over two
/// threads: it is large enough, and each half keeps the whole product's
/// bits ([`min_rows`]).
fn splits_rows(m: usize, k: usize, n: usize) -> bool {
    m / 2 >= min_rows(n) && m * n * k >= PARALLEL_MACS && par::threads() > 1
}

/// `c = alpha * a b` for one element type.
///
/// Floats use the `gemm` crate ([`crate::tensor::gemm`] says why). The
/// triple loop it replaced ran 0.36 GFLOP/s at 1024.
///
/// Integers keep a plain loop with Paddle's wrapping arithmetic.
trait MatElem: Num {
    /// The plain loop, for integers.
    fn gemm(alpha: Self, a: ArrayView2<Self>, b: ArrayView2<Self>, mut c: ArrayViewMut2<Self>) {
        for ((i, j), out) in c.indexed_iter_mut() {
            let mut acc = Self::ZERO;
            for (x, y) in a.row(i).iter().zip(b.column(j)) {
                acc = acc.add(x.mul(*y));
            }
            *out = if alpha == Self::from_i64(1) {
                acc
            } else {
                acc.mul(alpha)
            };
        }
    }
}

impl MatElem for i32 {}
impl MatElem for i64 {}

macro_rules! float_gemm {
    ($t:ty) => {
        impl MatElem for $t {
            /// A product of inner dim 1 (an outer product: the weight
            /// gradient of an `fc` at batch 1) is written directly, each
            /// element as the plain loop computes it (`0 + x·y`, then
            /// times alpha), where the GEMM would pack both factors for
            /// one multiply per element.
            fn gemm(
                alpha: Self,
                a: ArrayView2<Self>,
                b: ArrayView2<Self>,
                mut c: ArrayViewMut2<Self>,
            ) {
                if a.ncols() == 1 {
                    let y = b.row(0).to_vec();
                    pulp::Arch::new().dispatch(Outer {
                        alpha,
                        x: a.column(0),
                        y: &y,
                        c: &mut c,
                    });
                    return;
                }
                product(alpha, &a, &b, 0.0, &mut c);
            }
        }
    };
}
float_gemm!(f32);
float_gemm!(f64);

/// An outer product's rows (`c[i] = (0 + x[i]·y)·alpha`), under `pulp`'s
/// dispatch: compiled for the CPU's widest vectors, as the optimizer
/// loops are (`Rule::apply`), where the baseline build would use SSE2.
/// The adds and multiplies are IEEE operations, correctly rounded at any
/// width and not fused, so the bits are the plain loop's
/// (`outer_products_have_the_plain_loops_bits`).
struct Outer<'a, 'b, T> {
    alpha: T,
    x: ArrayView1<'a, T>,
    y: &'a [T],
    c: &'a mut ArrayViewMut2<'b, T>,
}

impl<T: Num> pulp::WithSimd for Outer<'_, '_, T> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        let (alpha, y) = (self.alpha, self.y);
        let one = alpha == T::from_i64(1);
        for (mut row, &x) in self.c.rows_mut().into_iter().zip(self.x) {
            let term = |y: T| T::ZERO.add(x.mul(y));
            match row.as_slice_mut() {
                Some(out) if one => out.iter_mut().zip(y).for_each(|(o, &y)| *o = term(y)),
                Some(out) => out
                    .iter_mut()
                    .zip(y)
                    .for_each(|(o, &y)| *o = term(y).mul(alpha)),
                None => row
                    .iter_mut()
                    .zip(y)
                    .for_each(|(o, &y)| *o = if one { term(y) } else { term(y).mul(alpha) }),
            }
        }
    }
}

/// `mul`: X flattened to `[prod(X[..xn]), prod(X[xn..])]`, Y likewise at
/// `yn`; the result has shape `X[..xn] ++ Y[yn..]`.
fn mul(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let xn = l.int("x_num_col_dims")?;
    let yn = l.int("y_num_col_dims")?;
    compute(move |s| {
        let old = take_unless_input(s, &out, &[&x, &y]);
        let (a, b) = (s.tensor(&x)?, s.tensor(&y)?);
        let split = |t: &Tensor, at: i64| -> Result<(Vec<i64>, Vec<i64>), KernelError> {
            let at = usize::try_from(at)
                .ok()
                .filter(|&a| a >= 1 && a <= t.shape().len())
                .ok_or_else(|| {
                    KernelError::Attribute(format!(
                        "num_col_dims {at} is out of range for shape {:?}",
                        t.shape()
                    ))
                })?;
            Ok((t.shape()[..at].to_vec(), t.shape()[at..].to_vec()))
        };
        let ((xl, xr), (yl, yr)) = (split(&a, xn)?, split(&b, yn)?);
        let prod = |s: &[i64]| s.iter().product::<i64>();
        let a2 = a.reshaped(&[prod(&xl), prod(&xr)])?;
        let b2 = b.reshaped(&[prod(&yl), prod(&yr)])?;
        let r = matmul_into(&a2, &b2, (false, false, 1.0), old)?;
        let shape: Vec<i64> = xl.iter().chain(&yr).copied().collect();
        s.set_tensor(&out, r.reshaped(&shape)?);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matmul_2d_transposes_vectors_and_batches() {
        let x = Tensor::from_vec(&[2, 3], vec![1i64, 2, 3, 4, 5, 6]).expect("tensor");
        let y = Tensor::from_vec(&[3, 2], vec![1i64, 0, 0, 1, 1, 1]).expect("tensor");
        let r = matmul_tensors(&x, &y, false, false, 1.0).expect("ok");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2, 2][..], Some(&[4, 5, 10, 11][..]))
        );
        let r = matmul_tensors(&x, &x, false, true, 1.0).expect("x x^T");
        assert_eq!(r.values::<i64>(), Some(&[14, 32, 32, 77][..]));
        let v = Tensor::from_vec(&[3], vec![1i64, 1, 1]).expect("tensor");
        let r = matmul_tensors(&x, &v, false, false, 1.0).expect("matrix-vector");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2][..], Some(&[6, 15][..]))
        );
        let b = Tensor::from_vec(&[2, 1, 3], vec![1i64, 2, 3, 4, 5, 6]).expect("tensor");
        let r = matmul_tensors(&b, &y, false, false, 1.0).expect("batched");
        assert_eq!(
            (r.shape(), r.values::<i64>()),
            (&[2, 1, 2][..], Some(&[4, 5, 10, 11][..]))
        );
        assert!(matmul_tensors(&x, &x, false, false, 1.0)
            .unwrap_err()
            .to_string()
            .contains("do not fit"));
    }

    /// The naive product of `x` `[.., m, k]` (or `[.., k, m]` with `tx`) and
    /// `y`, batch dims broadcast, for checking the GEMM path.
    fn reference(x: &[f64], xs: &[usize], y: &[f64], ys: &[usize], tx: bool, ty: bool) -> Vec<f64> {
        let (xr, yr) = (xs.len(), ys.len());
        let (m, k) = if tx {
            (xs[xr - 1], xs[xr - 2])
        } else {
            (xs[xr - 2], xs[xr - 1])
        };
        let n = if ty { ys[yr - 2] } else { ys[yr - 1] };
        let (xb, yb) = (x.len() / (m * k), y.len() / (k * n));
        // The test's batch dims broadcast as an outer product ([2, 1] with [3]).
        let mut out = Vec::new();
        for (p, q) in (0..xb).flat_map(|p| (0..yb).map(move |q| (p, q))) {
            let (a, b) = (&x[p * m * k..], &y[q * k * n..]);
            for i in 0..m {
                for j in 0..n {
                    out.push(
                        (0..k)
                            .map(|l| {
                                let av = if tx { a[l * m + i] } else { a[i * k + l] };
                                let bv = if ty { b[j * k + l] } else { b[l * n + j] };
                                av * bv
                            })
                            .sum(),
                    );
                }
            }
        }
        out
    }

    /// `mul_grad_fused` computes a product a block of rows at a time (and
    /// `multiply` splits one over two threads by rows, `gemm` by rows or
    /// columns): each block must have the bits the whole product has
    /// there, for any block size, either factor transposed or not, an
    /// inner dim past the GEMM's blocking, products small enough for the
    /// GEMM's other kernels.
    #[test]
    fn row_blocks_of_a_product_have_the_whole_products_bits() {
        fn check<T: MatElem + Gemm + Bits>(from: fn(f64) -> T) {
            let mut next = uniform(0x2545_F491_4F6C_DD1D, from);
            let sizes = [
                (100, 1, 64),
                (37, 8, 33),
                (70, 300, 40),
                (130, 700, 17),
                (300, 1500, 90),
                (9, 2000, 300),
                (200, 600, 8),
                (64, 3, 5),
                (40, 5000, 3),
                (50, 700, 1),
            ];
            for (m, k, n) in sizes {
                let a: Vec<T> = (0..m * k).map(|_| next()).collect();
                let b: Vec<T> = (0..k * n).map(|_| next()).collect();
                for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
                    let av = if ta {
                        ArrayView2::from_shape((k, m), &a[..])
                            .expect("a")
                            .reversed_axes()
                    } else {
                        ArrayView2::from_shape((m, k), &a[..]).expect("a")
                    };
                    let bv = if tb {
                        ArrayView2::from_shape((n, k), &b[..])
                            .expect("b")
                            .reversed_axes()
                    } else {
                        ArrayView2::from_shape((k, n), &b[..]).expect("b")
                    };
                    let one = T::from_f64(1.0);
                    let mut whole = vec![T::ZERO; m * n];
                    T::gemm(
                        one,
                        av,
                        bv,
                        ArrayViewMut2::from_shape((m, n), &mut whole[..]).expect("c"),
                    );
                    if n / 2 >= min_cols(m) {
                        // `gemm`'s split by columns.
                        let mut got = vec![T::ZERO; m * n];
                        let c = ArrayViewMut2::from_shape((m, n), &mut got[..]).expect("c");
                        let (mut c1, mut c2) = c.split_at(Axis(1), n / 2);
                        let (b1, b2) = bv.split_at(Axis(1), n / 2);
                        product(one, &av, &b1, T::ZERO, &mut c1);
                        product(one, &av, &b2, T::ZERO, &mut c2);
                        assert!(
                            same_bits(&got, &whole),
                            "{m}x{k}x{n}, ({ta}, {tb}), by columns"
                        );
                    }
                    for rows in [1, 5, 32, m] {
                        let mut got = vec![T::ZERO; m * n];
                        for std::ops::Range { start: r0, end: r1 } in row_blocks(m, n, rows) {
                            let block = av.slice_axis(Axis(0), ndarray::Slice::from(r0..r1));
                            let c = &mut got[r0 * n..r1 * n];
                            T::gemm(
                                one,
                                block,
                                bv,
                                ArrayViewMut2::from_shape((r1 - r0, n), c).expect("c"),
                            );
                        }
                        assert!(
                            same_bits(&got, &whole),
                            "{m}x{k}x{n}, transposed ({ta}, {tb}), {rows} rows a block"
                        );
                    }
                }
            }
        }
        check::<f32>(|v| v as f32);
        check::<f64>(|v| v);
    }

    /// The batch-1 path ([`row_times`]) against the plain loop, bit for
    /// bit, for both float dtypes, with and without alpha.
    #[test]
    fn row_times_has_the_plain_loops_bits() {
        fn check<T: MatElem + Bits>(from: fn(f64) -> T) {
            let mut next = uniform(0x9E37_79B9_7F4A_7C15, from);
            for (k, n) in [(1, 1), (7, 3), (784, 256), (300, 1000), (33, 17)] {
                let a: Vec<T> = (0..k).map(|_| next()).collect();
                let b: Vec<T> = (0..k * n).map(|_| next()).collect();
                for alpha in [1.0, 0.5, -3.0] {
                    let alpha = T::from_f64(alpha);
                    let mut plain = vec![T::ZERO; n];
                    for (j, out) in plain.iter_mut().enumerate() {
                        let mut acc = T::ZERO;
                        for (kk, &x) in a.iter().enumerate() {
                            acc = acc.add(x.mul(b[kk * n + j]));
                        }
                        *out = if alpha == T::from_i64(1) {
                            acc
                        } else {
                            acc.mul(alpha)
                        };
                    }
                    let mut got = vec![T::from_f64(9.0); n];
                    row_times(alpha, &a, &b, &mut got);
                    assert!(same_bits(&got, &plain), "k {k}, n {n}");
                }
            }
        }
        check::<f32>(|v| v as f32);
        check::<f64>(|v| v);
    }

    /// Values uniform in [-1, 1) from a xorshift generator seeded `state`.
    fn uniform<T>(mut state: u64, from: fn(f64) -> T) -> impl FnMut() -> T {
        move || {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let v = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
            from((v >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0)
        }
    }

    fn same_bits<T: Bits>(a: &[T], b: &[T]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| x.to_bits_u64() == y.to_bits_u64())
    }

    /// Products of inner dim 1 against the plain loop, bit for bit
    /// (signed zeros included), transposed factors too.
    #[test]
    fn outer_products_have_the_plain_loops_bits() {
        fn check<T: MatElem + Bits>(from: fn(f64) -> T) {
            let mut next = uniform(0x1234_5678_9ABC_DEF1, from);
            for (m, n) in [(1, 1), (5, 9), (784, 256), (33, 1000)] {
                let mut a: Vec<T> = (0..m).map(|_| next()).collect();
                let b: Vec<T> = (0..n).map(|_| next()).collect();
                a[0] = T::from_f64(-0.0);
                for alpha in [1.0, -0.5] {
                    let alpha = T::from_f64(alpha);
                    let mut plain = vec![T::ZERO; m * n];
                    for i in 0..m {
                        for j in 0..n {
                            let acc = T::ZERO.add(a[i].mul(b[j]));
                            plain[i * n + j] = if alpha == T::from_i64(1) {
                                acc
                            } else {
                                acc.mul(alpha)
                            };
                        }
                    }
                    for tb in [false, true] {
                        let av = ArrayView2::from_shape((m, 1), &a[..]).expect("a");
                        let bv = if tb {
                            ArrayView2::from_shape((n, 1), &b[..])
                                .expect("b")
                                .reversed_axes()
                        } else {
                            ArrayView2::from_shape((1, n), &b[..]).expect("b")
                        };
                        let mut got = vec![T::from_f64(7.0); m * n];
                        T::gemm(
                            alpha,
                            av,
                            bv,
                            ArrayViewMut2::from_shape((m, n), &mut got[..]).expect("c"),
                        );
                        assert!(same_bits(&got, &plain), "{m}x{n}, b transposed {tb}");
                    }
                }
            }
        }
        check::<f32>(|v| v as f32);
        check::<f64>(|v| v);
    }

    trait Bits {
        fn to_bits_u64(&self) -> u64;
    }
    impl Bits for f32 {
        fn to_bits_u64(&self) -> u64 {
            u64::from(self.to_bits())
        }
    }
    impl Bits for f64 {
        fn to_bits_u64(&self) -> u64 {
            self.to_bits()
        }
    }

    #[test]
    fn gemm_matches_the_naive_product_for_every_transpose_batch_and_float_dtype() {
        let values =
            |n: usize| -> Vec<f64> { (0..n).map(|i| ((i * 7 + 3) % 11) as f64 - 5.0).collect() };
        for (xs, ys) in [
            (vec![3usize, 4], vec![4usize, 5]),
            (vec![2, 1, 3, 4], vec![3, 4, 5]),
            (vec![70, 300], vec![300, 40]),
        ] {
            for (tx, ty) in [(false, false), (true, false), (false, true), (true, true)] {
                let swap = |s: &[usize], t: bool| {
                    let mut s = s.to_vec();
                    let r = s.len();
                    if t {
                        s.swap(r - 1, r - 2);
                    }
                    s
                };
                let (xs, ys) = (swap(&xs, tx), swap(&ys, ty));
                let (xv, yv) = (values(xs.iter().product()), values(ys.iter().product()));
                let want = reference(&xv, &xs, &yv, &ys, tx, ty);
                let dims = |s: &[usize]| s.iter().map(|&d| d as i64).collect::<Vec<_>>();
                let x = Tensor::from_vec(&dims(&xs), xv.clone()).expect("x");
                let y = Tensor::from_vec(&dims(&ys), yv.clone()).expect("y");
                let got = matmul_tensors(&x, &y, tx, ty, 0.5).expect("f64");
                let got: Vec<f64> = got.values::<f64>().expect("f64").to_vec();
                let half: Vec<f64> = want.iter().map(|v| v * 0.5).collect();
                assert_eq!(got, half, "f64 {xs:?} {ys:?} {tx} {ty}");
                let x = x.cast(fluidc_transpiler::VarKind::Fp32).expect("cast");
                let y = y.cast(fluidc_transpiler::VarKind::Fp32).expect("cast");
                let got = matmul_tensors(&x, &y, tx, ty, 1.0).expect("f32");
                let got = got.values::<f32>().expect("f32");
                assert!(
                    got.iter()
                        .zip(&want)
                        .all(|(g, w)| (f64::from(*g) - w).abs() <= 1e-4 * w.abs().max(1.0)),
                    "f32 {xs:?} {ys:?} {tx} {ty}"
                );
            }
        }
    }
}
