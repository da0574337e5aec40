//! 1.x's ops that rearrange the sequences of a LoD tensor, after its CPU
//! kernels (Paddle 3.3.1 dropped them): `sequence_reverse` (its own
//! grad), `sequence_concat`, `sequence_slice`, `sequence_reshape` and
//! `sequence_expand_as` with their grads, `sequence_enumerate` and
//! `sequence_erase`.
//! Each sets its output's LoD as 1.x's kernel did; a grad gives `X@GRAD`
//! the LoD of `X`.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{f64s, i64s, outputs_by_position, set_grads, tensor};
use crate::ops::lod::take_rows;
use crate::tensor::{alloc, dtype_name, with_data, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("sequence_reverse", sequence_reverse);
    r.add("sequence_scatter", sequence_scatter);
    r.add("sequence_scatter_grad", sequence_scatter_grad);
    r.add("sequence_concat", sequence_concat);
    r.add("sequence_concat_grad", sequence_concat_grad);
    r.add("sequence_slice", sequence_slice);
    r.add("sequence_slice_grad", sequence_slice_grad);
    r.add("sequence_reshape", sequence_reshape);
    r.add("sequence_reshape_grad", sequence_reshape_grad);
    r.add("sequence_enumerate", sequence_enumerate);
    r.add("sequence_erase", sequence_erase);
    r.add("sequence_expand_as", sequence_expand_as);
    r.add("sequence_expand_as_grad", sequence_expand_as_grad);
}

/// `t` is one of the dtypes 1.x registered `op`'s CPU kernel for.
fn check_dtype(t: &Tensor, op: &str, dtypes: &[VarKind]) -> Result<(), KernelError> {
    if dtypes.contains(&t.dtype()) {
        return Ok(());
    }
    let names: Vec<String> = dtypes.iter().map(|&d| dtype_name(d)).collect();
    Err(KernelError::Dtype(format!(
        "{op} takes {}, not {}",
        names.join(", "),
        dtype_name(t.dtype())
    )))
}

const FLOATS_INTS: [VarKind; 4] = [VarKind::Fp32, VarKind::Fp64, VarKind::Int32, VarKind::Int64];

/// The one LoD level of `t` (named `name`), as 1.x's kernels require it.
fn one_level<'a>(t: &'a Tensor, name: &str, op: &str) -> Result<&'a [usize], KernelError> {
    match t.lod() {
        [] => Err(KernelError::Invalid(format!(
            "`{name}` of {op} has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)"
        ))),
        [one] => Ok(one),
        more => Err(KernelError::Invalid(format!(
            "`{name}` of {op} has {} LoD levels; it takes one level only",
            more.len()
        ))),
    }
}

fn rows_of(t: &Tensor) -> usize {
    t.shape().first().copied().unwrap_or(1).max(0) as usize
}

/// Offsets from lengths.
fn offsets_of(lengths: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut offsets = vec![0];
    for n in lengths {
        offsets.push(offsets[offsets.len() - 1] + n);
    }
    offsets
}

/// `Y`: each sequence of `X` (one LoD level) in reverse row order, with
/// `X`'s LoD; as its own grad, `Y@GRAD` reversed back.
fn sequence_reverse(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y) = (l.input("X")?, l.output("Y")?);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        check_dtype(
            &xt,
            "sequence_reverse",
            &[
                VarKind::Uint8,
                VarKind::Int32,
                VarKind::Int64,
                VarKind::Fp32,
                VarKind::Fp64,
            ],
        )?;
        let lod = one_level(&xt, &x.name, "sequence_reverse")?;
        let ranges: Vec<(usize, usize)> = lod
            .windows(2)
            .flat_map(|w| (w[0]..w[1]).rev().map(|r| (r, r + 1)))
            .collect();
        let t = take_rows(&xt, &ranges)?
            .reshaped(xt.shape())?
            .with_lod(xt.lod().to_vec());
        drop(xt);
        s.set_tensor(&y, t);
        Ok(())
    })
}

