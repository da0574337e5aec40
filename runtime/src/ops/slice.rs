//! `slice` and `slice_grad`: a box of a tensor (`[starts, ends)` along
//! `axes`, the other dims whole), as Paddle's `layers.slice` and
//! `Variable.__getitem__` build it. The dims come from the transpiler's
//! `slice_dims`, so build-time shapes and run-time shapes agree.
use fluidc_transpiler::ops::slice::{slice_dims, strided_len};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{with_data, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("slice", slice);
    r.add("slice_grad", slice_grad);
    r.add("strided_slice", strided_slice);
    r.add("strided_slice_grad", strided_slice_grad);
    r.add("temporal_shift", |l| temporal_shift(l, false));
    r.add("temporal_shift_grad", |l| temporal_shift(l, true));
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

/// `strided_slice`'s attributes (1.6's op; tensors for the starts, ends
/// or strides are refused).
struct StridedAttrs {
    axes: Vec<i64>,
    starts: Vec<i64>,
    ends: Vec<i64>,
    strides: Vec<i64>,
    flags: Vec<i64>,
    decrease: Vec<i64>,
}

impl StridedAttrs {
    fn of(l: &OpReader) -> Result<StridedAttrs, KernelError> {
        for t in [
            "StartsTensor",
            "EndsTensor",
            "StridesTensor",
            "StartsTensorList",
            "EndsTensorList",
            "StridesTensorList",
        ] {
            if l.given(&[t]) {
                return Err(KernelError::Unsupported(format!(
                    "strided_slice with a `{t}` input is not supported; set the starts, ends and strides attributes"
                )));
            }
        }
        let get = |n| -> Result<Vec<i64>, KernelError> { Ok(l.ints(n)?.unwrap_or_default()) };
        Ok(StridedAttrs {
            axes: get("axes")?,
            starts: get("starts")?,
            ends: get("ends")?,
            strides: get("strides")?,
            flags: get("infer_flags")?,
            decrease: get("decrease_axis")?,
        })
    }

    /// The flat offsets into a row-major tensor of `shape` of each output
    /// element, in order, and `Out`'s dims. Per axis, 1.x's kernel: the
    /// bounds counted from the end once and clamped; a negative stride
    /// takes `end + 1, end + 1 + |stride|, ...` below `start + 1` and
    /// reverses them (aligned to the end, where numpy aligns to the
    /// start).
    fn offsets(&self, shape: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
        let n = self.axes.len();
        if [self.starts.len(), self.ends.len(), self.strides.len()] != [n; 3] {
            return Err(KernelError::Attribute(format!(
                "strided_slice: axes {:?}, starts {:?}, ends {:?} and strides {:?} must have one entry each",
                self.axes, self.starts, self.ends, self.strides
            )));
        }
        let rank = shape.len();
        let mut picks: Vec<Vec<usize>> = shape
            .iter()
            .map(|&d| (0..d.max(0) as usize).collect())
            .collect();
        for i in 0..n {
            let a = self.axes[i];
            let k = usize::try_from(a)
                .ok()
                .filter(|&k| k < rank)
                .ok_or_else(|| {
                    KernelError::Attribute(format!(
                        "strided_slice: axis {a} is out of range for rank {rank}"
                    ))
                })?;
            let size = shape[k];
            let (start, end, stride) = (self.starts[i], self.ends[i], self.strides[i]);
            let norm = |v: i64| if v < 0 { v + size } else { v };
            let flag = self.flags.get(i).copied().unwrap_or(1);
            if flag == -1 && start == -1 && end == 0 && self.decrease.contains(&a) {
                picks[k] = vec![usize::try_from(norm(start)).map_err(|_| {
                    KernelError::Invalid(format!(
                        "strided_slice: index {start} is outside a dim of {size}"
                    ))
                })?];
                continue;
            }
            let len = strided_len(size, start, end, stride).map_err(KernelError::Attribute)?;
            let (mut s, mut e) = (norm(start), norm(end));
            let step = stride.unsigned_abs() as usize;
            let clamp = |v: i64| v.clamp(0, size) as usize;
            let idx: Vec<usize> = if stride < 0 {
                if s > e {
                    s += 1;
                    e += 1;
                }
                let mut v: Vec<usize> = (clamp(e)..clamp(s)).step_by(step).collect();
                v.reverse();
                v
            } else {
                (clamp(s)..clamp(e)).step_by(step).collect()
            };
            if idx.len() as i64 != len {
                return Err(KernelError::Invalid(format!(
                    "strided_slice: start {start}, end {end} and stride {stride} reach outside a dim of {size} (Paddle 1.x read past its input)"
                )));
            }
            picks[k] = idx;
        }
        let mut strides = vec![1usize; rank];
        for d in (0..rank.saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * shape[d + 1].max(0) as usize;
        }
        let mut offs = vec![0usize];
        for (d, p) in picks.iter().enumerate() {
            let st = strides[d];
            offs = offs
                .iter()
                .flat_map(|&o| p.iter().map(move |&i| o + i * st))
                .collect();
        }
        let mut out: Vec<i64> = Vec::with_capacity(rank);
        for (d, p) in picks.iter().enumerate() {
            if self.decrease.contains(&(d as i64)) {
                if p.len() != 1 {
                    return Err(KernelError::Shape("decrease dim should be 1".into()));
                }
            } else {
                out.push(p.len() as i64);
            }
        }
        if out.is_empty() && !self.decrease.is_empty() {
            out.push(1);
        }
        Ok((offs, out))
    }
}

fn strided_slice(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Input")?, l.output("Out")?);
    let attrs = StridedAttrs::of(l)?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let (offs, shape) = attrs.offsets(t.shape())?;
        let data = with_data!(t.data(), |v: T| {
            let picked: Vec<T> = offs.iter().map(|&o| v[o]).collect();
            T::wrap(picked.into())
        });
        let result = Tensor::new(&shape, data)?;
        drop(t);
        s.set_tensor(&out, result);
        Ok(())
    })
}

