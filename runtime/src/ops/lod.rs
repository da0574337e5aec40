//! LoD (variable-length sequence) ops of Paddle 1.x's `DynamicRNN`:
//! `lod_rank_table`, `max_sequence_len`, `lod_tensor_to_array`,
//! `array_to_lod_tensor`, `shrink_rnn_memory` and its grad, and
//! `reorder_lod_tensor_by_rank` and its grad; and `lod_reset` (with its
//! grad) and `is_empty`, which beam-search decoders use; and
//! `rnn_memory_helper` and its grad, the identity 1.x's StaticRNN put on
//! its step outputs and memories.
//!
//! Paddle 3.3.1 dropped all of these, so fluidc implements them after
//! Paddle 1.x's C++ kernels (docs/ops.md). A rank table
//! orders the sequences of one LoD level longest first (ties keep their
//! order); a DynamicRNN's step `t` holds the `t`-th element of every
//! sequence longer than `t`, in the table's order, so that the batch of
//! each step is a prefix of the previous step's.
use std::sync::Arc;

use crate::error::KernelError;
use crate::exec::Kernel;
use crate::exec::{compute, Exec};
use crate::kernel::{is_placeholder, OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::{dtype_name, with_data, Element, Lod, Scalar, Tensor};
use crate::value::{RankTable, Value};
use fluidc_transpiler::ops::Lod as LodRule;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("lod_rank_table", lod_rank_table);
    r.add("max_sequence_len", max_sequence_len);
    r.add("lod_tensor_to_array", lod_tensor_to_array);
    r.add("array_to_lod_tensor", array_to_lod_tensor);
    r.add("shrink_rnn_memory", shrink_rnn_memory);
    r.add("shrink_rnn_memory_grad", shrink_rnn_memory_grad);
    r.add("reorder_lod_tensor_by_rank", |l| reorder_by_rank(l, false));
    r.add("reorder_lod_tensor_by_rank_grad", |l| {
        reorder_by_rank(l, true)
    });
    r.add("lod_reset", lod_reset);
    r.add("lod_reset_grad", lod_reset_grad);
    r.add("is_empty", is_empty);
    r.add("rnn_memory_helper", rnn_memory_helper);
    r.add("rnn_memory_helper_grad", rnn_memory_helper_grad);
}

/// `rnn_memory_helper` (1.x's `RNNMemoryHelperOp`): `Out` is a copy of
/// `X`, with its LoD.
fn rnn_memory_helper(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let t = Tensor::clone(&*s.tensor(&x)?);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `rnn_memory_helper_grad` (1.x's `RNNMemoryHelperGradOp`): `X@GRAD` is
/// a copy of `Out@GRAD`, with its LoD, or, when no gradient reached `Out`,
/// zeros of `X`'s dtype and shape (1.x ran a `fill_constant`: no LoD).
fn rnn_memory_helper_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.opt_input("X")?, l.opt_input("Out@GRAD")?);
    let dx = l.output("X@GRAD")?;
    compute(move |s| {
        let given = dout
            .as_ref()
            .filter(|d| !s.with(d, |v| matches!(v, Value::Empty)));
        let g = match (given, &x) {
            (Some(d), _) => Tensor::clone(&*s.tensor(d)?),
            (None, Some(x)) => {
                let xt = s.tensor(x)?;
                Tensor::zeros(xt.dtype(), xt.shape())?
            }
            (None, None) => {
                return Err(KernelError::MissingInput(
                    "rnn_memory_helper_grad has neither Out@GRAD nor X".into(),
                ))
            }
        };
        s.set_tensor(&dx, g);
        Ok(())
    })
}

