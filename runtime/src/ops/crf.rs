//! The linear-chain CRF of Paddle 1.x: its cost `linear_chain_crf` with
//! `linear_chain_crf_grad`, and its Viterbi decoder `crf_decoding`, as
//! 1.x's CPU kernels (`linear_chain_crf_op.h`, `crf_decoding_op.h` and the
//! reference `CRFDecoding` jit kernel) compute them, in the emission's
//! precision.
//!
//! `Transition` `w` is `[D + 2, D]` for `D` tags: row 0 the weights of
//! starting at each tag, row 1 of ending at each, and row `2 + i` the
//! weights from tag `i` to each tag. A sequence of emission rows `x` and
//! tags `s` scores `w[0][s_1] + w[1][s_L] + sum_k x[k][s_k] + sum_k
//! w[2 + s_(k-1)][s_k]`; the op's `LogLikelihood` is the negative log of
//! its probability among all tag sequences (the cost to minimize), one
//! row per sequence of `Label`'s LoD (0 for an empty one). The forward
//! vectors `Alpha` are normalized row by row to sum to 1 (1.x's guard
//! against underflow), and the gradient reads them with the exponentials
//! of the emissions (less each row's maximum) and of the transitions.
use fluidc_transpiler::VarKind;

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::needs_float;
use crate::ops::optim::Real;
use crate::tensor::{dtype_name, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("linear_chain_crf", linear_chain_crf);
    r.add("linear_chain_crf_grad", linear_chain_crf_grad);
    r.add("crf_decoding", crf_decoding);
}

/// The start rows of the transition weights between tags.
const TRANSITIONS: usize = 2;

fn rows(t: &Tensor) -> usize {
    t.shape().first().copied().unwrap_or(1).max(0) as usize
}

/// The tag number `D` of a `[N, D]` emission and a `[D + 2, D]` transition.
fn tag_number(emission: &Tensor, transition: &Tensor, op: &str) -> Result<usize, KernelError> {
    let (e, t) = (emission.shape(), transition.shape());
    if e.len() != 2 {
        return Err(KernelError::Shape(format!(
            "{op}: Emission has shape {e:?}; it must be a 2-D tensor [N, D] (D tags)"
        )));
    }
    if t.len() != 2 || t[0] != t[1] + 2 || t[1] != e[1] {
        return Err(KernelError::Shape(format!(
            "{op}: Transition has shape {t:?}; for an Emission of {} tags it must be [{}, {}]",
            e[1],
            e[1] + 2,
            e[1]
        )));
    }
    if e[0] == 0 {
        return Err(KernelError::Shape(format!(
            "{op}: Emission has no rows; an empty mini-batch is not allowed"
        )));
    }
    Ok(e[1] as usize)
}

/// The sequences of a one-level LoD tensor `t` (named `name`, slot `slot`).
fn one_level<'a>(
    t: &'a Tensor,
    name: &str,
    slot: &str,
    op: &str,
) -> Result<&'a [usize], KernelError> {
    match t.lod() {
        [one] => Ok(one),
        [] => Err(KernelError::Invalid(format!(
            "{op}: {slot} `{name}` has no LoD; it must be a batch of sequences (feed it as a LoD tensor, fluid.create_lod_tensor)"
        ))),
        more => Err(KernelError::Invalid(format!(
            "{op}: {slot} `{name}` has {} LoD levels; it must have one (a batch of sequences)",
            more.len()
        ))),
    }
}

/// The int64 tags of a `[N, 1]` label for `n` rows of `d` tags, each in
/// `[0, d)` as 1.x checked.
fn tags<'a>(label: &'a Tensor, n: usize, d: usize, op: &str) -> Result<&'a [i64], KernelError> {
    let Some(v) = label.values::<i64>() else {
        return Err(KernelError::Dtype(format!(
            "{op}: Label is {}; it must be int64 tags",
            dtype_name(label.dtype())
        )));
    };
    if label.shape().len() != 2 || label.shape()[1] != 1 || v.len() != n {
        return Err(KernelError::Shape(format!(
            "{op}: Label has shape {:?}; it must be [{n}, 1], one tag per Emission row",
            label.shape()
        )));
    }
    if let Some(bad) = v.iter().find(|&&t| t < 0 || t as usize >= d) {
        return Err(KernelError::Invalid(format!(
            "{op}: a label {bad} is not a tag: the tag number is {d}, so labels must be in [0, {d})"
        )));
    }
    Ok(v)
}

