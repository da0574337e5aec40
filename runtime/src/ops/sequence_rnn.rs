//! Recurrent ops over each sequence of a LoD batch, with their grads:
//! `lstm` (Paddle 1.x's `dynamic_lstm`) and `gru` (`dynamic_gru`), with
//! Paddle's gate layouts and formulas (lstm_op.h, gru_op.h,
//! funcs/detail/{lstm,gru}_kernel.h and their activations).
//!
//! `lstm`'s `Input` is the already projected `[T, 4D]` (gates in the
//! order candidate, input, forget, output), `Weight` the recurrent
//! `[D, 4D]`, `Bias` `[1, 4D]`, or `[1, 7D]` with peepholes (then the
//! input, forget and output gates' peephole weights follow the gate
//! biases). `gru`'s `Input` is `[T, 3D]` (update, reset, candidate) and
//! its `Weight` `[D, 3D]` read as `gru_unit` reads it: `[D, 2D]` for the
//! gates, then `[D, D]` for the candidate.
//!
//! `lstm` and `gru` group the rows into time-major steps as Paddle does
//! ([`time_major`]), so each step's recurrent products of every sequence
//! are one GEMM that reads the weight once (a 2048-wide InferSent LSTM
//! spent 90% of its time reading it once per row); the gates' arithmetic
//! stays per row. The `Batch*` outputs (the activated gates and the
//! states the grad reads back) are kept in the rows' own order, not in
//! Paddle's batch order: they are the op's scratch, and no 1.x layer
//! returns them. `lstmp` still steps through each sequence on its own.
use fluidc_transpiler::VarKind;

use super::matmul::gemm;
use super::rnn_cells::Act;
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{f64s, needs_float, set_grads, tensor};
use crate::scope::{VarRef, Vars};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("lstm", lstm);
    r.add("lstm_grad", lstm_grad);
    r.add("gru", gru);
    r.add("gru_grad", gru_grad);
    r.add("lstmp", lstmp);
    r.add("lstmp_grad", lstmp_grad);
}

/// The attributes and shapes both kernels share.
#[derive(Clone, Copy)]
struct Spec {
    peepholes: bool,
    reverse: bool,
    gate: Act,
    cell: Act,
    candidate: Act,
}

impl Spec {
    fn load(l: &OpReader) -> Result<Spec, KernelError> {
        Ok(Spec {
            peepholes: l.bool_or("use_peepholes", true)?,
            reverse: l.bool_or("is_reverse", false)?,
            gate: Act::from_name(l, "gate_activation", "sigmoid")?,
            cell: Act::from_name(l, "cell_activation", "tanh")?,
            candidate: Act::from_name(l, "candidate_activation", "tanh")?,
        })
    }
}

/// Checks an `Input` of `gates` gates per step (`[T, gates * D]`, with
/// a LoD that ends at `T`); gives `D` and the sequences' offsets.
fn gated_input(
    input: &Tensor,
    gates: usize,
    name: &str,
) -> Result<(usize, Vec<usize>), KernelError> {
    let Some(offsets) = input.lod().last().cloned() else {
        return Err(KernelError::Invalid(format!(
            "`{name}` has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)"
        )));
    };
    match input.shape() {
        &[rows, width]
            if width >= 0
                && (width as usize).is_multiple_of(gates)
                && offsets.last() == Some(&(rows.max(0) as usize)) =>
        {
            Ok((width as usize / gates, offsets))
        }
        shape => Err(KernelError::Shape(format!(
            "Input {shape:?} must be [T, {gates} * D] with T the end of its LoD {offsets:?}"
        ))),
    }
}

/// Checks `Weight` (`[D, gates * D]`) and `Bias` (`bias_width` values).
fn check_params(
    weight: &Tensor,
    bias: Option<&Tensor>,
    (d, gates): (usize, usize),
    bias_width: usize,
) -> Result<(), KernelError> {
    if weight.shape() != [d as i64, (gates * d) as i64] {
        return Err(KernelError::Shape(format!(
            "Weight {:?} must be [{d}, {}]",
            weight.shape(),
            gates * d
        )));
    }
    if let Some(b) = bias.filter(|b| b.numel() != bias_width) {
        return Err(KernelError::Shape(format!(
            "Bias {:?} must be [1, {bias_width}]",
            b.shape()
        )));
    }
    Ok(())
}

/// Checks the shapes of an `lstm`'s inputs and gives its frame size `D`
/// and the sequences' offsets.
fn check(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    peepholes: bool,
    name: &str,
) -> Result<(usize, Vec<usize>), KernelError> {
    let (d, offsets) = gated_input(input, 4, name)?;
    let bias_width = if peepholes { 7 * d } else { 4 * d };
    check_params(weight, bias, (d, 4), bias_width)?;
    Ok((d, offsets))
}

/// A `[rows, width]` tensor the forward wrote (or its gradient), as `f64`.
fn read_rows(
    s: &Vars,
    r: &VarRef,
    (rows, width): (usize, usize),
    what: &str,
    op: &str,
) -> Result<Vec<f64>, KernelError> {
    let t = s.tensor(r)?;
    if t.numel() != rows * width {
        return Err(KernelError::Shape(format!(
            "{what} of shape {:?} does not fit {rows} rows of {width} values",
            t.shape()
        )));
    }
    Ok(f64s(&t, op)?.into_owned())
}

/// The optional inputs read as `f64`: Bias (or zeros), H0 and C0.
fn optional(s: &Vars, r: &Option<VarRef>, op: &str) -> Result<Option<Vec<f64>>, KernelError> {
    match r {
        Some(r) => Ok(Some(f64s(&*s.tensor(r)?, op)?.into_owned())),
        None => Ok(None),
    }
}

