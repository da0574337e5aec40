//! Elementwise arithmetic with Paddle's broadcast rule, and `sum`.
//!
//! Both operands must have the same dtype, as Paddle's static-graph kernels
//! require; the error says which dtypes met, so the program can cast.
use std::sync::Arc;

use super::float::{self, f64s};
use super::output::take_unless_input;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::broadcast::{broadcast, zip_operands};
use crate::tensor::num::{with_numeric, with_numeric_pair, Num};
use crate::tensor::{dtype_name, par, same_dims, Element, Scalar, Tensor};
use crate::value::Value;
use fluidc_transpiler::VarKind;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("elementwise_add", |l| binary(l, Arith::Add));
    r.add("elementwise_sub", |l| binary(l, Arith::Sub));
    r.add("elementwise_mul", |l| binary(l, Arith::Mul));
    r.add("elementwise_div", |l| binary(l, Arith::Div));
    r.add("elementwise_max", |l| binary(l, Arith::Max));
    r.add("elementwise_min", |l| binary(l, Arith::Min));
    r.add("elementwise_pow", |l| binary(l, Arith::Pow));
    r.add("elementwise_mod", |l| binary(l, Arith::Mod));
    r.add("elementwise_floordiv", |l| binary(l, Arith::FloorDiv));
    r.add("sum", sum);
    r.add("elementwise_add_grad", |l| binary_grad(l, Arith::Add));
    r.add("elementwise_sub_grad", |l| binary_grad(l, Arith::Sub));
    r.add("elementwise_mul_grad", |l| binary_grad(l, Arith::Mul));
    r.add("elementwise_div_grad", |l| binary_grad(l, Arith::Div));
    r.add("elementwise_max_grad", |l| binary_grad(l, Arith::Max));
    r.add("elementwise_min_grad", |l| binary_grad(l, Arith::Min));
    r.add("elementwise_pow_grad", |l| binary_grad(l, Arith::Pow));
    // elementwise_mod's grad op (Paddle names it after the phi kernel).
    r.add("remainder_grad", |l| binary_grad(l, Arith::Mod));
}

/// The partial derivatives of `x op y` times `d`: (for X, for Y), as
/// Paddle's grad functors compute them (max/min route the gradient to X
/// only where X wins strictly).
fn partials(op: Arith, x: f64, y: f64, d: f64) -> (f64, f64) {
    match op {
        Arith::Add => (d, d),
        Arith::Sub => (d, -d),
        Arith::Mul => (d * y, d * x),
        Arith::Div => (d / y, -d * (x / y) / y),
        Arith::Max => {
            if x > y {
                (d, 0.0)
            } else {
                (0.0, d)
            }
        }
        Arith::Min => {
            if x < y {
                (d, 0.0)
            } else {
                (0.0, d)
            }
        }
        Arith::Pow => (d * y * x.powf(y - 1.0), d * x.powf(y) * x.ln()),
        // remainder_grad: x - floor(x / y) * y.
        Arith::Mod => (d, -d * (x / y).floor()),
        Arith::FloorDiv => (0.0, 0.0),
    }
}

