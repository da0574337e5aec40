//! `split_lod_tensor` and `merge_lod_tensor`, the ops of Paddle 1.x's
//! `IfElse` (each the other's gradient), after 1.x's kernels: a bool
//! `Mask` with one entry per sequence of `X`'s LoD level `level` (per row
//! without LoD) sends each sequence, with its LoD below that level, to
//! `OutTrue` or `OutFalse`; merging takes them back in the mask's order
//! and puts the levels above `level` back from `X`. Paddle 3.3.1 dropped
//! both (docs/ops.md).
use super::lod::{append_lod, sub_lod};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::{dtype_name, with_data, Element, Lod, Tensor};
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("split_lod_tensor", split_lod_tensor);
    r.add("merge_lod_tensor", merge_lod_tensor);
}

fn level(l: &OpReader) -> Result<usize, KernelError> {
    usize::try_from(l.int_or("level", 0)?)
        .map_err(|_| KernelError::Attribute("`level` must not be negative".into()))
}

fn rows(t: &Tensor) -> usize {
    t.shape().first().copied().unwrap_or(1).max(0) as usize
}

/// The bools of `Mask`, one per row of it (1.x reads its first dim's
/// worth of bools).
fn mask_values(s: &mut Vars, m: &VarRef) -> Result<Vec<bool>, KernelError> {
    let mt = s.tensor(m)?;
    let v = mt.values::<bool>().ok_or_else(|| {
        KernelError::Dtype(format!(
            "Mask `{}` must hold bools, it holds {}",
            m.name,
            dtype_name(mt.dtype())
        ))
    })?;
    Ok(v[..rows(&mt).min(v.len())].to_vec())
}

/// A tensor, or `None` for a variable nothing wrote (a branch of an
/// IfElse that got no rows).
fn opt_tensor(s: &mut Vars, r: &VarRef) -> Result<Option<Tensor>, KernelError> {
    if s.with(r, |v| matches!(v, Value::Empty)) {
        return Ok(None);
    }
    Ok(Some((*s.tensor(r)?).clone()))
}

/// The rows `pieces` (tensor, start, end), one after another, as a tensor
/// of `like`'s row shape and dtype with `total` rows (zeros past the
/// pieces).
fn join_rows(
    like: &Tensor,
    pieces: &[(&Tensor, usize, usize)],
    total: usize,
) -> Result<Tensor, KernelError> {
    let mut shape = like.shape().to_vec();
    if shape.is_empty() {
        shape.push(1);
    }
    let width = shape[1..].iter().product::<i64>().max(0) as usize;
    shape[0] = total as i64;
    let data = with_data!(like.data(), |_like: T| {
        let mut out: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
        for &(t, a, b) in pieces {
            let vals = t.values::<T>().ok_or_else(|| {
                KernelError::Dtype(format!(
                    "InTrue and InFalse differ in dtype ({} and {})",
                    dtype_name(like.dtype()),
                    dtype_name(t.dtype())
                ))
            })?;
            let part = vals.get(a * width..b * width).ok_or_else(|| {
                KernelError::Shape(format!(
                    "rows {a}..{b} are past a tensor of shape {:?}",
                    t.shape()
                ))
            })?;
            out.extend_from_slice(part);
        }
        out.resize(total * width, T::ZERO);
        T::wrap(out.into())
    });
    Tensor::new(&shape, data)
}

/// `split_lod_tensor`: the sequences of `X`'s level `level` (its rows
/// without LoD) whose `Mask` entry is true to `OutTrue`, the others to
/// `OutFalse`, each with its LoD from that level down.
fn split_lod_tensor(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, mask) = (l.input("X")?, l.input("Mask")?);
    let outs = [l.opt_output("OutFalse")?, l.opt_output("OutTrue")?];
    let level = level(l)?;
    compute(move |s| {
        let m = mask_values(s, &mask)?;
        let xt = (*s.tensor(&x)?).clone();
        let lod = xt.lod().get(level..).unwrap_or(&[]);
        let units = lod.first().map_or(rows(&xt), |l| l.len().saturating_sub(1));
        if m.len() != units {
            return Err(KernelError::Shape(format!(
                "Mask `{}` has {} entries but `{}` has {units} {} at LoD level {level}",
                mask.name,
                m.len(),
                x.name,
                if lod.is_empty() { "rows" } else { "sequences" }
            )));
        }
        for (side, out) in outs.iter().enumerate() {
            let Some(out) = out else { continue };
            let mut out_lod = Lod::new();
            let mut pieces = Vec::new();
            for (k, _) in m
                .iter()
                .enumerate()
                .filter(|(_, &b)| usize::from(b) == side)
            {
                let (lengths, (a, b)) = sub_lod(lod, k)?;
                append_lod(&mut out_lod, &lengths)?;
                pieces.push((&xt, a, b));
            }
            let total = pieces.iter().map(|&(_, a, b)| b - a).sum();
            let t = join_rows(&xt, &pieces, total)?.with_lod(out_lod);
            s.set_tensor(out, t);
        }
        Ok(())
    })
}

/// `merge_lod_tensor`: the inverse of [`split_lod_tensor`]: for each
/// `Mask` entry in order, the next sequence of `InTrue` or `InFalse` (its
/// rows and LoD), then `X`'s LoD levels above `level` in front. A branch
/// nothing wrote counts as no rows.
fn merge_lod_tensor(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, mask, out) = (l.input("X")?, l.input("Mask")?, l.output("Out")?);
    let branches = [l.input("InFalse")?, l.input("InTrue")?];
    let level = level(l)?;
    compute(move |s| {
        let m = mask_values(s, &mask)?;
        let ins = [opt_tensor(s, &branches[0])?, opt_tensor(s, &branches[1])?];
        let Some(like) = ins[1].as_ref().or(ins[0].as_ref()) else {
            return Err(KernelError::Invalid(format!(
                "neither `{}` nor `{}` holds a tensor",
                branches[1].name, branches[0].name
            )));
        };
        let total = ins.iter().flatten().map(rows).sum();
        let mut out_lod = Lod::new();
        let mut pieces = Vec::new();
        let mut next = [0usize; 2];
        for &b in &m {
            let side = usize::from(b);
            let Some(input) = ins[side].as_ref() else {
                return Err(KernelError::Invalid(format!(
                    "Mask `{}` picks `{}`, which holds no tensor",
                    mask.name, branches[side].name
                )));
            };
            let (lengths, (a, e)) = sub_lod(input.lod(), next[side])?;
            append_lod(&mut out_lod, &lengths)?;
            // 1.x's kernel moves on to the branch's next sequence only
            // after one with rows: an empty sequence is taken again.
            if e > a {
                pieces.push((input, a, e));
                next[side] += 1;
            }
        }
        let xt = s.tensor(&x)?;
        for i in 0..level {
            let above = xt.lod().get(i).ok_or_else(|| {
                KernelError::Shape(format!(
                    "`{}` has {} LoD level(s), fewer than level {level} needs",
                    x.name,
                    xt.lod().len()
                ))
            })?;
            out_lod.insert(0, above.clone());
        }
        drop(xt);
        let t = join_rows(like, &pieces, total)?.with_lod(out_lod);
        s.set_tensor(&out, t);
        Ok(())
    })
}