/// `lstm`: for each sequence, step by step (backwards with `is_reverse`),
/// `gates = Input_t + Bias + h_prev · Weight`, then with peepholes `p`
/// (zero without), `c_in = cand(g_c)`, `i = gate(g_i + c_prev * p_i)`,
/// `f = gate(g_f + c_prev * p_f)`, `c = c_in * i + c_prev * f`,
/// `o = gate(g_o + c * p_o)`, `h = o * cell(c)`; `H0`/`C0` start each
/// sequence (zeros without them).
fn lstm(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, weight) = (l.input("Input")?, l.input("Weight")?);
    let (bias, h0, c0) = (l.opt_input("Bias")?, l.opt_input("H0")?, l.opt_input("C0")?);
    let (hidden, cell) = (l.output("Hidden")?, l.output("Cell")?);
    let (batch_gate, batch_cell) = (l.opt_output("BatchGate")?, l.opt_output("BatchCellPreAct")?);
    let spec = Spec::load(l)?;
    compute(move |s| {
        let (xt, wt) = (s.tensor(&input)?, s.tensor(&weight)?);
        let bt = bias.as_ref().map(|b| s.tensor(b)).transpose()?;
        let (d, offsets) = check(&xt, &wt, bt.as_deref(), spec.peepholes, &input.name)?;
        let op = "lstm";
        let x = f64s(&xt, op)?;
        let w = f64s(&wt, op)?;
        let b = optional(s, &bias, op)?.unwrap_or_else(|| vec![0.0; 4 * d]);
        let (h0v, c0v) = (optional(s, &h0, op)?, optional(s, &c0, op)?);
        let n = offsets.len() - 1;
        for (v, what) in [(&h0v, "H0"), (&c0v, "C0")] {
            if let Some(v) = v.as_ref().filter(|v| v.len() != n * d) {
                return Err(KernelError::Shape(format!(
                    "{what} has {} values; it must be [{n}, {d}], a row per sequence",
                    v.len()
                )));
            }
        }
        let rows = x.len() / (4 * d).max(1);
        let mut gates = vec![0.0; rows * 4 * d];
        let (mut hs, mut cs, mut cell_act) = (
            vec![0.0; rows * d],
            vec![0.0; rows * d],
            vec![0.0; rows * d],
        );
        let peep = |k: usize| {
            if spec.peepholes && bias.is_some() {
                b[4 * d + k]
            } else {
                0.0
            }
        };
        let zeros = vec![0.0; d];
        let mut proj = Vec::new();
        for step in time_major(&offsets, spec.reverse) {
            // Every sequence's `h_prev · Weight` of this step, as one GEMM.
            let (hp, any) = previous_rows(&step, &hs, h0v.as_deref(), d);
            proj.clear();
            proj.resize(step.len() * 4 * d, 0.0);
            if any {
                gemm((&hp, false), (&w, false), (step.len(), d, 4 * d), &mut proj)?;
            }
            for (st, p) in step.iter().zip(proj.chunks_exact(4 * d)) {
                let r = st.row;
                let c_prev: &[f64] = match (st.prev, &c0v) {
                    (Some(p), _) => &cs[p * d..][..d],
                    (None, Some(c0)) => &c0[st.seq * d..][..d],
                    (None, None) => &zeros,
                };
                let c_prev = c_prev.to_vec();
                let g = &mut gates[r * 4 * d..][..4 * d];
                for (j, gj) in g.iter_mut().enumerate() {
                    *gj = x[r * 4 * d + j] + b[j] + p[j];
                }
                for k in 0..d {
                    let cp = c_prev[k];
                    let c_in = spec.candidate.apply_clipped(g[k]);
                    let i = spec.gate.apply_clipped(g[d + k] + cp * peep(k));
                    let f = spec.gate.apply_clipped(g[2 * d + k] + cp * peep(d + k));
                    let c = c_in * i + cp * f;
                    let o = spec.gate.apply_clipped(g[3 * d + k] + c * peep(2 * d + k));
                    let ca = spec.cell.apply_clipped(c);
                    (g[k], g[d + k], g[2 * d + k], g[3 * d + k]) = (c_in, i, f, o);
                    cs[r * d + k] = c;
                    cell_act[r * d + k] = ca;
                    hs[r * d + k] = o * ca;
                }
            }
        }
        let (dtype, lod) = (xt.dtype(), xt.lod().to_vec());
        let shape = [rows as i64, d as i64];
        drop((x, w));
        drop((xt, wt, bt));
        let out = |v: Vec<f64>, w: usize| -> Result<Tensor, KernelError> {
            Ok(tensor(dtype, &[rows as i64, w as i64], v)?.with_lod(lod.clone()))
        };
        s.set_tensor(&hidden, out(hs, d)?);
        s.set_tensor(&cell, out(cs, d)?);
        let order = batch_order(&offsets, spec.reverse);
        if let Some(bg) = &batch_gate {
            let batch = to_batch(&gates, 4 * d, &order);
            s.set_tensor(bg, tensor(dtype, &[rows as i64, 4 * d as i64], batch)?);
        }
        if let Some(bc) = &batch_cell {
            s.set_tensor(bc, tensor(dtype, &shape, to_batch(&cell_act, d, &order))?);
        }
        Ok(())
    })
}

