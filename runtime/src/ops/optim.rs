//! Optimizers with Paddle 3.3.1's CPU formulas (phi/kernels: sgd_kernel.cc,
//! momentum_kernel_impl.h, cpu/adam_kernel.cc with jit's refer `Adam`,
//! adamax_kernel_impl.h, adagrad, decayed_adagrad, ftrl, rmsprop, adadelta_kernel_impl.h,
//! lamb), float32 and float64, computed in the parameter's dtype as Paddle
//! computes them.
//!
//! Each updates its state in place (docs/training.md, "Kernels"): `ParamOut` is the same
//! variable as `Param` (and `Moment1Out` as `Moment1`, ...), so the kernel
//! takes the tensor out of the variable and writes its buffer when nothing
//! else shares it (copy-on-write otherwise), then puts it back. An output
//! that names another variable gets an updated copy of the input.
use fluidc_transpiler::VarKind;
use num_traits::{Float, One, Zero};

use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::{dtype_name, Element, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("sgd", sgd);
    r.add("momentum", momentum);
    r.add("adam", adam);
    r.add("adamax", adamax);
    r.add("adagrad", adagrad);
    r.add("decayed_adagrad", decayed_adagrad);
    r.add("ftrl", ftrl);
    r.add("rmsprop", rmsprop);
    r.add("adadelta", adadelta);
    r.add("lamb", lamb);
    r.add("average_accumulates", average_accumulates);
}

/// The float types optimizers run in.
pub(crate) trait Real: Float + Element + Send + Sync {
    /// `v as Self`.
    fn of(v: f64) -> Self;
}
impl Real for f32 {
    fn of(v: f64) -> f32 {
        v as f32
    }
}
impl Real for f64 {
    fn of(v: f64) -> f64 {
        v
    }
}

/// A state tensor the op updates (see the module docs): taken out of its
/// variable when the output is the input, else a copy of the input.
fn take_state(s: &mut Vars, input: &VarRef, out: &VarRef) -> Result<Box<Tensor>, KernelError> {
    if input.place == out.place {
        if let Some(t) = s.take_output(out) {
            return Ok(t);
        }
    }
    Ok(Box::new(s.tensor(input)?.into_owned()))
}

fn dtype_error(what: &str, t: &Tensor, want: VarKind) -> KernelError {
    KernelError::Dtype(format!(
        "{what} is {} but the parameter is {}; an optimizer's tensors share one float dtype",
        dtype_name(t.dtype()),
        dtype_name(want)
    ))
}

/// The elements of a state tensor, writable (copy-on-write).
fn state_mut<'a, T: Real>(t: &'a mut Tensor, what: &str) -> Result<&'a mut [T], KernelError> {
    let kind = t.dtype();
    let shape = t.shape().to_vec();
    t.make_values_mut::<T>().ok_or_else(|| {
        KernelError::Dtype(format!(
            "{what} is {} {shape:?}; the parameter is {}",
            dtype_name(kind),
            dtype_name(T::KIND)
        ))
    })
}

fn values<'a, T: Real>(t: &'a Tensor, what: &str) -> Result<&'a [T], KernelError> {
    t.values::<T>().ok_or_else(|| dtype_error(what, t, T::KIND))
}

/// The one value of a `[1]` tensor (learning rate, beta powers) as `T`.
fn one<T: Real>(s: &Vars, r: &VarRef) -> Result<T, KernelError> {
    let v = s.tensor(r)?.scalar_f64()?;
    Ok(T::from(v).unwrap_or_else(T::nan))
}

fn same_len(what: &str, n: usize, m: usize) -> Result<(), KernelError> {
    if n != m {
        return Err(KernelError::Shape(format!(
            "{what} has {m} elements but the parameter has {n}"
        )));
    }
    Ok(())
}

/// The parameter's dtype, which must be float32 or float64.
fn param_dtype(s: &Vars, param: &VarRef) -> Result<VarKind, KernelError> {
    match s.tensor(param)?.dtype() {
        d @ (VarKind::Fp32 | VarKind::Fp64) => Ok(d),
        d => Err(KernelError::Dtype(format!(
            "optimizers update float32 or float64 parameters, `{}` is {}",
            param.name,
            dtype_name(d)
        ))),
    }
}

/// Runs `$body` with `$T` bound to f32 or f64 as `$dtype` says.
macro_rules! with_real {
    ($dtype:expr, |$T:ident| $body:expr) => {
        match $dtype {
            VarKind::Fp64 => {
                type $T = f64;
                $body
            }
            _ => {
                type $T = f32;
                $body
            }
        }
    };
}

/// `(input, output)` pairs of updated state, resolved at load time.
struct State {
    pairs: Vec<(&'static str, VarRef, VarRef)>,
}

// The tensors stay in the boxes their variables hold them in, to go back
// without a move of the tensor (see `Vars::set_boxed`).
#[allow(clippy::vec_box)]
impl State {
    fn load(l: &OpReader, slots: &[(&'static str, &'static str)]) -> Result<State, KernelError> {
        let pairs = slots
            .iter()
            .map(|&(i, o)| Ok((i, l.input(i)?, l.output(o)?)))
            .collect::<Result<_, KernelError>>()?;
        Ok(State { pairs })
    }

    fn take(&self, s: &mut Vars) -> Result<Vec<Box<Tensor>>, KernelError> {
        self.pairs
            .iter()
            .map(|(_, i, o)| take_state(s, i, o))
            .collect()
    }

