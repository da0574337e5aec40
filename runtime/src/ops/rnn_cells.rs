//! One step of a recurrent cell: `gru_unit` (Paddle 3.3.1's
//! gru_unit_op.h) and `lstm_unit` (Paddle 1.x's lstm_unit_op.h, which
//! 3.3.1 dropped), with their grads, computed in the input's precision.
//!
//! `gru_unit`'s `Weight` is `[frame, 3 * frame]`, but Paddle reads its
//! buffer as two matrices back to back: the update and reset gates'
//! `[frame, 2 * frame]`, then the candidate's `[frame, frame]`. A trained
//! weight only means the same thing to both if fluidc reads it so too.
use crate::tensor::gemm::{product, Gemm};
use ndarray::{ArrayView2, ArrayViewMut2, ShapeBuilder};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::ops::float::{needs_float, set_grads};
use crate::ops::optim::Real;
use crate::scope::{TensorRef, VarRef, Vars};
use crate::tensor::{Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("gru_unit", gru_unit);
    r.add("gru_unit_grad", gru_unit_grad);
    r.add("lstm_unit", lstm_unit);
    r.add("lstm_unit_grad", lstm_unit_grad);
}

/// The float types the cells run in.
pub(super) trait Cell: Real + Gemm {}
impl Cell for f32 {}
impl Cell for f64 {}

/// The recurrent ops' activations: `gru_unit` names them by number
/// (`activation`, `gate_activation`), `lstm` and `gru` by name.
#[derive(Clone, Copy)]
pub(super) enum Act {
    Identity,
    Sigmoid,
    Tanh,
    Relu,
}

impl Act {
    /// `gru_unit`'s numbered attribute.
    fn from_code(l: &OpReader, name: &str, default: i64) -> Result<Act, KernelError> {
        Ok(match l.int_or(name, default)? {
            0 => Act::Identity,
            1 => Act::Sigmoid,
            2 => Act::Tanh,
            3 => Act::Relu,
            n => {
                return Err(KernelError::Attribute(format!(
                    "{name} {n} is not an activation: 0 identity, 1 sigmoid, 2 tanh, 3 relu"
                )))
            }
        })
    }

    /// `lstm`'s and `gru`'s named attribute.
    pub(super) fn from_name(l: &OpReader, name: &str, default: &str) -> Result<Act, KernelError> {
        Ok(match l.string(name)?.unwrap_or(default) {
            "sigmoid" => Act::Sigmoid,
            "tanh" => Act::Tanh,
            "relu" => Act::Relu,
            "identity" | "" => Act::Identity,
            other => {
                return Err(KernelError::Attribute(format!(
                    "{name} `{other}` is not one of sigmoid, tanh, relu, identity"
                )))
            }
        })
    }

    /// As `gru_unit`'s Eigen functors compute it.
    pub(super) fn apply<T: Cell>(self, x: T) -> T {
        match self {
            Act::Identity => x,
            Act::Sigmoid => T::one() / (T::one() + (-x).exp()),
            Act::Tanh => x.tanh(),
            Act::Relu => x.max(T::zero()),
        }
    }

    /// As `lstm` and `gru` compute it, in Paddle's
    /// `detail::activation_functions.h`: sigmoid clipped to [-40, 13], tanh
    /// through `exp(-2x)` clipped at 40.
    pub(super) fn apply_clipped(self, x: f64) -> f64 {
        match self {
            Act::Sigmoid => 1.0 / (1.0 + (-x.clamp(-40.0, 13.0)).exp()),
            Act::Tanh => 2.0 / (1.0 + (-2.0 * x).min(40.0).exp()) - 1.0,
            Act::Relu => x.max(0.0),
            Act::Identity => x,
        }
    }

    /// The derivative times `dy`, from the activation's output `y`.
    pub(super) fn grad<T: Cell>(self, y: T, dy: T) -> T {
        match self {
            Act::Identity => dy,
            Act::Sigmoid => dy * y * (T::one() - y),
            Act::Tanh => dy * (T::one() - y * y),
            Act::Relu if y > T::zero() => dy,
            Act::Relu => T::zero(),
        }
    }
}

/// A `rows × cols` matrix over `v` whose rows are `ld` apart.
fn mat<T>(v: &[T], rows: usize, cols: usize, ld: usize) -> Result<ArrayView2<'_, T>, KernelError> {
    ArrayView2::from_shape((rows, cols).strides((ld, 1)), v)
        .map_err(|e| KernelError::Shape(format!("a {rows}×{cols} matrix: {e}")))
}

