//! `all_reduce` and `broadcast` over the ranks of the session's group
//! (`crate::collective`); with no group, the identity.
use super::elementwise::{arith, Arith};
use crate::collective::{exchange, Reduce};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("all_reduce", all_reduce);
    r.add("broadcast", broadcast);
}

/// Paddle's `ReduceOp.SUM`, the one reduction `GradAllReduce` writes.
const REDUCE_SUM: i64 = 0;

fn all_reduce(l: &OpReader) -> Result<Exec, KernelError> {
    let reduce_type = l.int("reduce_type")?;
    if reduce_type != REDUCE_SUM {
        return Err(KernelError::Unsupported(format!(
            "all_reduce: reduce_type {reduce_type} is not supported; fluidc sums (reduce_type 0), \
             the reduction data-parallel training uses"
        )));
    }
    collective(l, Reduce::Sum(|a, b| arith(Arith::Add, a, b, -1)))
}

fn broadcast(l: &OpReader) -> Result<Exec, KernelError> {
    let root = l.int("root")?;
    let root = usize::try_from(root)
        .map_err(|_| KernelError::Attribute(format!("broadcast: root {root} is not a rank")))?;
    collective(l, Reduce::From(root))
}

/// `out = the collective of x over the ranks`.
fn collective(l: &OpReader, how: Reduce) -> Result<Exec, KernelError> {
    ring_zero(l)?;
    let (x, out) = (l.input("x")?, l.output("out")?);
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        let result = exchange(t, how)?;
        s.set_tensor(&out, result);
        Ok::<(), KernelError>(())
    })
}

/// The group is one ring, ring 0 (`fluidc distribute` writes one ring).
fn ring_zero(l: &OpReader) -> Result<(), KernelError> {
    match l.int_or("ring_id", 0)? {
        0 => Ok(()),
        ring => Err(KernelError::Attribute(format!(
            "{}: ring_id {ring}: fluidc's ranks form one ring, ring 0",
            l.op.ty
        ))),
    }
}