/// `Out`: sequence `i` of every input, one after another, for each `i`;
/// LoD `[[0, sum of the inputs' first lengths, ...]]` (level 0 of each).
fn sequence_concat(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, out) = (l.inputs("X")?, l.output("Out")?);
    compute(move |s| {
        let ts = xs
            .iter()
            .map(|x| s.tensor(x))
            .collect::<Result<Vec<_>, _>>()?;
        let first = &ts[0];
        check_dtype(
            first,
            "sequence_concat",
            &[VarKind::Fp32, VarKind::Fp64, VarKind::Int64],
        )?;
        let width = first.numel().checked_div(rows_of(first)).unwrap_or(0);
        let mut lods = Vec::new();
        for (x, t) in xs.iter().zip(&ts) {
            if t.dtype() != first.dtype() {
                return Err(KernelError::Dtype(format!(
                    "the inputs of sequence_concat must have one dtype: `{}` is {}, `{}` {}",
                    xs[0].name,
                    dtype_name(first.dtype()),
                    x.name,
                    dtype_name(t.dtype())
                )));
            }
            let w = t.numel().checked_div(rows_of(t)).unwrap_or(width);
            if t.shape().is_empty() || w != width {
                return Err(KernelError::Shape(format!(
                    "`{}` {:?} has rows of another size than `{}` {:?}",
                    x.name,
                    t.shape(),
                    xs[0].name,
                    first.shape()
                )));
            }
            let lod = t.lod().first().ok_or_else(|| {
                KernelError::Invalid(format!(
                    "`{}` of sequence_concat has no LoD; feed it as a LoD tensor",
                    x.name
                ))
            })?;
            if lods
                .first()
                .is_some_and(|f: &&Vec<usize>| f.len() != lod.len())
            {
                return Err(KernelError::Invalid(
                    "The number of sequence must be same between each input".into(),
                ));
            }
            lods.push(lod);
        }
        let n = lods[0].len();
        let mut offsets = vec![0usize; n];
        for (i, o) in offsets.iter_mut().enumerate().skip(1) {
            *o = lods.iter().map(|l| l[i]).sum();
        }
        let mut shape = first.shape().to_vec();
        shape[0] = offsets[n - 1] as i64;
        let data = with_data!(first.data(), |_v: T| {
            let mut out: Vec<T> = Vec::with_capacity(alloc::check(&shape, T::KIND)?);
            for i in 1..n {
                for (t, lod) in ts.iter().zip(&lods) {
                    let vals = t.values::<T>().unwrap_or(&[]);
                    out.extend_from_slice(&vals[lod[i - 1] * width..lod[i] * width]);
                }
            }
            T::wrap(out.into())
        });
        let t = Tensor::new(&shape, data)?.with_lod(vec![offsets]);
        drop(ts);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD` (each wanted one): the rows of `Out@GRAD` that came from that
/// input, with its LoD.
fn sequence_concat_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, dout) = (l.inputs("X")?, l.input("Out@GRAD")?);
    let dxs = outputs_by_position(l, "X@GRAD")?;
    compute(move |s| {
        let ts = xs
            .iter()
            .map(|x| s.tensor(x))
            .collect::<Result<Vec<_>, _>>()?;
        let gt = s.tensor(&dout)?;
        let lods: Vec<&[usize]> = xs
            .iter()
            .zip(&ts)
            .map(|(x, t)| {
                t.lod().first().map(Vec::as_slice).ok_or_else(|| {
                    KernelError::Invalid(format!("`{}` of sequence_concat has no LoD", x.name))
                })
            })
            .collect::<Result<_, _>>()?;
        let n = lods[0].len();
        if lods.iter().any(|l| l.len() != n) {
            return Err(KernelError::Invalid(
                "The number of sequence must be same between each input".into(),
            ));
        }
        let mut ranges: Vec<Vec<(usize, usize)>> = vec![Vec::new(); ts.len()];
        let mut at = 0;
        for i in 1..n {
            for (j, lod) in lods.iter().enumerate() {
                let len = lod[i] - lod[i - 1];
                ranges[j].push((at, at + len));
                at += len;
            }
        }
        if at != rows_of(&gt) {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has {} rows; the inputs of sequence_concat have {at}",
                rows_of(&gt)
            )));
        }
        let mut grads = Vec::new();
        for ((dx, t), rs) in dxs.iter().zip(&ts).zip(&ranges) {
            let g = match dx {
                Some(_) => Some(
                    take_rows(&gt, rs)?
                        .reshaped(t.shape())?
                        .with_lod(t.lod().to_vec()),
                ),
                None => None,
            };
            grads.push(g);
        }
        drop((ts, gt));
        set_grads(s, dxs.iter().zip(grads).collect());
        Ok(())
    })
}

/// The rows `[lod[i] + Offset[i], + Length[i])` of each sequence `i` of
/// `X`, checked as 1.x's kernel checked them.
fn slice_rows(
    x: &Tensor,
    offset: &Tensor,
    length: &Tensor,
    name: &str,
) -> Result<Vec<(usize, usize)>, KernelError> {
    let lod = one_level(x, name, "sequence_slice")?;
    let n = lod.len() - 1;
    for (slot, t) in [("Offset", offset), ("Length", length)] {
        if !matches!(t.dtype(), VarKind::Int32 | VarKind::Int64) {
            return Err(KernelError::Dtype(format!(
                "{slot} of sequence_slice is {}; it takes int64",
                dtype_name(t.dtype())
            )));
        }
        if t.shape().first().copied() != Some(n as i64) {
            return Err(KernelError::Shape(format!(
                "{slot} {:?}: the size of input-sequence and {}-array should be the same ({n})",
                t.shape(),
                slot.to_lowercase()
            )));
        }
    }
    let (off, len) = (i64s(offset)?, i64s(length)?);
    (0..n)
        .map(|i| {
            let (o, k) = (off[i], len[i]);
            if o < 0 {
                return Err(KernelError::Invalid(format!(
                    "The offset[{i}] must be nonnegative."
                )));
            }
            if k < 0 {
                return Err(KernelError::Invalid(format!(
                    "The length[{i}] must be nonnegative."
                )));
            }
            let a = lod[i] + o as usize;
            let b = a + k as usize;
            if b > lod[i + 1] {
                return Err(KernelError::Invalid(format!(
                    "The target tensor's length overflow: sequence {i} has {} rows, offset {o} and length {k}",
                    lod[i + 1] - lod[i]
                )));
            }
            Ok((a, b))
        })
        .collect()
}

/// `Out`: the slices of the sequences of `X`, LoD their lengths.
fn sequence_slice(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, offset, length) = (l.input("X")?, l.input("Offset")?, l.input("Length")?);
    let out = l.output("Out")?;
    compute(move |s| {
        let (xt, ot, lt) = (s.tensor(&x)?, s.tensor(&offset)?, s.tensor(&length)?);
        check_dtype(&xt, "sequence_slice", &[VarKind::Fp32, VarKind::Fp64])?;
        let ranges = slice_rows(&xt, &ot, &lt, &x.name)?;
        let t =
            take_rows(&xt, &ranges)?.with_lod(vec![offsets_of(ranges.iter().map(|&(a, b)| b - a))]);
        drop((xt, ot, lt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD`: zeros but for the sliced rows, which take `Out@GRAD`'s.
fn sequence_slice_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, offset, length) = (l.input("X")?, l.input("Offset")?, l.input("Length")?);
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, ot, lt) = (s.tensor(&x)?, s.tensor(&offset)?, s.tensor(&length)?);
        let gt = s.tensor(&dout)?;
        let ranges = slice_rows(&xt, &ot, &lt, &x.name)?;
        let width = xt.numel().checked_div(rows_of(&xt)).unwrap_or(0);
        let sliced: usize = ranges.iter().map(|&(a, b)| b - a).sum();
        if gt.numel() != sliced * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must have the {sliced} sliced rows",
                gt.shape()
            )));
        }
        let g = f64s(&gt, "sequence_slice_grad")?;
        let mut d = vec![0.0; xt.numel()];
        let mut at = 0;
        for &(a, b) in &ranges {
            let k = (b - a) * width;
            d[a * width..b * width].copy_from_slice(&g[at..at + k]);
            at += k;
        }
        let t = tensor(gt.dtype(), xt.shape(), d)?.with_lod(xt.lod().to_vec());
        drop(g);
        drop((xt, ot, lt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `Out`: `X`'s values as rows of `new_dim`, each sequence's rows
/// regrouped (its length times `X`'s width must divide by `new_dim`).
fn sequence_reshape(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let new_dim = l.int("new_dim")?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        check_dtype(&xt, "sequence_reshape", &FLOATS_INTS)?;
        if xt.shape().len() != 2 {
            return Err(KernelError::Shape(format!(
                "X `{}` has shape {:?}; it must have rank 2",
                x.name,
                xt.shape()
            )));
        }
        let out_width = usize::try_from(new_dim)
            .ok()
            .filter(|&w| w > 0)
            .ok_or_else(|| KernelError::Attribute(format!("new_dim {new_dim} must be positive")))?;
        let lod = one_level(&xt, &x.name, "sequence_reshape")?;
        let in_width = xt.shape()[1].max(0) as usize;
        let lod = if in_width == out_width {
            lod.to_vec()
        } else {
            let mut lengths = Vec::new();
            for (i, w) in lod.windows(2).enumerate() {
                let total = (w[1] - w[0]) * in_width;
                if !total.is_multiple_of(out_width) {
                    return Err(KernelError::Invalid(format!(
                        "Please make sure (sequence_length * dimension) can be divided by new_dim with no remainder for each sequence. The {}th sequence is invalid.",
                        i + 1
                    )));
                }
                lengths.push(total / out_width);
            }
            offsets_of(lengths)
        };
        let rows = lod.last().copied().unwrap_or(0);
        let t = xt
            .reshaped(&[rows as i64, out_width as i64])?
            .with_lod(vec![lod]);
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD`: `Out@GRAD` in `X`'s shape, with `X`'s LoD.
fn sequence_reshape_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, gt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let t = gt.reshaped(xt.shape())?.with_lod(xt.lod().to_vec());
        drop((xt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `Out` `[rows, win_size]`: row `r` of a sequence holds its ids from `r`
/// on, at most `win_size`, then `pad_value`; `X`'s LoD.
fn sequence_enumerate(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let win = l.int("win_size")?;
    let pad = l.int("pad_value")?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        check_dtype(&xt, "sequence_enumerate", &[VarKind::Int32, VarKind::Int64])?;
        let win = usize::try_from(win)
            .ok()
            .filter(|&w| w >= 2)
            .ok_or_else(|| {
                KernelError::Attribute(format!(
                    "win_size {win}: the window size should be not less than 2"
                ))
            })?;
        let lod = xt.lod().first().cloned().ok_or_else(|| {
            KernelError::Invalid(format!(
                "`{}` of sequence_enumerate has no LoD; feed it as a LoD tensor",
                x.name
            ))
        })?;
        if xt.shape().len() != 2 || xt.shape()[1] != 1 {
            return Err(KernelError::Shape(format!(
                "X `{}` has shape {:?}; it must be [rows, 1]",
                x.name,
                xt.shape()
            )));
        }
        let rows = rows_of(&xt);
        let shape = [rows as i64, win as i64];
        let data = with_data!(xt.data(), |v: T| {
            let fill: T = crate::tensor::convert(pad);
            let mut o: Vec<T> = Vec::with_capacity(alloc::check(&shape, T::KIND)?);
            for w in lod.windows(2) {
                for r in w[0]..w[1] {
                    let end = (r + win).min(w[1]);
                    o.extend_from_slice(&v[r..end]);
                    o.extend(std::iter::repeat_n(fill, win - (end - r)));
                }
            }
            T::wrap(o.into())
        });
        let t = Tensor::new(&shape, data)?.with_lod(xt.lod().to_vec());
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `sequence_erase` (1.x's kernel): `Out` is `X` (int32 or int64,
/// `[rows, 1]`) without the rows whose id is one of `tokens`; the last LoD
/// level counts the rows each sequence keeps, the levels above stay.
fn sequence_erase(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let tokens = l.ints("tokens")?.ok_or_else(|| {
        KernelError::Attribute("sequence_erase needs `tokens`, the ids to erase".into())
    })?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        check_dtype(&xt, "sequence_erase", &[VarKind::Int32, VarKind::Int64])?;
        let Some(last) = xt.lod().last() else {
            return Err(KernelError::Invalid(format!(
                "`{}` of sequence_erase has no LoD; feed it as a LoD tensor \
                 (fluid.create_lod_tensor)",
                x.name
            )));
        };
        let ids = i64s(&xt)?;
        if last.last().copied().unwrap_or(0) != ids.len() || last.first() != Some(&0) {
            return Err(KernelError::Invalid(format!(
                "the LoD {last:?} of `{}` does not cover its {} ids",
                x.name,
                ids.len()
            )));
        }
        let mut kept = Vec::new();
        let mut lengths = Vec::with_capacity(last.len().saturating_sub(1));
        for w in last.windows(2) {
            let before = kept.len();
            kept.extend(
                (w[0]..w[1])
                    .filter(|&r| !tokens.contains(&ids[r]))
                    .map(|r| (r, r + 1)),
            );
            lengths.push(kept.len() - before);
        }
        drop(ids);
        let mut lod = xt.lod()[..xt.lod().len() - 1].to_vec();
        lod.push(offsets_of(lengths));
        let t = take_rows(&xt, &kept)?.with_lod(lod);
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `Y`'s one LoD level, with as many sequences as `X` has rows.
fn expand_level<'a>(
    x: &Tensor,
    y: &'a Tensor,
    yn: &str,
    op: &str,
) -> Result<&'a [usize], KernelError> {
    let lod = one_level(y, yn, op)?;
    if lod.len() < 2 || lod.len() - 1 != rows_of(x) {
        return Err(KernelError::Shape(format!(
            "X has {} rows but Y `{yn}` has {} sequences; the first dimension of X should be equal to the size of Y's level-0 LoD",
            rows_of(x),
            lod.len().saturating_sub(1)
        )));
    }
    Ok(lod)
}

/// `Out`: row `i` of `X` repeated for each row of sequence `i` of `Y`;
/// `Y`'s LoD.
fn sequence_expand_as(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        check_dtype(&xt, "sequence_expand_as", &FLOATS_INTS)?;
        let lod = expand_level(&xt, &yt, &y.name, "sequence_expand_as")?;
        let ranges: Vec<(usize, usize)> = lod
            .windows(2)
            .enumerate()
            .flat_map(|(i, w)| std::iter::repeat_n((i, i + 1), w[1] - w[0]))
            .collect();
        let t = take_rows(&xt, &ranges)?.with_lod(yt.lod().to_vec());
        drop((xt, yt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD`: each row the sum of the gradients of its copies; `X`'s LoD.
fn sequence_expand_as_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, dout) = (l.input("X")?, l.input("Y")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let (xt, yt, gt) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&dout)?);
        let lod = expand_level(&xt, &yt, &y.name, "sequence_expand_as_grad")?;
        let width = xt.numel().checked_div(rows_of(&xt)).unwrap_or(0);
        let total = lod.last().copied().unwrap_or(0);
        if gt.numel() != total * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must have {total} rows of {width}",
                gt.shape()
            )));
        }
        let g = f64s(&gt, "sequence_expand_as_grad")?;
        let mut d = vec![0.0; xt.numel()];
        for (i, w) in lod.windows(2).enumerate() {
            for r in w[0]..w[1] {
                for (a, b) in d[i * width..(i + 1) * width]
                    .iter_mut()
                    .zip(&g[r * width..(r + 1) * width])
                {
                    *a += b;
                }
            }
        }
        let t = tensor(gt.dtype(), xt.shape(), d)?.with_lod(xt.lod().to_vec());
        drop(g);
        drop((xt, yt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// Where `sequence_scatter` adds each row of `Updates`: sequence `k` of
/// `Ids`' LoD (one level) adds to row `k` of `X`, at column `Ids[i]` of the
/// row flattened to `slice` values.
fn scatter_places(
    ids: &Tensor,
    rows: usize,
    slice: usize,
    op: &str,
) -> Result<Vec<usize>, KernelError> {
    let lod = match ids.lod() {
        [level] => level,
        [] => {
            return Err(KernelError::Shape(format!(
                "Input(Ids) Tensor of {op} does not contain LoD information."
            )))
        }
        _ => {
            return Err(KernelError::Shape(format!(
                "{op}: Currently only level 1 LoD could be processed by sequence scatter op."
            )))
        }
    };
    let idx = i64s(ids)?;
    let n = ids.shape().first().copied().unwrap_or(0).max(0) as usize;
    if lod.last().copied().unwrap_or(0) < n || idx.len() < n {
        return Err(KernelError::Shape(format!(
            "{op}: Ids {:?} with LoD {lod:?}: Segment num must not exceed batch size.",
            ids.shape()
        )));
    }
    let mut places = Vec::with_capacity(n);
    for (seq, w) in lod.windows(2).enumerate() {
        for i in w[0]..w[1].min(n) {
            let col = usize::try_from(idx[i]).ok().filter(|&c| c < slice);
            match col {
                Some(c) if seq < rows => places.push(seq * slice + c),
                _ => {
                    return Err(KernelError::Shape(format!(
                        "{op}: Ids[{i}] = {} of sequence {seq} is not a place in X's {rows} rows of {slice}",
                        idx[i]
                    )))
                }
            }
        }
    }
    Ok(places)
}

/// `sequence_scatter` (1.x's kernel): `Out` is `X` with each `Updates[i]`
/// added at its place (see [`scatter_places`]).
fn sequence_scatter(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, ids, updates, out) = (
        l.input("X")?,
        l.input("Ids")?,
        l.input("Updates")?,
        l.output("Out")?,
    );
    compute(move |s| {
        let (xt, it, ut) = (s.tensor(&x)?, s.tensor(&ids)?, s.tensor(&updates)?);
        let rows = xt.shape().first().copied().unwrap_or(0).max(0) as usize;
        let slice = xt.numel().checked_div(rows).unwrap_or(0);
        let places = scatter_places(&it, rows, slice, "sequence_scatter")?;
        if ut.dtype() != xt.dtype() || ut.numel() < places.len() {
            return Err(KernelError::Shape(format!(
                "sequence_scatter: Updates {:?} ({}) must hold a value of X's dtype ({}) per id",
                ut.shape(),
                dtype_name(ut.dtype()),
                dtype_name(xt.dtype())
            )));
        }
        let t = match xt.dtype() {
            VarKind::Fp32 | VarKind::Fp64 => {
                let mut o = f64s(&xt, "sequence_scatter")?.into_owned();
                let u = f64s(&ut, "sequence_scatter")?;
                for (i, &p) in places.iter().enumerate() {
                    o[p] += u[i];
                }
                tensor(xt.dtype(), xt.shape(), o)?
            }
            _ => {
                let mut o = i64s(&xt)?.into_owned();
                let u = i64s(&ut)?;
                for (i, &p) in places.iter().enumerate() {
                    o[p] = o[p].wrapping_add(u[i]);
                }
                Tensor::from_vec(xt.shape(), o)?.cast(xt.dtype())?
            }
        };
        drop((xt, it, ut));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `sequence_scatter_grad`: `X@GRAD` is `Out@GRAD`; `Updates@GRAD[i]` is
/// `Out@GRAD` at `Updates[i]`'s place.
fn sequence_scatter_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (ids, updates, dout) = (l.input("Ids")?, l.input("Updates")?, l.input("Out@GRAD")?);
    let (dx, dupdates) = (l.opt_output("X@GRAD")?, l.opt_output("Updates@GRAD")?);
    compute(move |s| {
        let (it, ut, dt) = (s.tensor(&ids)?, s.tensor(&updates)?, s.tensor(&dout)?);
        let rows = dt.shape().first().copied().unwrap_or(0).max(0) as usize;
        let slice = dt.numel().checked_div(rows).unwrap_or(0);
        let places = scatter_places(&it, rows, slice, "sequence_scatter_grad")?;
        let dv = f64s(&dt, "sequence_scatter_grad")?;
        let mut du = vec![0.0; ut.numel()];
        for (i, &p) in places.iter().enumerate().take(du.len()) {
            du[i] = dv[p];
        }
        let gx = tensor(dt.dtype(), dt.shape(), dv.into_owned())?;
        let gu = tensor(dt.dtype(), ut.shape(), du)?;
        drop((it, ut, dt));
        set_grads(s, vec![(&dx, Some(gx)), (&dupdates, Some(gu))]);
        Ok(())
    })
}