    fn put(&self, s: &mut Vars, tensors: Vec<Box<Tensor>>) {
        for ((_, _, o), t) in self.pairs.iter().zip(tensors) {
            s.set_boxed(o, t);
        }
    }
}

/// Takes the state, checks it, runs `update` on `T` slices of it, puts it
/// back. `update` gets the state's slices in `State` order.
fn run_update(
    s: &mut Vars,
    state: &State,
    grad: &VarRef,
    f: impl FnOnce(&Vars, VarKind, &mut [Box<Tensor>], &Tensor) -> Result<(), KernelError>,
) -> Result<(), KernelError> {
    let dtype = param_dtype(s, &state.pairs[0].1)?;
    let mut tensors = state.take(s)?;
    let n = tensors[0].numel();
    for ((what, _, _), t) in state.pairs.iter().zip(&tensors).skip(1) {
        if t.dtype() != dtype {
            return Err(dtype_error(what, t, dtype));
        }
        if !what.contains("Pow") {
            same_len(what, n, t.numel())?;
        }
    }
    let result = {
        let g = s.tensor(grad)?;
        if g.dtype() != dtype {
            return Err(dtype_error("Grad", &g, dtype));
        }
        same_len("Grad", n, g.numel())?;
        f(s, dtype, &mut tensors, &g)
    };
    state.put(s, tensors);
    result
}

/// Mutable slices of every state tensor.
fn slices<'a, T: Real>(
    tensors: &'a mut [Box<Tensor>],
    names: &[(&'static str, VarRef, VarRef)],
) -> Result<Vec<&'a mut [T]>, KernelError> {
    tensors
        .iter_mut()
        .zip(names)
        .map(|(t, (what, _, _))| state_mut::<T>(t, what))
        .collect()
}

/// `sgd`: `param -= lr * grad`.
fn sgd(l: &OpReader) -> Result<Exec, KernelError> {
    let dense = Dense::load(l)?;
    compute(move |s| dense.run(s))
}

/// `momentum` (Paddle's CPU functor: `rescale_grad` is not applied there):
/// `v = mu * v + g` (with `g += coeff * param` for `l2_decay`), then
/// `param -= lr * v`, or with Nesterov `param -= (g + mu * v) * lr`.
fn momentum(l: &OpReader) -> Result<Exec, KernelError> {
    let dense = Dense::load(l)?;
    compute(move |s| dense.run(s))
}

/// Reads an optional one-value tensor input, else the attribute.
fn scalar_or(s: &Vars, r: &Option<VarRef>, attr: f64) -> Result<f64, KernelError> {
    match r {
        Some(r) => s.tensor(r)?.scalar_f64(),
        None => Ok(attr),
    }
}

/// `adam`, as Paddle 3.3.1's CPU kernel: `lr_t = lr * sqrt(1 - beta2_pow)
/// / (1 - beta1_pow)`, `eps_t = epsilon * sqrt(1 - beta2_pow)`, then per
/// element `m1 = beta1 m1 + (1 - beta1) g`, `m2 = beta2 m2 + (1 - beta2) g g`,
/// `param -= lr_t * m1 / (sqrt(m2) + eps_t)`; the beta powers advance
/// unless `use_global_beta_pow`. `SkipUpdate` true leaves everything.
///
/// A sparse gradient (a `SELECTED_ROWS` variable whose tensor has
/// `Tensor::sparse_rows`; a clipped copy is a dense variable) takes 3.3.1's
/// `AdamDenseParamSparseGradKernel` path instead: no rows change nothing;
/// else the beta powers advance first, and the update reads them back
/// (the outputs are the inputs' variables). The gradient's rows get the
/// dense update; the others, unless `lazy_mode`, decay their moments and
/// step with the plain `epsilon` (`SparseAdamFunctor<T, CPUAdam>`).
fn adam(l: &OpReader) -> Result<Exec, KernelError> {
    let dense = Dense::load(l)?;
    let sparse_grad = l.declared_kind(&dense.grad.name) == Some(VarKind::SelectedRows);
    let lazy = l.bool("lazy_mode")?;
    compute(move |s| {
        if sparse_grad {
            let rows = s.tensor(&dense.grad)?.sparse_rows().cloned();
            if let Some(rows) = rows {
                return adam_sparse(s, &dense, &rows, lazy);
            }
        }
        dense.run(s)
    })
}

/// The sparse-gradient path of [`adam`] (see there).
fn adam_sparse(s: &mut Vars, dense: &Dense, rows: &[usize], lazy: bool) -> Result<(), KernelError> {
    let Kind::Adam(a) = &dense.kind else {
        return Err(KernelError::Invalid("adam: not an adam op".into()));
    };
    if dense.skips(s)? {
        return Ok(());
    }
    let (beta1, beta2, epsilon) = a.betas(s)?;
    let dtype = param_dtype(s, &dense.state.pairs[0].1)?;
    with_real!(dtype, |T| {
        let (b1, b2, eps) = (beta1 as T, beta2 as T, epsilon as T);
        let pows = &a.pows;
        let (mut b1p, mut b2p): (T, T) = (one(s, &pows.0)?, one(s, &pows.1)?);
        if rows.is_empty() {
            return Ok(());
        }
        a.advance(s, b1p * b1, b2p * b2)?;
        if !a.global_pow && pows.0.place == pows.2.place {
            b1p *= b1;
        }
        if !a.global_pow && pows.1.place == pows.3.place {
            b2p *= b2;
        }
        run_update(s, &dense.state, &dense.grad, |s, _, ts, g| {
            let lr: T = one(s, &dense.lr)?;
            let lr_t = lr * ((T::one() - b2p).sqrt() / (T::one() - b1p));
            let eps_t = eps * (T::one() - b2p).sqrt();
            let height = ts[0].shape().first().map_or(0, |&d| d.max(0) as usize);
            let g = values::<T>(g, "Grad")?;
            let mut sl = slices::<T>(ts, &dense.state.pairs)?;
            let mut it = sl.iter_mut();
            let (Some(p), Some(m1), Some(m2)) = (it.next(), it.next(), it.next()) else {
                return Err(KernelError::Invalid("adam: missing state".into()));
            };
            let mut mx = it.next();
            let width = p.len().checked_div(height).unwrap_or(0);
            let mut present = rows.iter().peekable();
            for r in 0..height {
                let has = present.next_if_eq(&&r).is_some();
                if !has && lazy {
                    continue;
                }
                for i in r * width..(r + 1) * width {
                    if has {
                        adam_moments(b1, b2, &mut m1[i], &mut m2[i], g[i]);
                    } else {
                        m1[i] *= b1;
                        m2[i] *= b2;
                    }
                    let v = match &mut mx {
                        Some(mx) => {
                            mx[i] = mx[i].max(m2[i]);
                            mx[i]
                        }
                        None => m2[i],
                    };
                    let e = if has { eps_t } else { eps };
                    p[i] -= lr_t * (m1[i] / (v.sqrt() + e));
                }
            }
            Ok(())
        })
    })
}

/// Adam's moments of one element.
#[inline(always)]
fn adam_moments<T: Real>(b1: T, b2: T, m1: &mut T, m2: &mut T, g: T) {
    *m1 = b1 * *m1 + (T::one() - b1) * g;
    *m2 = b2 * *m2 + (T::one() - b2) * g * g;
}

/// An `sgd`, `momentum` or `adam` op with a dense gradient, resolved at
/// load time. Its per-element update ([`Rule::apply`]) is written once:
/// the op's own kernel ([`Dense::run`]) applies it to the whole gradient,
/// and a fused producer of the gradient (`crate::fuse`) to blocks of
/// elements as it computes them, so both give the same bits.
pub(crate) struct Dense {
    state: State,
    pub(crate) grad: VarRef,
    lr: VarRef,
    kind: Kind,
}

enum Kind {
    Sgd,
    Momentum {
        mu: f64,
        nesterov: bool,
        l2: bool,
        coeff: f64,
    },
    Adam(Box<AdamOp>),
}

/// What an `adam` op reads besides its state.
struct AdamOp {
    /// `Beta1Pow`, `Beta2Pow`, `Beta1PowOut`, `Beta2PowOut`.
    pows: (VarRef, VarRef, VarRef, VarRef),
    /// `Beta1Tensor`, `Beta2Tensor`, `EpsilonTensor`, `SkipUpdate`.
    tensors: (
        Option<VarRef>,
        Option<VarRef>,
        Option<VarRef>,
        Option<VarRef>,
    ),
    beta1: f64,
    beta2: f64,
    epsilon: f64,
    global_pow: bool,
}

impl AdamOp {
    /// beta1, beta2 and epsilon: the tensors when given, else the attributes.
    fn betas(&self, s: &Vars) -> Result<(f64, f64, f64), KernelError> {
        Ok((
            scalar_or(s, &self.tensors.0, self.beta1)?,
            scalar_or(s, &self.tensors.1, self.beta2)?,
            scalar_or(s, &self.tensors.2, self.epsilon)?,
        ))
    }