/// `lstm_grad`: back through each sequence from `Hidden@GRAD` (Paddle
/// does not propagate `Cell@GRAD`), with the gates and cell the forward
/// kept; gives the gradients of `Input`, `Weight`, `Bias` (peephole
/// weights included), `H0` and `C0`.
fn lstm_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, weight) = (l.input("Input")?, l.input("Weight")?);
    let (bias, h0, c0) = (l.opt_input("Bias")?, l.opt_input("H0")?, l.opt_input("C0")?);
    let (hidden, cell) = (l.input("Hidden")?, l.input("Cell")?);
    let (batch_gate, batch_cell) = (l.input("BatchGate")?, l.input("BatchCellPreAct")?);
    let dhidden = l.input("Hidden@GRAD")?;
    let grads = [
        l.opt_output("Input@GRAD")?,
        l.opt_output("Weight@GRAD")?,
        l.opt_output("Bias@GRAD")?,
        l.opt_output("H0@GRAD")?,
        l.opt_output("C0@GRAD")?,
    ];
    let spec = Spec::load(l)?;
    compute(move |s| {
        let op = "lstm_grad";
        let (xt, wt) = (s.tensor(&input)?, s.tensor(&weight)?);
        let bt = bias.as_ref().map(|b| s.tensor(b)).transpose()?;
        let (d, offsets) = check(&xt, &wt, bt.as_deref(), spec.peepholes, &input.name)?;
        let rows = xt.shape()[0].max(0) as usize;
        let w = f64s(&wt, op)?;
        let b = optional(s, &bias, op)?.unwrap_or_else(|| vec![0.0; 4 * d]);
        let read = |r, width, what| read_rows(s, r, (rows, width), what, op);
        let hs = read(&hidden, d, "Hidden")?;
        let cs = read(&cell, d, "Cell")?;
        let order = batch_order(&offsets, spec.reverse);
        let gates = from_batch(&read(&batch_gate, 4 * d, "BatchGate")?, 4 * d, &order);
        let cell_act = from_batch(&read(&batch_cell, d, "BatchCellPreAct")?, d, &order);
        let mut dh = read(&dhidden, d, "Hidden@GRAD")?;
        let (h0v, c0v) = (optional(s, &h0, op)?, optional(s, &c0, op)?);
        let n = offsets.len() - 1;
        let with_peep = spec.peepholes && bias.is_some();
        let peep = |k: usize| if with_peep { b[4 * d + k] } else { 0.0 };
        let mut dgates = vec![0.0; rows * 4 * d];
        let mut dw = vec![0.0; 4 * d * d];
        let mut dpeep = vec![0.0; 3 * d];
        let (mut dh0, mut dc0) = (vec![0.0; n * d], vec![0.0; n * d]);
        let zeros = vec![0.0; d];
        // Each sequence's gradient of its cell state, carried back a step.
        let mut dcs = vec![0.0; n * d];
        let steps = time_major(&offsets, spec.reverse);
        let mut dg_step = Vec::new();
        let mut back = Vec::new();
        for step in steps.iter().rev() {
            for st in step {
                let r = st.row;
                let c_prev: &[f64] = match (st.prev, &c0v) {
                    (Some(p), _) => &cs[p * d..][..d],
                    (None, Some(c0)) => &c0[st.seq * d..][..d],
                    (None, None) => &zeros,
                };
                let dc = &mut dcs[st.seq * d..][..d];
                let g = &gates[r * 4 * d..][..4 * d];
                let dg = &mut dgates[r * 4 * d..][..4 * d];
                for k in 0..d {
                    let (c_in, i, f, o) = (g[k], g[d + k], g[2 * d + k], g[3 * d + k]);
                    let (out_g, ca, c, cp) =
                        (dh[r * d + k], cell_act[r * d + k], cs[r * d + k], c_prev[k]);
                    let d_o = spec.gate.grad(o, out_g * ca);
                    let d_c = dc[k] + spec.cell.grad(ca, out_g * o) + d_o * peep(2 * d + k);
                    let d_in = spec.candidate.grad(c_in, d_c * i);
                    let d_i = spec.gate.grad(i, d_c * c_in);
                    let d_f = spec.gate.grad(f, d_c * cp);
                    dc[k] = d_i * peep(k) + d_f * peep(d + k) + d_c * f;
                    if with_peep {
                        dpeep[k] += d_i * cp;
                        dpeep[d + k] += d_f * cp;
                        dpeep[2 * d + k] += d_o * c;
                    }
                    (dg[k], dg[d + k], dg[2 * d + k], dg[3 * d + k]) = (d_in, d_i, d_f, d_o);
                }
            }
            // Into the previous hidden states: `dgates · Weightᵀ` for every
            // sequence of the step at once.
            if step.iter().all(|st| st.prev.is_none()) && h0v.is_none() {
                continue;
            }
            dg_step.clear();
            for st in step {
                dg_step.extend_from_slice(&dgates[st.row * 4 * d..][..4 * d]);
            }
            back.clear();
            back.resize(step.len() * d, 0.0);
            gemm(
                (&dg_step, false),
                (&w, true),
                (step.len(), 4 * d, d),
                &mut back,
            )?;
            pass_back(step, &back, &mut dh, &mut dh0, d);
        }
        dc0.copy_from_slice(&dcs);
        // Weight's gradient: `h_prevᵀ · dgates` over all rows (a zero row
        // where a sequence starts without H0).
        let hp_all = previous_of_rows(&steps, &hs, h0v.as_deref(), (rows, d));
        gemm((&hp_all, true), (&dgates, false), (d, rows, 4 * d), &mut dw)?;
        let mut db = vec![0.0; if spec.peepholes { 7 * d } else { 4 * d }];
        for row in dgates.chunks(4 * d) {
            db.iter_mut().zip(row).for_each(|(s, &v)| *s += v);
        }
        if spec.peepholes {
            db[4 * d..].copy_from_slice(&dpeep);
        }
        let dtype = xt.dtype();
        if !matches!(dtype, VarKind::Fp32 | VarKind::Fp64) {
            return Err(needs_float(op, &xt));
        }
        let (x_shape, x_lod) = (xt.shape().to_vec(), xt.lod().to_vec());
        let w_shape = wt.shape().to_vec();
        let b_shape = bt.as_ref().map(|t| t.shape().to_vec());
        drop(w);
        drop((xt, wt, bt));
        let n_shape = [n as i64, d as i64];
        let out = [
            Some(tensor(dtype, &x_shape, dgates)?.with_lod(x_lod)),
            Some(tensor(dtype, &w_shape, dw)?),
            b_shape.map(|shape| tensor(dtype, &shape, db)).transpose()?,
            h0.as_ref()
                .map(|_| tensor(dtype, &n_shape, dh0))
                .transpose()?,
            c0.as_ref()
                .map(|_| tensor(dtype, &n_shape, dc0))
                .transpose()?,
        ];
        set_grads(s, grads.iter().zip(out).collect());
        Ok(())
    })
}

/// A `gru`'s attributes.
#[derive(Clone, Copy)]
struct GruSpec {
    reverse: bool,
    origin: bool,
    gate: Act,
    candidate: Act,
}

impl GruSpec {
    fn load(l: &OpReader) -> Result<GruSpec, KernelError> {
        Ok(GruSpec {
            reverse: l.bool_or("is_reverse", false)?,
            origin: l.bool_or("origin_mode", false)?,
            gate: Act::from_name(l, "gate_activation", "sigmoid")?,
            candidate: Act::from_name(l, "activation", "tanh")?,
        })
    }
}

/// Checks a `gru`'s `Input` `[T, 3D]` (with LoD), `Weight` `[D, 3D]` and
/// `Bias` `[1, 3D]`; gives `D` and the sequences' offsets.
fn gru_check(
    input: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
    name: &str,
) -> Result<(usize, Vec<usize>), KernelError> {
    let (d, offsets) = gated_input(input, 3, name)?;
    check_params(weight, bias, (d, 3), 3 * d)?;
    Ok((d, offsets))
}

/// One sequence's row at one time step of the recurrence.
struct Step {
    seq: usize,
    row: usize,
    /// The row of the sequence's previous step (`None` at its first).
    prev: Option<usize>,
}

/// The rows of the batch grouped by time step (Paddle's time-major
/// batches): `steps[t]` holds step `t` of every sequence at least `t + 1`
/// long, in sequence order. A step only reads its own sequence's previous
/// step, so a whole time step can be computed at once.
fn time_major(offsets: &[usize], reverse: bool) -> Vec<Vec<Step>> {
    let mut steps: Vec<Vec<Step>> = Vec::new();
    for (seq, rows) in sequence_steps(offsets, reverse).into_iter().enumerate() {
        for (t, &row) in rows.iter().enumerate() {
            if steps.len() <= t {
                steps.push(Vec::new());
            }
            let prev = t.checked_sub(1).map(|p| rows[p]);
            steps[t].push(Step { seq, row, prev });
        }
    }
    steps
}