/// `elementwise_*_grad`: `X@GRAD` and `Y@GRAD` (either may be absent)
/// from `X`, `Y` and `Out@GRAD`, each summed over the dims its operand
/// was broadcast along (Paddle's `axis` rule).
fn binary_grad(l: &OpReader, op: Arith) -> Result<Exec, KernelError> {
    let (x, y, dout) = (l.input("X")?, l.input("Y")?, l.input("Out@GRAD")?);
    let (dx, dy) = (l.opt_output("X@GRAD")?, l.opt_output("Y@GRAD")?);
    let axis = l.int_or("axis", -1)?;
    compute(move |s| {
        let (xt, yt, dt) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&dout)?);
        // The common case of add and sub: no broadcast, the gradient is
        // Out@GRAD itself (shared, not copied) or its negation.
        let plain = matches!(op, Arith::Add | Arith::Sub)
            && same_dims(xt.shape(), yt.shape())
            && same_dims(xt.shape(), dt.shape());
        let block = bias_block(xt.shape(), yt.shape(), dt.shape(), axis);
        let (gx, gy) = if plain {
            let gy = match (op, &dy) {
                (_, None) => None,
                (Arith::Add, Some(_)) => Some(dt.clone()),
                _ => Some(negate(&dt)?),
            };
            (dx.as_ref().map(|_| dt.clone()), gy)
        } else if let (Some(split), Arith::Add | Arith::Sub) = (block, op) {
            // A bias: X's gradient is Out@GRAD itself, Y's its sum over the
            // dims around Y's block.
            let gy = match &dy {
                Some(_) => {
                    let d = f64s(&dt, op_name(op))?;
                    let mut sums = sum_around(&d, split);
                    if op == Arith::Sub {
                        sums.iter_mut().for_each(|v| *v = -*v);
                    }
                    Some(float::tensor(yt.dtype(), yt.shape(), sums)?)
                }
                None => None,
            };
            (dx.as_ref().map(|_| dt.clone()), gy)
        } else if let Some((pre, n, post)) = block {
            let name = op_name(op);
            let (xv, yv, d) = (f64s(&xt, name)?, f64s(&yt, name)?, f64s(&dt, name)?);
            let mut gx = vec![0.0; xv.len()];
            let mut gy = vec![0.0; yv.len()];
            for p in 0..pre {
                for (j, (&y, g)) in yv.iter().zip(gy.iter_mut()).enumerate() {
                    let at = (p * n + j) * post;
                    for k in at..at + post {
                        let (a, c) = partials(op, xv[k], y, d[k]);
                        gx[k] = a;
                        *g += c;
                    }
                }
            }
            (
                dx.as_ref()
                    .map(|_| float::tensor(xt.dtype(), xt.shape(), gx))
                    .transpose()?,
                dy.as_ref()
                    .map(|_| float::tensor(yt.dtype(), yt.shape(), gy))
                    .transpose()?,
            )
        } else {
            let b = broadcast(xt.shape(), yt.shape(), axis)?;
            if b.numel() != dt.numel() {
                return Err(KernelError::Shape(format!(
                    "Out@GRAD has shape {:?} but X {:?} and Y {:?} broadcast to {:?}",
                    dt.shape(),
                    xt.shape(),
                    yt.shape(),
                    &b.out_shape[..]
                )));
            }
            let name = op_name(op);
            let (xv, yv, d) = (f64s(&xt, name)?, f64s(&yt, name)?, f64s(&dt, name)?);
            let mut gx = vec![0.0; xv.len()];
            let mut gy = vec![0.0; yv.len()];
            for (k, (i, j)) in b.indices().enumerate() {
                let (a, c) = partials(op, xv[i], yv[j], d[k]);
                gx[i] += a;
                gy[j] += c;
            }
            (
                match dx {
                    Some(_) => Some(float::tensor(xt.dtype(), xt.shape(), gx)?),
                    None => None,
                },
                match dy {
                    Some(_) => Some(float::tensor(yt.dtype(), yt.shape(), gy)?),
                    None => None,
                },
            )
        };
        drop((xt, yt, dt));
        super::float::set_grads(s, vec![(&dx, gx), (&dy, gy)]);
        Ok(())
    })
}

/// When X and Out@GRAD have one shape and Y's dims are a run of X's (at
/// Paddle's `axis`; an fc bias, a per-channel scale): (elements before
/// the run, elements of Y, elements after it).
fn bias_block(x: &[i64], y: &[i64], d: &[i64], axis: i64) -> Option<(usize, usize, usize)> {
    if !same_dims(x, d) || y.len() > x.len() {
        return None;
    }
    let start = if axis < 0 || y.len() == x.len() {
        x.len() - y.len()
    } else {
        usize::try_from(axis).ok()?
    };
    if x.get(start..start + y.len())? != y {
        return None;
    }
    let count = |s: &[i64]| s.iter().map(|&v| v.max(0) as usize).product::<usize>();
    Some((count(&x[..start]), count(y), count(&x[start + y.len()..])))
}

