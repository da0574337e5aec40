//! Tensor manipulation: reshape2, transpose2, concat, gather, stack,
//! expand, flatten2, argsort, reverse, and their gradients.
//!
//! `reshape2` and its gradient share the input's buffer (a reshape moves no
//! data). `XShape` records the input's dims as Paddle does: a tensor of
//! dims `[0, ...X]`, which has no elements.
use fluidc_transpiler::ops::manip::{
    permutation, reshape_dims, split_sizes, squeeze_dims, unsqueeze_dims,
};

use super::float::{inputs_by_position, outputs_by_position};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::{with_data, Element, Tensor};
use crate::value::Value;
use fluidc_transpiler::VarKind;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("reshape2", reshape2);
    r.add("reshape2_grad", reshape2_grad);
    r.add("squeeze2", |l| squeezed(l, squeeze_dims));
    r.add("unsqueeze2", |l| squeezed(l, unsqueeze_dims));
    // The gradients only put the dims back, from `XShape`.
    r.add("squeeze2_grad", reshape2_grad);
    r.add("unsqueeze2_grad", reshape2_grad);
    r.add("transpose2", transpose2);
    r.add("transpose2_grad", transpose2_grad);
    r.add("concat", concat);
    r.add("split", split);
    r.add("concat_grad", concat_grad);
    r.add("stack", stack);
    r.add("stack_grad", stack_grad);
    r.add("unstack", unstack);
    r.add("unstack_grad", unstack_grad);
    r.add("expand", expand);
    r.add("expand_grad", expand_grad);
    r.add("expand_as", expand_as);
    r.add("expand_as_grad", expand_as_grad);
    r.add("flatten2", flatten2);
    r.add("flatten2_grad", reshape2_grad);
    r.add("gather", gather);
    r.add("argsort", argsort);
    r.add("argsort_grad", argsort_grad);
    r.add("reverse", reverse);
    r.add("tensor_array_to_tensor", tensor_array_to_tensor);
    r.add("tensor_array_to_tensor_grad", tensor_array_to_tensor_grad);
    r.add("size", size);
    r.add("where_index", where_index);
    r.add("unique", unique);
    r.add("unique_with_counts", unique);
    r.add("gather_grad", gather_grad);
    r.add("scatter", scatter);
    r.add("scatter_grad", scatter_grad);
    r.add("gather_nd", gather_nd);
    r.add("gather_nd_grad", gather_nd_grad);
    r.add("scatter_nd_add", scatter_nd_add);
    r.add("scatter_nd_add_grad", scatter_nd_add_grad);
    r.add("multiplex", multiplex);
    r.add("multiplex_grad", multiplex_grad);
    r.add("pad", pad);
    r.add("pad_grad", pad_grad);
    r.add("crop", crop);
    r.add("pixel_shuffle", |l| {
        permuting(l, "upscale_factor", pixel_shuffle_source)
    });
    r.add("pixel_shuffle_grad", |l| {
        permuting_grad(
            l,
            "upscale_factor",
            pixel_shuffle_source,
            pixel_shuffle_back,
        )
    });
    r.add("shuffle_channel", |l| {
        permuting(l, "group", shuffle_channel_source)
    });
    r.add("shuffle_channel_grad", shuffle_channel_grad);
    r.add("space_to_depth", |l| {
        permuting(l, "blocksize", space_to_depth_source)
    });
    r.add("space_to_depth_grad", |l| {
        permuting_grad(l, "blocksize", space_to_depth_source, same_back)
    });
    r.add("crop_grad", crop_grad);
    r.add("pad2d", pad2d);
    r.add("pad2d_grad", pad2d_grad);
    r.add("pad_constant_like", pad_constant_like);
    r.add("pad_constant_like_grad", pad_constant_like_grad);
}

/// What `gather` takes along its axis: `X` seen as `[outer, n, inner]`
/// and the checked positions.
struct Gather {
    outer: usize,
    n: usize,
    inner: usize,
    positions: Vec<usize>,
    out_shape: Vec<i64>,
}