/// The queries the kernels make of a rank table (`crate::value::RankTable`).
impl RankTable {
    /// Step `t` of the sequences of a tensor of LoD `lod` (at the table's
    /// level and below): the `t`-th element of each sequence longer than
    /// `t`, in the table's order: their LoD below the table's level and
    /// their rows.
    fn step(&self, lod: &[Vec<usize>], t: usize) -> (Lod, Vec<(usize, usize)>) {
        let starts: Vec<(usize, usize)> = self.items[..self.active(t)]
            .iter()
            .map(|&(k, _)| {
                let at = lod[self.level][k] + t;
                (at, at + 1)
            })
            .collect();
        sequences(&lod[self.level + 1..], &starts)
    }

    /// The rows of a tensor of LoD `lod` the table's sequences cover.
    fn total_rows(&self, lod: &[Vec<usize>]) -> usize {
        let mut at = lod[self.level].last().copied().unwrap_or(0);
        for level in &lod[self.level + 1..] {
            at = level.get(at).copied().unwrap_or(at);
        }
        at
    }

    /// The length of each sequence, in the level's order.
    fn lengths(&self) -> Vec<usize> {
        let mut v = vec![0; self.items.len()];
        for &(k, len) in &self.items {
            v[k] = len;
        }
        v
    }

    /// How many sequences are longer than `t`: the batch of step `t` (a
    /// prefix of the table).
    fn active(&self, t: usize) -> usize {
        self.items.partition_point(|&(_, len)| len > t)
    }

    fn max_len(&self) -> usize {
        self.items.first().map_or(0, |&(_, len)| len)
    }
}

fn table(s: &mut Vars, r: &VarRef) -> Result<Arc<RankTable>, KernelError> {
    s.with(r, |v| match v {
        Value::RankTable(t) => Ok(t.clone()),
        other => Err(KernelError::Invalid(format!(
            "`{}` must be a rank table (made by lod_rank_table), not {}",
            r.name,
            other.describe()
        ))),
    })
}

/// The rows `ranges` of `x`, one after another, under `x`'s row shape.
pub(crate) fn take_rows(x: &Tensor, ranges: &[(usize, usize)]) -> Result<Tensor, KernelError> {
    let rows = x.shape().first().copied().unwrap_or(1).max(0) as usize;
    let width = x.numel().checked_div(rows).unwrap_or(0);
    let n: usize = ranges.iter().map(|(a, b)| b - a).sum();
    if let Some(&(_, end)) = ranges.iter().find(|&&(_, end)| end > rows) {
        return Err(KernelError::Shape(format!(
            "row {end} is past the {rows} rows of a tensor of shape {:?}",
            x.shape()
        )));
    }
    let mut shape = x.shape().to_vec();
    if shape.is_empty() {
        shape.push(1);
    }
    shape[0] = n as i64;
    let data = with_data!(x.data(), |v: T| {
        let mut out: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
        for &(a, b) in ranges {
            out.extend_from_slice(&v[a * width..b * width]);
        }
        T::wrap(out.into())
    });
    Tensor::new(&shape, data)
}

/// `lod_rank_table`: the sequences of `X`'s LoD level `level`, longest first.
fn lod_rank_table(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let level = usize::try_from(l.int("level")?)
        .map_err(|_| KernelError::Attribute("`level` must not be negative".into()))?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let lod = xt.lod().to_vec();
        if level >= lod.len() {
            return Err(KernelError::Invalid(format!(
                "`{}` has {} LoD level(s), so it has no level {level}; feed it as a \
                 LoD tensor (fluid.create_lod_tensor) and keep its LoD on the way",
                x.name,
                lod.len()
            )));
        }
        let mut items: Vec<(usize, usize)> = lod[level]
            .windows(2)
            .enumerate()
            .map(|(k, w)| (k, w[1] - w[0]))
            .collect();
        items.sort_by_key(|item| std::cmp::Reverse(item.1));
        drop(xt);
        s.set(
            &out,
            Value::RankTable(Arc::new(RankTable { level, items, lod })),
        );
        Ok(())
    })
}