/// The sums of `d` (laid out as (pre, n, post)) over pre and post.
fn sum_around(d: &[f64], (pre, n, post): (usize, usize, usize)) -> Vec<f64> {
    let mut sums = vec![0.0; n];
    for p in 0..pre {
        for (j, s) in sums.iter_mut().enumerate() {
            let at = (p * n + j) * post;
            *s += d[at..at + post].iter().sum::<f64>();
        }
    }
    sums
}

fn op_name(op: Arith) -> &'static str {
    match op {
        Arith::Add => "elementwise_add_grad",
        Arith::Sub => "elementwise_sub_grad",
        Arith::Mul => "elementwise_mul_grad",
        Arith::Div => "elementwise_div_grad",
        Arith::Max => "elementwise_max_grad",
        Arith::Min => "elementwise_min_grad",
        Arith::Pow => "elementwise_pow_grad",
        Arith::Mod => "remainder_grad",
        Arith::FloorDiv => "elementwise_floordiv_grad",
    }
}

/// `-t` for a numeric tensor.
fn negate(t: &Tensor) -> Result<Tensor, KernelError> {
    let data = with_numeric!(
        t.data(),
        |v: T| T::wrap(v.iter().map(|&e| T::ZERO.sub(e)).collect()),
        return Err(dtype_mismatch(t, t))
    );
    Tensor::new(t.shape(), data)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arith {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    Pow,
    Mod,
    FloorDiv,
}

impl Arith {
    fn function<T: Num>(self) -> fn(T, T) -> T {
        match self {
            Arith::Add => T::add,
            Arith::Sub => T::sub,
            Arith::Mul => T::mul,
            Arith::Div => T::div,
            Arith::Max => T::max_of,
            Arith::Min => T::min_of,
            Arith::Pow => T::pow,
            Arith::Mod => T::rem_floor,
            Arith::FloorDiv => T::floor_div,
        }
    }

    fn divides(self) -> bool {
        matches!(self, Arith::Div | Arith::Mod | Arith::FloorDiv)
    }

    /// `a op b` on two elements of one numeric dtype; `None` for anything
    /// the general path must handle (bools, mixed dtypes, integer division
    /// by zero, which it reports).
    #[inline]
    fn scalar(self, a: Scalar, b: Scalar) -> Option<Scalar> {
        fn apply<T: Num>(op: Arith, a: T, b: T) -> Option<T> {
            Some(match op {
                Arith::Add => a.add(b),
                Arith::Sub => a.sub(b),
                Arith::Mul => a.mul(b),
                Arith::Max => a.max_of(b),
                Arith::Min => a.min_of(b),
                _ if T::IS_INT && op.divides() && b == T::ZERO => return None,
                _ => op.function::<T>()(a, b),
            })
        }
        Some(match (a, b) {
            (Scalar::Int32(a), Scalar::Int32(b)) => Scalar::Int32(apply(self, a, b)?),
            (Scalar::Int64(a), Scalar::Int64(b)) => Scalar::Int64(apply(self, a, b)?),
            (Scalar::Float32(a), Scalar::Float32(b)) => Scalar::Float32(apply(self, a, b)?),
            (Scalar::Float64(a), Scalar::Float64(b)) => Scalar::Float64(apply(self, a, b)?),
            _ => return None,
        })
    }
}

fn binary(l: &OpReader, op: Arith) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let axis = l.int("axis")?;
    if op == Arith::Mul && l.declared_kind(&out.name) == Some(VarKind::SelectedRows) {
        return compute(move |s| sparse_mul(s, (&x, &y, &out), axis));
    }
    let alias = Alias::of(&out, &x, &y);
    compute(move |s| {
        if let Some((a, b, rank)) = s.scalar_pair(&x, &y) {
            if let Some(v) = op.scalar(a, b) {
                s.set_scalar(&out, v, rank);
                return Ok(());
            }
        }
        binary_vars(s, op, (&x, &y, &out), axis, alias)
    })
}