    /// Writes the beta powers' next values, unless `use_global_beta_pow`.
    fn advance<T: Real>(&self, s: &mut Vars, b1p: T, b2p: T) -> Result<(), KernelError> {
        if !self.global_pow {
            let p = &self.pows;
            s.set_tensor(&p.2, pow_tensor(&*s.tensor(&p.0)?, b1p)?);
            s.set_tensor(&p.3, pow_tensor(&*s.tensor(&p.1)?, b2p)?);
        }
        Ok(())
    }
}

/// One step's per-element update, its scalars read.
pub(crate) enum Rule<T> {
    Sgd {
        lr: T,
    },
    Momentum {
        lr: T,
        mu: T,
        coeff: T,
        l2: bool,
        nesterov: bool,
    },
    Adam {
        b1: T,
        b2: T,
        lr_t: T,
        eps_t: T,
        /// The beta powers' next values.
        next_pows: (T, T),
    },
}

impl<T: Real> Rule<T> {
    /// Updates `state` (the state's slices in [`State`] order, each of
    /// `g`'s length: the same elements of each tensor) by the gradient's
    /// elements `g`.
    ///
    /// The loops run under `pulp`'s dispatch: compiled once more for each
    /// vector ISA the build knows (AVX2, AVX-512) and chosen by what the
    /// CPU has at run time, where the baseline build would use 4-lane SSE2
    /// (the workspace forbids the `unsafe` that `#[target_feature]` needs,
    /// and `pulp` is safe to call). Wider vectors change no bits: the
    /// loops' adds, multiplies, divisions and square roots are IEEE
    /// operations, correctly rounded at any width, and nothing is fused
    /// into a multiply-add (`apply_has_the_scalar_loops_bits`).
    pub(crate) fn apply(&self, state: &mut [&mut [T]], g: &[T]) {
        pulp::Arch::new().dispatch(Apply {
            rule: self,
            state,
            g,
        });
    }

