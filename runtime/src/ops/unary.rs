//! One-input ops: activations (relu, sigmoid, tanh, softmax), square, sqrt,
//! abs, exp, log, and the affine ones Paddle's loops use (scale, increment).
//!
//! Transcendental functions are evaluated in f64 and rounded to the tensor's
//! dtype: never less accurate than Paddle's float kernels, and within the
//! 1e-5 relative tolerance the interop tests allow.
use fluidc_transpiler::VarKind;

use super::float::{self, f64s};
use super::output::{map, map_vars, Source};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::scope::{VarRef, Vars};
use crate::tensor::num::{with_numeric, with_numeric_dtype, Num};
use crate::tensor::{dtype_name, Buffer, Data, Element, Scalar, Shape, Tensor};

pub(crate) fn register_all(r: &mut Registry) {
    r.add("relu", |l| unary(l, Unary::Relu));
    r.add("sigmoid", |l| unary(l, Unary::Sigmoid));
    r.add("tanh", |l| unary(l, Unary::Tanh));
    r.add("square", |l| unary(l, Unary::Square));
    r.add("sqrt", |l| unary(l, Unary::Sqrt));
    r.add("abs", |l| unary(l, Unary::Abs));
    r.add("exp", |l| unary(l, Unary::Exp));
    r.add("log", |l| unary(l, Unary::Log));
    r.add("floor", |l| unary(l, Unary::Floor));
    r.add("ceil", |l| unary(l, Unary::Ceil));
    r.add("cos", |l| unary(l, Unary::Cos));
    r.add("scale", scale);
    r.add("increment", increment);
    r.add("softmax", softmax);
    r.add("leaky_relu", leaky_relu);
    r.add("relu6", |l| {
        with_attr(l, ("threshold", 6.0), |t, x| x.max(0.0).min(t))
    });
    r.add("elu", |l| {
        with_attr(l, ("alpha", 1.0), |a, x| {
            if x > 0.0 {
                x
            } else {
                a * (x.exp() - 1.0)
            }
        })
    });
    r.add("pow", |l| with_attr(l, ("factor", 1.0), |f, x| x.powf(f)));
    r.add("hard_sigmoid", |l| {
        let offset = l.float_or("offset", 0.5)?;
        with_attr(l, ("slope", 0.2), move |s, x| {
            (s * x + offset).clamp(0.0, 1.0)
        })
    });
    r.add("swish", |l| {
        with_attr(l, ("beta", 1.0), |b, x| x / (1.0 + (-b * x).exp()))
    });
    r.add("sign", sign);
    r.add("clip", clip);
    // 1.x's other activations, as Paddle 3.3.1's functors compute them.
    r.add("sin", |l| with_attr(l, NO_ATTR, |_, x| x.sin()));
    r.add("atan", |l| with_attr(l, NO_ATTR, |_, x| x.atan()));
    r.add("reciprocal", |l| with_attr(l, NO_ATTR, |_, x| 1.0 / x));
    r.add("rsqrt", |l| with_attr(l, NO_ATTR, |_, x| 1.0 / x.sqrt()));
    r.add("softsign", |l| {
        with_attr(l, NO_ATTR, |_, x| x / (1.0 + x.abs()))
    });
    r.add("tanh_shrink", |l| {
        with_attr(l, NO_ATTR, |_, x| x - x.tanh())
    });
    r.add("gelu", |l| {
        let approximate = l.bool_or("approximate", false)?;
        with_attr(l, NO_ATTR, move |_, x| gelu(x, approximate))
    });
    // Paddle 3.3.1 rounds halves to even (0.5 to 0, 2.5 to 2).
    r.add("round", |l| {
        with_attr(l, ("decimals", 0.0), |k, x| {
            let p = 10f64.powi(k as i32);
            (x * p).round_ties_even() / p
        })
    });
    r.add("logsigmoid", |l| {
        with_attr(l, NO_ATTR, |_, x| {
            let t = (-x).max(0.0);
            -t - ((-t).exp() + (-x - t).exp()).ln()
        })
    });
    r.add("softplus", |l| {
        with_attrs(l, [("beta", 1.0), ("threshold", 20.0)], |[b, t], x| {
            if b * x > t {
                x
            } else {
                (1.0 + (b * x).exp()).ln() / b
            }
        })
    });
    r.add("softshrink", |l| {
        with_attr(l, ("lambda", 0.5), |t, x| {
            if x > t {
                x - t
            } else if x < -t {
                x + t
            } else {
                0.0
            }
        })
    });
    // Paddle 3.3.1 keeps `|x| >= threshold`, and the others become `x * 0`
    // (-0 for a negative `x`).
    r.add("hard_shrink", |l| {
        with_attr(l, ("threshold", 0.5), |t, x| {
            if x <= -t || x >= t {
                x
            } else {
                x * 0.0
            }
        })
    });
    r.add("thresholded_relu", |l| {
        with_attrs(l, [("threshold", 1.0), ("value", 0.0)], |[t, v], x| {
            if x > t {
                x
            } else {
                v
            }
        })
    });
    r.add("selu", |l| {
        with_attrs(l, [("scale", SELU.0), ("alpha", SELU.1)], |[s, a], x| {
            if x <= 0.0 {
                (a * x.exp() - a) * s
            } else {
                x * s
            }
        })
    });
    r.add("brelu", |l| {
        with_attrs(l, [("t_min", 0.0), ("t_max", 24.0)], |[lo, hi], x| {
            x.max(lo).min(hi)
        })
    });
    r.add("stanh", |l| {
        with_attrs(l, [("scale_a", 0.67), ("scale_b", 1.7159)], |[a, b], x| {
            b * (a * x).tanh()
        })
    });
    r.add("hard_swish", |l| {
        let offset = l.float_or("offset", 3.0)?;
        with_attrs(l, [("threshold", 6.0), ("scale", 6.0)], move |[t, s], x| {
            (x + offset).max(0.0).min(t) * x / s
        })
    });
    // 1.x's soft_relu (Paddle 3.3.1 dropped it): log(1 + e^x), x clipped
    // to [-threshold, threshold].
    r.add("soft_relu", |l| {
        with_attr(l, ("threshold", 40.0), |t, x| x.clamp(-t, t).exp().ln_1p())
    });
    // Gradients: `X@GRAD` from `Out@GRAD` and the forward `X` or `Out`.
    r.add("hard_swish_grad", |l| {
        let offset = l.float_or("offset", 3.0)?;
        grad_attrs(
            l,
            From::X,
            [("threshold", 6.0), ("scale", 6.0)],
            move |[t, s], x, d| {
                if x + offset >= t {
                    d
                } else {
                    gate(x + offset > 0.0, d * (2.0 * x + offset) / s)
                }
            },
        )
    });
    // 1.x's: from Out, zero unless -threshold < Out < threshold.
    r.add("soft_relu_grad", |l| {
        grad_attr(l, From::Out, ("threshold", 40.0), |t, o, d| {
            gate(o > -t && o < t, d * (1.0 - (-o).exp()))
        })
    });
    r.add("relu_grad", |l| {
        grad(l, From::Out, |_, o, d| gate(o > 0.0, d))
    });
    r.add("sigmoid_grad", |l| {
        grad(l, From::Out, |_, o, d| d * o * (1.0 - o))
    });
    r.add("tanh_grad", |l| {
        grad(l, From::Out, |_, o, d| d * (1.0 - o * o))
    });
    r.add("sqrt_grad", |l| grad(l, From::Out, |_, o, d| d * 0.5 / o));
    r.add("exp_grad", |l| grad(l, From::Out, |_, o, d| d * o));
    r.add("square_grad", |l| grad(l, From::X, |_, x, d| d * 2.0 * x));
    r.add("log_grad", |l| grad(l, From::X, |_, x, d| d / x));
    r.add("abs_grad", |l| {
        grad(l, From::X, |_, x, d| {
            if x > 0.0 {
                d
            } else if x < 0.0 {
                -d
            } else {
                0.0
            }
        })
    });
    r.add("leaky_relu_grad", |l| {
        // 1.x and 3.3.1: dout * (alpha * (x < 0) + (x >= 0)); x = 0 takes dout.
        grad(l, From::X, |a, x, d| if x >= 0.0 { d } else { a * d })
    });
    r.add("cos_grad", |l| grad(l, From::X, |_, x, d| -d * x.sin()));
    // Paddle 3.3.1's relu6 and swish have no parameter: 6 and 1.
    r.add("relu6_grad", |l| {
        grad(l, From::Out, |_, o, d| gate(o > 0.0 && o < 6.0, d))
    });
    r.add("elu_grad", |l| {
        grad_attr(l, From::X, ("alpha", 1.0), |a, x, d| {
            if x > 0.0 {
                d
            } else {
                d * a * x.exp()
            }
        })
    });
    r.add("pow_grad", |l| {
        if l.given(&["FactorTensor"]) {
            return Err(KernelError::Unsupported(
                "pow with a FactorTensor is not supported; give factor as a number".into(),
            ));
        }
        grad_attr(l, From::X, ("factor", 1.0), |f, x, d| {
            d * f * x.powf(f - 1.0)
        })
    });
    r.add("hard_sigmoid_grad", |l| {
        grad_attr(l, From::Out, ("slope", 0.2), |s, o, d| {
            gate(o > 0.0 && o < 1.0, d * s)
        })
    });
    r.add("swish_grad", |l| {
        grad(l, From::X, |_, x, d| {
            let sig = 1.0 / (1.0 + (-x).exp());
            let out = x * sig;
            d * (out + sig * (1.0 - out))
        })
    });
    // floor, ceil and round are flat almost everywhere: Paddle's grads are
    // zero, as `0 * dout` (a nan gradient stays nan).
    r.add("floor_grad", zero_grad);
    r.add("ceil_grad", zero_grad);
    r.add("round_grad", zero_grad);
    r.add("sin_grad", |l| grad(l, From::X, |_, x, d| d * x.cos()));
    r.add("atan_grad", |l| {
        grad(l, From::X, |_, x, d| d / (1.0 + x * x))
    });
    r.add("reciprocal_grad", |l| {
        grad(l, From::Out, |_, o, d| d * -(o * o))
    });
    r.add("rsqrt_grad", |l| {
        grad(l, From::Out, |_, o, d| -0.5 * d * o * o * o)
    });
    r.add("softsign_grad", |l| {
        grad(l, From::X, |_, x, d| {
            d / ((1.0 + x.abs()) * (1.0 + x.abs()))
        })
    });
    r.add("gelu_grad", |l| {
        let approximate = l.bool_or("approximate", false)?;
        grad_attrs(l, From::X, [NO_ATTR; 2], move |_, x, d| {
            d * gelu_slope(x, approximate)
        })
    });
    r.add("tanh_shrink_grad", |l| {
        grad(l, From::X, |_, x, d| d * x.tanh() * x.tanh())
    });
    r.add("logsigmoid_grad", |l| {
        grad(l, From::X, |_, x, d| {
            let t = (-x).max(0.0);
            d * (-x - t).exp() / ((-t).exp() + (-x - t).exp())
        })
    });
    r.add("softplus_grad", |l| {
        grad_attrs(
            l,
            From::X,
            [("beta", 1.0), ("threshold", 20.0)],
            |[b, t], x, d| {
                if b * x > t {
                    d
                } else {
                    d / (1.0 + (-b * x).exp())
                }
            },
        )
    });
    r.add("softshrink_grad", |l| {
        grad_attr(l, From::X, ("lambda", 0.5), |t, x, d| {
            gate(x > t || x < -t, d)
        })
    });
    r.add("hard_shrink_grad", |l| {
        grad_attr(l, From::X, ("threshold", 0.5), |t, x, d| {
            gate(x <= -t || x >= t, d)
        })
    });
    r.add("thresholded_relu_grad", |l| {
        grad_attr(l, From::X, ("threshold", 1.0), |t, x, d| gate(x > t, d))
    });
    r.add("selu_grad", |l| {
        grad_attrs(
            l,
            From::Out,
            [("scale", SELU.0), ("alpha", SELU.1)],
            |[s, a], o, d| {
                if o <= 0.0 {
                    d * (o + s * a)
                } else {
                    d * s
                }
            },
        )
    });
    r.add("brelu_grad", |l| {
        grad_attrs(
            l,
            From::X,
            [("t_min", 0.0), ("t_max", 24.0)],
            |[lo, hi], x, d| gate(x > lo && x < hi, d),
        )
    });
    r.add("stanh_grad", |l| {
        grad_attrs(
            l,
            From::X,
            [("scale_a", 0.67), ("scale_b", 1.7159)],
            |[a, b], x, d| {
                let t = (a * x).tanh();
                d * a * b * (1.0 - t * t)
            },
        )
    });
    r.add("softmax_grad", softmax_grad);
    r.add("clip_grad", clip_grad);
}