/// Scales `row` to sum to 1 and returns the sum it had (1.x's
/// `NormalizeL1`, which refuses a zero sum).
fn normalize<T: Real>(row: &mut [T], op: &str) -> Result<T, KernelError> {
    let sum = row.iter().fold(T::zero(), |s, &v| s + v);
    if sum == T::zero() || sum.is_nan() {
        return Err(KernelError::Invalid(format!(
            "{op}: the unnormalized probabilities of all possible unfinished sequences sum to {}; \
             they must be greater than 0 (are the emissions or transitions infinite?)",
            Element::to_f64(sum)
        )));
    }
    let scale = T::one() / sum;
    for v in row.iter_mut() {
        *v = *v * scale;
    }
    Ok(sum)
}

/// The forward results: `(Alpha, EmissionExps, TransitionExps,
/// LogLikelihood)`.
type Forward<T> = (Vec<T>, Vec<T>, Vec<T>, Vec<T>);

/// The CRF cost of each sequence of `offsets` over emission `x` `[N, d]`.
fn crf_forward<T: Real>(
    x: &[T],
    w: &[T],
    labels: &[i64],
    offsets: &[usize],
    d: usize,
    op: &str,
) -> Result<Forward<T>, KernelError> {
    let n = x.len() / d;
    let mut row_max = vec![T::zero(); n];
    let mut x_exps = vec![T::zero(); x.len()];
    for r in 0..n {
        let row = &x[r * d..(r + 1) * d];
        let m = row
            .iter()
            .fold(T::neg_infinity(), |m, &v| if v > m { v } else { m });
        row_max[r] = m;
        for (e, &v) in x_exps[r * d..(r + 1) * d].iter_mut().zip(row) {
            *e = (v - m).exp();
        }
    }
    let w_exps: Vec<T> = w.iter().map(|v| v.exp()).collect();
    let mut alpha = vec![T::zero(); x.len()];
    let mut costs = Vec::with_capacity(offsets.len().saturating_sub(1));
    for s in offsets.windows(2) {
        let (a, b) = (s[0], s[1]);
        if a == b {
            costs.push(T::zero());
            continue;
        }
        // ll: log Z's negation, built row by row from the normalizers.
        for i in 0..d {
            alpha[a * d + i] = w_exps[i] * x_exps[a * d + i];
        }
        let mut ll = -row_max[a] - normalize(&mut alpha[a * d..(a + 1) * d], op)?.ln();
        for k in a + 1..b {
            for i in 0..d {
                let mut sum = T::zero();
                for j in 0..d {
                    sum = sum + alpha[(k - 1) * d + j] * w_exps[(j + TRANSITIONS) * d + i];
                }
                alpha[k * d + i] = x_exps[k * d + i] * sum;
            }
            ll = ll - (row_max[k] + normalize(&mut alpha[k * d..(k + 1) * d], op)?.ln());
        }
        let mut end = T::zero();
        for i in 0..d {
            end = end + alpha[(b - 1) * d + i] * w_exps[d + i];
        }
        ll = ll - end.ln();
        // The score of the labelled path.
        let tag = |k: usize| labels[k] as usize;
        ll = ll + w[tag(a)] + x[a * d + tag(a)] + w[d + tag(b - 1)];
        for k in a + 1..b {
            ll = ll + x[k * d + tag(k)] + w[(tag(k - 1) + TRANSITIONS) * d + tag(k)];
        }
        costs.push(-ll);
    }
    Ok((alpha, x_exps, w_exps, costs))
}