    /// [`Rule::apply`]'s loops, as the baseline build compiles them.
    #[inline(always)]
    fn apply_plain(&self, state: &mut [&mut [T]], g: &[T]) {
        match (self, state) {
            (Rule::Sgd { lr }, [p]) => {
                for (p, &g) in p.iter_mut().zip(g) {
                    *p = *p - *lr * g;
                }
            }
            (
                &Rule::Momentum {
                    lr,
                    mu,
                    coeff,
                    l2,
                    nesterov,
                },
                [p, v],
            ) => {
                for ((p, v), &g) in p.iter_mut().zip(v.iter_mut()).zip(g) {
                    let gi = if l2 { *p * coeff + g } else { g };
                    *v = *v * mu + gi;
                    *p = if nesterov {
                        *p - (gi + *v * mu) * lr
                    } else {
                        *p - lr * *v
                    };
                }
            }
            // Zipped slices, one loop per variant: no bounds checks or
            // branches inside, so the compiler vectorizes it (Adam is most
            // of a small-batch step).
            (
                &Rule::Adam {
                    b1,
                    b2,
                    lr_t,
                    eps_t,
                    ..
                },
                [p, m1, m2],
            ) => {
                let step = |m1: T, m2v: T| (-lr_t) * (m1 / (m2v.sqrt() + eps_t));
                for (((p, m1), m2), &g) in p.iter_mut().zip(m1.iter_mut()).zip(m2.iter_mut()).zip(g)
                {
                    adam_moments(b1, b2, m1, m2, g);
                    *p = *p + step(*m1, *m2);
                }
            }
            (
                &Rule::Adam {
                    b1,
                    b2,
                    lr_t,
                    eps_t,
                    ..
                },
                [p, m1, m2, mx],
            ) => {
                let step = |m1: T, m2v: T| (-lr_t) * (m1 / (m2v.sqrt() + eps_t));
                let rows = p.iter_mut().zip(m1.iter_mut()).zip(m2.iter_mut()).zip(g);
                for ((((p, m1), m2), &g), mx) in rows.zip(mx.iter_mut()) {
                    adam_moments(b1, b2, m1, m2, g);
                    *mx = mx.max(*m2);
                    *p = *p + step(*m1, *mx);
                }
            }
            // `Dense::load` made the state for its rule.
            _ => {}
        }
    }
}

/// [`Rule::apply`]'s arguments, for `pulp`'s dispatch: its `with_simd` is
/// inlined into the function compiled for the CPU's ISA, and inlines the
/// loops (a closure would be called through a shim that is not).
struct Apply<'a, 'b, T> {
    rule: &'a Rule<T>,
    state: &'a mut [&'b mut [T]],
    g: &'a [T],
}

impl<T: Real> pulp::WithSimd for Apply<'_, '_, T> {
    type Output = ();

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) {
        self.rule.apply_plain(self.state, self.g);
    }
}

/// A step of a [`Dense`] optimizer under way: its state taken out of its
/// variables (see the module docs) until [`Dense::finish`].
#[allow(clippy::vec_box)]
pub(crate) struct Step<T> {
    rule: Rule<T>,
    tensors: Vec<Box<Tensor>>,
}

impl<T: Real> Step<T> {
    /// How many elements the parameter has.
    pub(crate) fn len(&self) -> usize {
        self.tensors[0].numel()
    }

    /// Applies the rule to elements `at..at + g.len()` of the state.
    pub(crate) fn update(&mut self, at: usize, g: &[T]) -> Result<(), KernelError> {
        let end = at + g.len();
        let mut sl = Vec::with_capacity(self.tensors.len());
        for t in self.tensors.iter_mut() {
            let v = state_mut::<T>(t, "state")?;
            let len = v.len();
            sl.push(v.get_mut(at..end).ok_or_else(|| {
                KernelError::Shape(format!("optimizer state has {len} elements, not {end}"))
            })?);
        }
        self.rule.apply(&mut sl, g);
        Ok(())
    }
}

impl Dense {
    /// An `sgd`, `momentum` or `adam` op (anything else is an error).
    pub(crate) fn load(l: &OpReader) -> Result<Dense, KernelError> {
        let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
        let (slots, kind): (Vec<(&'static str, &'static str)>, Kind) = match l.op.ty.as_str() {
            "sgd" => (vec![("Param", "ParamOut")], Kind::Sgd),
            "momentum" => (
                vec![("Param", "ParamOut"), ("Velocity", "VelocityOut")],
                Kind::Momentum {
                    mu: l.float_or("mu", 0.0)?,
                    nesterov: l.bool("use_nesterov")?,
                    l2: l.string("regularization_method")?.unwrap_or("") == "l2_decay",
                    coeff: l.float("regularization_coeff")?,
                },
            ),
            "adam" => {
                let mut slots = vec![
                    ("Param", "ParamOut"),
                    ("Moment1", "Moment1Out"),
                    ("Moment2", "Moment2Out"),
                ];
                if l.bool("amsgrad")? {
                    slots.push(("Moment2Max", "Moment2MaxOut"));
                }
                let (b1, b2) = (l.input("Beta1Pow")?, l.input("Beta2Pow")?);
                let outs = (l.opt_output("Beta1PowOut")?, l.opt_output("Beta2PowOut")?);
                // 1.x's adam op had no Beta*PowOut (its optimizer scaled the
                // powers with ops of their own, which a saved 1.x program
                // holds): without them the op leaves the powers alone, as
                // with use_global_beta_pow.
                let external = outs.0.is_none() || outs.1.is_none();
                let adam = AdamOp {
                    pows: (
                        b1.clone(),
                        b2.clone(),
                        outs.0.unwrap_or(b1),
                        outs.1.unwrap_or(b2),
                    ),
                    tensors: (
                        l.opt_input("Beta1Tensor")?,
                        l.opt_input("Beta2Tensor")?,
                        l.opt_input("EpsilonTensor")?,
                        l.opt_input("SkipUpdate")?,
                    ),
                    beta1: l.float("beta1")?,
                    beta2: l.float("beta2")?,
                    epsilon: l.float("epsilon")?,
                    global_pow: l.bool("use_global_beta_pow")? || external,
                };
                (slots, Kind::Adam(Box::new(adam)))
            }
            other => {
                return Err(KernelError::Unsupported(format!(
                    "{other} is not a dense optimizer op"
                )))
            }
        };
        Ok(Dense {
            state: State::load(l, &slots)?,
            grad,
            lr,
            kind,
        })
    }