/// selu's default `scale` and `alpha`.
const SELU: (f64, f64) = (1.050_700_987_355_480_5, 1.673_263_242_354_377_3);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unary {
    Relu,
    Sigmoid,
    Tanh,
    Square,
    Sqrt,
    Abs,
    Exp,
    Log,
    Floor,
    Ceil,
    Cos,
}

impl Unary {
    fn name(self) -> &'static str {
        match self {
            Unary::Relu => "relu",
            Unary::Sigmoid => "sigmoid",
            Unary::Tanh => "tanh",
            Unary::Square => "square",
            Unary::Sqrt => "sqrt",
            Unary::Abs => "abs",
            Unary::Exp => "exp",
            Unary::Log => "log",
            Unary::Floor => "floor",
            Unary::Ceil => "ceil",
            Unary::Cos => "cos",
        }
    }

    /// The function on `T`: exact on integers for the ops defined there,
    /// through f64 for the others; `None` for those on integers.
    fn function<T: Num>(self) -> Option<fn(T) -> T> {
        Some(match (self, T::IS_INT) {
            (Unary::Relu, _) => |x| if x > T::ZERO { x } else { T::ZERO },
            (Unary::Square, _) => |x: T| x.mul(x),
            (Unary::Abs, _) => |x: T| x.abs_of(),
            (_, true) => return None,
            (Unary::Sigmoid, _) => |x: T| T::from_f64(1.0 / (1.0 + (-x.to_f64()).exp())),
            (Unary::Tanh, _) => |x: T| T::from_f64(x.to_f64().tanh()),
            (Unary::Sqrt, _) => |x: T| T::from_f64(x.to_f64().sqrt()),
            (Unary::Exp, _) => |x: T| T::from_f64(x.to_f64().exp()),
            (Unary::Log, _) => |x: T| T::from_f64(x.to_f64().ln()),
            (Unary::Floor, _) => |x: T| T::from_f64(x.to_f64().floor()),
            (Unary::Ceil, _) => |x: T| T::from_f64(x.to_f64().ceil()),
            (Unary::Cos, _) => |x: T| T::from_f64(x.to_f64().cos()),
        })
    }
}