/// `max_sequence_len`: the longest sequence's length, an int64 `[1]`.
fn max_sequence_len(l: &OpReader) -> Result<Exec, KernelError> {
    let (t, out) = (l.input("RankTable")?, l.output("Out")?);
    compute(move |s| {
        let len = table(s, &t)?.max_len();
        s.set_scalar(&out, Scalar::Int64(len as i64), 1);
        Ok(())
    })
}

/// `lod_tensor_to_array`: element `t` of the array holds the `t`-th
/// element of each sequence longer than `t`, in the table's order, each
/// with its LoD below the table's level (1.x's sub-sequence LoD).
fn lod_tensor_to_array(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, t, out) = (l.input("X")?, l.input("RankTable")?, l.output("Out")?);
    compute(move |s| {
        let table = table(s, &t)?;
        let xt = s.tensor(&x)?;
        let lod = lod_for(&xt, &table);
        check_rows(&xt, &x, &table, lod)?;
        let mut items = Vec::with_capacity(table.max_len());
        for step in 0..table.max_len() {
            let (lod, rows) = table.step(lod, step);
            items.push(Value::tensor(take_rows(&xt, &rows)?.with_lod(lod)));
        }
        drop(xt);
        s.set(&out, Value::TensorArray(Arc::new(items)));
        Ok(())
    })
}

/// The LoD `lod_tensor_to_array` splits `xt` by: its own, as 1.x's
/// kernel read it, when it has a sequence for each of the table's at the
/// table's level (a nested loop's output has fewer rows than the input the
/// table was made from: one per inner sequence); else the table's (a
/// gradient whose producer kept no LoD).
fn lod_for<'a>(xt: &'a Tensor, table: &'a RankTable) -> &'a [Vec<usize>] {
    let own = xt.lod();
    let fits = own
        .get(table.level)
        .is_some_and(|l| l.len() == table.lod[table.level].len());
    if fits {
        own
    } else {
        &table.lod
    }
}

fn check_rows(
    xt: &Tensor,
    x: &VarRef,
    table: &RankTable,
    lod: &[Vec<usize>],
) -> Result<(), KernelError> {
    let rows = xt.shape().first().copied().unwrap_or(1);
    if rows != table.total_rows(lod) as i64 {
        return Err(KernelError::Shape(format!(
            "`{}` has {rows} rows but its rank table's sequences hold {}",
            x.name,
            table.total_rows(lod)
        )));
    }
    Ok(())
}