/// Paddle's batch order of the rows (its `SequenceToBatch`): time step by
/// time step, and within a step the sequences longest first (ties in
/// sequence order), each at its `t`-th row (from its end with
/// `is_reverse`). `gru`'s and `lstm`'s `Batch*` outputs hold their rows in
/// this order, as Paddle's do (1.x's op tests check them); the grads read
/// them back.
fn batch_order(offsets: &[usize], reverse: bool) -> Vec<usize> {
    let len = |s: usize| offsets[s + 1] - offsets[s];
    let mut seqs: Vec<usize> = (0..offsets.len().saturating_sub(1)).collect();
    seqs.sort_by_key(|&s| std::cmp::Reverse(len(s)));
    let longest = seqs.first().map_or(0, |&s| len(s));
    let mut order = Vec::with_capacity(offsets.last().copied().unwrap_or(0));
    for t in 0..longest {
        for &s in seqs.iter().take_while(|&&s| len(s) > t) {
            order.push(if reverse {
                offsets[s + 1] - 1 - t
            } else {
                offsets[s] + t
            });
        }
    }
    order
}

/// Rows of `width` values in [`batch_order`].
fn to_batch(v: &[f64], width: usize, order: &[usize]) -> Vec<f64> {
    order
        .iter()
        .flat_map(|&r| v[r * width..][..width].iter().copied())
        .collect()
}

/// [`to_batch`] undone.
fn from_batch(v: &[f64], width: usize, order: &[usize]) -> Vec<f64> {
    let mut out = vec![0.0; v.len()];
    for (i, &r) in order.iter().enumerate() {
        out[r * width..][..width].copy_from_slice(&v[i * width..][..width]);
    }
    out
}

/// The previous hidden state of each sequence of a step, a row each
/// (`H0`'s row at a sequence's first step, zeros without `H0`), and
/// whether any sequence has one.
fn previous_rows(step: &[Step], hs: &[f64], h0: Option<&[f64]>, d: usize) -> (Vec<f64>, bool) {
    let mut out = vec![0.0; step.len() * d];
    let mut any = false;
    for (st, row) in step.iter().zip(out.chunks_exact_mut(d)) {
        let src = match st.prev {
            Some(p) => Some(&hs[p * d..][..d]),
            None => h0.map(|h| &h[st.seq * d..][..d]),
        };
        if let Some(src) = src {
            row.copy_from_slice(src);
            any = true;
        }
    }
    (out, any)
}

/// Row `r` of the result is the previous hidden state of row `r` (as
/// [`previous_rows`] gives it), for the weight gradients' one GEMM.
fn previous_of_rows(
    steps: &[Vec<Step>],
    hs: &[f64],
    h0: Option<&[f64]>,
    (rows, d): (usize, usize),
) -> Vec<f64> {
    let mut out = vec![0.0; rows * d];
    for st in steps.iter().flatten() {
        let src = match st.prev {
            Some(p) => &hs[p * d..][..d],
            None => match h0 {
                Some(h) => &h[st.seq * d..][..d],
                None => continue,
            },
        };
        out[st.row * d..][..d].copy_from_slice(src);
    }
    out
}

/// Adds each row of `back` (the gradient of a step's previous hidden
/// states, a row per sequence of `step`) to the `Hidden@GRAD` row of its
/// sequence's previous step, or writes it as the sequence's `H0@GRAD` at
/// its first step.
fn pass_back(step: &[Step], back: &[f64], dh: &mut [f64], dh0: &mut [f64], d: usize) {
    for (st, bk) in step.iter().zip(back.chunks_exact(d)) {
        match st.prev {
            Some(p) => dh[p * d..][..d]
                .iter_mut()
                .zip(bk)
                .for_each(|(a, &v)| *a += v),
            None => dh0[st.seq * d..][..d].copy_from_slice(bk),
        }
    }
}

/// The steps of each sequence, in the order the recurrence visits them.
fn sequence_steps(offsets: &[usize], reverse: bool) -> Vec<Vec<usize>> {
    offsets
        .windows(2)
        .map(|w| {
            let rows: Vec<usize> = (w[0]..w[1]).collect();
            if reverse {
                rows.into_iter().rev().collect()
            } else {
                rows
            }
        })
        .collect()
}