fn mat_mut<T>(
    v: &mut [T],
    rows: usize,
    cols: usize,
    ld: usize,
) -> Result<ArrayViewMut2<'_, T>, KernelError> {
    ArrayViewMut2::from_shape((rows, cols).strides((ld, 1)), v)
        .map_err(|e| KernelError::Shape(format!("a {rows}×{cols} matrix: {e}")))
}

/// The elements of `t` as `T`, the dtype of the op's first input.
fn typed<'a, T: Element>(t: &'a Tensor, what: &str, op: &str) -> Result<&'a [T], KernelError> {
    t.values::<T>().ok_or_else(|| {
        KernelError::Dtype(format!(
            "{op}: {what} is {} but the input is {}; the cell's tensors share one float dtype",
            crate::tensor::dtype_name(t.dtype()),
            crate::tensor::dtype_name(T::KIND)
        ))
    })
}

/// The batch and frame size of a `gru_unit`: `Input` `[batch, 3 * frame]`,
/// `HiddenPrev` `[batch, frame]`, `Weight` `3 * frame * frame` values and
/// `Bias` `3 * frame`.
fn gru_dims(
    input: &Tensor,
    prev: &Tensor,
    weight: &Tensor,
    bias: Option<&Tensor>,
) -> Result<(usize, usize), KernelError> {
    let (&[b, w3], &[b2, f]) = (input.shape(), prev.shape()) else {
        return Err(KernelError::Shape(format!(
            "Input {:?} and HiddenPrev {:?} must be matrices",
            input.shape(),
            prev.shape()
        )));
    };
    let (b, f) = (b.max(0) as usize, f.max(0) as usize);
    if b2 as usize != b || w3 as usize != 3 * f {
        return Err(KernelError::Shape(format!(
            "Input {:?} must be [batch, 3 * frame] for HiddenPrev {:?}",
            input.shape(),
            prev.shape()
        )));
    }
    if weight.numel() != 3 * f * f {
        return Err(KernelError::Shape(format!(
            "Weight {:?} must be [{f}, {}]",
            weight.shape(),
            3 * f
        )));
    }
    if let Some(bias) = bias.filter(|t| t.numel() != 3 * f) {
        return Err(KernelError::Shape(format!(
            "Bias {:?} must be [1, {}]",
            bias.shape(),
            3 * f
        )));
    }
    Ok((b, f))
}

/// `gru_unit`: with `u`, `r` the gate activation of the first two thirds
/// of `Input + Bias + HiddenPrev · W_ur`, `ResetHiddenPrev = r * h_prev`,
/// the candidate `c` the activation of the last third plus
/// `ResetHiddenPrev · W_c`, and `Hidden = u * c + (1 - u) * h_prev`
/// (`origin_mode`: `u * h_prev + (1 - u) * c`). `Gate` keeps `u`, `r`, `c`.
fn gru_unit(l: &OpReader) -> Result<Exec, KernelError> {
    let op = GruOp::load(l)?;
    let (gate, reset, hidden) = (
        l.output("Gate")?,
        l.output("ResetHiddenPrev")?,
        l.output("Hidden")?,
    );
    compute(move |s| {
        let (xt, ht, wt, bt, (b, f)) = op.read(s)?;
        let (act, gate_act, origin) = op.attrs;
        let ts = [&*xt, &*ht, &*wt];
        let outs = match xt.dtype() {
            fluidc_transpiler::VarKind::Fp32 => {
                gru_forward::<f32>(ts, bt.as_deref(), (b, f), (act, gate_act, origin))?
            }
            fluidc_transpiler::VarKind::Fp64 => {
                gru_forward::<f64>(ts, bt.as_deref(), (b, f), (act, gate_act, origin))?
            }
            _ => return Err(needs_float("gru_unit", &xt)),
        };
        drop((xt, ht, wt, bt));
        let [g, r, h] = outs;
        s.set_tensor(&gate, g);
        s.set_tensor(&reset, r);
        s.set_tensor(&hidden, h);
        Ok(())
    })
}

/// A `gru_unit`'s (or its grad's) forward inputs and attributes.
struct GruOp {
    input: VarRef,
    prev: VarRef,
    weight: VarRef,
    bias: Option<VarRef>,
    attrs: GruAttrs,
}

/// `activation`, `gate_activation` and `origin_mode`.
type GruAttrs = (Act, Act, bool);