/// `array_to_lod_tensor`: the inverse of [`lod_tensor_to_array`], after
/// 1.x's kernel: the sequences back in their first order, each step's
/// element read from that step's tensor by its own LoD (the element of
/// the `p`-th sequence of the table is the step's `p`-th), under the
/// table's levels above its level and one level counting each sequence's
/// elements. A step nothing wrote (no gradient reached it) gives zeros
/// shaped as the table's tensor.
fn array_to_lod_tensor(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, t, out) = (l.input("X")?, l.input("RankTable")?, l.output("Out")?);
    compute(move |s| {
        let table = table(s, &t)?;
        let steps = s.with(&x, |v| match v {
            Value::TensorArray(items) => Ok(items.clone()),
            Value::Empty => Ok(Arc::default()),
            other => Err(KernelError::Invalid(format!(
                "`{}` must be a tensor array, not {}",
                x.name,
                other.describe()
            ))),
        })?;
        let steps: Vec<Option<Tensor>> = steps.iter().map(Value::to_tensor).collect();
        let Some(like) = steps.iter().flatten().next() else {
            return Err(KernelError::Invalid(format!(
                "`{}` holds no tensor",
                x.name
            )));
        };
        let mut rank_of = vec![0; table.items.len()];
        for (p, &(k, _)) in table.items.iter().enumerate() {
            rank_of[k] = p;
        }
        // (step, rows) of each element in the output's order, and the LoD
        // below the table's level.
        let below = &table.lod[table.level + 1..];
        let mut pieces = Vec::new();
        let mut sub = Lod::new();
        let mut counts = vec![0];
        for (k, len) in table.lengths().into_iter().enumerate() {
            counts.push(counts.last().copied().unwrap_or(0) + len);
            for step in 0..len {
                let (lengths, rows) = match steps.get(step).and_then(Option::as_ref) {
                    Some(st) => sub_lod(st.lod(), rank_of[k])?,
                    None => sub_lod(below, table.lod[table.level][k] + step)?,
                };
                append_lod(&mut sub, &lengths)?;
                pieces.push((step, rows));
            }
        }
        let width = like.numel() / (like.shape().first().copied().unwrap_or(1).max(1) as usize);
        let mut shape = like.shape().to_vec();
        shape[0] = pieces.iter().map(|(_, (a, b))| b - a).sum::<usize>() as i64;
        let data = with_data!(like.data(), |_like: T| {
            let mut out: Vec<T> = Vec::with_capacity(crate::tensor::alloc::check(&shape, T::KIND)?);
            for &(step, (a, b)) in &pieces {
                let n = (b - a) * width;
                match steps.get(step).and_then(Option::as_ref) {
                    Some(st) => {
                        let vals = st.values::<T>().ok_or_else(|| {
                            KernelError::Dtype(format!(
                                "the elements of `{}` differ in dtype",
                                x.name
                            ))
                        })?;
                        let part = vals.get(a * width..a * width + n).ok_or_else(|| {
                            KernelError::Shape(format!(
                                "element {step} of `{}` has shape {:?}, too small for its {} sequences",
                                x.name,
                                st.shape(),
                                table.active(step)
                            ))
                        })?;
                        out.extend_from_slice(part);
                    }
                    None => out.extend(std::iter::repeat_n(T::ZERO, n)),
                }
            }
            T::wrap(out.into())
        });
        let mut lod: Lod = table.lod[..table.level].to_vec();
        lod.push(counts);
        lod.extend(sub);
        s.set_tensor(&out, Tensor::new(&shape, data)?.with_lod(lod));
        Ok(())
    })
}

/// `shrink_rnn_memory`: the first rows of `X`, one per sequence still
/// running at step `I` (the table's prefix longer than `I`). An `X` with
/// LoD (a `DynamicRNN.static_input`, its sequences reordered by the
/// table) keeps the rows of its first sequences that many, with their
/// LoD, as 1.x's kernel kept them; an `X` of fewer sequences keeps the
/// first rows without LoD.
fn shrink_rnn_memory(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, i, t, out) = (
        l.input("X")?,
        l.input("I")?,
        l.input("RankTable")?,
        l.output("Out")?,
    );
    compute(move |s| {
        let n = table(s, &t)?.active(super::array::index(s, &i)?);
        let xt = s.tensor(&x)?;
        let shrunk = match xt.lod().first() {
            Some(level) if level.len() > n => {
                let (lod, rows) = sequences(xt.lod(), &[(0, n)]);
                take_rows(&xt, &rows)?.with_lod(lod)
            }
            _ => {
                let rows = xt.shape().first().copied().unwrap_or(1).max(0) as usize;
                take_rows(&xt, &[(0, n.min(rows))])?
            }
        };
        drop(xt);
        s.set_tensor(&out, shrunk);
        Ok(())
    })
}

/// The top-level sequences `ranges` (each a range of level-0 indices) of
/// a tensor of LoD `lod`, one after another: their LoD, every level
/// starting at 0, and the rows they hold (1.x's
/// `GetSubLoDAndAbsoluteOffset`, appended with `AppendLoD`).
fn sequences(lod: &[Vec<usize>], ranges: &[(usize, usize)]) -> (Lod, Vec<(usize, usize)>) {
    let mut out: Lod = vec![vec![0]; lod.len()];
    let mut rows = Vec::with_capacity(ranges.len());
    for &(mut a, mut b) in ranges {
        for (offsets, level) in out.iter_mut().zip(lod) {
            for k in a..b {
                let end = offsets.last().copied().unwrap_or(0);
                offsets.push(end + level[k + 1] - level[k]);
            }
            (a, b) = (level[a], level[b]);
        }
        rows.push((a, b));
    }
    (out, rows)
}

