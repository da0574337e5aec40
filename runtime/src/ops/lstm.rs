//! `lstm`, the op of Paddle 1.x's `dynamic_lstm`, and its grad: an LSTM
//! over each sequence of a LoD batch, with Paddle's gate layout and
//! formulas (lstm_op.h, funcs/detail/lstm_kernel.h and its activations).
//!
//! `Input` is the already projected `[T, 4D]` (gates in the order
//! candidate, input, forget, output), `Weight` the recurrent `[D, 4D]`,
//! `Bias` `[1, 4D]`, or `[1, 7D]` with peepholes (then the input, forget
//! and output gates' peephole weights follow the gate biases).
//!
//! Paddle regroups the rows into time-major batches to multiply them
//! together; fluidc runs each sequence on its own, which computes the
//! same values. `BatchGate` and `BatchCellPreAct` (the activated gates and
//! cell, which the grad reads back) are therefore kept in the rows' own
//! order, not in Paddle's batch order: they are the op's scratch, and no
//! 1.x layer returns them.
use fluidc_transpiler::VarKind;

use super::{compute, Exec, Registry};
use crate::error::KernelError;
use crate::loader::OpLoader;
use crate::ops::float::{f64s, needs_float, set_grads, tensor};
use crate::tensor::Tensor;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("lstm", lstm);
    r.add("lstm_grad", lstm_grad);
}

/// The activations `dynamic_lstm` names, as Paddle's
/// `detail::activation_functions.h` computes them (sigmoid clipped to
/// [-40, 13], tanh through `exp(-2x)` clipped at 40).
#[derive(Clone, Copy)]
enum Act {
    Sigmoid,
    Tanh,
    Relu,
    Identity,
}

impl Act {
    fn from_attr(l: &OpLoader, name: &str, default: &str) -> Result<Act, String> {
        Ok(match l.string(name)?.unwrap_or(default) {
            "sigmoid" => Act::Sigmoid,
            "tanh" => Act::Tanh,
            "relu" => Act::Relu,
            "identity" | "" => Act::Identity,
            other => {
                return Err(format!(
                    "{name} `{other}` is not one of sigmoid, tanh, relu, identity"
                ))
            }
        })
    }

    fn apply(self, x: f64) -> f64 {
        match self {
            Act::Sigmoid => 1.0 / (1.0 + (-x.clamp(-40.0, 13.0)).exp()),
            Act::Tanh => 2.0 / (1.0 + (-2.0 * x).min(40.0).exp()) - 1.0,
            Act::Relu => x.max(0.0),
            Act::Identity => x,
        }
    }

    /// `dy` times the derivative, from the activation's output `y`.
    fn grad(self, dy: f64, y: f64) -> f64 {
        match self {
            Act::Sigmoid => dy * y * (1.0 - y),
            Act::Tanh => dy * (1.0 - y * y),
            Act::Relu if y > 0.0 => dy,
            Act::Relu => 0.0,
            Act::Identity => dy,
        }
    }
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
    fn load(l: &OpLoader) -> Result<Spec, String> {
        Ok(Spec {
            peepholes: l.bool("use_peepholes", true)?,
            reverse: l.bool("is_reverse", false)?,
            gate: Act::from_attr(l, "gate_activation", "sigmoid")?,
            cell: Act::from_attr(l, "cell_activation", "tanh")?,
            candidate: Act::from_attr(l, "candidate_activation", "tanh")?,
        })
    }