/// A `gru_unit`'s forward inputs, as read from the scope.
type GruInputs<'s> = (
    TensorRef<'s>,
    TensorRef<'s>,
    TensorRef<'s>,
    Option<TensorRef<'s>>,
    (usize, usize),
);

impl GruOp {
    /// `Input`, `HiddenPrev`, `Weight` and `Bias`, with the batch and
    /// frame size they agree on ([`gru_dims`]).
    fn read<'s>(&self, s: &'s Vars) -> Result<GruInputs<'s>, KernelError> {
        let (xt, ht, wt) = (
            s.tensor(&self.input)?,
            s.tensor(&self.prev)?,
            s.tensor(&self.weight)?,
        );
        let bt = self.bias.as_ref().map(|b| s.tensor(b)).transpose()?;
        let dims = gru_dims(&xt, &ht, &wt, bt.as_deref())?;
        Ok((xt, ht, wt, bt, dims))
    }

    fn load(l: &OpReader) -> Result<GruOp, KernelError> {
        Ok(GruOp {
            input: l.input("Input")?,
            prev: l.input("HiddenPrev")?,
            weight: l.input("Weight")?,
            bias: l.opt_input("Bias")?,
            attrs: (
                Act::from_code(l, "activation", 2)?,
                Act::from_code(l, "gate_activation", 1)?,
                l.bool_or("origin_mode", false)?,
            ),
        })
    }
}

fn gru_forward<T: Cell>(
    [xt, ht, wt]: [&Tensor; 3],
    bt: Option<&Tensor>,
    (b, f): (usize, usize),
    (act, gate_act, origin): GruAttrs,
) -> Result<[Tensor; 3], KernelError> {
    let op = "gru_unit";
    let (x, h, w) = (
        typed::<T>(xt, "Input", op)?,
        typed::<T>(ht, "HiddenPrev", op)?,
        typed::<T>(wt, "Weight", op)?,
    );
    let mut g = x.to_vec();
    if let Some(bt) = bt {
        let bias = typed::<T>(bt, "Bias", op)?;
        for row in g.chunks_mut(3 * f) {
            row.iter_mut().zip(bias).for_each(|(v, &bv)| *v = *v + bv);
        }
    }
    let (w_ur, w_c) = w.split_at(2 * f * f);
    product(
        T::one(),
        &mat(h, b, f, f)?,
        &mat(w_ur, f, 2 * f, 2 * f)?,
        T::one(),
        &mut mat_mut(&mut g, b, 2 * f, 3 * f)?,
    );
    let mut rh = vec![T::zero(); b * f];
    for ((row, rh), h) in g.chunks_mut(3 * f).zip(rh.chunks_mut(f)).zip(h.chunks(f)) {
        for v in &mut row[..2 * f] {
            *v = gate_act.apply(*v);
        }
        for ((rh, &r), &hp) in rh.iter_mut().zip(&row[f..2 * f]).zip(h) {
            *rh = r * hp;
        }
    }
    if f > 0 {
        product(
            T::one(),
            &mat(&rh, b, f, f)?,
            &mat(w_c, f, f, f)?,
            T::one(),
            &mut mat_mut(&mut g[2 * f..], b, f, 3 * f)?,
        );
    }
    let mut out = vec![T::zero(); b * f];
    for ((row, o), h) in g.chunks_mut(3 * f).zip(out.chunks_mut(f)).zip(h.chunks(f)) {
        for k in 0..f {
            let c = act.apply(row[2 * f + k]);
            row[2 * f + k] = c;
            let u = row[k];
            o[k] = if origin {
                c + u * (h[k] - c)
            } else {
                u * (c - h[k]) + h[k]
            };
        }
    }
    let shape = [b as i64, f as i64];
    Ok([
        Tensor::from_vec(xt.shape(), g)?,
        Tensor::from_vec(&shape, rh)?,
        Tensor::from_vec(&shape, out)?,
    ])
}