/// `Alpha`, `EmissionExps`, `TransitionExps` and `LogLikelihood` (`[S, 1]`
/// for the `S` sequences of `Label`'s LoD).
fn linear_chain_crf(l: &OpReader) -> Result<Exec, KernelError> {
    let (e, t, label) = (
        l.input("Emission")?,
        l.input("Transition")?,
        l.input("Label")?,
    );
    let outs =
        ["Alpha", "EmissionExps", "TransitionExps", "LogLikelihood"].map(|slot| l.opt_output(slot));
    let [alpha, e_exps, t_exps, ll] = outs;
    let (alpha, e_exps, t_exps, ll) = (alpha?, e_exps?, t_exps?, ll?);
    let op = "linear_chain_crf";
    compute(move |s| {
        let (et, tt, lt) = (s.tensor(&e)?, s.tensor(&t)?, s.tensor(&label)?);
        let d = tag_number(&et, &tt, op)?;
        one_level(&et, &e.name, "Emission", op)?;
        let offsets = one_level(&lt, &label.name, "Label", op)?.to_vec();
        let labels = tags(&lt, rows(&et), d, op)?;
        if offsets.last() != Some(&rows(&et)) {
            return Err(KernelError::Shape(format!(
                "{op}: the LoD of Label `{}` ends at row {:?} but Emission has {} rows",
                label.name,
                offsets.last(),
                rows(&et)
            )));
        }
        fn run<T: Real>(
            e: &Tensor,
            t: &Tensor,
            labels: &[i64],
            offsets: &[usize],
            d: usize,
        ) -> Result<[Tensor; 4], KernelError> {
            let (Some(x), Some(w)) = (e.values::<T>(), t.values::<T>()) else {
                return Err(KernelError::Dtype(format!(
                    "linear_chain_crf: Emission is {} and Transition {}; they must be one float dtype",
                    dtype_name(e.dtype()),
                    dtype_name(t.dtype())
                )));
            };
            let (alpha, x_exps, w_exps, costs) =
                crf_forward(x, w, labels, offsets, d, "linear_chain_crf")?;
            let seqs = costs.len() as i64;
            Ok([
                Tensor::from_vec(e.shape(), alpha)?,
                Tensor::from_vec(e.shape(), x_exps)?,
                Tensor::from_vec(t.shape(), w_exps)?,
                Tensor::from_vec(&[seqs, 1], costs)?,
            ])
        }
        let results = match et.dtype() {
            VarKind::Fp32 => run::<f32>(&et, &tt, labels, &offsets, d)?,
            VarKind::Fp64 => run::<f64>(&et, &tt, labels, &offsets, d)?,
            _ => return Err(needs_float(op, &et)),
        };
        drop((et, tt, lt));
        for (r, t) in [&alpha, &e_exps, &t_exps, &ll].into_iter().zip(results) {
            if let Some(r) = r {
                s.set_tensor(r, t);
            }
        }
        Ok(())
    })
}

/// What the gradient reads, per sequence.
struct Saved<'a, T> {
    alpha: &'a [T],
    x_exps: &'a [T],
    w_exps: &'a [T],
    labels: &'a [i64],
    d: usize,
}