/// Sequence `k` of the first level of `lod` (row `k` without LoD): the
/// lengths of it and of its sub-sequences at every level, and the rows it
/// holds (1.x's `GetSubLoDAndAbsoluteOffset`).
pub(crate) fn sub_lod(lod: &[Vec<usize>], k: usize) -> Result<(Lod, (usize, usize)), KernelError> {
    let (mut a, mut b) = (k, k + 1);
    let mut lengths = Vec::with_capacity(lod.len());
    for level in lod {
        let (Some(&end), Some(_)) = (level.get(b), level.get(a)) else {
            return Err(KernelError::Shape(format!(
                "sequence {k} is past the {} sequences of the LoD",
                lod[0].len().saturating_sub(1)
            )));
        };
        lengths.push((a..b).map(|i| level[i + 1] - level[i]).collect());
        (a, b) = (level[a], end);
    }
    Ok((lengths, (a, b)))
}

/// Appends the `lengths` of one sequence to `lod` (1.x's `AppendLoD`).
pub(crate) fn append_lod(lod: &mut Lod, lengths: &[Vec<usize>]) -> Result<(), KernelError> {
    if lod.is_empty() {
        *lod = vec![vec![0]; lengths.len()];
    }
    if lod.len() != lengths.len() {
        return Err(KernelError::Shape(format!(
            "a sequence of {} LoD level(s) cannot join sequences of {}",
            lengths.len(),
            lod.len()
        )));
    }
    for (offsets, lens) in lod.iter_mut().zip(lengths) {
        for len in lens {
            let end = offsets.last().copied().unwrap_or(0);
            offsets.push(end + len);
        }
    }
    Ok(())
}

/// `shrink_rnn_memory_grad`: `Out@GRAD` in the first rows of a zero
/// tensor shaped like `X` (all zeros when no gradient reached `Out`),
/// with `X`'s LoD (which `reorder_lod_tensor_by_rank_grad` reads to put
/// a static input's sequences back).
fn shrink_rnn_memory_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.opt_input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let mut g = Tensor::zeros(xt.dtype(), xt.shape())?.with_lod(xt.lod().to_vec());
        drop(xt);
        if let Some(d) = dout
            .as_ref()
            .filter(|d| !s.with(d, |v| matches!(v, Value::Empty)))
        {
            let dt = s.tensor(d)?;
            with_data!(dt.data(), |v: T| {
                let dst = g
                    .make_values_mut::<T>()
                    .ok_or_else(|| KernelError::Dtype("Out@GRAD and X differ in dtype".into()))?;
                let part = dst.get_mut(..v.len()).ok_or_else(|| {
                    KernelError::Shape(format!(
                        "Out@GRAD of shape {:?} is larger than X",
                        dt.shape()
                    ))
                })?;
                part.copy_from_slice(v);
            });
        }
        s.set_tensor(&dx, g);
        Ok(())
    })
}

/// `reorder_lod_tensor_by_rank`: the sequences of `X` (those of its
/// level-0 LoD, with their LoD at every level, or its rows) in the
/// table's order; `_grad` puts them back, with their LoD.
fn reorder_by_rank(l: &OpReader, back: bool) -> Result<Exec, KernelError> {
    let (x, t, out) = (l.input("X")?, l.input("RankTable")?, l.output("Out")?);
    compute(move |s| {
        let table = table(s, &t)?;
        let xt = s.tensor(&x)?;
        let units = match xt.lod().first() {
            Some(level) => level.len().saturating_sub(1),
            None => xt.shape().first().copied().unwrap_or(1).max(0) as usize,
        };
        if units != table.items.len() {
            return Err(KernelError::Shape(format!(
                "`{}` holds {units} sequences but the rank table orders {}",
                x.name,
                table.items.len()
            )));
        }
        let order: Vec<usize> = if back {
            let mut inv = vec![0; units];
            for (p, &(k, _)) in table.items.iter().enumerate() {
                inv[k] = p;
            }
            inv
        } else {
            table.items.iter().map(|&(k, _)| k).collect()
        };
        let ranges: Vec<_> = order.iter().map(|&k| (k, k + 1)).collect();
        // Both ways keep each sequence's LoD (1.x's CopyTensorAndLod).
        let r = if xt.lod().is_empty() {
            take_rows(&xt, &ranges)?
        } else {
            let (lod, rows) = sequences(xt.lod(), &ranges);
            take_rows(&xt, &rows)?.with_lod(lod)
        };
        drop(xt);
        s.set_tensor(&out, r);
        Ok(())
    })
}