/// `gru`: for each sequence, step by step (backwards with `is_reverse`),
/// from `H0` (zeros without), `u, r = gate(Input_t + Bias + h_prev ·
/// W_ur)`, `rh = r * h_prev`, `c = act(Input_t + Bias + rh · W_c)`,
/// `h = h_prev - u * h_prev + u * c` (`origin_mode`: `u * h_prev + c -
/// u * c`), written as Paddle's gru_finalOutput writes them.
fn gru(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, weight) = (l.input("Input")?, l.input("Weight")?);
    let (bias, h0) = (l.opt_input("Bias")?, l.opt_input("H0")?);
    let hidden = l.output("Hidden")?;
    let scratch = [
        l.opt_output("BatchGate")?,
        l.opt_output("BatchResetHiddenPrev")?,
        l.opt_output("BatchHidden")?,
    ];
    let spec = GruSpec::load(l)?;
    compute(move |s| {
        let op = "gru";
        let (xt, wt) = (s.tensor(&input)?, s.tensor(&weight)?);
        let bt = bias.as_ref().map(|b| s.tensor(b)).transpose()?;
        let (d, offsets) = gru_check(&xt, &wt, bt.as_deref(), &input.name)?;
        let x = f64s(&xt, op)?;
        let w = f64s(&wt, op)?;
        let b = optional(s, &bias, op)?.unwrap_or_else(|| vec![0.0; 3 * d]);
        let h0v = optional(s, &h0, op)?;
        let n = offsets.len() - 1;
        if let Some(h) = h0v.as_ref().filter(|h| h.len() != n * d) {
            return Err(KernelError::Shape(format!(
                "H0 has {} values; it must be [{n}, {d}], a row per sequence",
                h.len()
            )));
        }
        let rows = offsets[n];
        let (w_ur, w_c) = w.split_at(2 * d * d);
        let mut gates = vec![0.0; rows * 3 * d];
        let (mut rhs, mut hs) = (vec![0.0; rows * d], vec![0.0; rows * d]);
        let (mut proj, mut rh_step) = (Vec::new(), Vec::new());
        for step in time_major(&offsets, spec.reverse) {
            let m = step.len();
            // The gates' `h_prev · W_ur` of every sequence of the step.
            let (hp_step, any) = previous_rows(&step, &hs, h0v.as_deref(), d);
            let has = |st: &Step| st.prev.is_some() || h0v.is_some();
            proj.clear();
            proj.resize(m * 2 * d, 0.0);
            if any {
                gemm((&hp_step, false), (w_ur, false), (m, d, 2 * d), &mut proj)?;
            }
            for ((st, p), hp) in step
                .iter()
                .zip(proj.chunks_exact(2 * d))
                .zip(hp_step.chunks_exact(d))
            {
                let r = st.row;
                let g = &mut gates[r * 3 * d..][..3 * d];
                for (j, gj) in g.iter_mut().enumerate() {
                    *gj = x[r * 3 * d + j] + b[j];
                }
                if has(st) {
                    g[..2 * d].iter_mut().zip(p).for_each(|(gj, &v)| *gj += v);
                }
                for v in &mut g[..2 * d] {
                    *v = spec.gate.apply_clipped(*v);
                }
                let rh = &mut rhs[r * d..][..d];
                for k in 0..d {
                    rh[k] = hp[k] * g[d + k];
                }
            }
            // The candidate's `(r * h_prev) · W_c`, likewise.
            rh_step.clear();
            for st in &step {
                rh_step.extend_from_slice(&rhs[st.row * d..][..d]);
            }
            proj.clear();
            proj.resize(m * d, 0.0);
            if any {
                gemm((&rh_step, false), (w_c, false), (m, d, d), &mut proj)?;
            }
            for ((st, p), hp) in step
                .iter()
                .zip(proj.chunks_exact(d))
                .zip(hp_step.chunks_exact(d))
            {
                let r = st.row;
                let g = &mut gates[r * 3 * d..][..3 * d];
                if has(st) {
                    g[2 * d..].iter_mut().zip(p).for_each(|(gj, &v)| *gj += v);
                }
                for k in 0..d {
                    let (u, c) = (g[k], spec.candidate.apply_clipped(g[2 * d + k]));
                    g[2 * d + k] = c;
                    hs[r * d + k] = if spec.origin {
                        u * hp[k] + c - u * c
                    } else {
                        hp[k] - u * hp[k] + u * c
                    };
                }
            }
        }
        let (dtype, lod) = (xt.dtype(), xt.lod().to_vec());
        drop((x, w));
        drop((xt, wt, bt));
        let shape = [rows as i64, d as i64];
        s.set_tensor(&hidden, tensor(dtype, &shape, hs.clone())?.with_lod(lod));
        let order = batch_order(&offsets, spec.reverse);
        let values = [(gates, 3 * d), (rhs, d), (hs, d)];
        for (r, (v, width)) in scratch.iter().zip(values) {
            if let Some(r) = r {
                let batch = to_batch(&v, width, &order);
                s.set_tensor(r, tensor(dtype, &[rows as i64, width as i64], batch)?);
            }
        }
        Ok(())
    })
}