    /// The rows of each sequence in the order the LSTM steps through them.
    fn steps(&self, offsets: &[usize]) -> Vec<Vec<usize>> {
        offsets
            .windows(2)
            .map(|w| {
                let rows: Vec<usize> = (w[0]..w[1]).collect();
                if self.reverse {
                    rows.into_iter().rev().collect()
                } else {
                    rows
                }
            })
            .collect()
    }
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
    let &[rows, width] = input.shape() else {
        return Err(KernelError::Shape(format!(
            "Input has shape {:?}; it must be [T, 4 * D]",
            input.shape()
        )));
    };
    let Some(offsets) = input.lod().last().cloned() else {
        return Err(KernelError::Invalid(format!(
            "`{name}` has no LoD; feed it as a LoD tensor (fluid.create_lod_tensor)"
        )));
    };
    if offsets.last() != Some(&(rows.max(0) as usize)) || width % 4 != 0 {
        return Err(KernelError::Shape(format!(
            "Input {:?} must be [T, 4 * D] with T the end of its LoD {offsets:?}",
            input.shape()
        )));
    }
    let d = width as usize / 4;
    if weight.shape() != [d as i64, 4 * d as i64] {
        return Err(KernelError::Shape(format!(
            "Weight {:?} must be [{d}, {}]",
            weight.shape(),
            4 * d
        )));
    }
    let want = if peepholes { 7 * d } else { 4 * d };
    if let Some(b) = bias.filter(|b| b.numel() != want) {
        return Err(KernelError::Shape(format!(
            "Bias {:?} must be [1, {want}]{}",
            b.shape(),
            if peepholes { " with use_peepholes" } else { "" }
        )));
    }
    Ok((d, offsets))
}