    /// Whether this step leaves everything as it is (adam's `SkipUpdate`).
    pub(crate) fn skips(&self, s: &Vars) -> Result<bool, KernelError> {
        match &self.kind {
            Kind::Adam(a) => match &a.tensors.3 {
                Some(skip) => Ok(s.tensor(skip)?.scalar_f64()? != 0.0),
                None => Ok(false),
            },
            _ => Ok(false),
        }
    }

    /// The parameter's dtype (float32 or float64, else an error).
    pub(crate) fn dtype(&self, s: &Vars) -> Result<VarKind, KernelError> {
        param_dtype(s, &self.state.pairs[0].1)
    }

    /// Starts a step in `T`, the parameter's dtype ([`Dense::dtype`]):
    /// reads the step's scalars, takes the state out of its variables and
    /// checks it. Call [`Dense::skips`] first.
    pub(crate) fn begin<T: Real>(&self, s: &mut Vars) -> Result<Step<T>, KernelError> {
        let lr: T = one(s, &self.lr)?;
        let rule = match &self.kind {
            Kind::Sgd => Rule::Sgd { lr },
            &Kind::Momentum {
                mu,
                nesterov,
                l2,
                coeff,
            } => Rule::Momentum {
                lr,
                mu: T::of(mu),
                coeff: T::of(coeff),
                l2,
                nesterov,
            },
            Kind::Adam(a) => {
                let (beta1, beta2, epsilon) = a.betas(s)?;
                let (b1, b2, eps) = (T::of(beta1), T::of(beta2), T::of(epsilon));
                let (b1p, b2p): (T, T) = (one(s, &a.pows.0)?, one(s, &a.pows.1)?);
                Rule::Adam {
                    b1,
                    b2,
                    lr_t: lr * ((T::one() - b2p).sqrt() / (T::one() - b1p)),
                    eps_t: eps * (T::one() - b2p).sqrt(),
                    next_pows: (b1p * b1, b2p * b2),
                }
            }
        };
        let tensors = self.state.take(s)?;
        let n = tensors[0].numel();
        let checked = (|| {
            for ((what, _, _), t) in self.state.pairs.iter().zip(&tensors) {
                if t.dtype() != T::KIND {
                    return Err(dtype_error(what, t, T::KIND));
                }
                same_len(what, n, t.numel())?;
            }
            Ok(())
        })();
        let step = Step { rule, tensors };
        match checked {
            Ok(()) => Ok(step),
            Err(e) => {
                self.state.put(s, step.tensors);
                Err(e)
            }
        }
    }

    /// Checks a gradient of `dtype` with `n` elements against the step.
    pub(crate) fn check_grad<T: Real>(
        step: &Step<T>,
        dtype: VarKind,
        n: usize,
    ) -> Result<(), KernelError> {
        if dtype != T::KIND {
            return Err(KernelError::Dtype(format!(
                "Grad is {} but the parameter is {}; an optimizer's tensors share one float dtype",
                dtype_name(dtype),
                dtype_name(T::KIND)
            )));
        }
        same_len("Grad", step.len(), n)
    }

    /// Ends a step: the state goes back to its variables and, if the
    /// update went well, adam's beta powers advance.
    pub(crate) fn finish<T: Real>(
        &self,
        s: &mut Vars,
        step: Step<T>,
        result: Result<(), KernelError>,
    ) -> Result<(), KernelError> {
        self.state.put(s, step.tensors);
        result?;
        if let (Kind::Adam(a), Rule::Adam { next_pows, .. }) = (&self.kind, &step.rule) {
            a.advance(s, next_pows.0, next_pows.1)?;
        }
        Ok(())
    }

    /// The op's own kernel: the whole gradient at once.
    pub(crate) fn run(&self, s: &mut Vars) -> Result<(), KernelError> {
        if self.skips(s)? {
            return Ok(());
        }
        with_real!(self.dtype(s)?, |T| {
            let mut step = self.begin::<T>(s)?;
            let result = (|| {
                let g = s.tensor(&self.grad)?;
                Self::check_grad(&step, g.dtype(), g.numel())?;
                step.update(0, values::<T>(&g, "Grad")?)
            })();
            self.finish(s, step, result)
        })
    }
}

/// A beta power's next value, with the old one's shape and dtype.
fn pow_tensor<T: Real>(old: &Tensor, v: T) -> Result<Tensor, KernelError> {
    Tensor::full(old.dtype(), old.shape(), Element::to_f64(v))
}

/// `adamax`: `m = beta1 m + (1 - beta1) g`, `u = max(|g|, beta2 u + eps)`,
/// `param -= lr / (1 - beta1_pow) * m / u` (the beta power is advanced by
/// a separate `scale` op the optimizer appends).
fn adamax(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(
        l,
        &[
            ("Param", "ParamOut"),
            ("Moment", "MomentOut"),
            ("InfNorm", "InfNormOut"),
        ],
    )?;
    let (grad, lr, b1pow) = (
        l.input("Grad")?,
        l.input("LearningRate")?,
        l.input("Beta1Pow")?,
    );
    let (beta1, beta2) = (l.float("beta1")?, l.float("beta2")?);
    let epsilon = l.float("epsilon")?;
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let (b1, b2, eps) = (beta1 as T, beta2 as T, epsilon as T);
                let lr_t = one::<T>(s, &lr)? / (T::one() - one::<T>(s, &b1pow)?);
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, m, u] = &mut sl[..] else {
                    return Err(KernelError::Invalid("adamax: missing state".into()));
                };
                for i in 0..p.len() {
                    m[i] = b1 * m[i] + (T::one() - b1) * g[i];
                    u[i] = g[i].abs().max(b2 * u[i] + eps);
                    p[i] -= lr_t * (m[i] / u[i]);
                }
                Ok(())
            })
        })
    })
}