/// `gru_grad`: back through each sequence from `Hidden@GRAD`, with the
/// gates, reset states and hidden states the forward kept; gives the
/// gradients of `Input`, `H0`, `Weight` and `Bias`, as Paddle's kernel
/// computes them (see `recurrent` below for where that is not the exact
/// derivative).
fn gru_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, weight) = (l.input("Input")?, l.input("Weight")?);
    let (bias, h0) = (l.opt_input("Bias")?, l.opt_input("H0")?);
    let (gate, reset, batch_hidden) = (
        l.input("BatchGate")?,
        l.input("BatchResetHiddenPrev")?,
        l.input("BatchHidden")?,
    );
    let dhidden = l.input("Hidden@GRAD")?;
    let grads = [
        l.opt_output("Input@GRAD")?,
        l.opt_output("H0@GRAD")?,
        l.opt_output("Weight@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    ];
    let spec = GruSpec::load(l)?;
    compute(move |s| {
        let op = "gru_grad";
        let (xt, wt) = (s.tensor(&input)?, s.tensor(&weight)?);
        let bt = bias.as_ref().map(|b| s.tensor(b)).transpose()?;
        let (d, offsets) = gru_check(&xt, &wt, bt.as_deref(), &input.name)?;
        let rows = offsets[offsets.len() - 1];
        let w = f64s(&wt, op)?;
        let read = |r, width, what| read_rows(s, r, (rows, width), what, op);
        let order = batch_order(&offsets, spec.reverse);
        let gates = from_batch(&read(&gate, 3 * d, "BatchGate")?, 3 * d, &order);
        let rhs = from_batch(&read(&reset, d, "BatchResetHiddenPrev")?, d, &order);
        let hs = from_batch(&read(&batch_hidden, d, "BatchHidden")?, d, &order);
        let mut dh = read(&dhidden, d, "Hidden@GRAD")?;
        let h0v = optional(s, &h0, op)?;
        let wants_h0 = grads[1].is_some();
        let n = offsets.len() - 1;
        let (w_ur, w_c) = w.split_at(2 * d * d);
        let mut dgates = vec![0.0; rows * 3 * d];
        let mut dw = vec![0.0; 3 * d * d];
        let mut dh0 = vec![0.0; n * d];
        let steps = time_major(&offsets, spec.reverse);
        // Paddle's GRUUnitGradFunctor runs the recurrent products only when
        // the previous state also takes a gradient: from an H0 that needs
        // none (a data layer), the first step adds nothing to Weight's
        // gradient nor the reset gate's.
        let recurrent = |st: &Step| st.prev.is_some() || (h0v.is_some() && wants_h0);
        let (mut dgc, mut dgur, mut back) = (Vec::new(), Vec::new(), Vec::new());
        for step in steps.iter().rev() {
            let m = step.len();
            let (hp_step, _) = previous_rows(step, &hs, h0v.as_deref(), d);
            let mut dprev = vec![0.0; m * d];
            for ((st, hp), dp) in step
                .iter()
                .zip(hp_step.chunks_exact(d))
                .zip(dprev.chunks_exact_mut(d))
            {
                let r = st.row;
                let g = &gates[r * 3 * d..][..3 * d];
                let dg = &mut dgates[r * 3 * d..][..3 * d];
                for k in 0..d {
                    let (u, c, out_g) = (g[k], g[2 * d + k], dh[r * d + k]);
                    let (du, keep, dc) = if spec.origin {
                        (out_g * (hp[k] - c), out_g * u, out_g * (1.0 - u))
                    } else {
                        (out_g * (c - hp[k]), out_g * (1.0 - u), out_g * u)
                    };
                    dg[k] = spec.gate.grad(u, du);
                    dp[k] += keep;
                    dg[2 * d + k] = spec.candidate.grad(c, dc);
                }
            }
            // Through the candidate's `rh · W_c`: `drh = dg_c · W_cᵀ`.
            if step.iter().any(recurrent) {
                dgc.clear();
                for st in step {
                    dgc.extend_from_slice(&dgates[st.row * 3 * d..][2 * d..3 * d]);
                }
                back.clear();
                back.resize(m * d, 0.0);
                gemm((&dgc, false), (w_c, true), (m, d, d), &mut back)?;
            }
            for (i, st) in step.iter().enumerate() {
                let r = st.row;
                let dg = &mut dgates[r * 3 * d..][..3 * d];
                if !recurrent(st) {
                    dg[d..2 * d].fill(0.0);
                    continue;
                }
                let (hp, dp, drh) = (
                    &hp_step[i * d..][..d],
                    &mut dprev[i * d..][..d],
                    &back[i * d..][..d],
                );
                for k in 0..d {
                    let rg = gates[r * 3 * d + d + k];
                    dg[d + k] = spec.gate.grad(rg, drh[k] * hp[k]);
                    dp[k] += drh[k] * rg;
                }
            }
            // Through the gates' `h_prev · W_ur`: `dg_ur · W_urᵀ`.
            if step.iter().any(recurrent) {
                dgur.clear();
                for st in step {
                    dgur.extend_from_slice(&dgates[st.row * 3 * d..][..2 * d]);
                }
                back.clear();
                back.resize(m * d, 0.0);
                gemm((&dgur, false), (w_ur, true), (m, 2 * d, d), &mut back)?;
                for ((st, dp), bk) in step
                    .iter()
                    .zip(dprev.chunks_exact_mut(d))
                    .zip(back.chunks_exact(d))
                {
                    if recurrent(st) {
                        dp.iter_mut().zip(bk).for_each(|(a, &v)| *a += v);
                    }
                }
            }
            pass_back(step, &dprev, &mut dh, &mut dh0, d);
        }
        // Weight's gradient over all recurrent rows at once: `h_prevᵀ ·
        // dg_ur` into `[D, 2D]`, `rhᵀ · dg_c` into `[D, D]` (zero rows for
        // the rows that are not recurrent).
        let mut hp_all = previous_of_rows(&steps, &hs, h0v.as_deref(), (rows, d));
        let mut rh_all = rhs.clone();
        let (mut dg_ur_all, mut dg_c_all) = (vec![0.0; rows * 2 * d], vec![0.0; rows * d]);
        for st in steps.iter().flatten() {
            let r = st.row;
            if recurrent(st) {
                dg_ur_all[r * 2 * d..][..2 * d].copy_from_slice(&dgates[r * 3 * d..][..2 * d]);
                dg_c_all[r * d..][..d].copy_from_slice(&dgates[r * 3 * d..][2 * d..3 * d]);
            } else {
                hp_all[r * d..][..d].fill(0.0);
                rh_all[r * d..][..d].fill(0.0);
            }
        }
        let (dw_ur, dw_c) = dw.split_at_mut(2 * d * d);
        gemm(
            (&hp_all, true),
            (&dg_ur_all, false),
            (d, rows, 2 * d),
            dw_ur,
        )?;
        gemm((&rh_all, true), (&dg_c_all, false), (d, rows, d), dw_c)?;
        let mut db = vec![0.0; 3 * d];
        for row in dgates.chunks(3 * d) {
            db.iter_mut().zip(row).for_each(|(s, &v)| *s += v);
        }
        let dtype = xt.dtype();
        if !matches!(dtype, VarKind::Fp32 | VarKind::Fp64) {
            return Err(needs_float(op, &xt));
        }
        let (x_shape, x_lod) = (xt.shape().to_vec(), xt.lod().to_vec());
        let w_shape = wt.shape().to_vec();
        let b_shape = bt.as_ref().map(|t| t.shape().to_vec());
        drop(w);
        drop((xt, wt, bt));
        let n_shape = [n as i64, d as i64];
        let out = [
            Some(tensor(dtype, &x_shape, dgates)?.with_lod(x_lod)),
            h0.as_ref()
                .map(|_| tensor(dtype, &n_shape, dh0))
                .transpose()?,
            Some(tensor(dtype, &w_shape, dw)?),
            b_shape.map(|shape| tensor(dtype, &shape, db)).transpose()?,
        ];
        set_grads(s, grads.iter().zip(out).collect());
        Ok(())
    })
}

/// `lstmp`'s attributes beyond `lstm`'s.
#[derive(Clone, Copy)]
struct Proj {
    /// 1.x applied `cell_activation` (not `proj_activation`) to the
    /// projection unless `proj_activation` was identity.
    act: Option<Act>,
    cell_clip: f64,
    proj_clip: f64,
}

impl Proj {
    fn load(l: &OpReader, spec: &Spec) -> Result<Proj, KernelError> {
        let identity = matches!(Act::from_name(l, "proj_activation", "tanh")?, Act::Identity);
        Ok(Proj {
            act: (!identity).then_some(spec.cell),
            cell_clip: l.float_or("cell_clip", 0.0)?,
            proj_clip: l.float_or("proj_clip", 0.0)?,
        })
    }
}

/// Checks `lstmp`'s inputs: gives `D`, `P` and the sequences' offsets.
fn lstmp_check(
    input: &Tensor,
    weight: &Tensor,
    proj_weight: &Tensor,
    bias: &Tensor,
    peepholes: bool,
    name: &str,
) -> Result<(usize, usize, Vec<usize>), KernelError> {
    let (d, offsets) = gated_input(input, 4, name)?;
    let p = match *proj_weight.shape() {
        [rows, p] if rows == d as i64 && p >= 0 => p as usize,
        _ => {
            return Err(KernelError::Shape(format!(
                "ProjWeight {:?} must be [{d}, P]",
                proj_weight.shape()
            )))
        }
    };
    if weight.shape() != [p as i64, (4 * d) as i64] {
        return Err(KernelError::Shape(format!(
            "Weight {:?} must be [{p}, {}]",
            weight.shape(),
            4 * d
        )));
    }
    let width = if peepholes { 7 * d } else { 4 * d };
    if bias.numel() != width {
        return Err(KernelError::Shape(format!(
            "Bias {:?} must be [1, {width}]",
            bias.shape()
        )));
    }
    Ok((d, p, offsets))
}

/// `lstmp` (1.6's `dynamic_lstmp`): `lstm`'s cell (its state clipped to
/// `cell_clip` when positive) fed back through a projection: `gates =
/// Input_t + Bias + r_prev · Weight`, `h = o * cell(c)`, `r = act(h ·
/// ProjWeight)` (1.x's act: see [`Proj`]) clipped to `proj_clip` when
/// positive; `H0` (`[N, P]`) is the first `r_prev`, `C0` the first cell.
fn lstmp(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, weight, proj_weight, bias) = (
        l.input("Input")?,
        l.input("Weight")?,
        l.input("ProjWeight")?,
        l.input("Bias")?,
    );
    let (h0, c0) = (l.opt_input("H0")?, l.opt_input("C0")?);
    let (projection, cell) = (l.output("Projection")?, l.output("Cell")?);
    let scratch = [
        l.opt_output("BatchGate")?,
        l.opt_output("BatchCellPreAct")?,
        l.opt_output("BatchHidden")?,
    ];
    let spec = Spec::load(l)?;
    let proj = Proj::load(l, &spec)?;
    compute(move |s| {
        let op = "lstmp";
        let (xt, wt, pt, bt) = (
            s.tensor(&input)?,
            s.tensor(&weight)?,
            s.tensor(&proj_weight)?,
            s.tensor(&bias)?,
        );
        let (d, p, offsets) = lstmp_check(&xt, &wt, &pt, &bt, spec.peepholes, &input.name)?;
        let (x, w, pw, b) = (
            f64s(&xt, op)?,
            f64s(&wt, op)?,
            f64s(&pt, op)?,
            f64s(&bt, op)?,
        );
        let (h0v, c0v) = (optional(s, &h0, op)?, optional(s, &c0, op)?);
        let n = offsets.len() - 1;
        for (v, what, width) in [(&h0v, "H0", p), (&c0v, "C0", d)] {
            if let Some(v) = v.as_ref().filter(|v| v.len() != n * width) {
                return Err(KernelError::Shape(format!(
                    "{what} has {} values; it must be [{n}, {width}], a row per sequence",
                    v.len()
                )));
            }
        }
        let rows = x.len() / (4 * d).max(1);
        let mut gates = vec![0.0; rows * 4 * d];
        let (mut hs, mut cs, mut cell_act) = (
            vec![0.0; rows * d],
            vec![0.0; rows * d],
            vec![0.0; rows * d],
        );
        let mut rs = vec![0.0; rows * p];
        let peep = |k: usize| if spec.peepholes { b[4 * d + k] } else { 0.0 };
        for (seq, steps) in sequence_steps(&offsets, spec.reverse)
            .into_iter()
            .enumerate()
        {
            let mut r_prev: Option<Vec<f64>> = h0v.as_ref().map(|h| h[seq * p..][..p].to_vec());
            let mut c_prev: Vec<f64> = c0v
                .as_ref()
                .map_or(vec![0.0; d], |c| c[seq * d..][..d].to_vec());
            for r in steps {
                let g = &mut gates[r * 4 * d..][..4 * d];
                for (j, gj) in g.iter_mut().enumerate() {
                    *gj = x[r * 4 * d + j] + b[j];
                }
                if let Some(rp) = &r_prev {
                    for (k, &rk) in rp.iter().enumerate() {
                        for (j, gj) in g.iter_mut().enumerate() {
                            *gj += rk * w[k * 4 * d + j];
                        }
                    }
                }
                for k in 0..d {
                    let cp = c_prev[k];
                    let c_in = spec.candidate.apply_clipped(g[k]);
                    let i = spec.gate.apply_clipped(g[d + k] + cp * peep(k));
                    let f = spec.gate.apply_clipped(g[2 * d + k] + cp * peep(d + k));
                    let mut c = c_in * i + cp * f;
                    if proj.cell_clip > 0.0 {
                        c = c.clamp(-proj.cell_clip, proj.cell_clip);
                    }
                    let o = spec.gate.apply_clipped(g[3 * d + k] + c * peep(2 * d + k));
                    let ca = spec.cell.apply_clipped(c);
                    (g[k], g[d + k], g[2 * d + k], g[3 * d + k]) = (c_in, i, f, o);
                    cs[r * d + k] = c;
                    cell_act[r * d + k] = ca;
                    hs[r * d + k] = o * ca;
                }
                let out = &mut rs[r * p..][..p];
                for (q, oq) in out.iter_mut().enumerate() {
                    let mut v: f64 = (0..d).map(|k| hs[r * d + k] * pw[k * p + q]).sum();
                    if let Some(a) = proj.act {
                        v = a.apply(v);
                    }
                    if proj.proj_clip > 0.0 {
                        v = v.clamp(-proj.proj_clip, proj.proj_clip);
                    }
                    *oq = v;
                }
                r_prev = Some(out.to_vec());
                c_prev = cs[r * d..][..d].to_vec();
            }
        }
        let (dtype, lod) = (xt.dtype(), xt.lod().to_vec());
        drop((x, w, pw, b));
        drop((xt, wt, pt, bt));
        let out = |v: Vec<f64>, width: usize| -> Result<Tensor, KernelError> {
            Ok(tensor(dtype, &[rows as i64, width as i64], v)?.with_lod(lod.clone()))
        };
        s.set_tensor(&projection, out(rs, p)?);
        s.set_tensor(&cell, out(cs, d)?);
        for (r, (v, width)) in scratch.iter().zip([(gates, 4 * d), (cell_act, d), (hs, d)]) {
            if let Some(r) = r {
                s.set_tensor(r, out(v, width)?);
            }
        }
        Ok(())
    })
}