/// Adds one sequence's (rows `a..b`, cost gradient `g`) terms to the
/// emission gradient `dx` (its rows) and the transition gradient `dw`.
fn crf_backward_one<T: Real>(
    v: &Saved<T>,
    a: usize,
    b: usize,
    g: T,
    dx: &mut [T],
    dw: Option<&mut [T]>,
    op: &str,
) -> Result<(), KernelError> {
    let d = v.d;
    let len = b - a;
    let row = |m: &[T], k: usize| -> Vec<T> { m[(a + k) * d..(a + k + 1) * d].to_vec() };
    // The backward vectors, normalized as the forward ones.
    let mut beta = vec![T::zero(); len * d];
    beta[(len - 1) * d..].copy_from_slice(&v.w_exps[d..2 * d]);
    normalize(&mut beta[(len - 1) * d..], op)?;
    for k in (0..len - 1).rev() {
        for i in 0..d {
            let mut sum = T::zero();
            for j in 0..d {
                sum = sum
                    + v.w_exps[(i + TRANSITIONS) * d + j]
                        * v.x_exps[(a + k + 1) * d + j]
                        * beta[(k + 1) * d + j];
            }
            beta[k * d + i] = sum;
        }
        normalize(&mut beta[k * d..(k + 1) * d], op)?;
    }
    // Each position's tag marginals, less the label's indicator.
    for k in 0..len {
        let alpha = row(v.alpha, k);
        let prob: Vec<T> = (0..d).map(|i| alpha[i] * beta[k * d + i]).collect();
        let total = prob.iter().fold(T::zero(), |s, &p| s + p);
        for i in 0..d {
            dx[(a + k) * d + i] = prob[i] / total * g;
        }
        let tag = v.labels[a + k] as usize;
        dx[(a + k) * d + tag] = dx[(a + k) * d + tag] - g;
    }
    let Some(dw) = dw else {
        return Ok(());
    };
    for i in 0..d {
        dw[i] = dw[i] + dx[a * d + i];
        dw[d + i] = dw[d + i] + dx[(b - 1) * d + i];
    }
    // Pairwise marginals of consecutive tags: alpha[k-1][i] w[i][j]
    // (x beta)[k][j], normalized over (i, j).
    let mut next = vec![T::zero(); len * d];
    for k in 0..len {
        let xk = row(v.x_exps, k);
        let prod: Vec<T> = (0..d).map(|j| beta[k * d + j] * xk[j]).collect();
        let total = prod.iter().fold(T::zero(), |s, &p| s + p);
        for j in 0..d {
            next[k * d + j] = prod[j] / total;
        }
    }
    for k in 1..len {
        let prev = row(v.alpha, k - 1);
        let mut sum = T::zero();
        for (i, &p) in prev.iter().enumerate() {
            for j in 0..d {
                sum = sum + v.w_exps[(i + TRANSITIONS) * d + j] * p * next[k * d + j];
            }
        }
        let inv = T::one() / sum;
        for (i, &p) in prev.iter().enumerate() {
            for j in 0..d {
                let at = (i + TRANSITIONS) * d + j;
                dw[at] = dw[at] + inv * v.w_exps[at] * p * next[k * d + j] * g;
            }
        }
        let at = (v.labels[a + k - 1] as usize + TRANSITIONS) * d + v.labels[a + k] as usize;
        dw[at] = dw[at] - g;
    }
    Ok(())
}

