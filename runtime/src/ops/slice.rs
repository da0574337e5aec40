//! `slice` and `slice_grad`: a box of a tensor (`[starts, ends)` along
//! `axes`, the other dims whole), as Paddle's `layers.slice` and
//! `Variable.__getitem__` build it. The dims come from the transpiler's
//! `slice_dims`, so build-time shapes and run-time shapes agree.
use fluidc_transpiler::ops::slice::slice_dims;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{with_data, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("slice", slice);
    r.add("slice_grad", slice_grad);
}

/// The box: where it starts along every dim, its dims, and `Out`'s dims
/// (without the `decrease_axis` ones).
struct Region {
    starts: Vec<usize>,
    lens: Vec<usize>,
    out_shape: Vec<i64>,
}

struct Attrs {
    axes: Vec<i64>,
    starts: Vec<i64>,
    ends: Vec<i64>,
    decrease: Vec<i64>,
}

impl Attrs {
    fn of(l: &OpReader) -> Result<Attrs, KernelError> {
        for t in [
            "StartsTensor",
            "EndsTensor",
            "StartsTensorList",
            "EndsTensorList",
        ] {
            if l.given(&[t]) {
                return Err(KernelError::Unsupported(format!(
                    "slice with a `{t}` input is not supported; set the starts and ends attributes"
                )));
            }
        }
        Ok(Attrs {
            axes: l.ints("axes")?.unwrap_or_default(),
            starts: l.ints("starts")?.unwrap_or_default(),
            ends: l.ints("ends")?.unwrap_or_default(),
            decrease: l.ints("decrease_axis")?.unwrap_or_default(),
        })
    }

    fn region(&self, shape: &[i64]) -> Result<Region, KernelError> {
        let lens = slice_dims(shape, &self.axes, &self.starts, &self.ends)
            .map_err(KernelError::Attribute)?;
        let rank = shape.len() as i64;
        let mut starts = vec![0usize; shape.len()];
        for (&a, &s) in self.axes.iter().zip(&self.starts) {
            let k = (if a < 0 { a + rank } else { a }) as usize;
            let d = shape[k];
            starts[k] = (if s < 0 { s + d } else { s }).clamp(0, d) as usize;
        }
        let out_shape = lens
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                !self
                    .decrease
                    .iter()
                    .any(|&a| (if a < 0 { a + rank } else { a }) == *i as i64)
            })
            .map(|(_, &d)| d)
            .collect();
        Ok(Region {
            starts,
            lens: lens.iter().map(|&d| d.max(0) as usize).collect(),
            out_shape,
        })
    }
}

/// Calls `run(offset, len)` for each contiguous run of the box inside a
/// row-major tensor of `shape`, in row-major order.
fn for_each_run(shape: &[i64], r: &Region, mut run: impl FnMut(usize, usize)) {
    let rank = shape.len();
    if rank == 0 {
        run(0, 1);
        return;
    }
    if r.lens.contains(&0) {
        return;
    }
    let mut strides = vec![1usize; rank];
    for d in (0..rank - 1).rev() {
        strides[d] = strides[d + 1] * shape[d + 1].max(0) as usize;
    }
    let last = rank - 1;
    let mut idx = vec![0usize; rank];
    loop {
        let base: usize = (0..last)
            .map(|d| (r.starts[d] + idx[d]) * strides[d])
            .sum::<usize>()
            + r.starts[last];
        run(base, r.lens[last]);
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            idx[d] += 1;
            if idx[d] < r.lens[d] {
                break;
            }
            idx[d] = 0;
        }
    }
}

fn slice(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Input")?, l.output("Out")?);
    let attrs = Attrs::of(l)?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let r = attrs.region(t.shape())?;
        let data = with_data!(t.data(), |v: T| {
            let n: usize = r.lens.iter().product();
            let mut out: Vec<T> =
                Vec::with_capacity(crate::tensor::alloc::check(&r.out_shape, T::KIND)?.min(n));
            for_each_run(t.shape(), &r, |at, len| {
                out.extend_from_slice(&v[at..at + len])
            });
            T::wrap(out.into())
        });
        let result = Tensor::new(&r.out_shape, data)?;
        drop(t);
        s.set_tensor(&out, result);
        Ok(())
    })
}

/// `slice_grad`: `Out@GRAD` written back into the box of a zero tensor
/// shaped like `Input`.
fn slice_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("Input")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("Input@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let attrs = Attrs::of(l)?;
    compute(move |s| {
        let (xt, dt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let r = attrs.region(xt.shape())?;
        let d = super::float::f64s(&dt, "slice_grad")?;
        if d.len() != r.lens.iter().product::<usize>() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit the slice {:?}",
                dt.shape(),
                r.out_shape
            )));
        }
        let mut grad = vec![0.0; xt.data().len()];
        let mut k = 0;
        for_each_run(xt.shape(), &r, |at, len| {
            grad[at..at + len].copy_from_slice(&d[k..k + len]);
            k += len;
        });
        let t = super::float::tensor(dt.dtype(), xt.shape(), grad)?;
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}