/// `adagrad`: `m += g * g`, `param -= lr * g / (sqrt(m) + epsilon)`.
fn adagrad(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(l, &[("Param", "ParamOut"), ("Moment", "MomentOut")])?;
    let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
    let epsilon = l.float("epsilon")?;
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let (lr, eps): (T, T) = (one(s, &lr)?, epsilon as T);
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, m] = &mut sl[..] else {
                    return Err(KernelError::Invalid("adagrad: missing state".into()));
                };
                for i in 0..p.len() {
                    m[i] += g[i] * g[i];
                    p[i] -= lr * g[i] / (m[i].sqrt() + eps);
                }
                Ok(())
            })
        })
    })
}

/// `decayed_adagrad`: `m = decay m + (1 - decay) g g`, `param -= lr * g /
/// (sqrt(m) + epsilon)`; `1 - decay` in float32, as Paddle's kernel takes
/// the attribute.
fn decayed_adagrad(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(l, &[("Param", "ParamOut"), ("Moment", "MomentOut")])?;
    let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
    let (decay, epsilon) = (l.float("decay")? as f32, l.float("epsilon")?);
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let lr: T = one(s, &lr)?;
                let (d, rest, eps) = (decay as T, (1.0 - decay) as T, epsilon as T);
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, m] = &mut sl[..] else {
                    return Err(KernelError::Invalid(
                        "decayed_adagrad: missing state".into(),
                    ));
                };
                for i in 0..p.len() {
                    m[i] = d * m[i] + rest * g[i] * g[i];
                    p[i] -= lr * g[i] / (m[i].sqrt() + eps);
                }
                Ok(())
            })
        })
    })
}

/// `ftrl` (FTRL-Proximal, Paddle's ftrl_op.h): `n = sq + g g`; `lin += g -
/// (n^-lr_power - sq^-lr_power) / lr * p` (square roots when `lr_power` is
/// -0.5); `p = |lin| > l1 ? (l1 sign(lin) - lin) / (n^-lr_power / lr + 2
/// l2) : 0`; `sq = n`. In the parameter's dtype, the attributes cast to it.
fn ftrl(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(
        l,
        &[
            ("Param", "ParamOut"),
            ("SquaredAccumulator", "SquaredAccumOut"),
            ("LinearAccumulator", "LinearAccumOut"),
        ],
    )?;
    let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
    let (l1, l2) = (l.float("l1")? as f32, l.float("l2")? as f32);
    let lr_power = l.float("lr_power")? as f32;
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let lr: T = one(s, &lr)?;
                let (l1, l2, power) = (l1 as T, l2 as T, lr_power as T);
                let half = power == -0.5;
                let root = |v: T| if half { v.sqrt() } else { v.powf(-power) };
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, sq, lin] = &mut sl[..] else {
                    return Err(KernelError::Invalid("ftrl: missing state".into()));
                };
                for i in 0..p.len() {
                    let n = sq[i] + g[i] * g[i];
                    lin[i] = lin[i] + g[i] - ((root(n) - root(sq[i])) / lr) * p[i];
                    let sign = if lin[i] > 0.0 {
                        1.0
                    } else if lin[i] < 0.0 {
                        -1.0
                    } else {
                        0.0
                    };
                    let x = l1 * sign - lin[i];
                    let y = root(n) / lr + 2.0 * l2;
                    p[i] = if lin[i].abs() > l1 { x / y } else { 0.0 };
                    sq[i] = n;
                }
                Ok(())
            })
        })
    })
}

/// `rmsprop`: `ms = rho ms + (1 - rho) g g` (rho is `decay`); centered:
/// `mg = rho mg + (1 - rho) g` and `mom = momentum mom + lr g /
/// sqrt(ms - mg mg + eps)`, else `mom = momentum mom + lr g / sqrt(ms +
/// eps)`; `param -= mom`.
fn rmsprop(l: &OpReader) -> Result<Exec, KernelError> {
    let centered = l.bool("centered")?;
    let mut slots = vec![
        ("Param", "ParamOut"),
        ("MeanSquare", "MeanSquareOut"),
        ("Moment", "MomentOut"),
    ];
    if centered {
        slots.push(("MeanGrad", "MeanGradOut"));
    }
    let state = State::load(l, &slots)?;
    let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
    let (eps, rho) = (l.float("epsilon")?, l.float("decay")?);
    let momentum = l.float("momentum")?;
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let lr: T = one(s, &lr)?;
                let (eps, rho, mom) = (eps as T, rho as T, momentum as T);
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let mut it = sl.iter_mut();
                let (Some(p), Some(ms), Some(m)) = (it.next(), it.next(), it.next()) else {
                    return Err(KernelError::Invalid("rmsprop: missing state".into()));
                };
                let mut mg = it.next();
                for i in 0..p.len() {
                    ms[i] = rho * ms[i] + (T::one() - rho) * g[i] * g[i];
                    let denom = match &mut mg {
                        Some(mg) => {
                            mg[i] = rho * mg[i] + (T::one() - rho) * g[i];
                            (ms[i] - mg[i] * mg[i] + eps).sqrt()
                        }
                        None => (ms[i] + eps).sqrt(),
                    };
                    m[i] = mom * m[i] + lr * g[i] / denom;
                    p[i] -= m[i];
                }
                Ok(())
            })
        })
    })
}