/// `lstmp_grad` (1.6's kernel): back through each sequence from
/// `Projection@GRAD` (no `Cell@GRAD`, as 1.x): through the projection's
/// clip (0 where the output sits on a bound) and activation, into `h`,
/// then `lstm`'s cell, whose state gradient 1.x zeroed (carried part
/// included) where the state sits on `cell_clip`.
fn lstmp_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (weight, proj_weight, bias) =
        (l.input("Weight")?, l.input("ProjWeight")?, l.input("Bias")?);
    let (h0, c0) = (l.opt_input("H0")?, l.opt_input("C0")?);
    let saved = [
        l.input("Projection")?,
        l.input("Cell")?,
        l.input("BatchGate")?,
        l.input("BatchCellPreAct")?,
        l.input("BatchHidden")?,
    ];
    let dproj_in = l.input("Projection@GRAD")?;
    let grads = [
        l.opt_output("Input@GRAD")?,
        l.opt_output("Weight@GRAD")?,
        l.opt_output("ProjWeight@GRAD")?,
        l.opt_output("Bias@GRAD")?,
        l.opt_output("H0@GRAD")?,
        l.opt_output("C0@GRAD")?,
    ];
    let spec = Spec::load(l)?;
    let proj = Proj::load(l, &spec)?;
    compute(move |s| {
        let op = "lstmp_grad";
        let gt = s.tensor(&saved[2])?;
        let (wt, pt, bt) = (
            s.tensor(&weight)?,
            s.tensor(&proj_weight)?,
            s.tensor(&bias)?,
        );
        let (d, p, offsets) = lstmp_check(&gt, &wt, &pt, &bt, spec.peepholes, &saved[2].name)?;
        let rows = gt.shape()[0].max(0) as usize;
        let (dtype, lod) = (gt.dtype(), gt.lod().to_vec());
        let (w, pw, b) = (
            f64s(&wt, op)?.into_owned(),
            f64s(&pt, op)?.into_owned(),
            f64s(&bt, op)?.into_owned(),
        );
        let shapes = (
            wt.shape().to_vec(),
            pt.shape().to_vec(),
            bt.shape().to_vec(),
        );
        drop((gt, wt, pt, bt));
        let read = |r, width, what| read_rows(s, r, (rows, width), what, op);
        let rs = read(&saved[0], p, "Projection")?;
        let cs = read(&saved[1], d, "Cell")?;
        let gates = read(&saved[2], 4 * d, "BatchGate")?;
        let cell_act = read(&saved[3], d, "BatchCellPreAct")?;
        let hs = read(&saved[4], d, "BatchHidden")?;
        let mut dr = read(&dproj_in, p, "Projection@GRAD")?;
        let (h0v, c0v) = (optional(s, &h0, op)?, optional(s, &c0, op)?);
        let n = offsets.len() - 1;
        let peep = |k: usize| if spec.peepholes { b[4 * d + k] } else { 0.0 };
        let mut dgates = vec![0.0; rows * 4 * d];
        let (mut dw, mut dpw) = (vec![0.0; p * 4 * d], vec![0.0; d * p]);
        let mut dpeep = vec![0.0; 3 * d];
        let (mut dh0, mut dc0) = (vec![0.0; n * p], vec![0.0; n * d]);
        for (seq, steps) in sequence_steps(&offsets, spec.reverse)
            .into_iter()
            .enumerate()
        {
            let mut dc = vec![0.0; d];
            for (t, &r) in steps.iter().enumerate().rev() {
                let prev = t.checked_sub(1).map(|q| steps[q]);
                // Through the clip and the activation into h.
                for q in 0..p {
                    let (y, g) = (rs[r * p + q], &mut dr[r * p + q]);
                    if proj.proj_clip > 0.0 && !(y > -proj.proj_clip && y < proj.proj_clip) {
                        *g = 0.0;
                    }
                    if let Some(a) = proj.act {
                        *g = a.grad(y, *g);
                    }
                }
                let drow = dr[r * p..][..p].to_vec();
                let dh: Vec<f64> = (0..d)
                    .map(|k| (0..p).map(|q| drow[q] * pw[k * p + q]).sum())
                    .collect();
                for k in 0..d {
                    for q in 0..p {
                        dpw[k * p + q] += hs[r * d + k] * drow[q];
                    }
                }
                let c_prev: Vec<f64> = match (prev, &c0v) {
                    (Some(q), _) => cs[q * d..][..d].to_vec(),
                    (None, Some(c0)) => c0[seq * d..][..d].to_vec(),
                    (None, None) => vec![0.0; d],
                };
                let g = &gates[r * 4 * d..][..4 * d];
                let dg = &mut dgates[r * 4 * d..][..4 * d];
                for k in 0..d {
                    let (c_in, i, f, o) = (g[k], g[d + k], g[2 * d + k], g[3 * d + k]);
                    let (ca, c, cp) = (cell_act[r * d + k], cs[r * d + k], c_prev[k]);
                    let d_o = spec.gate.grad(o, dh[k] * ca);
                    let d_c =
                        if proj.cell_clip > 0.0 && (c >= proj.cell_clip || c <= -proj.cell_clip) {
                            0.0
                        } else {
                            dc[k] + spec.cell.grad(ca, dh[k] * o) + d_o * peep(2 * d + k)
                        };
                    let d_in = spec.candidate.grad(c_in, d_c * i);
                    let d_i = spec.gate.grad(i, d_c * c_in);
                    let d_f = spec.gate.grad(f, d_c * cp);
                    dc[k] = d_i * peep(k) + d_f * peep(d + k) + d_c * f;
                    if spec.peepholes {
                        dpeep[k] += d_i * cp;
                        dpeep[d + k] += d_f * cp;
                        dpeep[2 * d + k] += d_o * c;
                    }
                    (dg[k], dg[d + k], dg[2 * d + k], dg[3 * d + k]) = (d_in, d_i, d_f, d_o);
                }
                // Into the previous projection (or H0): its gradient and Weight's.
                let r_prev: Option<&[f64]> = match prev {
                    Some(q) => Some(&rs[q * p..][..p]),
                    None => h0v.as_ref().map(|h| &h[seq * p..][..p]),
                };
                if let Some(rp) = r_prev {
                    for q in 0..p {
                        let back: f64 = w[q * 4 * d..][..4 * d]
                            .iter()
                            .zip(dg.iter())
                            .map(|(a, b)| a * b)
                            .sum();
                        match prev {
                            Some(pr) => dr[pr * p + q] += back,
                            None => dh0[seq * p + q] = back,
                        }
                        for (j, &gj) in dg.iter().enumerate() {
                            dw[q * 4 * d + j] += rp[q] * gj;
                        }
                    }
                }
            }
            dc0[seq * d..][..d].copy_from_slice(&dc);
        }
        let mut db = vec![0.0; b.len()];
        for row in dgates.chunks(4 * d) {
            db.iter_mut().zip(row).for_each(|(s, &v)| *s += v);
        }
        if spec.peepholes {
            db[4 * d..].copy_from_slice(&dpeep);
        }
        if !matches!(dtype, VarKind::Fp32 | VarKind::Fp64) {
            return Err(KernelError::Dtype(format!(
                "{op} needs float32 or float64 tensors"
            )));
        }
        let out = [
            Some(tensor(dtype, &[rows as i64, (4 * d) as i64], dgates)?.with_lod(lod)),
            Some(tensor(dtype, &shapes.0, dw)?),
            Some(tensor(dtype, &shapes.1, dpw)?),
            Some(tensor(dtype, &shapes.2, db)?),
            h0.as_ref()
                .map(|_| tensor(dtype, &[n as i64, p as i64], dh0))
                .transpose()?,
            c0.as_ref()
                .map(|_| tensor(dtype, &[n as i64, d as i64], dc0))
                .transpose()?,
        ];
        set_grads(s, grads.iter().zip(out).collect());
        Ok(())
    })
}