fn unary(l: &OpReader, op: Unary) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| map_vars(s, &x, &out, |src| apply(op, src)))
}

pub(crate) fn apply(op: Unary, src: Source) -> Result<Box<Tensor>, KernelError> {
    let t = src.tensor();
    let fail = || needs_float(op.name(), t);
    with_numeric_dtype!(
        t.dtype(),
        |T| {
            let f = op.function::<T>().ok_or_else(fail)?;
            Ok(map::<T>(src, f))
        },
        Err(fail())
    )
}

fn needs_float(op: &str, t: &Tensor) -> KernelError {
    KernelError::Dtype(format!(
        "{op} needs a float tensor, got {}",
        dtype_name(t.dtype())
    ))
}

/// `scale`: `x * scale + bias` (or `(x + bias) * scale`), with scale and bias
/// cast to the tensor's dtype first, as Paddle's kernel does.
fn scale(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let scale_tensor = l.opt_input("ScaleTensor")?;
    let (scale, bias) = (l.float("scale")?, l.float("bias")?);
    let after = l.bool("bias_after_scale")?;
    compute(move |s| {
        let scale = match &scale_tensor {
            Some(r) => s.tensor(r)?.scalar_f64()?,
            None => scale,
        };
        map_vars(s, &x, &out, |src| {
            with_numeric_dtype!(
                src.tensor().dtype(),
                |T| {
                    let (k, b) = (T::from_f64(scale), T::from_f64(bias));
                    Ok(if after {
                        map(src, |x: T| x.mul(k).add(b))
                    } else {
                        map(src, |x: T| x.add(b).mul(k))
                    })
                },
                Err(KernelError::Dtype(
                    "scale does not take bool tensors".into()
                ))
            )
        })
    })
}