/// `elementwise_mul` declared `SELECTED_ROWS` (a sparse gradient scaled by
/// 1.x's GradientClipByGlobalNorm): Paddle scales the value rows of a
/// SelectedRows `X` by a `Y` of shape `[1]`, and `Out` keeps X's rows, so
/// the optimizer's sparse update sees them. A dense `X` multiplies as usual.
fn sparse_mul(
    s: &mut Vars,
    (x, y, out): (&VarRef, &VarRef, &VarRef),
    axis: i64,
) -> Result<(), KernelError> {
    let (xt, yt) = (s.tensor(x)?, s.tensor(y)?);
    let rows = xt.sparse_rows().cloned();
    if rows.is_some() && yt.shape() != [1] {
        return Err(KernelError::Shape(format!(
            "elementwise_mul: for a SelectedRows X, Y must be a scalar of shape [1], it is {:?}",
            yt.shape()
        )));
    }
    let mut t = arith(Arith::Mul, &xt, &yt, axis)?;
    t.set_sparse_rows(rows);
    drop((xt, yt));
    s.set_tensor(out, t);
    Ok(())
}

/// Which input of a binary op is also its output (the same variable), as
/// the loader resolved them: that input's buffer is then updated in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Alias {
    None,
    X,
    Y,
    Both,
}

impl Alias {
    fn of(out: &VarRef, x: &VarRef, y: &VarRef) -> Alias {
        match (out.place == x.place, out.place == y.place) {
            (false, false) => Alias::None,
            (true, false) => Alias::X,
            (false, true) => Alias::Y,
            (true, true) => Alias::Both,
        }
    }
}

/// The general path of an elementwise kernel, out of line so that the
/// scalar path stays small. The result goes into the buffer the output
/// variable held when nothing else shares it (see `Buffer::refill`).
#[inline(never)]
fn binary_vars(
    s: &mut Vars,
    op: Arith,
    (x, y, out): (&VarRef, &VarRef, &VarRef),
    axis: i64,
    alias: Alias,
) -> Result<(), KernelError> {
    let t = match (alias, s.take_output(out)) {
        (Alias::X, Some(own)) => arith_in_place(op, own, &*s.tensor(y)?, axis, true)?,
        (Alias::Y, Some(own)) => arith_in_place(op, own, &*s.tensor(x)?, axis, false)?,
        (Alias::Both, Some(own)) => Box::new(arith_into(op, &own, &own, axis, None)?),
        (_, old) => Box::new(arith_into(op, &*s.tensor(x)?, &*s.tensor(y)?, axis, old)?),
    };
    s.set_boxed(out, t);
    Ok(())
}

/// `a + b` as Paddle's `sum` adds gradients: tensors element by element;
/// tensor arrays element by element, an element missing on one side (never
/// written, or empty) taken from the other; nothing plus `b` is `b`. The
/// sum keeps the LoD of `a` (else of `b`), as `sum` shares its first
/// input's: a DynamicRNN's static input reads its gradient's LoD.
pub(crate) fn add_values(a: Value, b: Value) -> Result<Value, KernelError> {
    let empty = |v: &Value| match v {
        Value::Empty => true,
        Value::Tensor(t) => t.numel() == 0,
        _ => false,
    };
    if empty(&a) {
        return Ok(b);
    }
    if empty(&b) {
        return Ok(a);
    }
    match (a, b) {
        (Value::TensorArray(x), Value::TensorArray(y)) => {
            let mut x = Arc::unwrap_or_clone(x);
            if x.len() < y.len() {
                x.resize(y.len(), Value::Empty);
            }
            for (i, v) in y.iter().enumerate() {
                let old = std::mem::take(&mut x[i]);
                x[i] = add_values(old, v.clone())?;
            }
            Ok(Value::TensorArray(Arc::new(x)))
        }
        (a, b) => {
            let tensor = |v: Value| {
                v.to_tensor().ok_or_else(|| {
                    KernelError::Invalid(format!("cannot add {} to a gradient", v.describe()))
                })
            };
            let (x, y) = (tensor(a)?, tensor(b)?);
            let lod = if x.lod().is_empty() { y.lod() } else { x.lod() }.to_vec();
            Ok(Value::tensor(arith(Arith::Add, &x, &y, -1)?.with_lod(lod)))
        }
    }
}