/// `gru_unit_grad`: the gradients of `Input`, `HiddenPrev`, `Weight` and
/// `Bias` from `Hidden@GRAD`, through the `Gate` and `ResetHiddenPrev`
/// the forward kept, in the order Paddle's kernel takes them.
fn gru_unit_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let op = GruOp::load(l)?;
    let (gate, reset, dhidden) = (
        l.input("Gate")?,
        l.input("ResetHiddenPrev")?,
        l.input("Hidden@GRAD")?,
    );
    let grads = [
        l.opt_output("Input@GRAD")?,
        l.opt_output("HiddenPrev@GRAD")?,
        l.opt_output("Weight@GRAD")?,
        l.opt_output("Bias@GRAD")?,
    ];
    compute(move |s| {
        let (xt, ht, wt, bt, (b, f)) = op.read(s)?;
        let (gt, rt, dt) = (s.tensor(&gate)?, s.tensor(&reset)?, s.tensor(&dhidden)?);
        for (t, what, n) in [
            (&gt, "Gate", 3 * f),
            (&rt, "ResetHiddenPrev", f),
            (&dt, "Hidden@GRAD", f),
        ] {
            if t.numel() != b * n {
                return Err(KernelError::Shape(format!(
                    "{what} {:?} does not fit a batch of {b} and a frame of {f}",
                    t.shape()
                )));
            }
        }
        let ts = [&*ht, &*wt, &*gt, &*rt, &*dt];
        let attrs = op.attrs;
        let out = match xt.dtype() {
            fluidc_transpiler::VarKind::Fp32 => gru_backward::<f32>(ts, (b, f), attrs)?,
            fluidc_transpiler::VarKind::Fp64 => gru_backward::<f64>(ts, (b, f), attrs)?,
            _ => return Err(needs_float("gru_unit_grad", &xt)),
        };
        let shapes = [
            xt.shape().to_vec(),
            ht.shape().to_vec(),
            wt.shape().to_vec(),
            bt.as_ref()
                .map_or(vec![1, 3 * f as i64], |t| t.shape().to_vec()),
        ];
        drop((xt, ht, wt, bt, gt, rt, dt));
        let mut set = Vec::new();
        for ((r, t), shape) in grads.iter().zip(out).zip(shapes) {
            set.push((r, Some(t.reshaped(&shape)?)));
        }
        set_grads(s, set);
        Ok(())
    })
}

fn gru_backward<T: Cell>(
    [ht, wt, gt, rt, dt]: [&Tensor; 5],
    (b, f): (usize, usize),
    (act, gate_act, origin): GruAttrs,
) -> Result<[Tensor; 4], KernelError> {
    let op = "gru_unit_grad";
    let h = typed::<T>(ht, "HiddenPrev", op)?;
    let w = typed::<T>(wt, "Weight", op)?;
    let g = typed::<T>(gt, "Gate", op)?;
    let rh = typed::<T>(rt, "ResetHiddenPrev", op)?;
    let dh = typed::<T>(dt, "Hidden@GRAD", op)?;
    let (w_ur, w_c) = w.split_at(2 * f * f);
    // The gradient of the gates before their activations.
    let mut dg = vec![T::zero(); b * 3 * f];
    for n in 0..b {
        let (row, d) = (&g[n * 3 * f..][..3 * f], &mut dg[n * 3 * f..][..3 * f]);
        for k in 0..f {
            let (u, c, hp, dhv) = (row[k], row[2 * f + k], h[n * f + k], dh[n * f + k]);
            let (du, dc) = if origin {
                (dhv * (hp - c), dhv * (T::one() - u))
            } else {
                (dhv * (c - hp), dhv * u)
            };
            d[k] = gate_act.grad(u, du);
            d[2 * f + k] = act.grad(c, dc);
        }
    }
    let mut drh = vec![T::zero(); b * f];
    if f > 0 {
        product(
            T::one(),
            &mat(&dg[2 * f..], b, f, 3 * f)?,
            &mat(w_c, f, f, f)?.t(),
            T::zero(),
            &mut mat_mut(&mut drh, b, f, f)?,
        );
    }
    for n in 0..b {
        for k in 0..f {
            let r = g[n * 3 * f + f + k];
            dg[n * 3 * f + f + k] = gate_act.grad(r, drh[n * f + k] * h[n * f + k]);
        }
    }
    let mut dw = vec![T::zero(); 3 * f * f];
    {
        let (dw_ur, dw_c) = dw.split_at_mut(2 * f * f);
        if f > 0 {
            product(
                T::one(),
                &mat(rh, b, f, f)?.t(),
                &mat(&dg[2 * f..], b, f, 3 * f)?,
                T::zero(),
                &mut mat_mut(dw_c, f, f, f)?,
            );
        }
        product(
            T::one(),
            &mat(h, b, f, f)?.t(),
            &mat(&dg, b, 2 * f, 3 * f)?,
            T::zero(),
            &mut mat_mut(dw_ur, f, 2 * f, 2 * f)?,
        );
    }
    let mut dhp = vec![T::zero(); b * f];
    for n in 0..b {
        for k in 0..f {
            let (r, u) = (g[n * 3 * f + f + k], g[n * 3 * f + k]);
            let keep = if origin { u } else { T::one() - u };
            dhp[n * f + k] = drh[n * f + k] * r + dh[n * f + k] * keep;
        }
    }
    product(
        T::one(),
        &mat(&dg, b, 2 * f, 3 * f)?,
        &mat(w_ur, f, 2 * f, 2 * f)?.t(),
        T::one(),
        &mut mat_mut(&mut dhp, b, f, f)?,
    );
    let mut db = vec![T::zero(); 3 * f];
    for row in dg.chunks(3 * f) {
        db.iter_mut().zip(row).for_each(|(s, &v)| *s = *s + v);
    }
    let (b, f) = (b as i64, f as i64);
    Ok([
        Tensor::from_vec(&[b, 3 * f], dg)?,
        Tensor::from_vec(&[b, f], dhp)?,
        Tensor::from_vec(&[f, 3 * f], dw)?,
        Tensor::from_vec(&[1, 3 * f], db)?,
    ])
}