impl Gather {
    fn new(x: &[i64], index: &Tensor, axis: i64) -> Result<Gather, KernelError> {
        let rank = x.len();
        let a = usize::try_from(if axis < 0 { axis + rank as i64 } else { axis })
            .ok()
            .filter(|&a| a < rank)
            .ok_or_else(|| KernelError::Invalid(format!("gather axis {axis} for rank {rank}")))?;
        let (outer, inner) = around(x, a);
        let n = x[a].max(0) as usize;
        let positions = super::float::i64s(index)?
            .iter()
            .map(|&i| {
                usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                    KernelError::Invalid(format!(
                        "gather index {i} is out of range for dim {a} of size {n}"
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut out_shape = x.to_vec();
        match index.shape() {
            [] => {
                out_shape.remove(a);
            }
            [_] | [_, 1] => out_shape[a] = positions.len() as i64,
            more => {
                return Err(KernelError::Shape(format!(
                    "gather Index must be 1-D or [N, 1], it is {more:?}"
                )))
            }
        }
        Ok(Gather {
            outer,
            n,
            inner,
            positions,
            out_shape,
        })
    }
}

/// `gather`: the slices of `X` at `Index` along `axis` (Paddle's `Axis`
/// input tensor is refused when the op loads).
fn gather(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, index, out) = (l.input("X")?, l.input("Index")?, l.output("Out")?);
    if l.given(&["Axis"]) {
        return Err(KernelError::Unsupported(
            "gather with an `Axis` tensor is not supported; set the `axis` attribute".into(),
        ));
    }
    let axis = l.int("axis")?;
    compute(move |s| {
        let (xt, it) = (s.tensor(&x)?, s.tensor(&index)?);
        let g = Gather::new(xt.shape(), &it, axis)?;
        let data = with_data!(xt.data(), |v: T| {
            let mut out: Vec<T> =
                Vec::with_capacity(crate::tensor::alloc::check(&g.out_shape, T::KIND)?);
            for o in 0..g.outer {
                for &p in &g.positions {
                    let at = (o * g.n + p) * g.inner;
                    out.extend_from_slice(&v[at..at + g.inner]);
                }
            }
            T::wrap(out.into())
        });
        let t = Tensor::new(&g.out_shape, data)?;
        drop((xt, it));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// The rows of a `[n, inner...]` tensor that `scatter`'s `Ids` name, and
/// the elements per row; `updates` must hold one row per id.
fn scatter_rows(
    x: &[i64],
    ids: &Tensor,
    updates: &[i64],
) -> Result<(Vec<usize>, usize), KernelError> {
    let Some((&n, rest)) = x.split_first() else {
        return Err(KernelError::Shape(
            "scatter X must have a rank of at least 1".into(),
        ));
    };
    if ids.shape().len() != 1 {
        return Err(KernelError::Shape(format!(
            "scatter Ids must be 1-D, it is {:?}",
            ids.shape()
        )));
    }
    let n = n.max(0) as usize;
    let rows = super::float::i64s(ids)?
        .iter()
        .map(|&i| {
            usize::try_from(i).ok().filter(|&i| i < n).ok_or_else(|| {
                KernelError::Invalid(format!("scatter id {i} is out of range for {n} rows"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if updates.len() != x.len() || updates[1..] != *rest || updates[0] as usize != rows.len() {
        return Err(KernelError::Shape(format!(
            "scatter Updates {updates:?} does not fit {} ids into X {x:?}",
            rows.len()
        )));
    }
    Ok((rows, rest.iter().product::<i64>().max(0) as usize))
}

/// `a + b` in `T` (wrapping for integers, `or` for bools).
fn added<T: Element>(a: T, b: T) -> T {
    match T::KIND {
        VarKind::Fp32 | VarKind::Fp64 => T::from_f64(a.to_f64() + b.to_f64()),
        VarKind::Bool => T::from_bool(a.is_nonzero() || b.is_nonzero()),
        _ => T::from_i64(a.to_i64().wrapping_add(b.to_i64())),
    }
}

/// `scatter` (1.x's): `X` with the rows at `Ids` set to the rows of
/// `Updates`, the last one winning for a repeated id (`overwrite`), or to
/// the sum of the rows given them (not `overwrite`).
fn scatter(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, ids, updates) = (l.input("X")?, l.input("Ids")?, l.input("Updates")?);
    let out = l.output("Out")?;
    let overwrite = l.bool_or("overwrite", true)?;
    compute(move |s| {
        let (xt, it, ut) = (s.tensor(&x)?, s.tensor(&ids)?, s.tensor(&updates)?);
        let (rows, inner) = scatter_rows(xt.shape(), &it, ut.shape())?;
        if ut.dtype() != xt.dtype() {
            return Err(KernelError::Dtype(format!(
                "scatter Updates is {}, X is {}",
                crate::tensor::dtype_name(ut.dtype()),
                crate::tensor::dtype_name(xt.dtype())
            )));
        }
        let data = with_data!(xt.data(), |v: T| {
            let u = ut.values::<T>().unwrap_or_default();
            let mut o: Vec<T> = v.to_vec();
            if !overwrite {
                for &r in &rows {
                    o[r * inner..(r + 1) * inner].fill(T::ZERO);
                }
            }
            for (k, &r) in rows.iter().enumerate() {
                let src = &u[k * inner..(k + 1) * inner];
                for (dst, &v) in o[r * inner..(r + 1) * inner].iter_mut().zip(src) {
                    *dst = if overwrite { v } else { added(*dst, v) };
                }
            }
            T::wrap(o.into())
        });
        let t = Tensor::new(xt.shape(), data)?;
        drop((xt, it, ut));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `scatter_grad` as 1.x's CPU kernel made it: `X@GRAD` is `Out@GRAD`
/// whole (1.x did not zero the scattered rows; Paddle 3.3.1 does), and
/// `Updates@GRAD` the rows of `Out@GRAD` at `Ids` (each repeated id gets
/// its row).
fn scatter_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, updates, dout) = (l.input("Ids")?, l.input("Updates")?, l.input("Out@GRAD")?);
    let (dx, dupdates) = (l.opt_output("X@GRAD")?, l.opt_output("Updates@GRAD")?);
    compute(move |s| {
        let (dt, it, ut) = (
            s.tensor(&dout)?.into_owned(),
            s.tensor(&ids)?,
            s.tensor(&updates)?,
        );
        let du = match &dupdates {
            Some(_) => {
                let (rows, inner) = scatter_rows(dt.shape(), &it, ut.shape())?;
                let data = with_data!(dt.data(), |v: T| {
                    let mut o: Vec<T> = Vec::with_capacity(rows.len() * inner);
                    for &r in &rows {
                        o.extend_from_slice(&v[r * inner..(r + 1) * inner]);
                    }
                    T::wrap(o.into())
                });
                Some(Tensor::new(ut.shape(), data)?)
            }
            None => None,
        };
        drop((it, ut));
        super::float::set_grads(s, vec![(&dx, Some(dt)), (&dupdates, du)]);
        Ok(())
    })
}

/// Where each row of `gather_nd`'s `Index` starts in `X` (row-major
/// offsets), and the elements each one takes.
fn nd_offsets(x: &[i64], index: &Tensor) -> Result<(Vec<usize>, usize, Vec<i64>), KernelError> {
    let Some((&depth, lead)) = index.shape().split_last() else {
        return Err(KernelError::Shape(
            "gather_nd Index must have a rank of at least 1".into(),
        ));
    };
    let depth = depth.max(0) as usize;
    if depth > x.len() {
        return Err(KernelError::Shape(format!(
            "gather_nd Index rows of {depth} exceed the rank of X {x:?}"
        )));
    }
    let dims: Vec<usize> = x.iter().map(|&d| d.max(0) as usize).collect();
    let inner: usize = dims[depth..].iter().product();
    let idx = super::float::i64s(index)?;
    let count = lead.iter().product::<i64>().max(0) as usize;
    let mut offsets = Vec::with_capacity(count);
    for r in 0..count {
        let mut at = 0usize;
        for (j, &i) in idx[r * depth..(r + 1) * depth].iter().enumerate() {
            let i = usize::try_from(i)
                .ok()
                .filter(|&i| i < dims[j])
                .ok_or_else(|| {
                    KernelError::Invalid(format!(
                        "gather_nd index {i} is out of range for dim {j} of X {x:?}"
                    ))
                })?;
            at = at * dims[j] + i;
        }
        offsets.push(at * inner);
    }
    let mut out_shape = lead.to_vec();
    out_shape.extend_from_slice(&x[depth..]);
    Ok((offsets, inner, out_shape))
}

/// `gather_nd`: for each row of `Index` (its last dim), the slice of `X`
/// it addresses.
fn gather_nd(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, index, out) = (l.input("X")?, l.input("Index")?, l.output("Out")?);
    compute(move |s| {
        let (xt, it) = (s.tensor(&x)?, s.tensor(&index)?);
        let (offsets, inner, shape) = nd_offsets(xt.shape(), &it)?;
        let data = with_data!(xt.data(), |v: T| {
            let mut o: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
            for &at in &offsets {
                o.extend_from_slice(&v[at..at + inner]);
            }
            T::wrap(o.into())
        });
        let t = Tensor::new(&shape, data)?;
        drop((xt, it));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `gather_nd_grad`: `Out@GRAD`'s slices added back where they were taken
/// from, in zeros shaped as `X`.
fn gather_nd_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, index, dout) = (l.input("X")?, l.input("Index")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, it, dt) = (s.tensor(&x)?, s.tensor(&index)?, s.tensor(&dout)?);
        let (offsets, inner, shape) = nd_offsets(xt.shape(), &it)?;
        if dt.shape() != shape.as_slice() {
            return Err(KernelError::Shape(format!(
                "gather_nd Out@GRAD {:?} does not fit its output {shape:?}",
                dt.shape()
            )));
        }
        let d = super::float::f64s(&dt, "gather_nd_grad")?;
        let mut grad = vec![0.0; xt.numel()];
        for (k, &at) in offsets.iter().enumerate() {
            for (g, v) in grad[at..at + inner]
                .iter_mut()
                .zip(&d[k * inner..(k + 1) * inner])
            {
                *g += v;
            }
        }
        let t = super::float::tensor(dt.dtype(), xt.shape(), grad)?;
        drop((xt, it, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `X` with each slice of `Updates` added, in order, to the slice of `X`
/// its row of `Index` addresses (1.6's `ScatterNdAdd`).
fn scatter_nd_added<T: Copy + std::ops::Add<Output = T>>(
    x: &[T],
    updates: &[T],
    offsets: &[usize],
    inner: usize,
) -> Vec<T> {
    let mut out = x.to_vec();
    for (k, &at) in offsets.iter().enumerate() {
        for (o, &u) in out[at..at + inner]
            .iter_mut()
            .zip(&updates[k * inner..(k + 1) * inner])
        {
            *o = *o + u;
        }
    }
    out
}

/// `scatter_nd_add`: `X` plus `Updates` at the slices `Index` addresses
/// (a slice addressed twice gets both), float or integer.
fn scatter_nd_add(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, index, updates, out) = (
        l.input("X")?,
        l.input("Index")?,
        l.input("Updates")?,
        l.output("Out")?,
    );
    compute(move |s| {
        let (xt, it, ut) = (s.tensor(&x)?, s.tensor(&index)?, s.tensor(&updates)?);
        let (offsets, inner, shape) = nd_offsets(xt.shape(), &it)?;
        if ut.shape() != shape.as_slice() {
            return Err(KernelError::Shape(format!(
                "scatter_nd_add: Updates {:?} must be {shape:?} (Index's dims but the last, then X's after the indexed ones)",
                ut.shape()
            )));
        }
        let shape = xt.shape().to_vec();
        let r = if let (Some(a), Some(b)) = (xt.values::<f32>(), ut.values::<f32>()) {
            Tensor::from_vec(&shape, scatter_nd_added(a, b, &offsets, inner))?
        } else if let (Some(a), Some(b)) = (xt.values::<f64>(), ut.values::<f64>()) {
            Tensor::from_vec(&shape, scatter_nd_added(a, b, &offsets, inner))?
        } else if let (Some(a), Some(b)) = (xt.values::<i64>(), ut.values::<i64>()) {
            Tensor::from_vec(&shape, scatter_nd_added(a, b, &offsets, inner))?
        } else if let (Some(a), Some(b)) = (xt.values::<i32>(), ut.values::<i32>()) {
            Tensor::from_vec(&shape, scatter_nd_added(a, b, &offsets, inner))?
        } else {
            return Err(KernelError::Dtype(format!(
                "scatter_nd_add: X ({}) and Updates ({}) must be one of float32, float64, int32, int64",
                crate::tensor::dtype_name(xt.dtype()),
                crate::tensor::dtype_name(ut.dtype())
            )));
        };
        drop((xt, it, ut));
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `scatter_nd_add_grad`: `X@GRAD` is `Out@GRAD`, `Updates@GRAD` the
/// slices of `Out@GRAD` that `Index` addresses (a `gather_nd`).
fn scatter_nd_add_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (index, dout) = (l.input("Index")?, l.input("Out@GRAD")?);
    let (dx, dupdates) = (l.opt_output("X@GRAD")?, l.opt_output("Updates@GRAD")?);
    compute(move |s| {
        let (it, dt) = (s.tensor(&index)?, s.tensor(&dout)?);
        let du = match &dupdates {
            Some(_) => {
                let (offsets, inner, shape) = nd_offsets(dt.shape(), &it)?;
                let data = with_data!(dt.data(), |v: T| {
                    let mut o: Vec<T> = Vec::with_capacity(offsets.len() * inner);
                    for &at in &offsets {
                        o.extend_from_slice(&v[at..at + inner]);
                    }
                    T::wrap(o.into())
                });
                Some(Tensor::new(&shape, data)?)
            }
            None => None,
        };
        let dxt = dx.as_ref().map(|_| (*dt).clone());
        drop((it, dt));
        super::float::set_grads(s, vec![(&dx, dxt), (&dupdates, du)]);
        Ok(())
    })
}

/// For `multiplex`: which input each row comes from (checked against the
/// `n` inputs of `rows` rows each), and the elements per row.
fn multiplex_rows(
    ids: &Tensor,
    n: usize,
    shape: &[i64],
) -> Result<(Vec<usize>, usize), KernelError> {
    let rows = shape.first().copied().unwrap_or(0).max(0) as usize;
    let picks = super::float::i64s(ids)?
        .iter()
        .map(|&k| {
            usize::try_from(k).ok().filter(|&k| k < n).ok_or_else(|| {
                KernelError::Invalid(format!("multiplex id {k} is out of range for {n} inputs"))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if picks.len() != rows {
        return Err(KernelError::Shape(format!(
            "multiplex Ids {:?} does not give one input for each of the {rows} rows",
            ids.shape()
        )));
    }
    let inner = shape.iter().skip(1).product::<i64>().max(0) as usize;
    Ok((picks, inner))
}

/// `multiplex`: row `i` of `Out` is row `i` of input `Ids[i]`.
fn multiplex(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, ids, out) = (l.inputs("X")?, l.input("Ids")?, l.output("Out")?);
    compute(move |s| {
        let ts: Vec<Tensor> = xs
            .iter()
            .map(|x| s.tensor(x).map(|t| t.into_owned()))
            .collect::<Result<_, _>>()?;
        let Some(first) = ts.first() else {
            return Err(KernelError::MissingInput("multiplex has no inputs".into()));
        };
        if let Some(t) = ts
            .iter()
            .find(|t| t.shape() != first.shape() || t.dtype() != first.dtype())
        {
            return Err(KernelError::Shape(format!(
                "multiplex: {} {:?} does not fit {} {:?}; the inputs must have one shape and dtype",
                crate::tensor::dtype_name(t.dtype()),
                t.shape(),
                crate::tensor::dtype_name(first.dtype()),
                first.shape()
            )));
        }
        let (picks, inner) = multiplex_rows(&*s.tensor(&ids)?, ts.len(), first.shape())?;
        let data = with_data!(first.data(), |_v: T| {
            let mut o: Vec<T> = Vec::with_capacity(first.numel());
            for (i, &k) in picks.iter().enumerate() {
                let v = ts[k].values::<T>().unwrap_or_default();
                o.extend_from_slice(&v[i * inner..(i + 1) * inner]);
            }
            T::wrap(o.into())
        });
        let t = Tensor::new(first.shape(), data)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `multiplex_grad`: each input's gradient is zeros but for the rows it
/// gave `Out`, which get those rows of `Out@GRAD`.
fn multiplex_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, dout) = (l.input("Ids")?, l.input("Out@GRAD")?);
    let dxs = outputs_by_position(l, "X@GRAD")?;
    compute(move |s| {
        let dt = s.tensor(&dout)?.into_owned();
        let (picks, inner) = multiplex_rows(&*s.tensor(&ids)?, dxs.len(), dt.shape())?;
        let d = super::float::f64s(&dt, "multiplex_grad")?;
        for (k, dx) in dxs.iter().enumerate() {
            let Some(dx) = dx else { continue };
            let mut g = vec![0.0; d.len()];
            for (i, _) in picks.iter().enumerate().filter(|(_, &p)| p == k) {
                g[i * inner..(i + 1) * inner].copy_from_slice(&d[i * inner..(i + 1) * inner]);
            }
            s.set_tensor(dx, super::float::tensor(dt.dtype(), dt.shape(), g)?);
        }
        Ok(())
    })
}

/// `gather_grad`: `Out@GRAD` put back at the gathered positions of a zero
/// tensor shaped like `X`. A position gathered twice along axis 0 keeps
/// the last row's gradient when the op says `overwrite` (1.x's CPU kernel,
/// `ScatterAssign`: 1.0-1.6 always, 1.7+ by default); otherwise, and
/// along another axis, it gets their sum (Paddle 3.3.1's, which has no
/// `overwrite` attribute: a program without it accumulates).
fn gather_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, index, dout) = (l.input("X")?, l.input("Index")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    if l.given(&["Axis"]) {
        return Err(KernelError::Unsupported(
            "gather_grad with an `Axis` tensor is not supported".into(),
        ));
    }
    let axis = l.int("axis")?;
    let overwrite = l.bool_or("overwrite", false)? && axis == 0;
    compute(move |s| {
        let (xt, it, dt) = (s.tensor(&x)?, s.tensor(&index)?, s.tensor(&dout)?);
        let g = Gather::new(xt.shape(), &it, axis)?;
        let d = super::float::f64s(&dt, "gather_grad")?;
        if d.len() != g.outer * g.positions.len() * g.inner {
            return Err(KernelError::Shape(format!(
                "Out@GRAD of shape {:?} does not fit gather's output {:?}",
                dt.shape(),
                g.out_shape
            )));
        }
        let mut grad = vec![0.0; g.outer * g.n * g.inner];
        let mut k = 0;
        for o in 0..g.outer {
            for &p in &g.positions {
                let at = (o * g.n + p) * g.inner;
                for (slot, v) in grad[at..at + g.inner].iter_mut().zip(&d[k..k + g.inner]) {
                    *slot = if overwrite { *v } else { *slot + v };
                }
                k += g.inner;
            }
        }
        let t = super::float::tensor(dt.dtype(), xt.shape(), grad)?;
        drop((xt, it, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `expand_as`'s repeat counts: each dim of `target` over `X`'s, which
/// must divide it.
fn times_to(x: &[i64], target: &[i64]) -> Result<Vec<i64>, KernelError> {
    if x.len() != target.len() || x.iter().zip(target).any(|(&a, &b)| a <= 0 || b % a != 0) {
        return Err(KernelError::Shape(format!(
            "expand_as: X {x:?} does not tile into target_tensor {target:?}"
        )));
    }
    Ok(x.iter().zip(target).map(|(&a, &b)| b / a).collect())
}

/// `expand_as` (1.x): `X` tiled to the dims of `target_tensor`.
fn expand_as(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, target, out) = (l.input("X")?, l.input("target_tensor")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&x)?;
        let times = times_to(t.shape(), s.tensor(&target)?.shape())?;
        let (map, shape) = tiled(t.shape(), &times)?;
        let data = with_data!(t.data(), |v: T| {
            let out: Vec<T> = map.iter().map(|&i| v[i]).collect();
            T::wrap(out.into())
        });
        let r = Tensor::new(&shape, data)?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `expand_as_grad`: each element of `X` gets the sum of its copies'
/// `Out@GRAD`.
fn expand_as_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, target, dout) = (
        l.input("X")?,
        l.input("target_tensor")?,
        l.input("Out@GRAD")?,
    );
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (t, d) = (s.tensor(&x)?, s.tensor(&dout)?);
        let times = times_to(t.shape(), s.tensor(&target)?.shape())?;
        let (map, shape) = tiled(t.shape(), &times)?;
        if d.shape() != shape.as_slice() {
            return Err(KernelError::Shape(format!(
                "expand_as_grad: Out@GRAD {:?} is not X {:?} tiled to {shape:?}",
                d.shape(),
                t.shape()
            )));
        }
        let dv = super::float::f64s(&d, "expand_as_grad")?;
        let mut g = vec![0.0; t.numel()];
        for (&i, &v) in map.iter().zip(dv.iter()) {
            g[i] += v;
        }
        let r = super::float::tensor(d.dtype(), t.shape(), g)?;
        drop(dv);
        drop((t, d));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// The empty tensor `[0, ...dims]` of `t`'s dtype that Paddle writes to `XShape`.
fn xshape_of(t: &Tensor) -> Result<Tensor, KernelError> {
    let mut dims = vec![0];
    dims.extend_from_slice(t.shape());
    Tensor::zeros(t.dtype(), &dims)
}

/// `XShape`'s dims without the leading 0: the forward input's dims.
fn dims_from_xshape(s: &Vars, r: &VarRef) -> Result<Vec<i64>, KernelError> {
    let t = s.tensor(r)?;
    Ok(t.shape().get(1..).unwrap_or_default().to_vec())
}

fn reshape2(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let xshape = l.opt_output("XShape")?;
    let shape_tensor = l.opt_input("Shape")?;
    let shape_list = l.inputs("ShapeTensor").unwrap_or_default();
    let shape = l.ints("shape")?.unwrap_or_default();
    compute(move |s| {
        let shape = super::fill::shape_of(s, &shape_tensor, &shape_list, &shape)?;
        let dims = reshape_dims(s.tensor(&x)?.shape(), &shape).map_err(KernelError::Shape)?;
        set_reshaped(s, &x, &dims, &out, &xshape)
    })
}

/// `Out` = `X` in `dims` (no data moves), and `XShape` as Paddle writes it.
fn set_reshaped(
    s: &mut Vars,
    x: &VarRef,
    dims: &[i64],
    out: &VarRef,
    xshape: &Option<VarRef>,
) -> Result<(), KernelError> {
    let t = s.tensor(x)?;
    let r = t.reshaped(dims)?;
    let xs = xshape.as_ref().map(|_| xshape_of(&t)).transpose()?;
    drop(t);
    s.set_tensor(out, r);
    super::float::set_grads(s, vec![(xshape, xs)]);
    Ok(())
}

/// `squeeze2`/`unsqueeze2`: `X` in the dims `f` gives for `axes` (no data
/// moves), and `XShape` as `reshape2` writes it.
fn squeezed(
    l: &OpReader,
    f: fluidc_transpiler::ops::manip::SqueezeFn,
) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let xshape = l.opt_output("XShape")?;
    if l.given(&["AxesTensor", "AxesTensorList"]) {
        return Err(KernelError::Unsupported(
            "unsqueeze with an axes tensor is not supported; set the axes attribute".into(),
        ));
    }
    let axes = l.ints("axes")?.unwrap_or_default();
    compute(move |s| {
        let dims = f(s.tensor(&x)?.shape(), &axes).map_err(KernelError::Shape)?;
        set_reshaped(s, &x, &dims, &out, &xshape)
    })
}

/// `split`: `X` cut along `axis` into `num` equal pieces or `sections`,
/// one per `Out`. (Its gradient is a `concat`.)
fn split(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, outs) = (l.input("X")?, l.outputs("Out")?);
    if l.given(&["AxisTensor", "SectionsTensorList"]) {
        return Err(KernelError::Unsupported(
            "split with an axis or sections tensor is not supported; set the attributes".into(),
        ));
    }
    let (axis, num) = (l.int("axis")?, l.int("num")?);
    let sections = l.ints("sections")?.unwrap_or_default();
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        let (outer, n, inner) = super::float::split_at_axis(t.shape(), axis)?;
        let sizes = split_sizes(n as i64, num, &sections).map_err(KernelError::Shape)?;
        if sizes.len() != outs.len() {
            return Err(KernelError::Shape(format!(
                "split into {} pieces has {} outputs",
                sizes.len(),
                outs.len()
            )));
        }
        let rank = t.shape().len() as i64;
        let a = (if axis < 0 { axis + rank } else { axis }) as usize;
        let mut start = 0usize;
        for (size, out) in sizes.iter().zip(&outs) {
            let len = *size as usize;
            let mut shape = t.shape().to_vec();
            shape[a] = *size;
            let data = with_data!(t.data(), |v: T| {
                let mut piece: Vec<T> = Vec::with_capacity(outer * len * inner);
                for o in 0..outer {
                    let at = (o * n + start) * inner;
                    piece.extend_from_slice(&v[at..at + len * inner]);
                }
                T::wrap(piece.into())
            });
            s.set_tensor(out, Tensor::new(&shape, data)?);
            start += len;
        }
        Ok(())
    })
}

/// `reshape2_grad`: `Out@GRAD` in the input's dims.
fn reshape2_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (xshape, dout) = (l.input("XShape")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let dims = dims_from_xshape(s, &xshape)?;
        let g = s.tensor(&dout)?.reshaped(&dims)?;
        s.set_tensor(&dx, g);
        Ok(())
    })
}

/// `x` with its dims permuted: output dim `i` is input dim `perm[i]`.
pub(crate) fn permute(t: &Tensor, perm: &[usize]) -> Result<Tensor, KernelError> {
    let dims: Vec<usize> = t.shape().iter().map(|&d| d.max(0) as usize).collect();
    if perm.len() != dims.len() {
        return Err(KernelError::Shape(format!(
            "a permutation of {} dims does not fit shape {:?}",
            perm.len(),
            t.shape()
        )));
    }
    let mut strides = vec![1usize; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    let out_dims: Vec<usize> = perm.iter().map(|&p| dims[p]).collect();
    let out_strides: Vec<usize> = perm.iter().map(|&p| strides[p]).collect();
    let src = super::float::offsets(&out_dims, &out_strides);
    let shape: Vec<i64> = out_dims.iter().map(|&d| d as i64).collect();
    let data = with_data!(t.data(), |v: T| T::wrap(
        src.iter().map(|&i| v[i]).collect()
    ));
    Tensor::new(&shape, data)
}

fn transpose2(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let xshape = l.opt_output("XShape")?;
    let axis = l.ints("axis")?.unwrap_or_default();
    compute(move |s| {
        let t = s.tensor(&x)?;
        let perm = permutation(&axis, t.shape().len()).map_err(KernelError::Attribute)?;
        let r = permute(&t, &perm)?;
        let xs = xshape.as_ref().map(|_| xshape_of(&t)).transpose()?;
        drop(t);
        s.set_tensor(&out, r);
        super::float::set_grads(s, vec![(&xshape, xs)]);
        Ok(())
    })
}

/// `transpose2_grad`: `Out@GRAD` permuted back.
fn transpose2_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let axis = l.ints("axis")?.unwrap_or_default();
    compute(move |s| {
        let d = s.tensor(&dout)?;
        let perm = permutation(&axis, d.shape().len()).map_err(KernelError::Attribute)?;
        let mut inverse = vec![0; perm.len()];
        for (i, &p) in perm.iter().enumerate() {
            inverse[p] = i;
        }
        let g = permute(&d, &inverse)?;
        drop(d);
        s.set_tensor(&dx, g);
        Ok(())
    })
}

/// The axis of `concat` (from `AxisTensor` when given) as an index.
fn concat_axis(
    s: &Vars,
    tensor: &Option<VarRef>,
    attr: i64,
    rank: usize,
) -> Result<usize, KernelError> {
    let axis = match tensor {
        Some(r) => s.tensor(r)?.scalar_i64()?,
        None => attr,
    };
    let a = if axis < 0 { axis + rank as i64 } else { axis };
    usize::try_from(a)
        .ok()
        .filter(|&a| a < rank)
        .ok_or_else(|| {
            KernelError::Attribute(format!("axis {axis} is out of range for rank {rank}"))
        })
}

/// (outer, inner) element counts around `axis` of `shape`.
fn around(shape: &[i64], axis: usize) -> (usize, usize) {
    let outer = shape[..axis].iter().product::<i64>().max(0) as usize;
    let inner = shape[axis + 1..].iter().product::<i64>().max(0) as usize;
    (outer, inner)
}

fn concat(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, out) = (l.inputs("X")?, l.output("Out")?);
    let axis_tensor = l.opt_input("AxisTensor")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let ts: Vec<Tensor> = xs
            .iter()
            .map(|x| s.tensor(x).map(|t| t.into_owned()))
            .collect::<Result<_, _>>()?;
        let Some(first) = ts.first() else {
            return Err(KernelError::MissingInput("concat has no inputs".into()));
        };
        let a = concat_axis(s, &axis_tensor, axis, first.shape().len())?;
        s.set_tensor(&out, concatenated(&ts, a)?);
        Ok(())
    })
}

/// Whether `shape` joins `like` along dim `a` as Paddle 1.x's concat
/// kernel saw it: the dims both have agree but at `a`, and the dims after
/// `a` hold as many elements (1.x flattened every input to
/// `[prod(dims before a), prod(dims from a)]`, so a `[B, 1, 1, 1]` joins a
/// `[B, 100]` along dim 1).
fn joins_along(shape: &[i64], like: &[i64], a: usize) -> bool {
    let after = |s: &[i64]| s[a + 1..].iter().product::<i64>();
    a < shape.len()
        && a < like.len()
        && shape
            .iter()
            .zip(like)
            .enumerate()
            .all(|(i, (d, e))| i == a || d == e)
        && after(shape) == after(like)
}

/// `ts` (one dtype, the same dims but at `a`, or of other ranks as
/// [`joins_along`] allows) joined along dim `a`, with the first's rank.
fn concatenated(ts: &[Tensor], a: usize) -> Result<Tensor, KernelError> {
    let Some(first) = ts.first() else {
        return Err(KernelError::MissingInput("nothing to concatenate".into()));
    };
    let mut shape = first.shape().to_vec();
    if a >= shape.len() {
        return Err(KernelError::Attribute(format!(
            "axis {a} is out of range for rank {}",
            shape.len()
        )));
    }
    shape[a] = 0;
    for t in ts {
        let fits = t.dtype() == first.dtype() && joins_along(t.shape(), first.shape(), a);
        if !fits {
            return Err(KernelError::Shape(format!(
                "concat along axis {a}: {} {:?} does not fit {} {:?}",
                crate::tensor::dtype_name(t.dtype()),
                t.shape(),
                crate::tensor::dtype_name(first.dtype()),
                first.shape()
            )));
        }
        shape[a] += t.shape()[a];
    }
    let (outer, _) = around(&shape, a);
    let data = with_data!(first.data(), |_v: T| {
        let mut out: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
        for o in 0..outer {
            for t in ts {
                let v = t.values::<T>().unwrap_or_default();
                let (_, inner) = around(t.shape(), a);
                let chunk = t.shape()[a] as usize * inner;
                out.extend_from_slice(&v[o * chunk..(o + 1) * chunk]);
            }
        }
        T::wrap(out.into())
    });
    Tensor::new(&shape, data)
}

/// `concat_grad`: `Out@GRAD` cut back into each input's part along the axis.
fn concat_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, dout) = (l.inputs("X")?, l.input("Out@GRAD")?);
    let dxs = outputs_by_position(l, "X@GRAD")?;
    let axis_tensor = l.opt_input("AxisTensor")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let d = s.tensor(&dout)?.into_owned();
        let rank = d.shape().len();
        let a = concat_axis(s, &axis_tensor, axis, rank)?;
        let (outer, inner) = around(d.shape(), a);
        let total = d.shape()[a] as usize;
        let mut start = 0usize;
        for (x, dx) in xs.iter().zip(&dxs) {
            let shape = s.tensor(x)?.shape().to_vec();
            let len = shape.get(a).copied().unwrap_or(0).max(0) as usize;
            let fits = joins_along(&shape, d.shape(), a);
            if !fits || start + len > total {
                return Err(KernelError::Shape(format!(
                    "Out@GRAD of shape {:?} is too small for the inputs along axis {a}",
                    d.shape()
                )));
            }
            if let Some(dx) = dx {
                let data = with_data!(d.data(), |v: T| {
                    let mut out: Vec<T> = Vec::with_capacity(outer * len * inner);
                    for o in 0..outer {
                        let at = o * total * inner + start * inner;
                        out.extend_from_slice(&v[at..at + len * inner]);
                    }
                    T::wrap(out.into())
                });
                s.set_tensor(dx, Tensor::new(&shape, data)?);
            }
            start += len;
        }
        Ok(())
    })
}

/// The position of `stack`'s new dim in a result of rank `rank + 1`.
fn stack_axis(axis: i64, rank: usize) -> Result<usize, KernelError> {
    let r = rank as i64 + 1;
    usize::try_from(if axis < 0 { axis + r } else { axis })
        .ok()
        .filter(|&a| (a as i64) < r)
        .ok_or_else(|| KernelError::Attribute(format!("axis {axis} is out of range for rank {r}")))
}

/// `stack`: the inputs (one shape and dtype) side by side along a new
/// dim at `axis`.
fn stack(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, y) = (l.inputs("X")?, l.output("Y")?);
    let axis = l.int("axis")?;
    compute(move |s| {
        let ts: Vec<Tensor> = xs
            .iter()
            .map(|x| s.tensor(x).map(|t| t.into_owned()))
            .collect::<Result<_, _>>()?;
        let out = stacked(&ts, axis)?;
        s.set_tensor(&y, out);
        Ok(())
    })
}

/// `ts` (one shape and dtype) side by side along a new dim at `axis`.
pub(crate) fn stacked(ts: &[Tensor], axis: i64) -> Result<Tensor, KernelError> {
    let Some(first) = ts.first() else {
        return Err(KernelError::MissingInput("stack has no inputs".into()));
    };
    if let Some(t) = ts
        .iter()
        .find(|t| t.shape() != first.shape() || t.dtype() != first.dtype())
    {
        return Err(KernelError::Shape(format!(
            "stack: {} {:?} does not fit {} {:?}; the inputs must have one shape and dtype",
            crate::tensor::dtype_name(t.dtype()),
            t.shape(),
            crate::tensor::dtype_name(first.dtype()),
            first.shape()
        )));
    }
    let a = stack_axis(axis, first.shape().len())?;
    let outer = first.shape()[..a].iter().product::<i64>().max(0) as usize;
    let inner = first.numel() / outer.max(1);
    let mut shape = first.shape().to_vec();
    shape.insert(a, ts.len() as i64);
    let data = with_data!(first.data(), |_v: T| {
        let mut out: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
        for o in 0..outer {
            for t in ts {
                let v = t.values::<T>().unwrap_or_default();
                out.extend_from_slice(&v[o * inner..(o + 1) * inner]);
            }
        }
        T::wrap(out.into())
    });
    Tensor::new(&shape, data)
}

/// `stack_grad`: `Y@GRAD` cut back into one gradient per input.
fn stack_grad(l: &OpReader) -> Result<Exec, KernelError> {
    cut_along_axis(l, "Y@GRAD", "X@GRAD")
}

/// `unstack` (1.x's `layers.unstack`): `X` cut along `axis` into `num`
/// tensors without that dim.
fn unstack(l: &OpReader) -> Result<Exec, KernelError> {
    cut_along_axis(l, "X", "Y")
}

/// The tensor of slot `whole` cut along `axis` into the outputs of slot
/// `parts`, position for position (an empty name is skipped).
fn cut_along_axis(l: &OpReader, whole: &'static str, parts: &str) -> Result<Exec, KernelError> {
    let x = l.input(whole)?;
    let ys = outputs_by_position(l, parts)?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let t = s.tensor(&x)?.into_owned();
        let rank = t.shape().len().saturating_sub(1);
        let pieces = unstacked(&t, stack_axis(axis, rank)?, ys.len(), whole)?;
        for (y, piece) in ys.iter().zip(pieces) {
            if let Some(y) = y {
                s.set_tensor(y, piece);
            }
        }
        Ok(())
    })
}

/// `unstack_grad`: the outputs' gradients stacked back along `axis`; an
/// output no gradient reached counts as zeros.
fn unstack_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dys = inputs_by_position(l, "Y@GRAD")?;
    let dx = l.output("X@GRAD")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let mut present = Vec::with_capacity(dys.len());
        for dy in &dys {
            let held = dy
                .as_ref()
                .is_some_and(|v| s.with(v, |value| matches!(value, Value::Tensor(_))));
            present.push(match dy {
                Some(v) if held => Some(s.tensor(v)?.into_owned()),
                _ => None,
            });
        }
        let Some(like) = present.iter().flatten().next().cloned() else {
            return Err(KernelError::MissingInput(
                "unstack_grad: no output of unstack has a gradient".into(),
            ));
        };
        let ts: Vec<Tensor> = present
            .into_iter()
            .map(|t| t.map_or_else(|| Tensor::zeros(like.dtype(), like.shape()), Ok))
            .collect::<Result<_, _>>()?;
        let out = stacked(&ts, axis)?;
        s.set_tensor(&dx, out);
        Ok(())
    })
}

/// `d` cut along dim `a` into its `n` slices (each without dim `a`);
/// `what` names `d` in the error when it does not hold `n`.
fn unstacked(d: &Tensor, a: usize, n: usize, what: &str) -> Result<Vec<Tensor>, KernelError> {
    let held = d.shape().get(a).copied().unwrap_or(0).max(0) as usize;
    if held != n {
        return Err(KernelError::Shape(format!(
            "{what} {:?} holds {held} slices along axis {a}, not {n}",
            d.shape()
        )));
    }
    let mut shape = d.shape().to_vec();
    shape.remove(a);
    let outer = shape[..a].iter().product::<i64>().max(0) as usize;
    let inner = shape[a..].iter().product::<i64>().max(0) as usize;
    let mut pieces = Vec::with_capacity(n);
    for k in 0..n {
        let data = with_data!(d.data(), |v: T| {
            let mut out: Vec<T> = Vec::with_capacity(outer * inner);
            for o in 0..outer {
                let at = (o * n + k) * inner;
                out.extend_from_slice(&v[at..at + inner]);
            }
            T::wrap(out.into())
        });
        pieces.push(Tensor::new(&shape, data)?);
    }
    Ok(pieces)
}

/// For each element of `X` tiled `times` (dim by dim), the element of `X`
/// it copies, and the tiled dims.
fn tiled(dims: &[i64], times: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
    if times.len() != dims.len() || times.iter().any(|&t| t < 1) {
        return Err(KernelError::Attribute(format!(
            "expand_times {times:?} must give a count of at least 1 per dim of X {dims:?}"
        )));
    }
    let out: Vec<i64> = dims
        .iter()
        .zip(times)
        .map(|(&d, &t)| d.max(0) * t)
        .collect();
    crate::tensor::alloc::check(&out, fluidc_transpiler::VarKind::Int64)?;
    let mut map = vec![0usize];
    // Built from the last dim outwards: each dim repeats the block below it.
    let mut stride = 1usize;
    for (&d, &t) in dims.iter().zip(times).rev() {
        let d = d.max(0) as usize;
        let block: Vec<usize> = (0..d)
            .flat_map(|i| map.iter().map(move |&m| m + i * stride))
            .collect();
        map = (0..t).flat_map(|_| block.iter().copied()).collect();
        stride *= d;
    }
    Ok((map, out))
}

/// Where an `expand` or `expand_grad` takes its counts from, as 1.6's
/// `get_expand_times`: the `ExpandTimes` tensor, else one `[1]` int32
/// tensor per dim in `expand_times_tensor`, else the attribute.
struct ExpandTimes {
    tensor: Option<VarRef>,
    per_dim: Vec<VarRef>,
    attr: Vec<i64>,
}

impl ExpandTimes {
    fn load(l: &OpReader) -> Result<ExpandTimes, KernelError> {
        let per_dim = if l.given(&["expand_times_tensor"]) {
            l.inputs("expand_times_tensor")?
        } else {
            Vec::new()
        };
        Ok(ExpandTimes {
            tensor: l.opt_input("ExpandTimes")?,
            per_dim,
            attr: l.ints("expand_times")?.unwrap_or_default(),
        })
    }

    fn get(&self, s: &Vars) -> Result<Vec<i64>, KernelError> {
        if let Some(t) = &self.tensor {
            let t = s.tensor(t)?;
            return Ok(super::float::i64s(&t)?.into_owned());
        }
        if !self.per_dim.is_empty() {
            return self
                .per_dim
                .iter()
                .map(|r| s.tensor(r)?.scalar_f64().map(|v| v as i64))
                .collect();
        }
        Ok(self.attr.clone())
    }
}

/// `expand`: `X` repeated `expand_times[i]` times along each dim `i`.
fn expand(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let times = ExpandTimes::load(l)?;
    compute(move |s| {
        let times = times.get(s)?;
        let t = s.tensor(&x)?;
        let (map, shape) = tiled(t.shape(), &times)?;
        let data = with_data!(t.data(), |v: T| {
            let out: Vec<T> = map.iter().map(|&i| v[i]).collect();
            T::wrap(out.into())
        });
        let r = Tensor::new(&shape, data)?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `expand_grad`: each element of `X` gets the sum of its copies' `Out@GRAD`.
fn expand_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let times = ExpandTimes::load(l)?;
    compute(move |s| {
        let times = times.get(s)?;
        let (t, d) = (s.tensor(&x)?, s.tensor(&dout)?);
        let (map, shape) = tiled(t.shape(), &times)?;
        if d.shape() != shape.as_slice() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD {:?} is not X {:?} expanded {times:?}",
                d.shape(),
                t.shape()
            )));
        }
        let dv = super::float::f64s(&d, "expand_grad")?;
        let mut g = vec![0.0; t.numel()];
        for (&i, &v) in map.iter().zip(dv.iter()) {
            g[i] += v;
        }
        let r = super::float::tensor(d.dtype(), t.shape(), g)?;
        drop(dv);
        drop((t, d));
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `crop`'s offsets: the `Offsets` tensor (int32, one per dim; not with
/// the attribute, as 1.x refused both) or the `offsets` attribute.
fn crop_offsets(
    s: &Vars,
    tensor: &Option<VarRef>,
    attr: &[i64],
    rank: usize,
) -> Result<Vec<i64>, KernelError> {
    let offsets = match tensor {
        Some(t) => {
            if !attr.is_empty() {
                return Err(KernelError::Attribute(
                    "crop: Input 'Offsets' and attribute 'offsets' should not be used at the same time"
                        .into(),
                ));
            }
            let t = s.tensor(t)?;
            if t.shape().len() != 1 {
                return Err(KernelError::Shape(format!(
                    "crop: Offsets must be 1-D, it is {:?}",
                    t.shape()
                )));
            }
            super::float::i64s(&t)?.into_owned()
        }
        None => attr.to_vec(),
    };
    if offsets.len() != rank {
        return Err(KernelError::Shape(format!(
            "crop: offsets {offsets:?} must give one offset per dim of a rank {rank} X"
        )));
    }
    Ok(offsets)
}

/// Where each element of the box of dims `inner` at `offsets` lies in
/// `outer`, and the box's dims; an error when it does not fit.
fn boxed(outer: &[i64], inner: &[i64], offsets: &[i64]) -> Result<Vec<usize>, KernelError> {
    let mut paddings = Vec::with_capacity(2 * outer.len());
    for ((&o, &i), &at) in outer.iter().zip(inner).zip(offsets) {
        let after = o - i - at;
        if i < 0 || at < 0 || after < 0 {
            return Err(KernelError::Shape(format!(
                "a box of {inner:?} at offsets {offsets:?} does not fit in {outer:?}"
            )));
        }
        paddings.extend([at, after]);
    }
    Ok(padded(inner, &paddings)?.0)
}

/// `crop`: the box of `Y`'s dims (or the `shape` attribute's, a -1 first
/// dim being `X`'s) at the offsets, out of `X`.
fn crop(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let (y, offsets_t) = (l.opt_input("Y")?, l.opt_input("Offsets")?);
    let shape = l.ints("shape")?.unwrap_or_default();
    let offsets = l.ints("offsets")?.unwrap_or_default();
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let mut dims = match &y {
            Some(y) => s.tensor(y)?.shape().to_vec(),
            None => shape.clone(),
        };
        if dims.len() != xt.shape().len() {
            return Err(KernelError::Shape(format!(
                "crop: the shape {dims:?} must have the rank of X {:?}",
                xt.shape()
            )));
        }
        if dims[0] == -1 {
            dims[0] = xt.shape()[0];
        }
        let at = crop_offsets(s, &offsets_t, &offsets, dims.len())?;
        let map = boxed(xt.shape(), &dims, &at)?;
        let v = super::float::f64s(&xt, "crop")?;
        let t = super::float::tensor(xt.dtype(), &dims, map.iter().map(|&k| v[k]).collect())?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `crop_grad`: `Out@GRAD` put back at the offsets in zeros shaped as `X`.
fn crop_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let offsets_t = l.opt_input("Offsets")?;
    let offsets = l.ints("offsets")?.unwrap_or_default();
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, dt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let at = crop_offsets(s, &offsets_t, &offsets, xt.shape().len())?;
        let map = boxed(xt.shape(), dt.shape(), &at)?;
        let d = super::float::f64s(&dt, "crop_grad")?;
        let mut g = vec![0.0; xt.numel()];
        for (&k, &v) in map.iter().zip(d.iter()) {
            g[k] = v;
        }
        let t = super::float::tensor(dt.dtype(), xt.shape(), g)?;
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `pad2d`'s paddings (top, bottom, left, right): the `Paddings` tensor
/// or the attribute.
fn pad2d_paddings(
    s: &Vars,
    tensor: &Option<VarRef>,
    attr: &[i64],
) -> Result<Vec<i64>, KernelError> {
    let p = match tensor {
        Some(t) => super::float::i64s(&*s.tensor(t)?)?.into_owned(),
        None => attr.to_vec(),
    };
    if p.len() != 4 || p.iter().any(|&v| v < 0) {
        return Err(KernelError::Attribute(format!(
            "pad2d: paddings {p:?} must be 4 counts, none negative"
        )));
    }
    Ok(p)
}

/// For each element of `pad2d`'s output, the element of `X` it copies
/// (`None`: `pad_value`), and the output's dims.
fn pad2d_map(
    x: &[i64],
    p: &[i64],
    mode: &str,
    nhwc: bool,
) -> Result<(Vec<Option<usize>>, Vec<i64>), KernelError> {
    let [n, a, b, c] = x else {
        return Err(KernelError::Shape(format!(
            "pad2d: X must be 4-D, it is {x:?}"
        )));
    };
    let (ch, ih, iw) = if nhwc { (*c, *a, *b) } else { (*a, *b, *c) };
    if mode == "reflect" && (p[0] >= ih || p[1] >= ih || p[2] >= iw || p[3] >= iw) {
        return Err(KernelError::Attribute(format!(
            "pad2d: reflect paddings {p:?} must be less than the height {ih} and width {iw}"
        )));
    }
    if mode == "edge" && (ih == 0 || iw == 0) {
        return Err(KernelError::Shape(format!(
            "pad2d: edge padding of an empty image {x:?}"
        )));
    }
    let (oh, ow) = (ih + p[0] + p[1], iw + p[2] + p[3]);
    let source = |o: i64, pad: i64, size: i64| -> Option<i64> {
        let i = o - pad;
        match mode {
            "reflect" => {
                let i = i.abs();
                Some(i.min(2 * size - i - 2))
            }
            "edge" => Some(i.clamp(0, size - 1)),
            _ => (0..size).contains(&i).then_some(i),
        }
    };
    let (n, ch, ih, iw, oh, ow) = (
        (*n).max(0) as usize,
        ch.max(0) as usize,
        ih.max(0) as usize,
        iw.max(0) as usize,
        oh.max(0),
        ow.max(0),
    );
    let mut map = Vec::with_capacity(n * ch * (oh * ow) as usize);
    let at = |b: usize, c: usize, h: usize, w: usize| {
        if nhwc {
            ((b * ih + h) * iw + w) * ch + c
        } else {
            ((b * ch + c) * ih + h) * iw + w
        }
    };
    for b in 0..n {
        if nhwc {
            for h in 0..oh {
                for w in 0..ow {
                    let (sh, sw) = (source(h, p[0], ih as i64), source(w, p[2], iw as i64));
                    for c in 0..ch {
                        map.push(sh.zip(sw).map(|(h, w)| at(b, c, h as usize, w as usize)));
                    }
                }
            }
        } else {
            for c in 0..ch {
                for h in 0..oh {
                    for w in 0..ow {
                        let (sh, sw) = (source(h, p[0], ih as i64), source(w, p[2], iw as i64));
                        map.push(sh.zip(sw).map(|(h, w)| at(b, c, h as usize, w as usize)));
                    }
                }
            }
        }
    }
    let dims = if nhwc {
        vec![n as i64, oh, ow, ch as i64]
    } else {
        vec![n as i64, ch as i64, oh, ow]
    };
    Ok((map, dims))
}

/// The `mode` and layout (NHWC or not) of a `pad2d` op.
fn pad2d_attrs(l: &OpReader) -> Result<(String, bool), KernelError> {
    let mode = l.string("mode")?.unwrap_or("constant").to_string();
    if !matches!(mode.as_str(), "constant" | "reflect" | "edge") {
        return Err(KernelError::Attribute(format!(
            "pad2d: mode must be constant, reflect or edge, not {mode:?}"
        )));
    }
    let nhwc = match l.string("data_format")?.unwrap_or("NCHW") {
        "NCHW" => false,
        "NHWC" => true,
        other => {
            return Err(KernelError::Attribute(format!(
                "pad2d: data_format must be NCHW or NHWC, not {other:?}"
            )))
        }
    };
    Ok((mode, nhwc))
}

/// `pad2d` (1.x): an image batch padded on its height and width with
/// `pad_value` (constant), its mirror image without the edge (reflect),
/// or its edge repeated (edge).
fn pad2d(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let paddings_t = l.opt_input("Paddings")?;
    let paddings = l.ints("paddings")?.unwrap_or_default();
    let value = l.float_or("pad_value", 0.0)?;
    let (mode, nhwc) = pad2d_attrs(l)?;
    compute(move |s| {
        let p = pad2d_paddings(s, &paddings_t, &paddings)?;
        let xt = s.tensor(&x)?;
        let (map, dims) = pad2d_map(xt.shape(), &p, &mode, nhwc)?;
        let v = super::float::f64s(&xt, "pad2d")?;
        let o = map.iter().map(|k| k.map_or(value, |k| v[k])).collect();
        let t = super::float::tensor(xt.dtype(), &dims, o)?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `pad2d_grad`: each element of `Out@GRAD` added to the element of `X`
/// it copied (padding of a constant gets nothing back).
fn pad2d_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let paddings_t = l.opt_input("Paddings")?;
    let paddings = l.ints("paddings")?.unwrap_or_default();
    let (mode, nhwc) = pad2d_attrs(l)?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let p = pad2d_paddings(s, &paddings_t, &paddings)?;
        let (xt, dt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let (map, dims) = pad2d_map(xt.shape(), &p, &mode, nhwc)?;
        if dims.as_slice() != dt.shape() {
            return Err(KernelError::Shape(format!(
                "pad2d_grad: Out@GRAD {:?} does not fit the padded {dims:?}",
                dt.shape()
            )));
        }
        let d = super::float::f64s(&dt, "pad2d_grad")?;
        let mut g = vec![0.0; xt.numel()];
        for (k, v) in map.iter().zip(d.iter()) {
            if let Some(k) = k {
                g[*k] += v;
            }
        }
        let t = super::float::tensor(dt.dtype(), xt.shape(), g)?;
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `pad_constant_like`: `Y` at the start of each dim of a tensor shaped
/// as `X`, the rest `pad_value`.
fn pad_constant_like(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let value = l.float_or("pad_value", 0.0)?;
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        if xt.shape().len() != yt.shape().len() {
            return Err(KernelError::Shape(format!(
                "pad_constant_like: X {:?} and Y {:?} must have one rank",
                xt.shape(),
                yt.shape()
            )));
        }
        let map = boxed(xt.shape(), yt.shape(), &vec![0; yt.shape().len()])?;
        let v = super::float::f64s(&yt, "pad_constant_like")?;
        let mut o = vec![value; xt.numel()];
        for (&k, &e) in map.iter().zip(v.iter()) {
            o[k] = e;
        }
        let t = super::float::tensor(yt.dtype(), xt.shape(), o)?;
        drop((xt, yt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `pad_constant_like_grad`: `Out@GRAD` cut back to `Y`'s place.
fn pad_constant_like_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (y, dout) = (l.input("Y")?, l.input("Out@GRAD")?);
    let Some(dy) = l.opt_output("Y@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (yt, dt) = (s.tensor(&y)?, s.tensor(&dout)?);
        if dt.shape().len() != yt.shape().len() {
            return Err(KernelError::Shape(format!(
                "pad_constant_like_grad: Out@GRAD {:?} and Y {:?} must have one rank",
                dt.shape(),
                yt.shape()
            )));
        }
        let map = boxed(dt.shape(), yt.shape(), &vec![0; yt.shape().len()])?;
        let d = super::float::f64s(&dt, "pad_constant_like_grad")?;
        let t = super::float::tensor(dt.dtype(), yt.shape(), map.iter().map(|&k| d[k]).collect())?;
        drop((yt, dt));
        s.set_tensor(&dy, t);
        Ok(())
    })
}

/// The attributes of an op that only moves elements: its factor (the
/// upscale factor, group or block size) and whether it is NHWC.
#[derive(Clone, Copy)]
struct Moves {
    factor: i64,
    nhwc: bool,
}

/// For an op that only moves elements: for each element of `Out`, the
/// element of `X` (of the given dims) it copies, and `Out`'s dims.
type Source = fn(Moves, &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError>;

impl Moves {
    /// The factor from attribute `factor`, the layout from `data_format`
    /// when the op has one.
    fn read(l: &OpReader, factor: &str) -> Result<Moves, KernelError> {
        let nhwc = match l.string("data_format")?.unwrap_or("NCHW") {
            "NCHW" => false,
            "NHWC" => true,
            other => {
                return Err(KernelError::Attribute(format!(
                    "{}: data_format must be NCHW or NHWC, not {other:?}",
                    l.op.ty
                )))
            }
        };
        Ok(Moves {
            factor: l.int(factor)?,
            nhwc,
        })
    }
}

/// The dims of a 4-D tensor as counts.
fn dims4(x: &[i64], op: &str) -> Result<[usize; 4], KernelError> {
    match x {
        [a, b, c, d] => Ok([*a, *b, *c, *d].map(|v| v.max(0) as usize)),
        _ => Err(KernelError::Shape(format!(
            "{op}: X must be 4-D, it is {x:?}"
        ))),
    }
}

/// `pixel_shuffle`: output pixel `(h*r+i, w*r+j)` of channel `c` is input
/// pixel `(h, w)` of channel `c*r*r + i*r + j` (NCHW, or NHWC).
fn pixel_shuffle_source(m: Moves, x: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
    let (r, nhwc) = (m.factor.max(0) as usize, m.nhwc);
    let [n, a, b, c] = dims4(x, "pixel_shuffle")?;
    let (cin, h, w) = if nhwc { (c, a, b) } else { (a, b, c) };
    if r == 0 || cin % (r * r) != 0 {
        return Err(KernelError::Shape(format!(
            "pixel_shuffle: the channels of {x:?} are not a multiple of upscale_factor {r} squared"
        )));
    }
    let cout = cin / (r * r);
    let mut src = Vec::with_capacity(n * cin * h * w);
    for bn in 0..n {
        for oa in 0..(if nhwc { h * r } else { cout }) {
            for ob in 0..(if nhwc { w * r } else { h * r }) {
                for oc in 0..(if nhwc { cout } else { w * r }) {
                    let (ch, y, x) = if nhwc { (oc, oa, ob) } else { (oa, ob, oc) };
                    let k = ch * r * r + (y % r) * r + x % r;
                    let (y, x) = (y / r, x / r);
                    src.push(if nhwc {
                        ((bn * h + y) * w + x) * cin + k
                    } else {
                        ((bn * cin + k) * h + y) * w + x
                    });
                }
            }
        }
    }
    let (n, cout, h, w, r) = (n as i64, cout as i64, h as i64, w as i64, r as i64);
    let dims = if nhwc {
        vec![n, h * r, w * r, cout]
    } else {
        vec![n, cout, h * r, w * r]
    };
    Ok((src, dims))
}

/// `shuffle_channel`: the channels seen as `[group, C/group]` and
/// transposed: output channel `j*group + i` is input channel
/// `i*(C/group) + j`.
fn shuffle_channel_source(m: Moves, x: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
    let g = m.factor.max(0) as usize;
    let [n, c, h, w] = dims4(x, "shuffle_channel")?;
    if g == 0 || c % g != 0 {
        return Err(KernelError::Shape(format!(
            "shuffle_channel: the channels of {x:?} do not divide into {g} groups"
        )));
    }
    let cols = c / g;
    let plane = h * w;
    let mut src = Vec::with_capacity(n * c * plane);
    for b in 0..n {
        for oc in 0..c {
            let ic = (oc % g) * cols + oc / g;
            let at = (b * c + ic) * plane;
            src.extend(at..at + plane);
        }
    }
    Ok((src, x.to_vec()))
}

/// `space_to_depth` as 1.x's kernel moved elements (darknet's `reorg`):
/// input element `(b, k, j, i)` of `[B, C, H, W]` goes to element
/// `(b, k % (C/s²), j*s + (k / (C/s²)) / s, i*s + (k / (C/s²)) % s)` of the
/// output's buffer seen as `[B, C/s², H*s, W*s]`, `s` the blocksize; the
/// output's dims are `[B, C*s², H/s, W/s]`.
fn space_to_depth_source(m: Moves, x: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
    let s = m.factor;
    let [n, c, h, w] = dims4(x, "space_to_depth")?;
    let su = s.max(0) as usize;
    if s <= 1 || c % (su * su) != 0 || h % su != 0 || w % su != 0 {
        return Err(KernelError::Shape(format!(
            "space_to_depth: X {x:?} does not fit blocksize {s} (C a multiple of its square, H and W of it)"
        )));
    }
    let out_c = c / (su * su);
    let mut src = vec![0usize; n * c * h * w];
    let mut at = 0;
    for b in 0..n {
        for k in 0..c {
            let (c2, offset) = (k % out_c, k / out_c);
            for j in 0..h {
                for i in 0..w {
                    let w2 = i * su + offset % su;
                    let h2 = j * su + offset / su;
                    src[w2 + w * su * (h2 + h * su * (c2 + out_c * b))] = at;
                    at += 1;
                }
            }
        }
    }
    let (s2, n, c, h, w) = (s * s, n as i64, c as i64, h as i64, w as i64);
    Ok((src, vec![n, c * s2, h / s, w / s]))
}

/// An op that only moves elements: `Out[k] = X[source[k]]`, any dtype.
fn permuting(l: &OpReader, factor: &str, source: Source) -> Result<Exec, KernelError> {
    moved(l, "X", "Out", factor, source)
}

/// `shuffle_channel_grad` as 1.x's kernel (and Paddle 3.3.1's) made it:
/// `Out@GRAD` shuffled again the way the forward op shuffled `X` (not
/// shuffled back: with `group` other than `C / group` the gradient lands
/// on other channels than the derivative's).
fn shuffle_channel_grad(l: &OpReader) -> Result<Exec, KernelError> {
    if l.opt_output("X@GRAD")?.is_none() {
        return compute(|_| Ok(()));
    }
    moved(l, "Out@GRAD", "X@GRAD", "group", shuffle_channel_source)
}

/// Slot `to` holds the elements of slot `from` moved as `source` says.
fn moved(
    l: &OpReader,
    from: &str,
    to: &str,
    factor: &str,
    source: Source,
) -> Result<Exec, KernelError> {
    let (x, out) = (l.input(from)?, l.output(to)?);
    let m = Moves::read(l, factor)?;
    // 1.x registered kernels of every dtype for space_to_depth only.
    let floats_only = l.op.ty != "space_to_depth";
    let op = l.op.ty.clone();
    compute(move |s| {
        let t = s.tensor(&x)?;
        if floats_only && !matches!(t.dtype(), VarKind::Fp32 | VarKind::Fp64) {
            return Err(super::float::needs_float(&op, &t));
        }
        let (map, dims) = source(m, t.shape())?;
        let data = with_data!(t.data(), |v: T| {
            let o: Vec<T> = map.iter().map(|&k| v[k]).collect();
            T::wrap(o.into())
        });
        let r = Tensor::new(&dims, data)?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// Its gradient: `X@GRAD[source[k]] = Out@GRAD[k]`, `X`'s dims taken back
/// from the forward dims `Out@GRAD` has (`X` itself when the maker passes
/// it).
fn permuting_grad(
    l: &OpReader,
    factor: &str,
    source: Source,
    back: Back,
) -> Result<Exec, KernelError> {
    let (x, dout) = (l.opt_input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let m = Moves::read(l, factor)?;
    compute(move |s| {
        let d = s.tensor(&dout)?;
        let x_dims = match &x {
            Some(x) => s.tensor(x)?.shape().to_vec(),
            None => match d.shape() {
                &[n, a, b, c] => back(m, [n, a, b, c]),
                other => {
                    return Err(KernelError::Shape(format!(
                        "Out@GRAD must be 4-D, it is {other:?}"
                    )))
                }
            },
        };
        let (map, dims) = source(m, &x_dims)?;
        if dims.as_slice() != d.shape() {
            return Err(KernelError::Shape(format!(
                "Out@GRAD {:?} does not fit the output {dims:?} of X {x_dims:?}",
                d.shape()
            )));
        }
        let data = with_data!(d.data(), |v: T| {
            let mut o: Vec<T> = vec![T::ZERO; map.len()];
            for (k, &at) in map.iter().enumerate() {
                o[at] = v[k];
            }
            T::wrap(o.into())
        });
        let r = Tensor::new(&x_dims, data)?;
        drop(d);
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `X`'s dims from its output's, for a grad whose maker passes no `X`.
type Back = fn(Moves, [i64; 4]) -> Vec<i64>;

/// pixel_shuffle's input dims from its output's.
fn pixel_shuffle_back(m: Moves, [n, a, b, c]: [i64; 4]) -> Vec<i64> {
    let r = m.factor.max(1);
    if m.nhwc {
        vec![n, a / r, b / r, c * r * r]
    } else {
        vec![n, a * r * r, b / r, c / r]
    }
}

/// The same dims (space_to_depth's maker passes `X`, so this is not used
/// to find its dims).
fn same_back(_: Moves, dims: [i64; 4]) -> Vec<i64> {
    dims.to_vec()
}

/// `flatten2`: `X` as the matrix `[prod(dims[..axis]), prod(dims[axis..])]`
/// (no data moves), and `XShape` as `reshape2` writes it.
fn flatten2(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let xshape = l.opt_output("XShape")?;
    let axis = l.int("axis")?;
    compute(move |s| {
        let dims = s.tensor(&x)?.shape().to_vec();
        let a = usize::try_from(axis)
            .ok()
            .filter(|&a| a <= dims.len())
            .ok_or_else(|| {
                KernelError::Attribute(format!("axis {axis} is out of range for shape {dims:?}"))
            })?;
        let flat = [dims[..a].iter().product(), dims[a..].iter().product()];
        set_reshaped(s, &x, &flat, &out, &xshape)
    })
}

/// Where each element of `x_shape` lands in `x_shape` padded by `paddings`
/// (before, after per dim), and the padded shape.
fn padded(x_shape: &[i64], paddings: &[i64]) -> Result<(Vec<usize>, Vec<i64>), KernelError> {
    if paddings.len() != 2 * x_shape.len() || paddings.iter().any(|&p| p < 0) {
        return Err(KernelError::Attribute(format!(
            "pad: paddings {paddings:?} must give two counts, none negative, per dim of {x_shape:?}"
        )));
    }
    let dims: Vec<usize> = x_shape.iter().map(|&d| d.max(0) as usize).collect();
    let out: Vec<usize> = dims
        .iter()
        .enumerate()
        .map(|(i, &d)| d + (paddings[2 * i] + paddings[2 * i + 1]) as usize)
        .collect();
    let mut strides = vec![1usize; out.len()];
    for d in (0..out.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * out[d + 1];
    }
    let base: usize = (0..out.len())
        .map(|d| paddings[2 * d] as usize * strides[d])
        .sum();
    let map = super::float::offsets(&dims, &strides)
        .into_iter()
        .map(|o| o + base)
        .collect();
    Ok((map, out.iter().map(|&d| d as i64).collect()))
}

/// `pad`: `X` inside a tensor of `pad_value`, widened by `paddings`.
fn pad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let paddings = l.ints("paddings")?.unwrap_or_default();
    let value = l.float("pad_value")?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let (map, shape) = padded(t.shape(), &paddings)?;
        let xv = super::float::f64s(&t, "pad")?;
        let mut v = vec![value; shape.iter().product::<i64>() as usize];
        for (&at, &e) in map.iter().zip(xv.iter()) {
            v[at] = e;
        }
        let r = super::float::tensor(t.dtype(), &shape, v)?;
        drop(t);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// `pad_grad`: `Out@GRAD` cropped back to `X`'s place.
fn pad_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let paddings = l.ints("paddings")?.unwrap_or_default();
    compute(move |s| {
        let d = s.tensor(&dout)?;
        let x_shape: Vec<i64> = d
            .shape()
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let p = paddings.get(2 * i).copied().unwrap_or(0)
                    + paddings.get(2 * i + 1).copied().unwrap_or(0);
                (n - p).max(0)
            })
            .collect();
        let (map, shape) = padded(&x_shape, &paddings)?;
        if shape.as_slice() != d.shape() {
            return Err(KernelError::Shape(format!(
                "pad_grad: Out@GRAD {:?} is narrower than paddings {paddings:?}",
                d.shape()
            )));
        }
        let dv = super::float::f64s(&d, "pad_grad")?;
        let g = map.iter().map(|&at| dv[at]).collect();
        let r = super::float::tensor(d.dtype(), &x_shape, g)?;
        drop(d);
        s.set_tensor(&dx, r);
        Ok(())
    })
}

/// `X` seen as lines along `axis` (negative counts from the end): (outer,
/// length, inner), the line through `(o, i)` being the elements
/// `(o * length + k) * inner + i`.
fn lines(shape: &[i64], axis: i64, op: &str) -> Result<(usize, usize, usize), KernelError> {
    let rank = shape.len() as i64;
    let a = if axis < 0 { axis + rank } else { axis };
    let a = usize::try_from(a)
        .ok()
        .filter(|&a| a < shape.len())
        .ok_or_else(|| KernelError::Attribute(format!("{op}: axis {axis} for rank {rank}")))?;
    let (outer, inner) = around(shape, a);
    Ok((outer, shape[a].max(0) as usize, inner))
}

/// `argsort` (1.x: ascending, no `descending`): each line along `axis`
/// sorted, and the positions its values came from. Equal values keep their
/// order.
fn argsort(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, ids) = (l.input("X")?, l.output("Out")?, l.output("Indices")?);
    let axis = l.int_or("axis", -1)?;
    let descending = l.bool_or("descending", false)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let (outer, n, inner) = lines(xt.shape(), axis, "argsort")?;
        let mut order = vec![0i64; xt.numel()];
        let data = with_data!(xt.data(), |v: T| {
            let mut sorted = v.to_vec();
            let mut line: Vec<usize> = Vec::with_capacity(n);
            for o in 0..outer {
                for i in 0..inner {
                    let at = |k: usize| (o * n + k) * inner + i;
                    line.clear();
                    line.extend(0..n);
                    line.sort_by(|&p, &q| {
                        let c = v[at(p)]
                            .partial_cmp(&v[at(q)])
                            .unwrap_or(std::cmp::Ordering::Equal);
                        if descending {
                            c.reverse()
                        } else {
                            c
                        }
                    });
                    for (k, &p) in line.iter().enumerate() {
                        sorted[at(k)] = v[at(p)];
                        order[at(k)] = p as i64;
                    }
                }
            }
            T::wrap(sorted.into())
        });
        let shape = xt.shape().to_vec();
        drop(xt);
        s.set_tensor(&out, Tensor::new(&shape, data)?);
        s.set_tensor(&ids, Tensor::from_vec(&shape, order)?);
        Ok(())
    })
}

/// `argsort_grad`: each `Out@GRAD` value goes back to the position of `X`
/// its sorted value came from (`Indices`).
fn argsort_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, dout, x) = (l.input("Indices")?, l.input("Out@GRAD")?, l.input("X")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let axis = l.int_or("axis", -1)?;
    compute(move |s| {
        let shape = s.tensor(&x)?.shape().to_vec();
        let (it, dt) = (s.tensor(&ids)?, s.tensor(&dout)?);
        if it.shape() != shape.as_slice() || dt.shape() != shape.as_slice() {
            return Err(KernelError::Shape(format!(
                "argsort_grad: Indices {:?} and Out@GRAD {:?} must have X's shape {shape:?}",
                it.shape(),
                dt.shape()
            )));
        }
        let (outer, n, inner) = lines(&shape, axis, "argsort_grad")?;
        let order = super::float::i64s(&it)?;
        let data = with_data!(dt.data(), |v: T| {
            let mut g = vec![T::ZERO; v.len()];
            for o in 0..outer {
                for i in 0..inner {
                    for k in 0..n {
                        let from = (o * n + k) * inner + i;
                        let p = usize::try_from(order[from])
                            .ok()
                            .filter(|&p| p < n)
                            .ok_or_else(|| {
                                KernelError::Invalid(format!(
                                    "argsort_grad: index {} is out of range for {n} values",
                                    order[from]
                                ))
                            })?;
                        g[(o * n + p) * inner + i] = v[from];
                    }
                }
            }
            T::wrap(g.into())
        });
        drop(order);
        drop((it, dt));
        s.set_tensor(&dx, Tensor::new(&shape, data)?);
        Ok(())
    })
}

/// `reverse`: `X` with the order along each of `axis` reversed (its own
/// gradient, as Paddle's maker builds it).
fn reverse(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let axis = l.ints("axis")?.unwrap_or_default();
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let dims: Vec<usize> = xt.shape().iter().map(|&d| d.max(0) as usize).collect();
        let rank = dims.len() as i64;
        let mut flip = vec![false; dims.len()];
        for &a in &axis {
            let i = if a < 0 { a + rank } else { a };
            let i = usize::try_from(i)
                .ok()
                .filter(|&i| i < dims.len())
                .ok_or_else(|| {
                    KernelError::Attribute(format!("reverse: axis {a} for rank {rank}"))
                })?;
            flip[i] = true;
        }
        let mut strides = vec![1usize; dims.len()];
        for i in (0..dims.len().saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * dims[i + 1];
        }
        let source = |mut at: usize| {
            let mut from = 0;
            for d in 0..dims.len() {
                let k = at / strides[d];
                at %= strides[d];
                from += strides[d] * if flip[d] { dims[d] - 1 - k } else { k };
            }
            from
        };
        let data = with_data!(xt.data(), |v: T| T::wrap(
            (0..v.len()).map(|at| v[source(at)]).collect()
        ));
        let t = Tensor::new(xt.shape(), data)?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// The tensors of the tensor array `x` (every element written).
fn array_tensors(s: &mut Vars, x: &VarRef) -> Result<Vec<Tensor>, KernelError> {
    let items = s.with(x, |v| match v {
        Value::TensorArray(items) => Ok(items.clone()),
        other => Err(other.describe()),
    });
    let items = items.map_err(|what| {
        KernelError::Invalid(format!("`{}` must be a tensor array, not {what}", x.name))
    })?;
    items
        .iter()
        .enumerate()
        .map(|(k, v)| {
            v.to_tensor().ok_or_else(|| {
                KernelError::Invalid(format!("element {k} of `{}` was never written", x.name))
            })
        })
        .collect()
}

/// Dim `axis` (negative counts from the end) of a rank `rank` tensor.
fn join_axis(axis: i64, rank: usize) -> Result<usize, KernelError> {
    usize::try_from(if axis < 0 { axis + rank as i64 } else { axis })
        .ok()
        .filter(|&a| a < rank)
        .ok_or_else(|| {
            KernelError::Attribute(format!("axis {axis} is out of range for rank {rank}"))
        })
}

/// `tensor_array_to_tensor` (1.5): the array's tensors joined along
/// `axis` (stacked along a new one with `use_stack`), and `OutIndex`, an
/// int32 `[n]` of each element's size along it (1 when stacked).
fn tensor_array_to_tensor(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, index) = (l.input("X")?, l.output("Out")?, l.opt_output("OutIndex")?);
    let axis = l.int_or("axis", 1)?;
    let use_stack = l.bool_or("use_stack", false)?;
    compute(move |s| {
        let ts = array_tensors(s, &x)?;
        let Some(first) = ts.first() else {
            return Err(KernelError::Invalid(format!(
                "`{}` holds no tensor",
                x.name
            )));
        };
        let (joined, sizes) = if use_stack {
            (stacked(&ts, axis)?, vec![1i32; ts.len()])
        } else {
            let a = join_axis(axis, first.shape().len())?;
            let joined = concatenated(&ts, a)?; // each has a dim `a`
            (joined, ts.iter().map(|t| t.shape()[a] as i32).collect())
        };
        s.set_tensor(&out, joined);
        if let Some(index) = &index {
            let n = sizes.len() as i64;
            s.set_tensor(index, Tensor::from_vec(&[n], sizes)?);
        }
        Ok(())
    })
}

/// `tensor_array_to_tensor_grad`: `Out@GRAD` cut back into one gradient
/// per element of the array, an array of the same length.
fn tensor_array_to_tensor_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let axis = l.int_or("axis", 1)?;
    let use_stack = l.bool_or("use_stack", false)?;
    compute(move |s| {
        let ts = array_tensors(s, &x)?;
        let d = s.tensor(&dout)?.into_owned();
        let rank = ts.first().map_or(0, |t| t.shape().len());
        let pieces = if use_stack {
            unstacked(&d, stack_axis(axis, rank)?, ts.len(), "Out@GRAD")?
        } else {
            let a = join_axis(axis, rank)?;
            let (outer, inner) = around(d.shape(), a);
            let total = d.shape().get(a).copied().unwrap_or(0).max(0) as usize;
            let mut start = 0;
            let mut pieces = Vec::with_capacity(ts.len());
            for t in &ts {
                let len = t.shape()[a].max(0) as usize;
                if start + len > total || d.numel() != outer * total * inner {
                    return Err(KernelError::Shape(format!(
                        "Out@GRAD of shape {:?} does not fit the array's tensors along axis {a}",
                        d.shape()
                    )));
                }
                let data = with_data!(d.data(), |v: T| {
                    let mut out: Vec<T> = Vec::with_capacity(outer * len * inner);
                    for o in 0..outer {
                        let at = (o * total + start) * inner;
                        out.extend_from_slice(&v[at..at + len * inner]);
                    }
                    T::wrap(out.into())
                });
                pieces.push(Tensor::new(t.shape(), data)?);
                start += len;
            }
            pieces
        };
        let items = pieces.into_iter().map(Value::tensor).collect();
        s.set(&dx, Value::TensorArray(std::sync::Arc::new(items)));
        Ok(())
    })
}

/// `size`: how many elements `Input` has, an int64 `[1]`.
fn size(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Input")?, l.output("Out")?);
    compute(move |s| {
        let n = s.tensor(&x)?.numel() as i64;
        s.set_tensor(&out, Tensor::from_vec(&[1], vec![n])?);
        Ok(())
    })
}

/// `where_index`: the coordinates of each nonzero element of `Condition`,
/// in row-major order, an int64 `[count, rank]`.
fn where_index(l: &OpReader) -> Result<Exec, KernelError> {
    let (cond, out) = (l.input("Condition")?, l.output("Out")?);
    compute(move |s| {
        let t = s.tensor(&cond)?;
        let dims: Vec<usize> = t.shape().iter().map(|&d| d.max(0) as usize).collect();
        let truth: Vec<bool> =
            with_data!(t.data(), |v: T| v.iter().map(|x| x.is_nonzero()).collect());
        let mut coords = Vec::new();
        for (at, _) in truth.iter().enumerate().filter(|(_, &b)| b) {
            let mut rest = at;
            let mut c = vec![0i64; dims.len()];
            for (k, &d) in dims.iter().enumerate().rev() {
                c[k] = (rest % d.max(1)) as i64;
                rest /= d.max(1);
            }
            coords.extend(c);
        }
        let shape = [(coords.len() / dims.len().max(1)) as i64, dims.len() as i64];
        drop(t);
        s.set_tensor(&out, Tensor::from_vec(&shape, coords)?);
        Ok(())
    })
}

/// `unique` (1.x's kernel, `is_sorted` false): the distinct values of the
/// vector `X` in the order they first appear, and for each value of `X`
/// its place among them. Values are equal as C++'s `==` finds them (0.0
/// and -0.0 are one value; each NaN is a value of its own).
fn unique(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out, index) = (l.input("X")?, l.output("Out")?, l.output("Index")?);
    // unique_with_counts (1.6): also each distinct value's count, in `dtype`.
    let count = l.opt_output("Count")?;
    if l.bool_or("is_sorted", false)? {
        return Err(KernelError::Unsupported(
            "unique with is_sorted (2.x's sorted form) is not supported; fluidc's is 1.x's".into(),
        ));
    }
    let dtype = l.dtype("dtype", fluidc_transpiler::VarKind::Int32)?;
    compute(move |s| {
        let t = s.tensor(&x)?;
        if t.shape().len() != 1 {
            return Err(KernelError::Shape(format!(
                "unique takes a vector, not a tensor of shape {:?}",
                t.shape()
            )));
        }
        let mut places: Vec<i64> = Vec::with_capacity(t.numel());
        let data = with_data!(t.data(), |v: T| {
            let mut seen: std::collections::HashMap<u64, i64> = std::collections::HashMap::new();
            let mut kept: Vec<T> = Vec::new();
            for &e in v.iter() {
                let f = e.to_f64();
                let key = if f == 0.0 { 0u64 } else { f.to_bits() };
                let place = match seen.get(&key) {
                    Some(&p) if !f.is_nan() => p,
                    _ => {
                        kept.push(e);
                        let p = kept.len() as i64 - 1;
                        seen.insert(key, p);
                        p
                    }
                };
                places.push(place);
            }
            T::wrap(kept.into())
        });
        let n = places.len() as i64;
        let kept_len = match &data {
            crate::tensor::Data::Bool(v) => v.len(),
            crate::tensor::Data::Int8(v) => v.len(),
            crate::tensor::Data::Int32(v) => v.len(),
            crate::tensor::Data::Int64(v) => v.len(),
            crate::tensor::Data::Float32(v) => v.len(),
            crate::tensor::Data::Float64(v) => v.len(),
        };
        let uniq = Tensor::new(&[kept_len as i64], data)?;
        drop(t);
        let mut counts = vec![0i64; kept_len];
        for &p in &places {
            counts[p as usize] += 1;
        }
        let idx = Tensor::from_vec(&[n], places)?;
        let idx = if dtype == fluidc_transpiler::VarKind::Int64 {
            idx
        } else {
            idx.cast(dtype)?
        };
        if let Some(count) = &count {
            let counts = Tensor::from_vec(&[kept_len as i64], counts)?;
            let counts = if dtype == fluidc_transpiler::VarKind::Int64 {
                counts
            } else {
                counts.cast(dtype)?
            };
            s.set_tensor(count, counts);
        }
        s.set_tensor(&out, uniq);
        s.set_tensor(&index, idx);
        Ok(())
    })
}