/// `adadelta`: `asg = rho asg + (1 - rho) g g`, `update = -sqrt((asu + eps)
/// / (asg + eps)) g` (as two square roots), `param += lr * update`,
/// `asu = rho asu + (1 - rho) update^2`.
fn adadelta(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(
        l,
        &[
            ("Param", "ParamOut"),
            ("AvgSquaredGrad", "AvgSquaredGradOut"),
            ("AvgSquaredUpdate", "AvgSquaredUpdateOut"),
        ],
    )?;
    // 1.x's adadelta had no LearningRate: a step of 1.
    let (grad, lr) = (l.input("Grad")?, l.opt_input("LearningRate")?);
    let (rho, eps) = (l.float("rho")?, l.float("epsilon")?);
    compute(move |s| {
        run_update(s, &state, &grad, |s, dtype, ts, g| {
            with_real!(dtype, |T| {
                let lr: T = match &lr {
                    Some(lr) => one(s, lr)?,
                    None => T::one(),
                };
                let (rho, eps) = (rho as T, eps as T);
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, asg, asu] = &mut sl[..] else {
                    return Err(KernelError::Invalid("adadelta: missing state".into()));
                };
                for i in 0..p.len() {
                    asg[i] = rho * asg[i] + (T::one() - rho) * g[i] * g[i];
                    let update = -((asu[i] + eps).sqrt() / (asg[i] + eps).sqrt() * g[i]);
                    p[i] += lr * update;
                    asu[i] = rho * asu[i] + (T::one() - rho) * update * update;
                }
                Ok(())
            })
        })
    })
}

/// `lamb`: Adam's moments, `r = m1_hat / (sqrt(m2_hat) + eps) + wd *
/// param`, then `param -= lr * trust * r` with `trust = ||param|| / ||r||`
/// (1 when either norm is 0, or without weight decay unless
/// `always_adapt`); the beta powers advance into their outputs when those
/// are given.
fn lamb(l: &OpReader) -> Result<Exec, KernelError> {
    let state = State::load(
        l,
        &[
            ("Param", "ParamOut"),
            ("Moment1", "Moment1Out"),
            ("Moment2", "Moment2Out"),
        ],
    )?;
    let (grad, lr) = (l.input("Grad")?, l.input("LearningRate")?);
    let (b1pow, b2pow) = (l.input("Beta1Pow")?, l.input("Beta2Pow")?);
    let (b1out, b2out) = (l.opt_output("Beta1PowOut")?, l.opt_output("Beta2PowOut")?);
    let skip = l.opt_input("SkipUpdate")?;
    let wd = l.float_or("weight_decay", 0.0)?;
    let adapt = wd > 0.0 || l.bool("always_adapt")?;
    let (beta1, beta2) = (l.float("beta1")?, l.float("beta2")?);
    let epsilon = l.float("epsilon")?;
    compute(move |s| {
        if let Some(skip) = &skip {
            if s.tensor(skip)?.scalar_f64()? != 0.0 {
                return Ok(());
            }
        }
        let dtype = param_dtype(s, &state.pairs[0].1)?;
        with_real!(dtype, |T| {
            let (b1, b2, eps, wd) = (beta1 as T, beta2 as T, epsilon as T, wd as T);
            let b1p: T = one(s, &b1pow)?;
            let b2p: T = one(s, &b2pow)?;
            run_update(s, &state, &grad, |s, _, ts, g| {
                let lr: T = one(s, &lr)?;
                let g = values::<T>(g, "Grad")?;
                let mut sl = slices::<T>(ts, &state.pairs)?;
                let [p, m1, m2] = &mut sl[..] else {
                    return Err(KernelError::Invalid("lamb: missing state".into()));
                };
                let mut r = vec![T::zero(); p.len()];
                for i in 0..p.len() {
                    m1[i] = b1 * m1[i] + (T::one() - b1) * g[i];
                    m2[i] = b2 * m2[i] + (T::one() - b2) * g[i] * g[i];
                    let m1h = m1[i] / (T::one() - b1p);
                    let m2h = m2[i] / (T::one() - b2p);
                    r[i] = m1h / (m2h.sqrt() + eps) + wd * p[i];
                }
                let norm = |v: &[T]| v.iter().fold(T::zero(), |a, &x| a + x * x).sqrt();
                // Paddle computes the norms only with decay or `always_adapt`;
                // without them the trust ratio is 1.
                let (pn, rn) = if adapt {
                    (norm(p), norm(&r))
                } else {
                    (T::zero(), T::zero())
                };
                let trust = if pn > T::zero() && rn > T::zero() {
                    pn / rn
                } else {
                    T::one()
                };
                for i in 0..p.len() {
                    p[i] -= lr * trust * r[i];
                }
                Ok(())
            })?;
            if let Some(o) = &b1out {
                let t = pow_tensor(&*s.tensor(&b1pow)?, b1p * b1)?;
                s.set_tensor(o, t);
            }
            if let Some(o) = &b2out {
                let t = pow_tensor(&*s.tensor(&b2pow)?, b2p * b2)?;
                s.set_tensor(o, t);
            }
            Ok(())
        })
    })
}

