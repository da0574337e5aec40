//! `sequence_expand` and its grad, as Paddle's CPU kernels
//! (`sequence_expand_op.h`, unchanged from 1.x to 3.3.1) compute them.
//!
//! `Y`'s LoD level `ref_level` (-1: its last) says how many times each
//! unit of `X` repeats: unit `i` (sequence `i` of `X`'s one LoD level, or
//! row `i` when `X` has no LoD) is copied `ref[i + 1] - ref[i]` times.
//! `Out` has `X`'s LoD made of the copies (none when `X` has none); the
//! gradient of a unit is the sum of its copies' gradients. A level of one
//! offset (no sequences) passes `X` through.
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{f64s, tensor};
use crate::ops::lod::take_rows;
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("sequence_expand", sequence_expand);
    r.add("sequence_expand_grad", sequence_expand_grad);
}

/// How `X` expands: per unit of `X`, its rows and how many copies.
struct Plan {
    /// `(first row, end row, copies)` of each unit, in order.
    units: Vec<(usize, usize, usize)>,
    /// `Y`'s level has no sequences: `Out` is `X`.
    pass_through: bool,
}

/// The plan from `X` and `Y` (named `xn`, `yn`), checked as Paddle's
/// `InferShape` checks them at run time.
fn plan(x: &Tensor, y: &Tensor, ref_level: i64, xn: &str, yn: &str) -> Result<Plan, KernelError> {
    let levels = y.lod().len();
    if levels == 0 {
        return Err(KernelError::Invalid(format!(
            "Y `{yn}` has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)"
        )));
    }
    let level = match ref_level {
        -1 => levels - 1,
        r if (0..levels as i64).contains(&r) => r as usize,
        r => {
            return Err(KernelError::Attribute(format!(
                "ref_level {r} is out of range: Y `{yn}` has {levels} LoD level(s), so it must be -1 or in [0, {levels})"
            )))
        }
    };
    let reference = &y.lod()[level];
    let rows = x.shape().first().copied().unwrap_or(1).max(0) as usize;
    if x.shape().len() < 2 {
        return Err(KernelError::Shape(format!(
            "X `{xn}` has shape {:?}; it must have rank 2 or more (a batch of rows)",
            x.shape()
        )));
    }
    let x_units: Vec<usize> = match x.lod() {
        [] => (0..=rows).collect(),
        [one] => one.clone(),
        more => {
            return Err(KernelError::Shape(format!(
                "X `{xn}` has {} LoD levels; it may have at most 1",
                more.len()
            )))
        }
    };
    if x_units.last() != Some(&rows) {
        return Err(KernelError::Shape(format!(
            "the LoD of X `{xn}` ends at {:?} but it has {rows} rows",
            x_units.last()
        )));
    }
    if reference.len() <= 1 {
        return Ok(Plan {
            units: Vec::new(),
            pass_through: true,
        });
    }
    if x_units.len() != reference.len() {
        return Err(KernelError::Shape(format!(
            "X `{xn}` holds {} {} but level {level} of Y `{yn}`'s LoD has {} sequences; they must be as many",
            x_units.len() - 1,
            if x.lod().is_empty() { "rows" } else { "sequences" },
            reference.len() - 1
        )));
    }
    let units = (1..reference.len())
        .map(|i| {
            let copies = reference[i].saturating_sub(reference[i - 1]);
            (x_units[i - 1], x_units[i], copies)
        })
        .collect();
    Ok(Plan {
        units,
        pass_through: false,
    })
}

/// `Out`: `X`'s units copied per the plan, with the copies' LoD when `X`
/// has LoD.
fn sequence_expand(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, out) = (l.input("X")?, l.input("Y")?, l.output("Out")?);
    let ref_level = l.int("ref_level")?;
    compute(move |s| {
        let (xt, yt) = (s.tensor(&x)?, s.tensor(&y)?);
        let plan = plan(&xt, &yt, ref_level, &x.name, &y.name)?;
        let t = if plan.pass_through {
            (*xt).clone()
        } else {
            let ranges: Vec<(usize, usize)> = plan
                .units
                .iter()
                .flat_map(|&(a, b, copies)| std::iter::repeat_n((a, b), copies))
                .collect();
            let expanded = take_rows(&xt, &ranges)?;
            if xt.lod().is_empty() {
                expanded
            } else {
                let mut offsets = vec![0];
                for &(a, b) in &ranges {
                    offsets.push(offsets.last().copied().unwrap_or(0) + b - a);
                }
                expanded.with_lod(vec![offsets])
            }
        };
        drop((xt, yt));
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `X@GRAD`: each unit's rows the sum of its copies' gradients (zero for
/// a unit not copied), with `X`'s LoD.
fn sequence_expand_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, y, dout) = (l.input("X")?, l.input("Y")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let ref_level = l.int("ref_level")?;
    compute(move |s| {
        let (xt, yt, gt) = (s.tensor(&x)?, s.tensor(&y)?, s.tensor(&dout)?);
        let plan = plan(&xt, &yt, ref_level, &x.name, &y.name)?;
        let rows = xt.shape()[0].max(0) as usize;
        let width = xt.numel().checked_div(rows).unwrap_or(0);
        let copied: usize = plan.units.iter().map(|&(a, b, c)| (b - a) * c).sum();
        let expected = if plan.pass_through { rows } else { copied };
        if gt.numel() != expected * width {
            return Err(KernelError::Shape(format!(
                "Out@GRAD has shape {:?}; it must have {expected} rows of {width}, as Out had",
                gt.shape()
            )));
        }
        let g = f64s(&gt, "sequence_expand_grad")?;
        let mut sum = vec![0.0; rows * width];
        if plan.pass_through {
            sum.copy_from_slice(&g);
        }
        let mut at = 0;
        for &(a, b, copies) in &plan.units {
            let unit = (b - a) * width;
            for _ in 0..copies {
                for (d, v) in sum[a * width..b * width].iter_mut().zip(&g[at..at + unit]) {
                    *d += v;
                }
                at += unit;
            }
        }
        let t = tensor(xt.dtype(), xt.shape(), sum)?.with_lod(xt.lod().to_vec());
        drop(g);
        drop((xt, yt, gt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}