/// The optional inputs read as `f64`: Bias (or zeros), H0 and C0.
fn optional(
    s: &crate::scope::Vars,
    r: &Option<crate::scope::VarRef>,
    op: &str,
) -> Result<Option<Vec<f64>>, KernelError> {
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
fn lstm(l: &OpLoader) -> Result<Exec, String> {
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
        for (seq, steps) in spec.steps(&offsets).into_iter().enumerate() {
            let mut h_prev: Option<Vec<f64>> = h0v.as_ref().map(|h| h[seq * d..][..d].to_vec());
            let mut c_prev: Vec<f64> = c0v
                .as_ref()
                .map_or(vec![0.0; d], |c| c[seq * d..][..d].to_vec());
            for r in steps {
                let g = &mut gates[r * 4 * d..][..4 * d];
                for (j, gj) in g.iter_mut().enumerate() {
                    *gj = x[r * 4 * d + j] + b[j];
                }
                if let Some(hp) = &h_prev {
                    for (k, &hk) in hp.iter().enumerate() {
                        for (j, gj) in g.iter_mut().enumerate() {
                            *gj += hk * w[k * 4 * d + j];
                        }
                    }
                }
                for k in 0..d {
                    let cp = c_prev[k];
                    let c_in = spec.candidate.apply(g[k]);
                    let i = spec.gate.apply(g[d + k] + cp * peep(k));
                    let f = spec.gate.apply(g[2 * d + k] + cp * peep(d + k));
                    let c = c_in * i + cp * f;
                    let o = spec.gate.apply(g[3 * d + k] + c * peep(2 * d + k));
                    let ca = spec.cell.apply(c);
                    (g[k], g[d + k], g[2 * d + k], g[3 * d + k]) = (c_in, i, f, o);
                    cs[r * d + k] = c;
                    cell_act[r * d + k] = ca;
                    hs[r * d + k] = o * ca;
                }
                h_prev = Some(hs[r * d..][..d].to_vec());
                c_prev = cs[r * d..][..d].to_vec();
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
        if let Some(bg) = &batch_gate {
            s.set_tensor(bg, out(gates, 4 * d)?);
        }
        if let Some(bc) = &batch_cell {
            s.set_tensor(bc, tensor(dtype, &shape, cell_act)?);
        }
        Ok(())
    })
}

/// `lstm_grad`: back through each sequence from `Hidden@GRAD` (Paddle
/// does not propagate `Cell@GRAD`), with the gates and cell the forward
/// kept; gives the gradients of `Input`, `Weight`, `Bias` (peephole
/// weights included), `H0` and `C0`.
fn lstm_grad(l: &OpLoader) -> Result<Exec, String> {
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
        let read =
            |r: &crate::scope::VarRef, n: usize, what: &str| -> Result<Vec<f64>, KernelError> {
                let t = s.tensor(r)?;
                if t.numel() != n {
                    return Err(KernelError::Shape(format!(
                        "{what} of shape {:?} does not fit {rows} rows of {d} values",
                        t.shape()
                    )));
                }
                Ok(f64s(&t, op)?.into_owned())
            };
        let w = f64s(&wt, op)?;
        let b = optional(s, &bias, op)?.unwrap_or_else(|| vec![0.0; 4 * d]);
        let hs = read(&hidden, rows * d, "Hidden")?;
        let cs = read(&cell, rows * d, "Cell")?;
        let gates = read(&batch_gate, rows * 4 * d, "BatchGate")?;
        let cell_act = read(&batch_cell, rows * d, "BatchCellPreAct")?;
        let mut dh = read(&dhidden, rows * d, "Hidden@GRAD")?;
        let (h0v, c0v) = (optional(s, &h0, op)?, optional(s, &c0, op)?);
        let n = offsets.len() - 1;
        let with_peep = spec.peepholes && bias.is_some();
        let peep = |k: usize| if with_peep { b[4 * d + k] } else { 0.0 };
        let mut dgates = vec![0.0; rows * 4 * d];
        let mut dw = vec![0.0; 4 * d * d];
        let mut dpeep = vec![0.0; 3 * d];
        let (mut dh0, mut dc0) = (vec![0.0; n * d], vec![0.0; n * d]);
        for (seq, steps) in spec.steps(&offsets).into_iter().enumerate() {
            let mut dc = vec![0.0; d];
            for (t, &r) in steps.iter().enumerate().rev() {
                let prev = t.checked_sub(1).map(|p| steps[p]);
                let c_prev: Vec<f64> = match (prev, &c0v) {
                    (Some(p), _) => cs[p * d..][..d].to_vec(),
                    (None, Some(c0)) => c0[seq * d..][..d].to_vec(),
                    (None, None) => vec![0.0; d],
                };
                let g = &gates[r * 4 * d..][..4 * d];
                let dg = &mut dgates[r * 4 * d..][..4 * d];
                for k in 0..d {
                    let (c_in, i, f, o) = (g[k], g[d + k], g[2 * d + k], g[3 * d + k]);
                    let (out_g, ca, c, cp) =
                        (dh[r * d + k], cell_act[r * d + k], cs[r * d + k], c_prev[k]);
                    let d_o = spec.gate.grad(out_g * ca, o);
                    let d_c = dc[k] + spec.cell.grad(out_g * o, ca) + d_o * peep(2 * d + k);
                    let d_in = spec.candidate.grad(d_c * i, c_in);
                    let d_i = spec.gate.grad(d_c * c_in, i);
                    let d_f = spec.gate.grad(d_c * cp, f);
                    dc[k] = d_i * peep(k) + d_f * peep(d + k) + d_c * f;
                    if with_peep {
                        dpeep[k] += d_i * cp;
                        dpeep[d + k] += d_f * cp;
                        dpeep[2 * d + k] += d_o * c;
                    }
                    (dg[k], dg[d + k], dg[2 * d + k], dg[3 * d + k]) = (d_in, d_i, d_f, d_o);
                }
                // Into the previous hidden state: its gradient and Weight's.
                let h_prev: Option<&[f64]> = match prev {
                    Some(p) => Some(&hs[p * d..][..d]),
                    None => h0v.as_ref().map(|h| &h[seq * d..][..d]),
                };
                if let Some(hp) = h_prev {
                    for k in 0..d {
                        let row = &w[k * 4 * d..][..4 * d];
                        let back: f64 = row.iter().zip(dg.iter()).map(|(a, b)| a * b).sum();
                        match prev {
                            Some(p) => dh[p * d + k] += back,
                            None => dh0[seq * d + k] = back,
                        }
                        for (j, &gj) in dg.iter().enumerate() {
                            dw[k * 4 * d + j] += hp[k] * gj;
                        }
                    }
                }
            }
            dc0[seq * d..][..d].copy_from_slice(&dc);
        }
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