/// `increment`: adds `step` (cast to the dtype) to a one-element tensor.
fn increment(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let step = l.float("step")?;
    compute(move |s| {
        if let Some((v, rank)) = s.scalar(&x) {
            let v = match v {
                Scalar::Int32(v) => Some(Scalar::Int32(v.add(i32::from_f64(step)))),
                Scalar::Int64(v) => Some(Scalar::Int64(v.add(i64::from_f64(step)))),
                Scalar::Float32(v) => Some(Scalar::Float32(v.add(f32::from_f64(step)))),
                Scalar::Float64(v) => Some(Scalar::Float64(v.add(step))),
                Scalar::Bool(_) => None,
            };
            if let Some(v) = v {
                s.set_scalar(&out, v, rank);
                return Ok(());
            }
        }
        increment_vars(s, &x, &out, step)
    })
}

/// The general path of `increment` (and its errors), out of line so that
/// the scalar path stays small.
#[inline(never)]
fn increment_vars(s: &mut Vars, x: &VarRef, out: &VarRef, step: f64) -> Result<(), KernelError> {
    let t = s.tensor(x)?;
    if t.numel() != 1 {
        return Err(KernelError::Shape(format!(
            "increment needs a tensor with one element, `{}` has shape {:?}",
            x.name,
            t.shape()
        )));
    }
    let data = with_numeric!(
        t.data(),
        |v: T| T::wrap(Buffer::One(v[0].add(T::from_f64(step)))),
        return Err(KernelError::Dtype(
            "increment does not take bool tensors".into()
        ))
    );
    let t = Tensor::from_parts(Shape::from_slice(t.shape()), data);
    s.set_tensor(out, t);
    Ok(())
}