/// `strided_slice_grad`: `Out@GRAD` written back at the elements the
/// slice took, zeros elsewhere.
fn strided_slice_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("Input")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("Input@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let attrs = StridedAttrs::of(l)?;
    compute(move |s| {
        let (xt, dt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let (offs, shape) = attrs.offsets(xt.shape())?;
        let d = super::float::f64s(&dt, "strided_slice_grad")?;
        if d.len() != offs.len() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit the slice {shape:?}",
                dt.shape()
            )));
        }
        let mut grad = vec![0.0; xt.data().len()];
        for (&o, &v) in offs.iter().zip(d.iter()) {
            grad[o] = v;
        }
        let t = super::float::tensor(dt.dtype(), xt.shape(), grad)?;
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `temporal_shift` (1.x's kernel): in each clip of `seg_num` frames, the
/// first `C * shift_ratio` channels take the previous frame's values, the
/// next ones up to `2 C shift_ratio` the next frame's (zeros past the
/// clip's ends), the rest their own. Its grad moves `Out@GRAD` back.
fn temporal_shift(l: &OpReader, grad: bool) -> Result<Exec, KernelError> {
    let (x, out) = if grad {
        (l.input("Out@GRAD")?, l.opt_output("X@GRAD")?)
    } else {
        (l.input("X")?, Some(l.output("Out")?))
    };
    let Some(out) = out else {
        return compute(|_| Ok(()));
    };
    let t = l.int("seg_num")?;
    let ratio = l.float("shift_ratio")? as f32;
    match l.string("data_format")?.unwrap_or("NCHW") {
        "NCHW" | "AnyLayout" => {}
        other => {
            return Err(KernelError::Unsupported(format!(
                "temporal_shift supports the NCHW layout only, not {other}"
            )))
        }
    }
    let t = usize::try_from(t).ok().filter(|&t| t > 0).ok_or_else(|| {
        KernelError::Attribute(format!("seg_num is {t}; it must be greater than 0"))
    })?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let &[nt, c, h, w] = xt.shape() else {
            return Err(KernelError::Shape(format!(
                "temporal_shift: X must be [N*T, C, H, W], it is {:?}",
                xt.shape()
            )));
        };
        let [nt, c, h, w] = [nt, c, h, w].map(|d| d.max(0) as usize);
        if nt % t != 0 {
            return Err(KernelError::Shape(format!(
                "temporal_shift: the first dim {nt} of X is not a multiple of seg_num {t}"
            )));
        }
        // 1.x's int(c * shift_ratio) and int(c * 2 * shift_ratio) in float.
        let c1 = (c as f32 * ratio) as usize;
        let c2 = ((c * 2) as f32 * ratio) as usize;
        let (hw, chw) = (h * w, c * h * w);
        let v = super::float::f64s(&xt, "temporal_shift")?;
        // The element `Out[i]` is read from (none past a clip's ends).
        let source = |i: usize| {
            let (frame, ch) = ((i / chw) % t, (i % chw) / hw);
            let src = match ch {
                ch if ch < c1 => frame.checked_sub(1),
                ch if ch < c2 => Some(frame + 1).filter(|&f| f < t),
                _ => Some(frame),
            };
            src.map(|src| i - frame * chw + src * chw)
        };
        let mut o = vec![0.0; v.len()];
        for i in 0..v.len() {
            if let Some(j) = source(i) {
                if grad {
                    o[j] = v[i];
                } else {
                    o[i] = v[j];
                }
            }
        }
        let r = super::float::tensor(xt.dtype(), xt.shape(), o)?;
        drop(v);
        drop(xt);
        s.set_tensor(&out, r);
        Ok(())
    })
}
