//! Elementwise arithmetic with Paddle's broadcast rule, and `sum`.
//!
//! Both operands must have the same dtype, as Paddle's static-graph kernels
//! require; the error says which dtypes met, so the program can cast.
use super::{compute, Exec, Registry};
use crate::load::OpLoader;
use crate::scope::{VarRef, Vars};
use crate::tensor::broadcast::zip_operands;
use crate::tensor::num::{with_numeric_pair, Num};
use crate::tensor::{dtype_name, Element, Scalar, Tensor};

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

fn binary(l: &OpLoader, op: Arith) -> Result<Exec, String> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let axis = l.int("axis", -1)?;
    compute(move |s| {
        if let Some((a, b, rank)) = s.scalar_pair(&x, &y) {
            if let Some(v) = op.scalar(a, b) {
                s.set_scalar(&out, v, rank);
                return Ok(());
            }
        }
        binary_vars(s, op, (&x, &y, &out), axis)
    })
}

/// The general path of an elementwise kernel, out of line so that the
/// scalar path stays small.
#[inline(never)]
fn binary_vars(
    s: &mut Vars,
    op: Arith,
    (x, y, out): (&VarRef, &VarRef, &VarRef),
    axis: i64,
) -> Result<(), String> {
    let t = arith(op, &*s.tensor(x)?, &*s.tensor(y)?, axis)?;
    s.set_tensor(out, t);
    Ok(())
}

/// `x op y` elementwise, broadcasting by Paddle's `axis` rule.
pub(crate) fn arith(op: Arith, x: &Tensor, y: &Tensor, axis: i64) -> Result<Tensor, String> {
    let (shape, data) = with_numeric_pair!(
        x.data(),
        y.data(),
        |a, c: T| {
            if T::IS_INT && op.divides() && c.contains(&T::ZERO) {
                return Err("integer division by zero".to_string());
            }
            let (shape, out) =
                zip_operands((x.shape(), a), (y.shape(), c), axis, op.function::<T>())?;
            (shape, T::wrap(out))
        },
        return Err(dtype_mismatch(x, y))
    );
    Ok(Tensor::from_parts(shape, data))
}

pub(crate) fn dtype_mismatch(x: &Tensor, y: &Tensor) -> String {
    if x.dtype() == y.dtype() {
        format!("{} tensors are not supported here", dtype_name(x.dtype()))
    } else {
        format!(
            "X is {} but Y is {}; both must have one dtype (cast one of them)",
            dtype_name(x.dtype()),
            dtype_name(y.dtype())
        )
    }
}

/// `sum`: adds every tensor of the `X` list.
fn sum(l: &OpLoader) -> Result<Exec, String> {
    let (xs, out) = (l.inputs("X")?, l.output("Out")?);
    if xs.is_empty() {
        return Err("input `X` names no variable".into());
    }
    compute(move |s| {
        let mut acc = s.tensor(&xs[0])?.into_owned();
        for x in &xs[1..] {
            acc = arith(Arith::Add, &acc, &*s.tensor(x)?, -1)?;
        }
        s.set_tensor(&out, acc);
        Ok(())
    })
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
        assert!(arith(Arith::Div, &x, &zero, -1)
            .unwrap_err()
            .contains("division by zero"));
    }

    #[test]
    fn dtypes_must_agree() {
        let x = t(&[1], vec![1]);
        let y = Tensor::from_vec(&[1], vec![1.0f32]).expect("tensor");
        let err = arith(Arith::Add, &x, &y, -1).unwrap_err();
        assert!(err.contains("X is int64 but Y is float32"), "{err}");
    }
}