fn softmax(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let axis = l.int("axis")?;
    compute(move |s| {
        let t = softmax_tensor(&*s.tensor(&x)?, axis)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

pub(crate) fn softmax_tensor(t: &Tensor, axis: i64) -> Result<Tensor, KernelError> {
    let rank = t.shape().len() as i64;
    let a = if axis < 0 { axis + rank.max(1) } else { axis };
    if !(0..rank.max(1)).contains(&a) {
        return Err(KernelError::Attribute(format!(
            "softmax axis {axis} is out of range for shape {:?}",
            t.shape()
        )));
    }
    let a = a as usize;
    let dims: Vec<usize> = t.shape().iter().map(|&d| d as usize).collect();
    let n = dims.get(a).copied().unwrap_or(1);
    let inner: usize = dims.iter().skip(a + 1).product();
    let of_f64 = |v: &[f64]| -> Vec<f64> {
        if n == 0 || inner == 0 {
            return v.to_vec();
        }
        softmax_f64(v, (v.len() / (n * inner), n, inner))
    };
    let data = match t.data() {
        Data::Float32(v) if inner == 1 && n > 0 => Data::Float32(softmax_rows_f32(v, n).into()),
        Data::Float32(v) => {
            let r = of_f64(&v.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
            Data::Float32(r.iter().map(|&x| x as f32).collect())
        }
        Data::Float64(v) => Data::Float64(of_f64(v).into()),
        _ => return Err(needs_float("softmax", t)),
    };
    Ok(Tensor::from_parts(Shape::from_slice(t.shape()), data))
}

/// The softmax of `x` along the middle of (outer, n, inner).
pub(crate) fn softmax_f64(x: &[f64], (outer, n, inner): (usize, usize, usize)) -> Vec<f64> {
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| o * n * inner + k * inner + i;
            let max = (0..n).map(|k| x[at(k)]).fold(f64::NEG_INFINITY, f64::max);
            let sum: f64 = (0..n).map(|k| (x[at(k)] - max).exp()).sum();
            for k in 0..n {
                out[at(k)] = (x[at(k)] - max).exp() / sum;
            }
        }
    }
    out
}

/// Softmax of float32 rows of `n` (the last axis) computed as Paddle's CPU
/// kernel computes it, so the results match its bits: `x - max` clipped at
/// -64, `exp` (glibc's `expf`, as Paddle's for fewer than 128 classes),
/// the row summed in AVX order ([`avx_sum`]), then multiplied by the
/// reciprocal of the sum.
pub(crate) fn softmax_rows_f32(x: &[f32], n: usize) -> Vec<f32> {
    let mut out = vec![0f32; x.len()];
    for (row, y) in x.chunks(n).zip(out.chunks_mut(n)) {
        let bias = -row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        for (o, &v) in y.iter_mut().zip(row) {
            let t = v + bias;
            *o = if t < -64.0 { -64.0f32 } else { t }.exp();
        }
        let inv = 1.0 / avx_sum(y);
        for o in y.iter_mut() {
            *o *= inv;
        }
    }
    out
}

/// Paddle's `vec_sum` with AVX: 8 lanes accumulated, folded by two
/// horizontal adds, then the tail added one by one (fewer than 8 values:
/// in order).
fn avx_sum(x: &[f32]) -> f32 {
    if x.len() < 8 {
        return x.iter().fold(0.0, |s, &v| s + v);
    }
    let end = x.len() & !7;
    let mut t = [0f32; 8];
    for chunk in x[..end].chunks_exact(8) {
        for (lane, &v) in t.iter_mut().zip(chunk) {
            *lane += v;
        }
    }
    let (h0, h1, h2, h3) = (t[0] + t[1], t[2] + t[3], t[4] + t[5], t[6] + t[7]);
    let mut s = (h0 + h2) + (h1 + h3);
    for &v in &x[end..] {
        s += v;
    }
    s
}

/// `leaky_relu`: `x` where positive, else `alpha * x`.
fn leaky_relu(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let alpha = l.float("alpha")?;
    compute(move |s| {
        map_vars(s, &x, &out, |src| match src.tensor().dtype() {
            VarKind::Fp32 => {
                let a = alpha as f32;
                Ok(map::<f32>(src, move |v| if v > 0.0 { v } else { v * a }))
            }
            VarKind::Fp64 => Ok(map::<f64>(
                src,
                move |v| if v > 0.0 { v } else { v * alpha },
            )),
            _ => Err(needs_float("leaky_relu", src.tensor())),
        })
    })
}

/// An activation with one attribute (`name`, and its default) passed to
/// `f` first, computed through `f64` and rounded to the input's type.
/// GELU (BERT's activation, the `gelu` op since 1.2): `x Φ(x)`, or with
/// `approximate` its tanh form, as Paddle's functors compute them.
fn gelu(x: f64, approximate: bool) -> f64 {
    if approximate {
        0.5 * x * (1.0 + gelu_tanh(x).tanh())
    } else {
        0.5 * x * (1.0 + libm::erf(x * std::f64::consts::FRAC_1_SQRT_2))
    }
}

/// The derivative of [`gelu`].
fn gelu_slope(x: f64, approximate: bool) -> f64 {
    use std::f64::consts::{FRAC_1_SQRT_2, FRAC_2_PI, FRAC_2_SQRT_PI};
    if approximate {
        let t = gelu_tanh(x).tanh();
        let inner = FRAC_2_PI.sqrt() * (1.0 + 3.0 * 0.044715 * x * x);
        0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * inner
    } else {
        let density = 0.5 * FRAC_2_SQRT_PI * FRAC_1_SQRT_2 * (-0.5 * x * x).exp();
        0.5 * (1.0 + libm::erf(x * FRAC_1_SQRT_2)) + x * density
    }
}

/// The tanh form's argument, `sqrt(2 / pi) (x + 0.044715 x^3)`.
fn gelu_tanh(x: f64) -> f64 {
    std::f64::consts::FRAC_2_PI.sqrt() * (x + 0.044715 * x * x * x)
}

fn with_attr(
    l: &OpReader,
    (name, default): (&str, f64),
    f: impl Fn(f64, f64) -> f64 + Copy + Send + Sync + 'static,
) -> Result<Exec, KernelError> {
    with_attrs(l, [(name, default), NO_ATTR], move |a, x| f(a[0], x))
}

/// An unused slot of [`with_attrs`] and [`grad_attrs`].
const NO_ATTR: (&str, f64) = ("", 0.0);

/// Two attributes' values, each the op's or its default ([`NO_ATTR`]: 0).
fn attrs(l: &OpReader, spec: [(&str, f64); 2]) -> Result<[f64; 2], KernelError> {
    let one = |(name, default): (&str, f64)| {
        if name.is_empty() {
            Ok(default)
        } else {
            l.float_or(name, default)
        }
    };
    Ok([one(spec[0])?, one(spec[1])?])
}

/// An activation with up to two attributes (by name, with defaults)
/// passed to `f` first, computed through `f64` and rounded to the
/// input's type.
fn with_attrs(
    l: &OpReader,
    spec: [(&str, f64); 2],
    f: impl Fn([f64; 2], f64) -> f64 + Copy + Send + Sync + 'static,
) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let p = attrs(l, spec)?;
    let op = l.op.ty.clone();
    compute(move |s| {
        map_vars(s, &x, &out, |src| match src.tensor().dtype() {
            VarKind::Fp32 => Ok(map::<f32>(src, move |v| f(p, f64::from(v)) as f32)),
            VarKind::Fp64 => Ok(map::<f64>(src, move |v| f(p, v))),
            _ => Err(needs_float(&op, src.tensor())),
        })
    })
}

/// `sign`: -1, 0 or 1.
fn sign(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        map_vars(s, &x, &out, |src| {
            with_numeric_dtype!(
                src.tensor().dtype(),
                |T| Ok(map::<T>(src, |v: T| {
                    if v > T::ZERO {
                        T::from_f64(1.0)
                    } else if v < T::ZERO {
                        T::from_f64(-1.0)
                    } else {
                        T::ZERO
                    }
                })),
                Err(KernelError::Dtype("sign does not take bool tensors".into()))
            )
        })
    })
}