/// `average_accumulates` (1.x's `ModelAverage`): adds the parameter to
/// `sum_1` and counts the update; every 16384 updates moves `sum_1` into
/// `sum_2` (against float rounding); when the window is long enough
/// (`num_accumulates` at least `min_average_window` and at least the
/// smaller of `max_average_window` and `num_updates * average_window`,
/// that product in float and truncated, as 1.x's kernel computed it),
/// `sum_3` becomes `sum_1 + sum_2` and the window starts again. The sums
/// are updated in place and in that order, as 1.x's kernel did where each
/// `out_sum_k` is its `in_sum_k` (as ModelAverage binds them).
fn average_accumulates(l: &OpReader) -> Result<Exec, KernelError> {
    const MOVE_EVERY: i64 = 16384;
    let param = l.input("param")?;
    let sums_in = [
        l.input("in_sum_1")?,
        l.input("in_sum_2")?,
        l.input("in_sum_3")?,
    ];
    let sums_out = [
        l.output("out_sum_1")?,
        l.output("out_sum_2")?,
        l.output("out_sum_3")?,
    ];
    let counts_in = [
        l.input("in_num_accumulates")?,
        l.input("in_old_num_accumulates")?,
        l.input("in_num_updates")?,
    ];
    let counts_out = [
        l.output("out_num_accumulates")?,
        l.output("out_old_num_accumulates")?,
        l.output("out_num_updates")?,
    ];
    let window = l.float("average_window")? as f32;
    let (min_window, max_window) = (l.int("min_average_window")?, l.int("max_average_window")?);
    if min_window > max_window {
        return Err(KernelError::Attribute(format!(
            "min_average_window {min_window} is larger than max_average_window {max_window}"
        )));
    }
    compute(move |s| {
        let mut counts = [0i64; 3];
        for (c, r) in counts.iter_mut().zip(&counts_in) {
            *c = s.tensor(r)?.scalar_i64()?;
        }
        let [mut accumulates, mut old_accumulates, mut updates] = counts;
        updates += 1;
        accumulates += 1;
        let pt = s.tensor(&param)?.into_owned();
        let shape = pt.shape().to_vec();
        let restart = accumulates >= min_window
            && accumulates >= max_window.min((updates as f32 * window) as i64);
        let sums: Vec<Tensor> = with_real!(pt.dtype(), |T| {
            let p = values::<T>(&pt, "param")?;
            let mut sum = Vec::with_capacity(3);
            for r in &sums_in {
                let t = s.tensor(r)?;
                let v = values::<T>(&t, "a sum")?;
                if v.len() != p.len() {
                    return Err(KernelError::Shape(format!(
                        "`{}` has shape {:?}, not the parameter's {shape:?}",
                        r.name,
                        t.shape()
                    )));
                }
                sum.push(v.to_vec());
            }
            let [s1, s2, s3] = &mut sum[..] else {
                return Err(KernelError::Invalid(
                    "average_accumulates: three sums".into(),
                ));
            };
            for (a, &x) in s1.iter_mut().zip(p) {
                *a += x;
            }
            if updates % MOVE_EVERY == 0 {
                for (b, a) in s2.iter_mut().zip(s1.iter_mut()) {
                    *b += *a;
                    *a = 0.0;
                }
            }
            if restart {
                for ((c, a), b) in s3.iter_mut().zip(s1.iter_mut()).zip(s2.iter_mut()) {
                    *c = *a + *b;
                    *a = 0.0;
                    *b = 0.0;
                }
            }
            sum.into_iter()
                .map(|v| Tensor::from_vec(&shape, v))
                .collect::<Result<_, _>>()?
        });
        if restart {
            old_accumulates = accumulates;
            accumulates = 0;
        }
        for (r, t) in sums_out.iter().zip(sums) {
            s.set_tensor(r, t);
        }
        for (r, c) in counts_out
            .iter()
            .zip([accumulates, old_accumulates, updates])
        {
            s.set_tensor(r, Tensor::from_vec(&[1], vec![c])?);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Rule::apply`] (dispatched to the CPU's widest vectors) against
    /// the same loops compiled for baseline x86-64, bit for bit, for every
    /// rule and both float dtypes, on lengths that leave vector tails.
    #[test]
    fn apply_has_the_scalar_loops_bits() {
        fn check<T: Real>(to_bits: fn(T) -> u64) {
            let mut state = 0x2545_F491_4F6C_DD1Du64;
            let mut next = move |lo: f64, hi: f64| {
                state ^= state >> 12;
                state ^= state << 25;
                state ^= state >> 27;
                let u =
                    (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64;
                T::of(lo + (hi - lo) * u)
            };
            let rules = [
                Rule::Sgd { lr: T::of(0.01) },
                Rule::Momentum {
                    lr: T::of(0.1),
                    mu: T::of(0.9),
                    coeff: T::of(1e-4),
                    l2: true,
                    nesterov: true,
                },
                Rule::Momentum {
                    lr: T::of(0.1),
                    mu: T::of(0.9),
                    coeff: T::of(0.0),
                    l2: false,
                    nesterov: false,
                },
                Rule::Adam {
                    b1: T::of(0.9),
                    b2: T::of(0.999),
                    lr_t: T::of(0.003),
                    eps_t: T::of(1e-8),
                    next_pows: (T::of(0.81), T::of(0.998)),
                },
            ];
            for rule in &rules {
                let slots = match rule {
                    Rule::Sgd { .. } => 1,
                    Rule::Momentum { .. } => 2,
                    Rule::Adam { .. } => 3,
                };
                for len in [1usize, 7, 8, 17, 33, 1000, 4099] {
                    let g: Vec<T> = (0..len).map(|_| next(-1.0, 1.0)).collect();
                    // Moments are non-negative where Adam squares them.
                    let init: Vec<Vec<T>> = (0..slots)
                        .map(|i| {
                            (0..len)
                                .map(|_| next(if i == 2 { 0.0 } else { -1.0 }, 1.0))
                                .collect()
                        })
                        .collect();
                    let (mut fast, mut plain) = (init.clone(), init);
                    for _ in 0..3 {
                        let mut f: Vec<&mut [T]> = fast.iter_mut().map(|v| &mut v[..]).collect();
                        rule.apply(&mut f, &g);
                        let mut p: Vec<&mut [T]> = plain.iter_mut().map(|v| &mut v[..]).collect();
                        rule.apply_plain(&mut p, &g);
                    }
                    let bits = |v: &Vec<Vec<T>>| -> Vec<u64> {
                        v.iter().flatten().map(|&x| to_bits(x)).collect()
                    };
                    assert_eq!(bits(&fast), bits(&plain), "{} slots, {len} values", slots);
                }
            }
        }
        check::<f32>(|x| u64::from(x.to_bits()));
        check::<f64>(f64::to_bits);
    }

    #[test]
    fn real_covers_both_float_dtypes() {
        assert_eq!(<f32 as Element>::KIND, VarKind::Fp32);
        assert_eq!(<f64 as Element>::KIND, VarKind::Fp64);
    }
}