/// `x op y` elementwise, broadcasting by Paddle's `axis` rule.
pub(crate) fn arith(op: Arith, x: &Tensor, y: &Tensor, axis: i64) -> Result<Tensor, KernelError> {
    arith_into(op, x, y, axis, None)
}

/// [`arith`] written into `old`'s buffer when it has one owner and the
/// result's dtype and size.
fn arith_into(
    op: Arith,
    x: &Tensor,
    y: &Tensor,
    axis: i64,
    old: Option<Box<Tensor>>,
) -> Result<Tensor, KernelError> {
    let (shape, data) = with_numeric_pair!(
        x.data(),
        y.data(),
        |a, c: T| {
            if T::IS_INT && op.divides() && c.contains(&T::ZERO) {
                return Err(division_by_zero());
            }
            let old = old.and_then(|t| t.into_buffer::<T>());
            let (shape, out) = zip_operands(
                (x.shape(), a),
                (y.shape(), c),
                axis,
                old,
                op.function::<T>(),
            )?;
            (shape, T::wrap(out))
        },
        return Err(dtype_mismatch(x, y))
    );
    Ok(Tensor::from_parts(shape, data))
}

/// `own op other` (`own_is_x`) or `other op own`, written over `own`'s
/// elements when its buffer has one owner and the result has its shape
/// (`x += y`); else computed into a new buffer.
fn arith_in_place(
    op: Arith,
    mut own: Box<Tensor>,
    other: &Tensor,
    axis: i64,
    own_is_x: bool,
) -> Result<Box<Tensor>, KernelError> {
    let (x, y) = if own_is_x {
        (&*own, other)
    } else {
        (other, &*own)
    };
    let b = broadcast(x.shape(), y.shape(), axis)?;
    let fits = same_dims(&b.out_shape, own.shape()) && own.dtype() == other.dtype();
    let fresh = |x: &Tensor, y: &Tensor| arith_into(op, x, y, axis, None).map(Box::new);
    if !fits {
        return fresh(x, y);
    }
    let done = with_numeric!(
        other.data(),
        |o: T| {
            let o: &[T] = o;
            let divisor = if own_is_x {
                o
            } else {
                own.values::<T>().unwrap_or_default()
            };
            if T::IS_INT && op.divides() && divisor.contains(&T::ZERO) {
                return Err(division_by_zero());
            }
            let f = op.function::<T>();
            match own.unique_values_mut::<T>() {
                None => false,
                Some(mine) => {
                    let g = |m: T, o: T| if own_is_x { f(m, o) } else { f(o, m) };
                    if o.len() == mine.len() {
                        par::for_halves(mine, |start, chunk| {
                            for (m, &o) in chunk.iter_mut().zip(&o[start..]) {
                                *m = g(*m, o);
                            }
                        });
                    } else if let [o] = o {
                        mine.iter_mut().for_each(|m| *m = g(*m, *o));
                    } else {
                        for (m, (i, j)) in mine.iter_mut().zip(b.indices()) {
                            *m = g(*m, o[if own_is_x { j } else { i }]);
                        }
                    }
                    true
                }
            }
        },
        return Err(dtype_mismatch(&own, other))
    );
    if done {
        return Ok(own);
    }
    if own_is_x {
        fresh(&own, other)
    } else {
        fresh(other, &own)
    }
}

pub(crate) fn dtype_mismatch(x: &Tensor, y: &Tensor) -> KernelError {
    KernelError::Dtype(if x.dtype() == y.dtype() {
        format!("{} tensors are not supported here", dtype_name(x.dtype()))
    } else {
        format!(
            "X is {} but Y is {}; both must have one dtype (cast one of them)",
            dtype_name(x.dtype()),
            dtype_name(y.dtype())
        )
    })
}

