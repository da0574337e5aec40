//! Connectionist temporal classification, as Paddle 1.x computed it for
//! its OCR and speech models: `warpctc` (the CTC loss of warp-ctc, which
//! 1.x linked: a softmax over each time step's classes, then the negative
//! log-likelihood of the label sequence summed over every alignment, and
//! its gradient with respect to the logits), the greedy decoder's
//! `ctc_align`, and `edit_distance`.
use super::float::{self, f64s, i64s, needs_float};
use super::unary::softmax_f64;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::tensor::{with_data, Element, Lod, Tensor};
use fluidc_transpiler::VarKind;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("warpctc", warpctc);
    r.add("warpctc_grad", warpctc_grad);
    r.add("ctc_align", ctc_align);
    r.add("edit_distance", edit_distance);
}

/// The sequences of a LoD tensor as absolute row offsets (its first
/// level, through the levels below), as 1.x's kernels read them with
/// `ToAbsOffset(lod)[0]`.
fn sequences(t: &Tensor, what: &str) -> Result<Vec<usize>, KernelError> {
    let lod = t.lod();
    let Some(first) = lod.first() else {
        return Err(KernelError::Invalid(format!(
            "{what} must be a LoD tensor (one sequence per LoD entry; fluidc has no padded \
             mode here)"
        )));
    };
    Ok(first
        .iter()
        .map(|&o| {
            lod[1..]
                .iter()
                .fold(o, |at, level| level.get(at).copied().unwrap_or(at))
        })
        .collect())
}

/// `log(exp(a) + exp(b))` without overflow; -inf stands for probability 0.
fn log_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// One sequence's CTC loss and its gradient with respect to the logits
/// (`probs` the softmax of `T` rows of `classes`): the forward (alpha) and
/// backward (beta) variables over the label interleaved with blanks, in
/// log space; the gradient is each class's probability less its share of
/// the alignments through it. A label longer than `T` steps can emit (its
/// length plus its repeated neighbours, each needing a blank between them,
/// over `T`) has loss 0 and a zero gradient, as warp-ctc returned before
/// computing anything (Paddle 1.x's and 3.3.1's warpctc); a label the
/// probabilities cannot emit otherwise has an infinite loss.
fn ctc_sequence(probs: &[f64], classes: usize, label: &[usize], blank: usize) -> (f64, Vec<f64>) {
    let t_len = probs.len() / classes.max(1);
    let repeats = label.windows(2).filter(|w| w[0] == w[1]).count();
    if label.len() + repeats > t_len {
        return (0.0, vec![0.0; probs.len()]);
    }
    let mut ext = Vec::with_capacity(2 * label.len() + 1);
    ext.push(blank);
    for &l in label {
        ext.push(l);
        ext.push(blank);
    }
    let s_len = ext.len();
    let lp = |t: usize, k: usize| probs[t * classes + k].ln();
    // Whether state `s` may be entered from `s - 2` (a label that differs
    // from the label before it, with a blank between them).
    let skip = |s: usize| s >= 2 && ext[s] != blank && ext[s] != ext[s - 2];
    let ninf = f64::NEG_INFINITY;
    let mut alpha = vec![ninf; t_len * s_len];
    let mut beta = vec![ninf; t_len * s_len];
    if t_len > 0 {
        alpha[0] = lp(0, ext[0]);
        if s_len > 1 {
            alpha[1] = lp(0, ext[1]);
        }
        for t in 1..t_len {
            for s in 0..s_len {
                let prev = &alpha[(t - 1) * s_len..t * s_len];
                let mut a = prev[s];
                if s >= 1 {
                    a = log_add(a, prev[s - 1]);
                }
                if skip(s) {
                    a = log_add(a, prev[s - 2]);
                }
                alpha[t * s_len + s] = a + lp(t, ext[s]);
            }
        }
        // beta[t][s]: the probability of what follows step t, given state
        // s at step t (step t's own emission is alpha's).
        let last = (t_len - 1) * s_len;
        beta[last + s_len - 1] = 0.0;
        if s_len > 1 {
            beta[last + s_len - 2] = 0.0;
        }
        for t in (0..t_len - 1).rev() {
            for s in 0..s_len {
                let next = (t + 1) * s_len;
                let mut b = beta[next + s] + lp(t + 1, ext[s]);
                if s + 1 < s_len {
                    b = log_add(b, beta[next + s + 1] + lp(t + 1, ext[s + 1]));
                }
                if s + 2 < s_len && skip(s + 2) {
                    b = log_add(b, beta[next + s + 2] + lp(t + 1, ext[s + 2]));
                }
                beta[t * s_len + s] = b;
            }
        }
    }
    let loglik = if t_len == 0 {
        ninf
    } else {
        let last = (t_len - 1) * s_len;
        let end = alpha[last + s_len - 1];
        if s_len > 1 {
            log_add(end, alpha[last + s_len - 2])
        } else {
            end
        }
    };
    if loglik == ninf {
        return (f64::INFINITY, vec![0.0; probs.len()]);
    }
    let mut grad = probs.to_vec();
    for t in 0..t_len {
        for s in 0..s_len {
            let at = t * s_len + s;
            grad[t * classes + ext[s]] -= (alpha[at] + beta[at] - loglik).exp();
        }
    }
    (-loglik, grad)
}