/// `lstm_unit`'s sigmoid and tanh, written as Paddle 1.x's kernel wrote
/// them (tanh through the sigmoid), so both round alike.
fn sigmoid<T: Cell>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

fn tanh<T: Cell>(x: T) -> T {
    let two = T::one() + T::one();
    two * sigmoid(two * x) - T::one()
}

/// The batch and state size of an `lstm_unit`: `X` `[batch, 4 * D]`,
/// `C_prev` `[batch, D]`.
fn lstm_dims(x: &Tensor, c_prev: &Tensor) -> Result<(usize, usize), KernelError> {
    match (x.shape(), c_prev.shape()) {
        (&[b, w4], &[b2, d]) if b == b2 && w4 == 4 * d && d >= 0 => {
            Ok((b.max(0) as usize, d as usize))
        }
        (xs, cs) => Err(KernelError::Shape(format!(
            "X {xs:?} must be [batch, 4 * D] for C_prev {cs:?} [batch, D]"
        ))),
    }
}

/// `lstm_unit`: with `i, f, o, g` the four quarters of each row of `X`,
/// `C = sigmoid(f + forget_bias) * C_prev + sigmoid(i) * tanh(g)` and
/// `H = sigmoid(o) * tanh(C)`.
fn lstm_unit(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, c_prev) = (l.input("X")?, l.input("C_prev")?);
    let (c_out, h_out) = (l.output("C")?, l.output("H")?);
    let forget_bias = l.float("forget_bias")?;
    compute(move |s| {
        let (xt, ct) = (s.tensor(&x)?, s.tensor(&c_prev)?);
        let (b, d) = lstm_dims(&xt, &ct)?;
        fn run<T: Cell>(x: &[T], cp: &[T], d: usize, bias: T) -> (Vec<T>, Vec<T>) {
            let (mut c, mut h) = (vec![T::zero(); cp.len()], vec![T::zero(); cp.len()]);
            for (n, row) in x.chunks(4 * d).enumerate() {
                for k in 0..d {
                    let i = sigmoid(row[k]);
                    let f = sigmoid(row[d + k] + bias);
                    let o = sigmoid(row[2 * d + k]);
                    let g = tanh(row[3 * d + k]);
                    let cv = f * cp[n * d + k] + i * g;
                    c[n * d + k] = cv;
                    h[n * d + k] = o * tanh(cv);
                }
            }
            (c, h)
        }
        let shape = [b as i64, d as i64];
        let op = "lstm_unit";
        let (c, h) = match xt.dtype() {
            fluidc_transpiler::VarKind::Fp32 => {
                let (c, h) = run::<f32>(
                    typed(&xt, "X", op)?,
                    typed(&ct, "C_prev", op)?,
                    d,
                    forget_bias as f32,
                );
                (Tensor::from_vec(&shape, c)?, Tensor::from_vec(&shape, h)?)
            }
            fluidc_transpiler::VarKind::Fp64 => {
                let (c, h) = run::<f64>(
                    typed(&xt, "X", op)?,
                    typed(&ct, "C_prev", op)?,
                    d,
                    forget_bias,
                );
                (Tensor::from_vec(&shape, c)?, Tensor::from_vec(&shape, h)?)
            }
            _ => return Err(needs_float(op, &xt)),
        };
        drop((xt, ct));
        s.set_tensor(&c_out, c);
        s.set_tensor(&h_out, h);
        Ok(())
    })
}