fn division_by_zero() -> KernelError {
    KernelError::Invalid("integer division by zero".to_string())
}

/// `sum`: adds every tensor of the `X` list, into the output's buffer
/// when it has one owner and is none of the inputs.
fn sum(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, out) = (l.inputs("X")?, l.output("Out")?);
    if xs.is_empty() {
        return Err(KernelError::Program("input `X` names no variable".into()));
    }
    // Gradients of tensor arrays add up element by element.
    let arrays =
        l.op.inputs_of("X")
            .iter()
            .any(|n| l.declared_kind(n) == Some(VarKind::DenseTensorArray));
    if arrays {
        return compute(move |s| {
            let mut acc = Value::Empty;
            for x in &xs {
                acc = add_values(acc, s.get(x))?;
            }
            s.set(&out, acc);
            Ok(())
        });
    }
    // Only a sum the program declares SELECTED_ROWS (of sparse gradients)
    // carries rows; the others skip the lookup.
    let sparse = l.declared_kind(&out.name) == Some(VarKind::SelectedRows);
    compute(move |s| {
        let rows = if sparse { sparse_union(s, &xs)? } else { None };
        let inputs: Vec<&VarRef> = xs.iter().collect();
        let old = take_unless_input(s, &out, &inputs);
        let mut acc = match &xs[..] {
            [x] => Box::new(s.tensor(x)?.into_owned()),
            [x, y, ..] => Box::new(arith_into(
                Arith::Add,
                &*s.tensor(x)?,
                &*s.tensor(y)?,
                -1,
                old,
            )?),
            [] => unreachable!("checked at load"),
        };
        for x in xs.iter().skip(2) {
            acc = arith_in_place(Arith::Add, acc, &*s.tensor(x)?, -1, true)?;
        }
        acc.set_sparse_rows(rows);
        s.set_boxed(&out, acc);
        Ok(())
    })
}

/// The rows of a `sum` of sparse gradients: Paddle's sum of `SelectedRows`
/// has every input's rows; one dense input makes the sum dense (`None`).
fn sparse_union(s: &Vars, xs: &[VarRef]) -> Result<Option<Arc<Vec<usize>>>, KernelError> {
    let mut rows = Vec::new();
    for x in xs {
        match s.tensor(x)?.sparse_rows() {
            Some(r) if xs.len() == 1 => return Ok(Some(r.clone())),
            Some(r) => rows.extend_from_slice(r),
            None => return Ok(None),
        }
    }
    rows.sort_unstable();
    rows.dedup();
    Ok(Some(Arc::new(rows)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(shape: &[i64], v: Vec<i64>) -> Tensor {
        Tensor::from_vec(shape, v).expect("tensor")
    }

    #[test]
    fn integer_ops_follow_paddle() {
        let x = t(&[3], vec![-7, 7, 9]);
        let y = t(&[1], vec![2]);
        let got = |op| {
            arith(op, &x, &y, -1)
                .expect("ok")
                .values::<i64>()
                .expect("i64")
                .to_vec()
        };
        assert_eq!(got(Arith::Div), vec![-3, 3, 4]);
        assert_eq!(got(Arith::Mod), vec![1, 1, 1]);
        assert_eq!(got(Arith::FloorDiv), vec![-4, 3, 4]);
        assert_eq!(got(Arith::Pow), vec![49, 49, 81]);
        let zero = t(&[1], vec![0]);
        assert!(matches!(
            arith(Arith::Div, &x, &zero, -1),
            Err(KernelError::Invalid(m)) if m.contains("division by zero")
        ));
    }

    #[test]
    fn dtypes_must_agree() {
        let x = t(&[1], vec![1]);
        let y = Tensor::from_vec(&[1], vec![1.0f32]).expect("tensor");
        let err = arith(Arith::Add, &x, &y, -1).unwrap_err().to_string();
        assert!(err.contains("X is int64 but Y is float32"), "{err}");
    }
}