/// `Emission@GRAD` (with `Emission`'s LoD) and `Transition@GRAD`, each
/// when backward asks for it, from the saved forward results and one cost
/// gradient per sequence.
fn linear_chain_crf_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let ins = [
        "Label",
        "Alpha",
        "EmissionExps",
        "TransitionExps",
        "LogLikelihood@GRAD",
    ]
    .map(|slot| l.input(slot));
    let [label, alpha, e_exps, t_exps, dll] = ins;
    let (label, alpha, e_exps, t_exps, dll) = (label?, alpha?, e_exps?, t_exps?, dll?);
    let emission = l.opt_input("Emission")?;
    let (de, dt) = (
        l.opt_output("Emission@GRAD")?,
        l.opt_output("Transition@GRAD")?,
    );
    let op = "linear_chain_crf_grad";
    compute(move |s| {
        if de.is_none() && dt.is_none() {
            return Ok(());
        }
        let ts = [&label, &alpha, &e_exps, &t_exps, &dll].map(|r| s.tensor(r));
        let [lt, at, et, tt, gt] = ts;
        let (lt, at, et, tt, gt) = (lt?, at?, et?, tt?, gt?);
        let d = tag_number(&et, &tt, op)?;
        let n = rows(&et);
        let offsets = one_level(&lt, &label.name, "Label", op)?.to_vec();
        let labels = tags(&lt, n, d, op)?;
        if offsets.last() != Some(&n) || at.shape() != et.shape() {
            return Err(KernelError::Shape(format!(
                "{op}: Label's LoD ends at {:?}, Alpha has shape {:?} and EmissionExps {:?}; \
                 they must all cover the same rows",
                offsets.last(),
                at.shape(),
                et.shape()
            )));
        }
        let seqs = offsets.len() - 1;
        if gt.numel() != seqs {
            return Err(KernelError::Shape(format!(
                "{op}: LogLikelihood@GRAD has shape {:?}; it must be [{seqs}, 1], one value per sequence",
                gt.shape()
            )));
        }
        fn run<T: Real>(
            ts: [&Tensor; 4],
            labels: &[i64],
            offsets: &[usize],
            d: usize,
            want_dw: bool,
        ) -> Result<(Tensor, Tensor), KernelError> {
            let [at, et, tt, gt] = ts;
            let (Some(alpha), Some(x_exps), Some(w_exps), Some(g)) = (
                at.values::<T>(),
                et.values::<T>(),
                tt.values::<T>(),
                gt.values::<T>(),
            ) else {
                return Err(KernelError::Dtype(
                    "linear_chain_crf_grad: Alpha, EmissionExps, TransitionExps and \
                     LogLikelihood@GRAD must have one float dtype"
                        .into(),
                ));
            };
            let v = Saved {
                alpha,
                x_exps,
                w_exps,
                labels,
                d,
            };
            let mut dx = vec![T::zero(); x_exps.len()];
            let mut dw = vec![T::zero(); w_exps.len()];
            for (k, s) in offsets.windows(2).enumerate() {
                if s[0] == s[1] {
                    continue;
                }
                let dw = want_dw.then_some(&mut dw[..]);
                crf_backward_one(&v, s[0], s[1], g[k], &mut dx, dw, "linear_chain_crf_grad")?;
            }
            Ok((
                Tensor::from_vec(et.shape(), dx)?,
                Tensor::from_vec(tt.shape(), dw)?,
            ))
        }
        let ts = [&*at, &*et, &*tt, &*gt];
        let (gx, gw) = match et.dtype() {
            VarKind::Fp32 => run::<f32>(ts, labels, &offsets, d, dt.is_some())?,
            VarKind::Fp64 => run::<f64>(ts, labels, &offsets, d, dt.is_some())?,
            _ => return Err(needs_float(op, &et)),
        };
        // Emission@GRAD has Emission's LoD (1.x shared it), else Label's.
        let lod = match &emission {
            Some(e) => s.tensor(e).map(|t| t.lod().to_vec()).unwrap_or_default(),
            None => lt.lod().to_vec(),
        };
        drop((lt, at, et, tt, gt));
        super::float::set_grads(s, vec![(&de, Some(gx.with_lod(lod))), (&dt, Some(gw))]);
        Ok(())
    })
}

/// The best tag sequence of one sequence's emission rows `x` (`len` rows
/// of `d`) under transition `w`, written to `path` (1.x's reference
/// Viterbi: scores in the emission's precision, the first of equal
/// maxima wins).
fn viterbi<T: Real>(x: &[T], w: &[T], len: usize, d: usize, path: &mut [i64]) {
    let mut alpha = vec![T::zero(); len * d];
    let mut track = vec![0usize; len * d];
    for i in 0..d {
        alpha[i] = w[i] + x[i];
    }
    for k in 1..len {
        for i in 0..d {
            let mut best = -T::max_value();
            let mut best_j = 0;
            for j in 0..d {
                let score = alpha[(k - 1) * d + j] + w[(j + TRANSITIONS) * d + i];
                if score > best {
                    best = score;
                    best_j = j;
                }
            }
            alpha[k * d + i] = best + x[k * d + i];
            track[k * d + i] = best_j;
        }
    }
    let mut best = -T::max_value();
    let mut last = 0;
    for i in 0..d {
        let score = alpha[(len - 1) * d + i] + w[d + i];
        if score > best {
            best = score;
            last = i;
        }
    }
    path[len - 1] = last as i64;
    for k in (1..len).rev() {
        last = track[k * d + last];
        path[k - 1] = last as i64;
    }
}