/// What an op does with LoD is part of its definition
/// ([`LodRule`]). The output of an op that shares LoD
/// takes it only when it keeps the input's rows ([`Tensor::share_lod`]),
/// which is also the `InferShape` rule of `squeeze2`, `unsqueeze2` and
/// `flatten2` (`x_dims[0] == out_dims[0]`) and what Paddle 3.3.1 does
/// running them: `unsqueeze2` or `flatten2` of axis 0 of a sequence batch
/// gives a tensor without LoD, and so does a `slice` of its rows (a slice
/// of axis 1 keeps the LoD). `reshape2` keeps it whatever the rows, so ops
/// that read a LoD check it first: Paddle 3.3.1 reads such a LoD as it is
/// (pooling the first rows of a `[12, 3]` tensor by a LoD of 6); fluidc
/// stops instead.
fn lod_rule(ty: &str) -> LodRule {
    fluidc_transpiler::ops::lod_of(ty)
}

/// Whether LoD can matter in `p`: a variable declared with LoD levels (a
/// sequence feed), a fed variable (a feed keeps the LoD of the tensor fed,
/// whatever its `lod_level`, as 1.x's feed op did: 2018 scripts fed
/// `create_random_int_lodtensor`s to plain `data` layers and read the
/// output's LoD), or an op that reads LoD. Only then does [`share_lod`]
/// wrap kernels, so programs without feeds pay nothing for it.
pub(crate) fn uses_lod(p: &fluidc_transpiler::Program) -> bool {
    // Ops that read LoD, and `feed`, which brings it in.
    p.blocks.iter().any(|b| {
        b.ops
            .iter()
            .any(|op| op.ty == "feed" || lod_rule(&op.ty) == LodRule::Reads)
            || b.vars
                .iter()
                .any(|v| v.lod_level() > 0 || v.need_check_feed == Some(true))
    })
}

