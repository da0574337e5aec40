//! `arg_max` and `arg_min`: the index of the first largest (smallest)
//! value along `axis` (or of the whole tensor with `flatten`), as int64
//! (int32 with `dtype` 2), with the axis dropped or kept as 1. The dims
//! follow the transpiler's inference of the same op.
use super::float::{f64s, i64s, split_at_axis};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("arg_max", |l| arg(l, true));
    r.add("arg_min", |l| arg(l, false));
}

fn arg(l: &OpReader, max: bool) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let axis = l.int_or("axis", 0)?;
    let keep = l.bool("keepdims")?;
    let flatten = l.bool("flatten")?;
    let int32 = l.int("dtype")? == 2;
    let name = if max { "arg_max" } else { "arg_min" };
    compute(move |s| {
        let t = s.tensor(&x)?;
        let shape = t.shape().to_vec();
        // Integer tensors too, as 1.x's kernels (int64, int32, int16,
        // uint8): compared as f64, exact up to 2^53.
        let v = match f64s(&t, name) {
            Ok(v) => v,
            Err(_) => i64s(&t)?.iter().map(|&x| x as f64).collect(),
        };
        let (outer, n, inner, out_shape) = if flatten {
            let kept = if keep {
                vec![1; shape.len()]
            } else {
                Vec::new()
            };
            (1, v.len(), 1, kept)
        } else {
            let (outer, n, inner) = split_at_axis(&shape, axis)?;
            let a = if axis < 0 {
                axis + shape.len() as i64
            } else {
                axis
            } as usize;
            let mut kept = shape.clone();
            if keep {
                if let Some(d) = kept.get_mut(a) {
                    *d = 1;
                }
            } else if a < kept.len() {
                kept.remove(a);
            }
            (outer, n, inner, kept)
        };
        if n == 0 {
            return Err(KernelError::Shape(format!("{name} of an empty axis")));
        }
        let better = |a: f64, b: f64| if max { a > b } else { a < b };
        let mut idx = Vec::with_capacity(outer * inner);
        for o in 0..outer {
            for i in 0..inner {
                let at = |k: usize| v[o * n * inner + k * inner + i];
                let mut best = 0;
                for k in 1..n {
                    if better(at(k), at(best)) {
                        best = k;
                    }
                }
                idx.push(best as i64);
            }
        }
        let result = if int32 {
            Tensor::from_vec(
                &out_shape,
                idx.iter().map(|&k| k as i32).collect::<Vec<_>>(),
            )?
        } else {
            Tensor::from_vec(&out_shape, idx)?
        };
        drop(v);
        drop(t);
        s.set_tensor(&out, result);
        Ok(())
    })
}