/// The Viterbi path of each sequence: int64 tags `[N, 1]` with
/// `Emission`'s LoD, or for a padded `[B, S, D]` emission with `Length`
/// tags `[B, S]` (0 past each length). With `Label`, each tag becomes 1
/// where it equals the label and 0 elsewhere (what `chunk_eval` reads in
/// training).
fn crf_decoding(l: &OpReader) -> Result<Exec, KernelError> {
    let (e, t, out) = (
        l.input("Emission")?,
        l.input("Transition")?,
        l.output("ViterbiPath")?,
    );
    let (label, length) = (l.opt_input("Label")?, l.opt_input("Length")?);
    let op = "crf_decoding";
    compute(move |s| {
        let (et, tt) = (s.tensor(&e)?, s.tensor(&t)?);
        let shape = et.shape().to_vec();
        // (the emission as rows, each sequence's first row and length,
        // the path's shape and LoD)
        let (flat, seqs, path_shape, lod): (Vec<i64>, Vec<(usize, usize)>, Vec<i64>, _) =
            match &length {
                Some(len) => {
                    if shape.len() != 3 {
                        return Err(KernelError::Shape(format!(
                            "{op}: with Length, Emission has shape {shape:?}; it must be [B, S, D]"
                        )));
                    }
                    let lt = s.tensor(len)?;
                    let lens = super::float::i64s(&lt)?;
                    let (b, steps) = (shape[0].max(0) as usize, shape[1].max(0) as usize);
                    if lens.len() != b {
                        return Err(KernelError::Shape(format!(
                            "{op}: Length has {} values but Emission {b} sequences",
                            lens.len()
                        )));
                    }
                    let mut seqs = Vec::with_capacity(b);
                    for (i, &n) in lens.iter().enumerate() {
                        if n < 0 || n as usize > steps {
                            return Err(KernelError::Invalid(format!(
                                "{op}: Length {n} of sequence {i} is not in [0, {steps}]"
                            )));
                        }
                        seqs.push((i * steps, n as usize));
                    }
                    (
                        vec![shape[0] * shape[1], shape[2]],
                        seqs,
                        vec![shape[0], shape[1]],
                        Vec::new(),
                    )
                }
                None => {
                    let offsets = one_level(&et, &e.name, "Emission", op)?;
                    if offsets.last() != Some(&rows(&et)) {
                        return Err(KernelError::Shape(format!(
                            "{op}: the LoD of Emission `{}` ends at {:?} but it has {} rows",
                            e.name,
                            offsets.last(),
                            rows(&et)
                        )));
                    }
                    let seqs = offsets.windows(2).map(|w| (w[0], w[1] - w[0])).collect();
                    (shape.clone(), seqs, vec![shape[0], 1], et.lod().to_vec())
                }
            };
        let flat_tensor = et.reshaped(&flat)?;
        let d = tag_number(&flat_tensor, &tt, op)?;
        let mut path = vec![0i64; flat[0].max(0) as usize];
        fn run<T: Real>(
            e: &Tensor,
            t: &Tensor,
            seqs: &[(usize, usize)],
            d: usize,
            path: &mut [i64],
        ) -> Result<(), KernelError> {
            let (Some(x), Some(w)) = (e.values::<T>(), t.values::<T>()) else {
                return Err(KernelError::Dtype(format!(
                    "crf_decoding: Emission is {} and Transition {}; they must be one float dtype",
                    dtype_name(e.dtype()),
                    dtype_name(t.dtype())
                )));
            };
            for &(start, len) in seqs {
                if len > 0 {
                    let rows = &x[start * d..(start + len) * d];
                    viterbi(rows, w, len, d, &mut path[start..start + len]);
                }
            }
            Ok(())
        }
        match et.dtype() {
            VarKind::Fp32 => run::<f32>(&flat_tensor, &tt, &seqs, d, &mut path)?,
            VarKind::Fp64 => run::<f64>(&flat_tensor, &tt, &seqs, d, &mut path)?,
            _ => return Err(needs_float(op, &et)),
        }
        if let Some(label) = &label {
            let lt = s.tensor(label)?;
            let Some(v) = lt.values::<i64>() else {
                return Err(KernelError::Dtype(format!(
                    "{op}: Label is {}; it must be int64 tags",
                    dtype_name(lt.dtype())
                )));
            };
            if v.len() != path.len() {
                return Err(KernelError::Shape(format!(
                    "{op}: Label has shape {:?} but the path has {} tags; give one label per Emission row",
                    lt.shape(),
                    path.len()
                )));
            }
            for (p, &want) in path.iter_mut().zip(v) {
                *p = i64::from(*p == want);
            }
        }
        drop((et, tt));
        s.set_tensor(&out, Tensor::from_vec(&path_shape, path)?.with_lod(lod));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag sequence of `len` tags out of `d`, as lists.
    fn all_paths(len: usize, d: usize) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        for _ in 0..len {
            out = out
                .into_iter()
                .flat_map(|p| {
                    (0..d).map(move |t| {
                        let mut q = p.clone();
                        q.push(t);
                        q
                    })
                })
                .collect();
        }
        out
    }

    fn score(x: &[f64], w: &[f64], p: &[usize], d: usize) -> f64 {
        let mut s = w[p[0]] + w[d + p[p.len() - 1]];
        for (k, &t) in p.iter().enumerate() {
            s += x[k * d + t];
            if k > 0 {
                s += w[(p[k - 1] + 2) * d + t];
            }
        }
        s
    }

    fn values(n: usize, seed: u64) -> Vec<f64> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 11) as f64 / (1u64 << 53) as f64) * 4.0 - 2.0
            })
            .collect()
    }

    /// The cost is `log Z - score(labels)` with `Z` summed over every tag
    /// sequence, and Viterbi picks the highest-scoring one.
    #[test]
    fn cost_and_path_agree_with_enumerating_every_tag_sequence() {
        let d = 3;
        for len in 1..=4 {
            let x = values(len * d, len as u64);
            let w = values((d + 2) * d, 99 + len as u64);
            let labels: Vec<i64> = (0..len).map(|k| ((k * 2 + 1) % d) as i64).collect();
            let (_, _, _, costs) =
                crf_forward(&x, &w, &labels, &[0, len], d, "test").expect("forward");
            let paths = all_paths(len, d);
            let z: f64 = paths.iter().map(|p| score(&x, &w, p, d).exp()).sum();
            let lab: Vec<usize> = labels.iter().map(|&t| t as usize).collect();
            let want = z.ln() - score(&x, &w, &lab, d);
            assert!((costs[0] - want).abs() < 1e-12, "{} vs {want}", costs[0]);
            let best = paths
                .iter()
                .max_by(|a, b| score(&x, &w, a, d).total_cmp(&score(&x, &w, b, d)))
                .expect("paths");
            let mut path = vec![0i64; len];
            viterbi(&x, &w, len, d, &mut path);
            let got: Vec<usize> = path.iter().map(|&t| t as usize).collect();
            assert_eq!(&got, best);
        }
    }

    #[test]
    fn an_empty_sequence_costs_nothing() {
        let x = values(6, 3);
        let w = values(15, 4);
        let (_, _, _, costs) =
            crf_forward(&x, &w, &[0, 1], &[0, 0, 2, 2], 3, "test").expect("forward");
        assert_eq!(costs.len(), 3);
        assert_eq!((costs[0], costs[2]), (0.0, 0.0));
        assert!(costs[1] > 0.0);
    }
}