/// `exec`, followed by giving the op's output its input's LoD when the op
/// shares LoD (its definition's [`LodRule`]; a grad op `*_grad` of one gives each
/// `S@GRAD` the LoD of `S`, or of `Out`, or of `Out@GRAD`), or preceded by
/// checking its inputs' LoD when it reads LoD. Kernels
/// compute plain tensors; this keeps a sequence batch's LoD through the
/// layers between a LoD feed and the sequence op that reads it, as Paddle
/// does.
pub(crate) fn share_lod(l: &OpReader, exec: Exec) -> Result<Exec, KernelError> {
    let Exec::Compute(kernel) = exec else {
        return Ok(exec);
    };
    let ty = l.op.ty.as_str();
    let forward = ty.strip_suffix("_grad").unwrap_or(ty);
    let rule = lod_rule(forward);
    let (input, output, whatever_rows) = match rule {
        LodRule::None => return Ok(Exec::Compute(kernel)),
        LodRule::GradShares if forward == ty => return Ok(Exec::Compute(kernel)),
        LodRule::GradShares => ("X", "Out", false),
        LodRule::Reads => return lod_read_checked(l, kernel),
        LodRule::Shares(input, output) | LodRule::SharesEach(input, output) => {
            (input, output, false)
        }
        LodRule::KeepsWhateverRows(input, output) => (input, output, true),
    };
    // Paddle's ShareLoD shares the first argument's LoD (concat's first
    // input); a grad op pairs each gradient with its variable, position
    // by position (or with `Out`, for a `*_grad` that does not read X).
    let mut pairs = Vec::new();
    if forward == ty && matches!(rule, LodRule::SharesEach(..)) {
        if let Some(from) = l.inputs(input)?.into_iter().next() {
            for to in
                l.op.outputs_of(output)
                    .iter()
                    .filter(|n| !is_placeholder(n))
            {
                pairs.push((from.clone(), l.var(to)?));
            }
        }
    } else if forward == ty {
        if let (Some(from), Some(to)) = (l.inputs(input)?.into_iter().next(), l.opt_output(output)?)
        {
            pairs.push((from, to));
        }
    } else {
        for slot in l.op.outputs.iter().map(|s| s.parameter.as_str()) {
            let Some(of) = slot.strip_suffix("@GRAD") else {
                continue;
            };
            // A grad op that reads neither (`reshape2_grad`, `squeeze2_grad`
            // and the like read `XShape`, `dropout_grad` `Mask`) copies the
            // LoD of `Out@GRAD`, as their Paddle kernels copy that tensor.
            let sources = match (l.op.inputs_of(of), l.op.inputs_of("Out")) {
                ([], []) => l.op.inputs_of("Out@GRAD"),
                ([], out) => out,
                (named, _) => named,
            };
            for (from, to) in sources.iter().zip(l.op.outputs_of(slot)) {
                if !is_placeholder(from) && !is_placeholder(to) {
                    pairs.push((l.var(from)?, l.var(to)?));
                }
            }
        }
    }
    if pairs.is_empty() {
        return Ok(Exec::Compute(kernel));
    }
    compute(move |s| {
        let lod_source = |s: &mut Vars, from: &VarRef| {
            s.with(from, |v| match v {
                Value::Tensor(t) if !t.lod().is_empty() => Some((**t).clone()),
                _ => None,
            })
        };
        // An op in place (`reshape(x, inplace=True)`: Out is X) overwrites
        // its source: its LoD is read first.
        let before: Vec<Option<Tensor>> = pairs
            .iter()
            .map(|(from, to)| {
                (from.place == to.place)
                    .then(|| lod_source(s, from))
                    .flatten()
            })
            .collect();
        kernel(s)?;
        for ((from, to), before) in pairs.iter().zip(before) {
            let source = before.or_else(|| lod_source(s, from));
            if let Some(source) = source {
                s.with(to, |v| {
                    let share = |t: &mut Tensor| {
                        if whatever_rows {
                            t.keep_lod(&source);
                        } else {
                            t.share_lod(&source);
                        }
                    };
                    match v {
                        Value::Tensor(t) => share(t),
                        // A one-row sequence batch's result is one element,
                        // kept as a scalar: it becomes a tensor again to
                        // carry the LoD (a batch of one sequence of one step).
                        Value::Scalar(..) => {
                            if let Some(mut t) = v.to_tensor() {
                                share(&mut t);
                                if !t.lod().is_empty() {
                                    *v = Value::Tensor(Box::new(t));
                                }
                            }
                        }
                        _ => {}
                    }
                });
            }
        }
        Ok(())
    })
}