/// A gradient input that backward may leave out (the cell's other output
/// unused): its values, or zeros.
fn grad_or_zeros<T: Cell>(
    s: &Vars,
    r: &Option<VarRef>,
    n: usize,
    what: &str,
) -> Result<Vec<T>, KernelError> {
    match r.as_ref().and_then(|r| s.tensor(r).ok()) {
        Some(t) if t.numel() == n => Ok(typed::<T>(&t, what, "lstm_unit_grad")?.to_vec()),
        Some(t) => Err(KernelError::Shape(format!(
            "{what} {:?} must have C_prev's {n} values",
            t.shape()
        ))),
        None => Ok(vec![T::zero(); n]),
    }
}

/// `lstm_unit_grad`: `X@GRAD` and `C_prev@GRAD` from `C@GRAD` and
/// `H@GRAD`, recomputing the gates from `X` as Paddle 1.x's kernel did.
fn lstm_unit_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, c_prev, c) = (l.input("X")?, l.input("C_prev")?, l.input("C")?);
    let (dc, dh) = (l.opt_input("C@GRAD")?, l.opt_input("H@GRAD")?);
    let (dx, dc_prev) = (l.opt_output("X@GRAD")?, l.opt_output("C_prev@GRAD")?);
    let forget_bias = l.float("forget_bias")?;
    compute(move |s| {
        let (xt, cpt, ct) = (s.tensor(&x)?, s.tensor(&c_prev)?, s.tensor(&c)?);
        let (b, d) = lstm_dims(&xt, &cpt)?;
        if ct.numel() != b * d {
            return Err(KernelError::Shape(format!(
                "C {:?} must have C_prev's shape {:?}",
                ct.shape(),
                cpt.shape()
            )));
        }
        fn run<T: Cell>(
            s: &Vars,
            [xt, cpt, ct]: [&Tensor; 3],
            [dc, dh]: [&Option<VarRef>; 2],
            d: usize,
            bias: T,
        ) -> Result<(Vec<T>, Vec<T>), KernelError> {
            let op = "lstm_unit_grad";
            let (x, cp, c) = (
                typed::<T>(xt, "X", op)?,
                typed::<T>(cpt, "C_prev", op)?,
                typed::<T>(ct, "C", op)?,
            );
            let dcv = grad_or_zeros::<T>(s, dc, c.len(), "C@GRAD")?;
            let dhv = grad_or_zeros::<T>(s, dh, c.len(), "H@GRAD")?;
            let one = T::one();
            let (mut gx, mut gcp) = (vec![T::zero(); x.len()], vec![T::zero(); cp.len()]);
            for (n, (row, grow)) in x.chunks(4 * d).zip(gx.chunks_mut(4 * d)).enumerate() {
                for k in 0..d {
                    let at = n * d + k;
                    let i = sigmoid(row[k]);
                    let f = sigmoid(row[d + k] + bias);
                    let o = sigmoid(row[2 * d + k]);
                    let g = tanh(row[3 * d + k]);
                    let tanh_c = tanh(c[at]);
                    let c_term = dcv[at] + dhv[at] * o * (one - tanh_c * tanh_c);
                    gcp[at] = c_term * f;
                    grow[k] = c_term * g * i * (one - i);
                    grow[d + k] = c_term * cp[at] * f * (one - f);
                    grow[2 * d + k] = dhv[at] * tanh_c * o * (one - o);
                    grow[3 * d + k] = c_term * i * (one - g * g);
                }
            }
            Ok((gx, gcp))
        }
        let ts = [&*xt, &*cpt, &*ct];
        let (gx, gcp) = match xt.dtype() {
            fluidc_transpiler::VarKind::Fp32 => {
                let (gx, gcp) = run::<f32>(s, ts, [&dc, &dh], d, forget_bias as f32)?;
                (
                    Tensor::from_vec(xt.shape(), gx)?,
                    Tensor::from_vec(cpt.shape(), gcp)?,
                )
            }
            fluidc_transpiler::VarKind::Fp64 => {
                let (gx, gcp) = run::<f64>(s, ts, [&dc, &dh], d, forget_bias)?;
                (
                    Tensor::from_vec(xt.shape(), gx)?,
                    Tensor::from_vec(cpt.shape(), gcp)?,
                )
            }
            _ => return Err(needs_float("lstm_unit_grad", &xt)),
        };
        drop((xt, cpt, ct));
        set_grads(s, vec![(&dx, Some(gx)), (&dc_prev, Some(gcp))]);
        Ok(())
    })
}