/// The `min` and `max` of `clip`: the `Min`/`Max` tensors when given,
/// else the attributes.
fn clip_bounds(
    s: &Vars,
    bounds: &(Option<VarRef>, Option<VarRef>, f64, f64),
) -> Result<(f64, f64), KernelError> {
    let min = match &bounds.0 {
        Some(r) => s.tensor(r)?.scalar_f64()?,
        None => bounds.2,
    };
    let max = match &bounds.1 {
        Some(r) => s.tensor(r)?.scalar_f64()?,
        None => bounds.3,
    };
    Ok((min, max))
}

fn clip_attrs(l: &OpReader) -> Result<(Option<VarRef>, Option<VarRef>, f64, f64), KernelError> {
    Ok((
        l.opt_input("Min")?,
        l.opt_input("Max")?,
        l.float_or("min", f64::NEG_INFINITY)?,
        l.float_or("max", f64::INFINITY)?,
    ))
}

/// `clip`: `min(max(x, min), max)`, the bounds cast to the dtype.
fn clip(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let bounds = clip_attrs(l)?;
    compute(move |s| {
        let (min, max) = clip_bounds(s, &bounds)?;
        map_vars(s, &x, &out, |src| {
            with_numeric_dtype!(
                src.tensor().dtype(),
                |T| {
                    let (lo, hi) = (T::from_f64(min), T::from_f64(max));
                    Ok(map::<T>(src, move |v: T| {
                        let v = if v < lo { lo } else { v };
                        if v > hi {
                            hi
                        } else {
                            v
                        }
                    }))
                },
                Err(KernelError::Dtype("clip does not take bool tensors".into()))
            )
        })
    })
}

