//! Comparisons (bool out, broadcasting like elementwise ops), logical ops,
//! and 1.x's `isfinite`, `isinf` and `isnan` of a whole tensor.
use super::elementwise::dtype_mismatch;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::broadcast::zip_operands;
use crate::tensor::{with_data, Buffer, Data, Element, Scalar, Shape, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("less_than", |l| compare(l, Cmp::Lt));
    r.add("less_equal", |l| compare(l, Cmp::Le));
    r.add("greater_than", |l| compare(l, Cmp::Gt));
    r.add("greater_equal", |l| compare(l, Cmp::Ge));
    r.add("equal", |l| compare(l, Cmp::Eq));
    r.add("not_equal", |l| compare(l, Cmp::Ne));
    r.add("logical_and", |l| logical(l, |a, b| a && b));
    r.add("logical_or", |l| logical(l, |a, b| a || b));
    r.add("logical_xor", |l| logical(l, |a, b| a != b));
    r.add("logical_not", logical_not);
    r.add("isfinite", |l| {
        overflow(l, |v| v.iter().all(|x| x.is_finite()))
    });
    r.add("isinf", |l| {
        overflow(l, |v| v.iter().any(|x| x.is_infinite()))
    });
    r.add("isnan", |l| overflow(l, |v| v.iter().any(|x| x.is_nan())));
}

/// 1.x's `isfinite`, `isinf` and `isnan` (`layers.isfinite`, `has_inf`,
/// `has_nan`): one bool about the whole of `X`, as `test` finds its values.
fn overflow(l: &OpReader, test: fn(&[f64]) -> bool) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let values: Vec<f64> = with_data!(t.data(), |v: T| v.iter().map(|e| e.to_f64()).collect());
        drop(t);
        s.set_tensor(&out, Tensor::from_vec(&[1], vec![test(&values)])?);
        Ok(())
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Cmp {
    /// `a op b` on two elements of one dtype; `None` for mixed dtypes.
    #[inline]
    fn scalar(self, a: Scalar, b: Scalar) -> Option<bool> {
        Some(match (a, b) {
            (Scalar::Bool(a), Scalar::Bool(b)) => self.apply(a, b),
            (Scalar::Int32(a), Scalar::Int32(b)) => self.apply(a, b),
            (Scalar::Int64(a), Scalar::Int64(b)) => self.apply(a, b),
            (Scalar::Float32(a), Scalar::Float32(b)) => self.apply(a, b),
            (Scalar::Float64(a), Scalar::Float64(b)) => self.apply(a, b),
            _ => return None,
        })
    }

    #[inline]
    fn apply<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Cmp::Lt => a < b,
            Cmp::Le => a <= b,
            Cmp::Gt => a > b,
            Cmp::Ge => a >= b,
            Cmp::Eq => a == b,
            Cmp::Ne => a != b,
        }
    }

    fn function<T: PartialOrd>(self) -> fn(T, T) -> bool {
        match self {
            Cmp::Lt => |a, b| a < b,
            Cmp::Le => |a, b| a <= b,
            Cmp::Gt => |a, b| a > b,
            Cmp::Ge => |a, b| a >= b,
            Cmp::Eq => |a, b| a == b,
            Cmp::Ne => |a, b| a != b,
        }
    }
}

fn compare(l: &OpReader, op: Cmp) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let axis = l.int("axis")?;
    compute(move |s| {
        if let Some((a, b, rank)) = s.scalar_pair(&x, &y) {
            if let Some(v) = op.scalar(a, b) {
                s.set_scalar(&out, Scalar::Bool(v), rank);
                return Ok(());
            }
        }
        compare_vars(s, op, (&x, &y, &out), axis)
    })
}

/// The general path of a compare kernel, out of line so that the scalar
/// path stays small.
#[inline(never)]
fn compare_vars(
    s: &mut Vars,
    op: Cmp,
    (x, y, out): (&VarRef, &VarRef, &VarRef),
    axis: i64,
) -> Result<(), KernelError> {
    let t = compare_tensors(op, &*s.tensor(x)?, &*s.tensor(y)?, axis)?;
    s.set_tensor(out, t);
    Ok(())
}

pub(crate) fn compare_tensors(
    op: Cmp,
    x: &Tensor,
    y: &Tensor,
    axis: i64,
) -> Result<Tensor, KernelError> {
    let (xs, ys) = (x.shape(), y.shape());
    let (shape, out) = match (x.data(), y.data()) {
        (Data::Bool(a), Data::Bool(c)) => zip_operands((xs, a), (ys, c), axis, None, op.function()),
        (Data::Int32(a), Data::Int32(c)) => {
            zip_operands((xs, a), (ys, c), axis, None, op.function())
        }
        (Data::Int64(a), Data::Int64(c)) => {
            zip_operands((xs, a), (ys, c), axis, None, op.function())
        }
        (Data::Float32(a), Data::Float32(c)) => {
            zip_operands((xs, a), (ys, c), axis, None, op.function())
        }
        (Data::Float64(a), Data::Float64(c)) => {
            zip_operands((xs, a), (ys, c), axis, None, op.function())
        }
        _ => return Err(dtype_mismatch(x, y)),
    }?;
    Ok(Tensor::from_parts(shape, Data::Bool(out)))
}

/// Any dtype as bools (non-zero is true), as Paddle's logical kernels read them.
fn truth(t: &Tensor) -> Tensor {
    t.cast(fluidc_transpiler::VarKind::Bool)
        .unwrap_or_else(|_| t.clone())
}

fn logical(l: &OpReader, f: fn(bool, bool) -> bool) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    compute(move |s| {
        let (a, c) = (truth(&*s.tensor(&x)?), truth(&*s.tensor(&y)?));
        let (Some(av), Some(cv)) = (a.values::<bool>(), c.values::<bool>()) else {
            return Err(KernelError::Dtype(
                "logical ops need bool or numeric tensors".into(),
            ));
        };
        let (shape, v) = zip_operands((a.shape(), av), (c.shape(), cv), -1, None, f)?;
        s.set_tensor(&out, Tensor::from_parts(shape, bool::wrap(v)));
        Ok(())
    })
}

fn logical_not(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let a = truth(&*s.tensor(&x)?);
        let v: Buffer<bool> = a
            .values::<bool>()
            .unwrap_or_default()
            .iter()
            .map(|b| !b)
            .collect();
        s.set_tensor(
            &out,
            Tensor::from_parts(Shape::from_slice(a.shape()), Data::Bool(v)),
        );
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compares_broadcast_and_give_bools() {
        let x = Tensor::from_vec(&[3], vec![1i64, 5, 3]).expect("tensor");
        let y = Tensor::from_vec(&[1], vec![3i64]).expect("tensor");
        let out = compare_tensors(Cmp::Lt, &x, &y, -1).expect("ok");
        assert_eq!(out.values::<bool>(), Some(&[true, false, false][..]));
        let out = compare_tensors(Cmp::Ge, &x, &y, -1).expect("ok");
        assert_eq!(out.values::<bool>(), Some(&[false, true, true][..]));
    }
}
