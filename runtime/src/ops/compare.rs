//! Comparisons (bool out, broadcasting like elementwise ops) and logical ops.
use super::elementwise::dtype_mismatch;
use super::{compute, Exec, Registry};
use crate::load::OpLoader;
use crate::tensor::broadcast::broadcast;
use crate::tensor::{Data, Element, Tensor};

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

fn compare(l: &OpLoader, op: Cmp) -> Result<Exec, String> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let axis = l.int("axis", -1)?;
    compute(move |s| {
        let t = compare_tensors(op, &s.tensor(&x)?, &s.tensor(&y)?, axis)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

pub(crate) fn compare_tensors(
    op: Cmp,
    x: &Tensor,
    y: &Tensor,
    axis: i64,
) -> Result<Tensor, String> {
    let b = broadcast(x.shape(), y.shape(), axis)?;
    let out: std::sync::Arc<[bool]> = match (x.data(), y.data()) {
        (Data::Bool(a), Data::Bool(c)) => b.zip(a, c, op.function()),
        (Data::Int32(a), Data::Int32(c)) => b.zip(a, c, op.function()),
        (Data::Int64(a), Data::Int64(c)) => b.zip(a, c, op.function()),
        (Data::Float32(a), Data::Float32(c)) => b.zip(a, c, op.function()),
        (Data::Float64(a), Data::Float64(c)) => b.zip(a, c, op.function()),
        _ => return Err(dtype_mismatch(x, y)),
    };
    Ok(Tensor::from_parts(b.out_shape, Data::Bool(out)))
}

/// Any dtype as bools (non-zero is true), as Paddle's logical kernels read them.
fn truth(t: &Tensor) -> Tensor {
    t.cast(fluidc_transpiler::VarKind::Bool)
        .unwrap_or_else(|_| t.clone())
}

fn logical(l: &OpLoader, f: fn(bool, bool) -> bool) -> Result<Exec, String> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    compute(move |s| {
        let (a, c) = (truth(&s.tensor(&x)?), truth(&s.tensor(&y)?));
        let b = broadcast(a.shape(), c.shape(), -1)?;
        let (Some(av), Some(cv)) = (a.values::<bool>(), c.values::<bool>()) else {
            return Err("logical ops need bool or numeric tensors".into());
        };
        s.set_tensor(
            &out,
            Tensor::from_parts(b.out_shape.clone(), bool::wrap(b.zip(av, cv, f))),
        );
        Ok(())
    })
}

fn logical_not(l: &OpLoader) -> Result<Exec, String> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let a = truth(&s.tensor(&x)?);
        let v: std::sync::Arc<[bool]> = a
            .values::<bool>()
            .unwrap_or_default()
            .iter()
            .map(|b| !b)
            .collect();
        s.set_tensor(&out, Tensor::from_parts(a.shape().into(), Data::Bool(v)));
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