/// Which forward value an activation's gradient reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum From {
    X,
    Out,
}

/// `X@GRAD = f(alpha, v, d)` per element, `v` the forward `X` or `Out`, `d`
/// the `Out@GRAD` element (`alpha`: leaky_relu's attribute).
/// `X@GRAD` = zeros shaped and typed like `Out@GRAD`.
/// `d` where `on`, else zero, as Paddle computes such gradients: `dout *
/// mask`, a product, so a nan gradient stays nan where the unit is off.
fn gate(on: bool, d: f64) -> f64 {
    d * f64::from(u8::from(on))
}

fn zero_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    compute(move |s| {
        let d = s.tensor(&dout)?;
        let zeros = float::tensor(
            d.dtype(),
            d.shape(),
            f64s(&d, "zero_grad")?.iter().map(|&g| 0.0 * g).collect(),
        )?;
        drop(d);
        s.set_tensor(&dx, zeros);
        Ok(())
    })
}

fn grad(l: &OpReader, from: From, f: fn(f64, f64, f64) -> f64) -> Result<Exec, KernelError> {
    grad_attr(l, from, ("alpha", 0.02), f)
}

/// [`grad`] with the attribute `f` takes first named (and its default).
fn grad_attr(
    l: &OpReader,
    from: From,
    (attr, default): (&str, f64),
    f: fn(f64, f64, f64) -> f64,
) -> Result<Exec, KernelError> {
    grad_attrs(l, from, [(attr, default), NO_ATTR], move |a, v, d| {
        f(a[0], v, d)
    })
}