/// `kernel`, run only once each input tensor's LoD describes its rows
/// ([`LodRule::Reads`]): otherwise a runtime error naming the variable.
fn lod_read_checked(l: &OpReader, kernel: Kernel) -> Result<Exec, KernelError> {
    let mut inputs = Vec::new();
    for slot in &l.op.inputs {
        for name in slot.arguments.iter().filter(|n| !is_placeholder(n)) {
            inputs.push(l.var(name)?);
        }
    }
    compute(move |s| {
        for x in &inputs {
            // Only the last level's end: the rest was checked when fed or
            // made, and a reshape changes only the rows.
            let stale = s.with(x, |v| match v {
                Value::Tensor(t) => {
                    let rows = t.shape().first().copied().unwrap_or(1).max(0) as usize;
                    let end = t.lod().last().and_then(|l| l.last().copied());
                    end.filter(|&end| end != rows).map(|end| (end, rows))
                }
                _ => None,
            });
            if let Some((end, rows)) = stale {
                return Err(KernelError::Invalid(format!(
                    "the LoD of `{}` ends at row {end}, but it has {rows} rows (a reshape \
                     that changed the rows kept its input's LoD, as Paddle 3.3.1's does); \
                     reshape so the first dimension stays, or reshape back before this op",
                    x.name
                )));
            }
        }
        kernel(s)
    })
}

/// `lod_reset`: `X` with `Y`'s LoD when `Y` has one (its last level must
/// end at `X`'s rows), else with the offsets `Y` holds (int32), else with
/// `target_lod`; `append` keeps `X`'s levels before the new one.
fn lod_reset(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let y = l.opt_input("Y")?;
    let target = l.ints("target_lod")?.unwrap_or_default();
    let append = l.bool("append")?;
    let op = "lod_reset";
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let n = rows(&xt);
        let level = match &y {
            Some(y) => {
                let yt = s.tensor(y)?;
                if !yt.lod().is_empty() {
                    let lod = yt.lod().to_vec();
                    let end = lod.last().and_then(|l| l.last().copied());
                    if end != Some(n) {
                        return Err(KernelError::Invalid(format!(
                            "{op}: the last level of Y `{}`'s LoD {lod:?} ends at {end:?}, but X has {n} rows; they must be equal",
                            y.name
                        )));
                    }
                    let t = (*xt).clone();
                    drop((xt, yt));
                    s.set_tensor(&out, t.with_lod(lod));
                    return Ok(());
                }
                match yt.values::<i32>() {
                    Some(v) => v.iter().map(|&o| i64::from(o)).collect(),
                    None => {
                        return Err(KernelError::Dtype(format!(
                            "{op}: Y `{}` has no LoD and is {}; its offsets must be int32",
                            y.name,
                            dtype_name(yt.dtype())
                        )))
                    }
                }
            }
            None => target.clone(),
        };
        let ok = level.first() == Some(&0)
            && level.last() == Some(&(n as i64))
            && level.windows(2).all(|w| w[0] <= w[1]);
        if !ok {
            return Err(KernelError::Invalid(format!(
                "{op}: the target LoD {level:?} must start at 0, never decrease and end at X's {n} rows"
            )));
        }
        let level: Vec<usize> = level.iter().map(|&o| o as usize).collect();
        let mut lod = if append {
            xt.lod().to_vec()
        } else {
            Vec::new()
        };
        lod.push(level);
        if let Err(e) = Tensor::check_lod(&lod, n) {
            return Err(e.map_message(|e| format!("{op}: {e}")));
        }
        let t = (*xt).clone();
        drop(xt);
        s.set_tensor(&out, t.with_lod(lod));
        Ok(())
    })
}

/// `X@GRAD` is `Out@GRAD` with `X`'s LoD.
fn lod_reset_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout, dx) = (l.input("X")?, l.input("Out@GRAD")?, l.output("X@GRAD")?);
    compute(move |s| {
        let g = s.tensor(&dout)?;
        let lod = s.tensor(&x)?.lod().to_vec();
        let t = (*g).clone().with_lod(Vec::new());
        drop(g);
        s.set_tensor(&dx, t.with_lod(lod));
        Ok(())
    })
}

/// `Out` = whether `X` has no elements, a bool `[1]`.
fn is_empty(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        let empty = s.tensor(&x)?.numel() == 0;
        s.set_tensor(&out, Tensor::from_vec(&[1], vec![empty])?);
        Ok(())
    })
}

pub(super) fn rows(t: &Tensor) -> usize {
    t.shape().first().copied().unwrap_or(1).max(0) as usize
}