/// `warpctc`: for each sequence of `Logits` (LoD) and its label sequence
/// (`Label`'s LoD), the CTC loss, a `[sequences, 1]` column; and
/// `WarpCTCGrad`, the gradient of each loss with respect to its logits,
/// padded to `[longest sequence, sequences, classes]` as 1.x laid it out.
fn warpctc(l: &OpReader) -> Result<Exec, KernelError> {
    if l.given(&["LogitsLength", "LabelLength"]) {
        return Err(KernelError::Unsupported(
            "warpctc with LogitsLength/LabelLength (padded input) is not supported; feed \
             LoD tensors"
                .into(),
        ));
    }
    let (logits, label) = (l.input("Logits")?, l.input("Label")?);
    let (loss, grad) = (l.output("Loss")?, l.opt_output("WarpCTCGrad")?);
    let blank = l.int_or("blank", 0)?;
    compute(move |s| {
        let (xt, yt) = (s.tensor(&logits)?, s.tensor(&label)?);
        if !matches!(xt.dtype(), VarKind::Fp32 | VarKind::Fp64) {
            return Err(needs_float("warpctc", &xt));
        }
        let (xs, ys) = (sequences(&xt, "Logits")?, sequences(&yt, "Label")?);
        if xs.len() != ys.len() {
            return Err(KernelError::Shape(format!(
                "Logits holds {} sequences but Label {}",
                xs.len().saturating_sub(1),
                ys.len().saturating_sub(1)
            )));
        }
        let classes = xt.shape().get(1).copied().unwrap_or(0).max(0) as usize;
        let blank = usize::try_from(blank)
            .ok()
            .filter(|&b| b < classes)
            .ok_or_else(|| {
                KernelError::Attribute(format!("blank {blank} is not one of the {classes} classes"))
            })?;
        let x = f64s(&xt, "warpctc")?;
        let labels = i64s(&yt)?;
        let n = xs.len() - 1;
        let longest = xs.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        let mut losses = Vec::with_capacity(n);
        let mut padded = vec![0.0; longest * n * classes];
        for i in 0..n {
            let (a, b) = (xs[i], xs[i + 1]);
            let rows = x.get(a * classes..b * classes).ok_or_else(|| {
                KernelError::Shape(format!("Logits' LoD reaches row {b} of {}", xt.shape()[0]))
            })?;
            let label = labels
                .get(ys[i]..ys[i + 1])
                .ok_or_else(|| KernelError::Shape("Label's LoD reaches past its rows".into()))?
                .iter()
                .map(|&c| {
                    usize::try_from(c)
                        .ok()
                        .filter(|&c| c < classes && c != blank)
                        .ok_or_else(|| {
                            KernelError::Invalid(format!(
                            "label {c} is not a class other than the blank ({blank}) of {classes}"
                        ))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            let probs = softmax_f64(rows, (b - a, classes, 1));
            let (cost, g) = ctc_sequence(&probs, classes, &label, blank);
            losses.push(cost);
            for (t, row) in g.chunks_exact(classes.max(1)).enumerate() {
                let at = (t * n + i) * classes;
                padded[at..at + classes].copy_from_slice(row);
            }
        }
        let dtype = xt.dtype();
        drop((x, labels));
        drop((xt, yt));
        s.set_tensor(&loss, float::tensor(dtype, &[n as i64, 1], losses)?);
        if let Some(grad) = &grad {
            let shape = [longest as i64, n as i64, classes as i64];
            s.set_tensor(grad, float::tensor(dtype, &shape, padded)?);
        }
        Ok(())
    })
}

/// `warpctc_grad`: `WarpCTCGrad` unpadded back to the rows of `Logits`,
/// each sequence's scaled by its `Loss@GRAD` (and by one over its length
/// with `norm_by_times`), as 1.x's kernel did.
fn warpctc_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (grad, logits, dloss) = (
        l.input("WarpCTCGrad")?,
        l.input("Logits")?,
        l.input("Loss@GRAD")?,
    );
    let Some(dx) = l.opt_output("Logits@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let norm_by_times = l.bool_or("norm_by_times", false)?;
    compute(move |s| {
        let xt = s.tensor(&logits)?;
        let xs = sequences(&xt, "Logits")?;
        let (gt, lt) = (s.tensor(&grad)?, s.tensor(&dloss)?);
        let g = f64s(&gt, "warpctc_grad")?;
        let dl = f64s(&lt, "warpctc_grad")?;
        let n = xs.len() - 1;
        let classes = xt.shape().get(1).copied().unwrap_or(0).max(0) as usize;
        let longest = gt.shape().first().copied().unwrap_or(0).max(0) as usize;
        if gt.shape() != [longest as i64, n as i64, classes as i64] || dl.len() != n {
            return Err(KernelError::Shape(format!(
                "WarpCTCGrad {:?} and Loss@GRAD {:?} do not fit Logits' {n} sequences of \
                 {classes} classes",
                gt.shape(),
                lt.shape()
            )));
        }
        let mut out = vec![0.0; xs[n] * classes];
        for i in 0..n {
            let len = xs[i + 1] - xs[i];
            let scale = if norm_by_times && len > 0 {
                dl[i] / len as f64
            } else {
                dl[i]
            };
            for t in 0..len.min(longest) {
                let from = (t * n + i) * classes;
                let to = (xs[i] + t) * classes;
                for k in 0..classes {
                    out[to + k] = g[from + k] * scale;
                }
            }
        }
        let mut shape = xt.shape().to_vec();
        if let Some(rows) = shape.first_mut() {
            *rows = xs[n] as i64;
        }
        let mut t = float::tensor(xt.dtype(), &shape, out)?;
        t.share_lod(&xt);
        drop((g, dl));
        drop((gt, lt, xt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// What `ctc_align` keeps of one sequence: each token that is not the
/// blank and, with `merge`, not the token just before it.
fn align<T: Element>(tokens: &[T], blank: i64, merge: bool) -> Vec<T> {
    let mut kept = Vec::new();
    let mut prev: Option<i64> = None;
    for &t in tokens {
        let v = t.to_i64();
        if v != blank && !(merge && prev == Some(v)) {
            kept.push(t);
        }
        prev = Some(v);
    }
    kept
}

/// `ctc_align` (the greedy decoder's second half): each sequence of
/// `Input`'s LoD with repeats merged and blanks dropped, under a LoD of
/// the kept lengths; when nothing is kept at all, 1.x's `[[-1]]`. Without
/// a LoD, `Input` is `[batch, T]` with `InputLength`: each row aligned in
/// place, padded with `padding_value`, and `OutputLength`.
fn ctc_align(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Input")?, l.output("Output")?);
    let lengths = l.opt_input("InputLength")?;
    let out_lengths = l.opt_output("OutputLength")?;
    let blank = l.int_or("blank", 0)?;
    let merge = l.bool_or("merge_repeated", true)?;
    let padding = l.int_or("padding_value", 0)?;
    compute(move |s| {
        let xt = s.tensor(&x)?;
        if !matches!(xt.dtype(), VarKind::Int32 | VarKind::Int64) {
            return Err(KernelError::Dtype(format!(
                "ctc_align takes int32 or int64 tokens, not {}",
                crate::tensor::dtype_name(xt.dtype())
            )));
        }
        if xt.lod().is_empty() {
            let Some(lengths) = &lengths else {
                return Err(KernelError::Invalid(
                    "Input has no LoD, so ctc_align needs InputLength".into(),
                ));
            };
            let lens = i64s(&*s.tensor(lengths)?)?.into_owned();
            let [batch, width] = *xt.shape() else {
                return Err(KernelError::Shape(format!(
                    "Input without LoD must be [batch, T], not {:?}",
                    xt.shape()
                )));
            };
            let width = width.max(0) as usize;
            let mut kept_lengths = Vec::with_capacity(lens.len());
            let data = with_data!(xt.data(), |v: T| {
                let mut o = Vec::with_capacity(v.len());
                for (row, &len) in v.chunks_exact(width.max(1)).zip(&lens) {
                    let len = usize::try_from(len).unwrap_or(0).min(width);
                    let kept = align(&row[..len], blank, merge);
                    kept_lengths.push(kept.len() as i64);
                    o.extend_from_slice(&kept);
                    o.resize(o.len() + width - kept.len(), T::from_i64(padding));
                }
                T::wrap(o.into())
            });
            let t = Tensor::new(&[batch, width as i64], data)?;
            drop(xt);
            s.set_tensor(&out, t);
            if let Some(ol) = &out_lengths {
                let rows = kept_lengths.len() as i64;
                s.set_tensor(ol, Tensor::from_vec(&[rows, 1], kept_lengths)?);
            }
            return Ok(());
        }
        let seqs = sequences(&xt, "Input")?;
        let mut offsets = vec![0usize];
        let data = with_data!(xt.data(), |v: T| {
            let mut o = Vec::new();
            for w in seqs.windows(2) {
                let part = v.get(w[0]..w[1]).ok_or_else(|| {
                    KernelError::Shape(format!("Input's LoD reaches row {}", w[1]))
                })?;
                o.extend(align(part, blank, merge));
                offsets.push(o.len());
            }
            if o.is_empty() {
                o.push(T::from_i64(-1));
            }
            T::wrap(o.into())
        });
        let rows = match &data {
            crate::tensor::Data::Int32(v) => v.len(),
            crate::tensor::Data::Int64(v) => v.len(),
            _ => 0,
        };
        let lod: Lod = vec![offsets];
        let t = Tensor::new(&[rows as i64, 1], data)?.with_lod(lod);
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// The Levenshtein distance between two token sequences (insertions,
/// deletions and substitutions each cost one).
fn levenshtein(a: &[i64], b: &[i64]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(x != y));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// `edit_distance`: for each hypothesis of `Hyps` and its reference in
/// `Refs` (their LoDs; or rows of `HypsLength`/`RefsLength` tokens), the
/// edit distance, divided by the reference's length when `normalized`; and
/// how many pairs there were.
fn edit_distance(l: &OpReader) -> Result<Exec, KernelError> {
    let (hyps, refs) = (l.input("Hyps")?, l.input("Refs")?);
    let lengths = (l.opt_input("HypsLength")?, l.opt_input("RefsLength")?);
    let (out, num) = (l.output("Out")?, l.output("SequenceNum")?);
    let normalized = l.bool_or("normalized", false)?;
    compute(move |s| {
        let split = |s: &mut crate::scope::Vars,
                     r: &crate::scope::VarRef,
                     len: &Option<crate::scope::VarRef>,
                     what: &str|
         -> Result<Vec<Vec<i64>>, KernelError> {
            let t = s.tensor(r)?;
            let v = i64s(&t)?.into_owned();
            if let Some(len) = len {
                let lens = i64s(&*s.tensor(len)?)?.into_owned();
                let width = t.shape().get(1).copied().unwrap_or(1).max(0) as usize;
                return Ok(v
                    .chunks(width.max(1))
                    .zip(&lens)
                    .map(|(row, &n)| row[..usize::try_from(n).unwrap_or(0).min(row.len())].to_vec())
                    .collect());
            }
            let seqs = sequences(&t, what)?;
            seqs.windows(2)
                .map(|w| {
                    v.get(w[0]..w[1]).map(<[i64]>::to_vec).ok_or_else(|| {
                        KernelError::Shape(format!("{what}'s LoD reaches row {}", w[1]))
                    })
                })
                .collect()
        };
        let h = split(s, &hyps, &lengths.0, "Hyps")?;
        let r = split(s, &refs, &lengths.1, "Refs")?;
        if h.len() != r.len() {
            return Err(KernelError::Shape(format!(
                "Hyps holds {} sequences but Refs {}",
                h.len(),
                r.len()
            )));
        }
        let mut d = Vec::with_capacity(h.len());
        for (k, (a, b)) in h.iter().zip(&r).enumerate() {
            let dist = levenshtein(a, b) as f32;
            if normalized {
                if b.is_empty() {
                    return Err(KernelError::Invalid(format!(
                        "reference {k} is empty, which `normalized` cannot divide by"
                    )));
                }
                d.push(dist / b.len() as f32);
            } else {
                d.push(dist);
            }
        }
        let n = d.len() as i64;
        s.set_tensor(&out, Tensor::from_vec(&[n, 1], d)?);
        s.set_tensor(&num, Tensor::from_vec(&[1], vec![n])?);
        Ok(())
    })
}