/// [`grad`] with up to two attributes (see [`with_attrs`]) passed first.
fn grad_attrs(
    l: &OpReader,
    from: From,
    spec: [(&str, f64); 2],
    f: impl Fn([f64; 2], f64, f64) -> f64 + Copy + Send + Sync + 'static,
) -> Result<Exec, KernelError> {
    let v = l.input(match from {
        From::X => "X",
        From::Out => "Out",
    })?;
    let dout = l.input("Out@GRAD")?;
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let alpha = attrs(l, spec)?;
    let op = l.op.ty.clone();
    compute(move |s| {
        let (vt, dt) = (s.tensor(&v)?, s.tensor(&dout)?);
        if vt.numel() != dt.numel() {
            return Err(KernelError::Shape(format!(
                "{op}: `{}` has shape {:?} but Out@GRAD has {:?}",
                v.name,
                vt.shape(),
                dt.shape()
            )));
        }
        // Element by element in the tensor's dtype (through f64 per element,
        // no intermediate vectors): relu_grad runs on every training step.
        fn each<T: Element>(v: &[T], d: &[T], f: impl Fn(f64, f64) -> f64) -> Vec<T> {
            v.iter()
                .zip(d)
                .map(|(&a, &b)| T::from_f64(f(a.to_f64(), b.to_f64())))
                .collect()
        }
        let g = |a, b| f(alpha, a, b);
        let t = match (vt.data(), dt.data()) {
            (Data::Float32(v), Data::Float32(d)) => Tensor::from_vec(vt.shape(), each(v, d, g))?,
            (Data::Float64(v), Data::Float64(d)) => Tensor::from_vec(vt.shape(), each(v, d, g))?,
            _ => {
                let (a, d) = (f64s(&vt, &op)?, f64s(&dt, &op)?);
                let g = a.iter().zip(d.iter()).map(|(&a, &d)| g(a, d)).collect();
                float::tensor(vt.dtype(), vt.shape(), g)?
            }
        };
        drop((vt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `softmax_grad`: `dx = out * (d - sum(d * out))` along `axis`.
fn softmax_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (out, dout) = (l.input("Out")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let axis = l.int("axis")?;
    compute(move |s| {
        let (ot, dt) = (s.tensor(&out)?, s.tensor(&dout)?);
        let (o, d) = (f64s(&ot, "softmax_grad")?, f64s(&dt, "softmax_grad")?);
        if o.len() != d.len() {
            return Err(KernelError::Shape(
                "softmax_grad: Out and Out@GRAD differ".into(),
            ));
        }
        let (outer, n, inner) = float::split_at_axis(ot.shape(), axis)?;
        let mut g = vec![0.0; o.len()];
        for oi in 0..outer {
            for i in 0..inner {
                let at = |k: usize| oi * n * inner + k * inner + i;
                let dot: f64 = (0..n).map(|k| d[at(k)] * o[at(k)]).sum();
                for k in 0..n {
                    g[at(k)] = o[at(k)] * (d[at(k)] - dot);
                }
            }
        }
        let t = float::tensor(ot.dtype(), ot.shape(), g)?;
        drop((ot, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

/// `clip_grad`: `d` where `min < x < max`, else 0.
fn clip_grad(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, dout) = (l.input("X")?, l.input("Out@GRAD")?);
    let Some(dx) = l.opt_output("X@GRAD")? else {
        return compute(|_| Ok(()));
    };
    let bounds = clip_attrs(l)?;
    compute(move |s| {
        let (min, max) = clip_bounds(s, &bounds)?;
        let (xt, dt) = (s.tensor(&x)?, s.tensor(&dout)?);
        let (xv, d) = (f64s(&xt, "clip_grad")?, f64s(&dt, "clip_grad")?);
        // The bounds as the dtype holds them.
        let (min, max) = match xt.dtype() {
            VarKind::Fp32 => (f64::from(min as f32), f64::from(max as f32)),
            _ => (min, max),
        };
        let g = xv
            .iter()
            .zip(d.iter())
            .map(|(&x, &d)| if x > min && x < max { d } else { 0.0 })
            .collect();
        let t = float::tensor(xt.dtype(), xt.shape(), g)?;
        drop((xt, dt));
        s.set_tensor(&dx, t);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softmax_rows_sum_to_one_and_ints_are_rejected_where_paddle_does() {
        let t = Tensor::from_vec(&[2, 2], vec![0.0f32, 0.0, 1.0, 3.0]).expect("tensor");
        let s = softmax_tensor(&t, -1).expect("ok");
        let v = s.values::<f32>().expect("f32");
        assert!((v[0] - 0.5).abs() < 1e-7 && (v[2] + v[3] - 1.0).abs() < 1e-6);
        let i = Tensor::from_vec(&[2], vec![-1i64, 2]).expect("tensor");
        assert_eq!(
            apply(Unary::Relu, Source::Read(&i, None))
                .expect("ok")
                .values::<i64>(),
            Some(&[0, 2][..])
        );
        assert!(apply(Unary::Exp, Source::Read(&i, None))
            .unwrap_err()
            .to_string()
            .contains("needs a float"));
    }
}
