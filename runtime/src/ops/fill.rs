//! Ops that make or copy tensors: fill_constant, assign, assign_value,
//! fill_zeros_like, shape, cast, select_input (the merge of `layers.cond`)
//! and the random fills that initialize parameters (uniform_random,
//! gaussian_random, truncated_gaussian_random, the first two also in
//! their batch_size_like forms, bit for bit as Paddle's: see
//! `crate::random`), fill_any_like, and the made-up sequences and matrices
//! range, linspace, eye and diag.
//!
//! A constant whose shape and value are attributes is built once at load
//! time; running the op then only shares it (one reference-count increment),
//! and copy-on-write keeps later writers from changing it.
use fluidc_transpiler::{AttrValue, VarKind};

use super::output::{map, map_into, map_vars, Source};
use crate::error::KernelError;
use crate::exec::{compute, Exec};
use crate::kernel::{OpReader, Registry};
use crate::random::{self, Erfinv, Normal, StdMt19937_64, StdReal, TruncatedNormal, UniformReal};
use crate::scope::{VarRef, Vars};
use crate::tensor::{alloc, convert, with_data, with_dtype, Element, Tensor};
use crate::value::Value;

pub(crate) fn register_all(r: &mut Registry) {
    r.add("fill_constant", fill_constant);
    r.add("assign", assign);
    r.add("assign_value", assign_value);
    r.add("fill_zeros_like", fill_zeros_like);
    r.add("shape", shape);
    r.add("cast", cast);
    r.add("select_input", select_input);
    r.add("select_output", select_output);
    r.add("uniform_random", uniform_random);
    r.add("sampling_id", sampling_id);
    r.add("uniform_random_batch_size_like", uniform_random);
    r.add("gaussian_random", gaussian_random);
    r.add("gaussian_random_batch_size_like", gaussian_random);
    r.add("truncated_gaussian_random", truncated_gaussian_random);
    r.add("fill_any_like", fill_any_like);
    r.add(
        "fill_constant_batch_size_like",
        fill_constant_batch_size_like,
    );
    r.add("range", range);
    r.add("linspace", linspace);
    r.add("eye", eye);
    r.add("diag", diag);
}

/// `Out = X[Mask]`: only the chosen input is read, because the branch that
/// did not run never wrote the other one.
fn select_input(l: &OpReader) -> Result<Exec, KernelError> {
    let (xs, mask, out) = (l.inputs("X")?, l.input("Mask")?, l.output("Out")?);
    compute(move |s| {
        let m = s.tensor(&mask)?.scalar_i64()?;
        let chosen = usize::try_from(m)
            .ok()
            .and_then(|i| xs.get(i))
            .ok_or_else(|| {
                KernelError::Invalid(format!("Mask is {m}, but there are {} inputs", xs.len()))
            })?;
        match s.get(chosen) {
            Value::Empty => Err(no_value(chosen)),
            v => {
                s.set(&out, v);
                Ok(())
            }
        }
    })
}

/// `select_output` (select_input's grad op): `X` goes to `Out[Mask]`; the
/// other outputs are left alone.
fn select_output(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, mask) = (l.input("X")?, l.input("Mask")?);
    let outs = super::float::outputs_by_position(l, "Out")?;
    compute(move |s| {
        let m = s.tensor(&mask)?.scalar_i64()?;
        let chosen = usize::try_from(m)
            .ok()
            .and_then(|i| outs.get(i))
            .ok_or_else(|| {
                KernelError::Invalid(format!("Mask is {m}, but there are {} outputs", outs.len()))
            })?;
        if let Some(out) = chosen {
            match s.get(&x) {
                Value::Empty => return Err(no_value(&x)),
                v => s.set(out, v),
            }
        }
        Ok(())
    })
}

/// The shape of a random fill: `ShapeTensor`, else `ShapeTensorList`,
/// else the `shape` attribute.
pub(crate) fn shape_of(
    s: &Vars,
    tensor: &Option<VarRef>,
    list: &[VarRef],
    attr: &[i64],
) -> Result<Vec<i64>, KernelError> {
    if let Some(r) = tensor {
        let t = s.tensor(r)?.cast(VarKind::Int64)?;
        return Ok(t.values::<i64>().unwrap_or_default().to_vec());
    }
    if !list.is_empty() {
        return list.iter().map(|r| s.tensor(r)?.scalar_i64()).collect();
    }
    Ok(attr.to_vec())
}

/// A float dtype for a random fill (Paddle registers float and double).
fn random_dtype(l: &OpReader) -> Result<VarKind, KernelError> {
    match l.dtype("dtype", VarKind::Fp32)? {
        d @ (VarKind::Fp32 | VarKind::Fp64) => Ok(d),
        d => Err(KernelError::Dtype(format!(
            "{} draws float32 or float64 values, not {}",
            l.op.ty,
            crate::tensor::dtype_name(d)
        ))),
    }
}

/// Draws `n` values of `T` for a random fill.
type Draw<T> = fn(&mut StdMt19937_64, usize, [f32; 4]) -> Vec<T>;

/// A random fill op: the shape (attribute or tensors), a float dtype, the
/// `seed` attribute and four float parameters handed to `f32s`/`f64s`.
fn random_fill(
    l: &OpReader,
    params: [f32; 4],
    f32s: Draw<f32>,
    f64s: Draw<f64>,
) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    let dtype = random_dtype(l)?;
    let shape = l.ints("shape")?.unwrap_or_default();
    let seed = l.int_or("seed", 0)?;
    let shape_tensor = l.opt_input("ShapeTensor").ok().flatten();
    let shape_list = l.inputs("ShapeTensorList").unwrap_or_default();
    // `*_batch_size_like`: dim `output_dim_idx` of the shape is `Input`'s
    // dim `input_dim_idx` (the batch size, known when it runs).
    let batch_like = match l.opt_input("Input").ok().flatten() {
        Some(input) => Some((
            input,
            l.int_or("input_dim_idx", 0)?,
            l.int_or("output_dim_idx", 0)?,
        )),
        None => None,
    };
    let diag = (
        l.int_or("diag_num", 0)?,
        l.int_or("diag_step", 0)?,
        l.float_or("diag_val", 1.0)?,
    );
    compute(move |s| {
        let mut shape = shape_of(s, &shape_tensor, &shape_list, &shape)?;
        if let Some((input, i, o)) = &batch_like {
            let batch = usize::try_from(*i)
                .ok()
                .and_then(|i| s.tensor(input).ok()?.shape().get(i).copied());
            let slot = usize::try_from(*o).ok().and_then(|o| shape.get_mut(o));
            match (batch, slot) {
                (Some(b), Some(d)) => *d = b,
                _ => {
                    return Err(KernelError::Attribute(format!(
                        "input_dim_idx {i} or output_dim_idx {o} is out of range for Input and \
                         shape {shape:?}"
                    )))
                }
            }
        }
        let n = alloc::check(&shape, dtype)?;
        let mut t = random::with_engine(seed, |e| match dtype {
            VarKind::Fp64 => Tensor::from_vec(&shape, f64s(e, n, params)),
            _ => Tensor::from_vec(&shape, f32s(e, n, params)),
        })?;
        let (num, step, val) = diag;
        if num > 0 {
            let last = (num - 1).saturating_mul(step + 1);
            if last >= n as i64 {
                return Err(KernelError::Attribute(format!(
                    "diag_num {num} with diag_step {step} does not fit {n} elements"
                )));
            }
            with_dtype!(
                dtype,
                |T| {
                    if let Some(v) = t.unique_values_mut::<T>() {
                        for i in 0..num {
                            v[(i * step + i) as usize] = T::from_f64(val);
                        }
                    }
                },
                ()
            );
        }
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `uniform_random`: `uniform_real_distribution<T>(min, max)` (see
/// `crate::random`), then `diag_val` at every `diag_step + 1`-th element,
/// `diag_num` times.
fn uniform_random(l: &OpReader) -> Result<Exec, KernelError> {
    let (min, max) = (l.float("min")? as f32, l.float("max")? as f32);
    fn draw<T: StdReal + From<f32>>(e: &mut StdMt19937_64, n: usize, p: [f32; 4]) -> Vec<T> {
        let d = UniformReal::new(T::from(p[0]), T::from(p[1]));
        (0..n).map(|_| d.sample(e)).collect()
    }
    random_fill(l, [min, max, 0.0, 0.0], draw::<f32>, draw::<f64>)
}

/// `gaussian_random`: `normal_distribution<T>(mean, std)`.
fn gaussian_random(l: &OpReader) -> Result<Exec, KernelError> {
    let (mean, std) = (l.float("mean")? as f32, l.float("std")? as f32);
    fn draw<T: StdReal + From<f32>>(e: &mut StdMt19937_64, n: usize, p: [f32; 4]) -> Vec<T> {
        let mut d = Normal::new(T::from(p[0]), T::from(p[1]));
        (0..n).map(|_| d.sample(e)).collect()
    }
    random_fill(l, [mean, std, 0.0, 0.0], draw::<f32>, draw::<f64>)
}

/// `truncated_gaussian_random`: Paddle's truncated normal on `[a, b]`.
fn truncated_gaussian_random(l: &OpReader) -> Result<Exec, KernelError> {
    let p = [
        l.float("mean")? as f32,
        l.float("std")? as f32,
        l.float("a")? as f32,
        l.float("b")? as f32,
    ];
    fn draw<T: Erfinv + From<f32>>(e: &mut StdMt19937_64, n: usize, p: [f32; 4]) -> Vec<T> {
        let d = TruncatedNormal::new(T::from(p[0]), T::from(p[1]), T::from(p[2]), T::from(p[3]));
        (0..n).map(|_| d.sample(e)).collect()
    }
    random_fill(l, p, draw::<f32>, draw::<f64>)
}

/// `fill_any_like`: `X`'s shape filled with `value`, of `dtype` (-1: `X`'s).
/// `fill_constant_batch_size_like`: a constant of `shape` whose dim
/// `output_dim_idx` is `Input`'s dim `input_dim_idx` (the batch size, known
/// only at run time; a LoD input's number of sequences for dim 0).
fn fill_constant_batch_size_like(l: &OpReader) -> Result<Exec, KernelError> {
    let (input, out) = (l.input("Input")?, l.output("Out")?);
    let shape = l.ints("shape")?.ok_or_else(|| {
        KernelError::Attribute("fill_constant_batch_size_like needs `shape`".into())
    })?;
    let dtype = l.dtype("dtype", VarKind::Fp32)?;
    let value = match l.string("str_value")?.unwrap_or("") {
        "" => l.float("value")?,
        s => s
            .trim()
            .parse::<f64>()
            .map_err(|_| KernelError::Attribute(format!("str_value {s:?} is not a number")))?,
    };
    let index = |name: &str, rank: usize| -> Result<usize, KernelError> {
        let i = l.int_or(name, 0)?;
        usize::try_from(i)
            .ok()
            .filter(|&i| i < rank)
            .ok_or_else(|| {
                KernelError::Attribute(format!("{name} {i} is out of range for rank {rank}"))
            })
    };
    let o = index("output_dim_idx", shape.len())?;
    let input_dim_idx = l.int("input_dim_idx")?;
    compute(move |s| {
        let t = s.tensor(&input)?;
        let i = usize::try_from(input_dim_idx)
            .ok()
            .filter(|&i| i < t.shape().len())
            .ok_or_else(|| {
                KernelError::Shape(format!(
                    "input_dim_idx {input_dim_idx} is out of range for Input of shape {:?}",
                    t.shape()
                ))
            })?;
        let mut dims = shape.clone();
        // 1.x: a LoD input's batch is its sequences (of the last level).
        dims[o] = match t.lod().last() {
            Some(level) if i == 0 => level.len().saturating_sub(1) as i64,
            _ => t.shape()[i],
        };
        drop(t);
        s.set_tensor(&out, Tensor::full(dtype, &dims, value)?);
        Ok(())
    })
}

fn fill_any_like(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let value = l.float("value")?;
    let dtype = match l.int("dtype")? {
        -1 => None,
        _ => Some(l.dtype("dtype", VarKind::Fp32)?),
    };
    compute(move |s| {
        let t = s.tensor(&x)?;
        let t = Tensor::full(dtype.unwrap_or(t.dtype()), t.shape(), value)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// A fill value: integers are kept exact (int64 constants beyond 2^53).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    Int(i64),
    Float(f64),
}

impl Scalar {
    /// Paddle's `str_value`: what Python's `str(value)` wrote.
    fn parse(s: &str) -> Result<Scalar, KernelError> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().as_str() {
            "true" => Scalar::Int(1),
            "false" => Scalar::Int(0),
            "inf" | "+inf" | "infinity" => Scalar::Float(f64::INFINITY),
            "-inf" | "-infinity" => Scalar::Float(f64::NEG_INFINITY),
            "nan" | "+nan" | "-nan" => Scalar::Float(f64::NAN),
            _ => match t.parse::<i64>() {
                Ok(i) => Scalar::Int(i),
                Err(_) => Scalar::Float(t.parse::<f64>().map_err(|_| {
                    KernelError::Attribute(format!("str_value {s:?} is not a number"))
                })?),
            },
        })
    }

    fn fill(self, dtype: VarKind, shape: &[i64]) -> Result<Tensor, KernelError> {
        match self {
            Scalar::Float(v) => Tensor::full(dtype, shape, v),
            Scalar::Int(i) => {
                with_dtype!(
                    dtype,
                    |T| Tensor::filled(shape, T::from_i64(i)),
                    Tensor::full(dtype, shape, i as f64)
                )
            }
        }
    }
}

fn fill_constant(l: &OpReader) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    let dtype = l.dtype("dtype", VarKind::Fp32)?;
    let shape = l.ints("shape")?.unwrap_or_default();
    let value = match l.string("str_value")?.filter(|s| !s.is_empty()) {
        Some(s) => Scalar::parse(s)?,
        None => Scalar::Float(l.float("value")?),
    };
    let value_tensor = l.opt_input("ValueTensor")?;
    let shape_tensor = l.opt_input("ShapeTensor")?;
    let shape_list = l.inputs("ShapeTensorList")?;
    if value_tensor.is_none() && shape_tensor.is_none() && shape_list.is_empty() {
        let constant = match value.fill(dtype, &shape) {
            Ok(c) => c,
            // Over the memory limit: an error if the op ever runs.
            Err(e @ KernelError::OutOfMemory(_)) => return compute(move |_| Err(e.clone())),
            Err(e) => return Err(e),
        };
        if let Some((v, rank)) = constant.as_scalar() {
            return compute(move |s| {
                s.set_scalar(&out, v, rank);
                Ok(())
            });
        }
        return compute(move |s| {
            s.set_tensor(&out, constant.clone());
            Ok(())
        });
    }
    compute(move |s| {
        let shape = if let Some(r) = &shape_tensor {
            let t = s.tensor(r)?.cast(VarKind::Int64)?;
            t.values::<i64>().unwrap_or_default().to_vec()
        } else if !shape_list.is_empty() {
            shape_list
                .iter()
                .map(|r| s.tensor(r)?.scalar_i64())
                .collect::<Result<_, _>>()?
        } else {
            shape.clone()
        };
        let value = match &value_tensor {
            Some(r) => {
                let t = s.tensor(r)?;
                match t.dtype() {
                    VarKind::Int32 | VarKind::Int64 | VarKind::Bool => Scalar::Int(t.scalar_i64()?),
                    _ => Scalar::Float(t.scalar_f64()?),
                }
            }
            None => value,
        };
        s.set_tensor(&out, value.fill(dtype, &shape)?);
        Ok(())
    })
}

/// Copies any value (a tensor shares its data; a channel stays the same channel).
fn assign(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        // A one-element tensor copies as its element (see `crate::tensor::scalar`).
        if let Some((v, rank)) = s.scalar(&x) {
            s.set_scalar(&out, v, rank);
            return Ok(());
        }
        copy_value(s, &x, &out)
    })
}

/// `out = x` for any value, out of line so that `assign`'s scalar path
/// stays small.
#[inline(never)]
fn copy_value(s: &mut Vars, x: &VarRef, out: &VarRef) -> Result<(), KernelError> {
    match s.get(x) {
        Value::Empty => Err(no_value(x)),
        v => {
            s.set(out, v);
            Ok(())
        }
    }
}

fn no_value(x: &VarRef) -> KernelError {
    KernelError::MissingInput(format!("input `{}` has no value yet", x.name))
}

fn assign_value(l: &OpReader) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    let dtype = l.dtype("dtype", VarKind::Fp32)?;
    let shape = l.ints("shape")?.unwrap_or_default();
    // Paddle 3 writes `values` (SCALARS); 2018 programs one list per dtype.
    // An empty `values` (its default) next to a 2018 list is the 2018 form.
    let legacy = [
        "fp32_values",
        "fp64_values",
        "int32_values",
        "int64_values",
        "bool_values",
    ]
    .iter()
    .any(|n| l.op.get_attr(n).is_some());
    let values: Vec<Scalar> = if let Some(AttrValue::Scalars(v)) = l
        .attr("values")
        .filter(|v| !legacy || !matches!(v, AttrValue::Scalars(s) if s.is_empty()))
    {
        v.iter()
            .map(|s| match (s.b, s.i, s.r) {
                (Some(b), _, _) => Ok(Scalar::Int(i64::from(b))),
                (_, Some(i), _) => Ok(Scalar::Int(i)),
                (_, _, Some(r)) => Ok(Scalar::Float(r)),
                _ => Err(KernelError::Unsupported(format!(
                    "assign_value: unsupported scalar {s:?}"
                ))),
            })
            .collect::<Result<_, _>>()?
    } else {
        let mut found = None;
        for name in [
            "fp32_values",
            "fp64_values",
            "int32_values",
            "int64_values",
            "bool_values",
        ] {
            let v: Vec<Scalar> = match l.attr(name) {
                Some(AttrValue::Floats(v)) => {
                    v.iter().map(|&x| Scalar::Float(f64::from(x))).collect()
                }
                Some(AttrValue::Float64s(v)) => v.iter().map(|&x| Scalar::Float(x)).collect(),
                Some(AttrValue::Ints(v)) => v.iter().map(|&x| Scalar::Int(i64::from(x))).collect(),
                Some(AttrValue::Longs(v)) => v.iter().map(|&x| Scalar::Int(x)).collect(),
                Some(AttrValue::Bools(v)) => v.iter().map(|&x| Scalar::Int(i64::from(x))).collect(),
                _ => continue,
            };
            // Paddle writes every list attribute; the non-empty one holds the values.
            if !v.is_empty() || found.is_none() {
                found = Some(v);
            }
        }
        found.unwrap_or_default()
    };
    let constant = with_dtype!(
        dtype,
        |T| Tensor::from_vec::<T>(
            &shape,
            values
                .iter()
                .map(|v| match *v {
                    Scalar::Int(i) => T::from_i64(i),
                    Scalar::Float(f) => T::from_f64(f),
                })
                .collect()
        ),
        unreachable!("`OpReader::dtype` only returns tensor dtypes")
    )?;
    compute(move |s| {
        s.set_tensor(&out, constant.clone());
        Ok(())
    })
}

fn unary_kernel(
    l: &OpReader,
    input: &str,
    f: fn(&Tensor) -> Result<Tensor, KernelError>,
) -> Result<Exec, KernelError> {
    let (x, out): (VarRef, VarRef) = (l.input(input)?, l.output("Out")?);
    compute(move |s| {
        let t = f(&*s.tensor(&x)?)?;
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// Zeros of `X`'s shape and dtype, written over the output's own buffer
/// when it has one owner.
fn fill_zeros_like(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    compute(move |s| {
        map_vars(s, &x, &out, |src| {
            Ok(with_dtype!(
                src.tensor().dtype(),
                |T| map::<T>(src, |_| T::ZERO),
                unreachable!("tensors hold only tensor dtypes")
            ))
        })
    })
}

/// The dims of `Input` as an int32 tensor.
fn shape(l: &OpReader) -> Result<Exec, KernelError> {
    unary_kernel(l, "Input", |t| {
        let dims: Vec<i32> = t.shape().iter().map(|&d| d as i32).collect();
        Tensor::from_vec(&[dims.len() as i64], dims)
    })
}

fn cast(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let to = l.dtype("out_dtype", VarKind::Fp32)?;
    compute(move |s| {
        map_vars(s, &x, &out, |src| {
            alloc::check(src.tensor().shape(), to)?;
            Ok(cast_source(src, to))
        })
    })
}

/// `cast` into the output's old buffer when it has one owner and room; a
/// cast to the same dtype shares the input's buffer.
fn cast_source(src: Source, to: VarKind) -> Box<Tensor> {
    let (x, old) = match src {
        Source::Own(t) if t.dtype() == to => return t,
        Source::Read(x, _) if x.dtype() == to => return Box::new(x.clone()),
        Source::Own(t) => (std::borrow::Cow::Owned(*t), None),
        Source::Read(x, old) => (std::borrow::Cow::Borrowed(x), old),
    };
    let x: &Tensor = &x;
    Box::new(with_data!(x.data(), |_v: S| {
        with_dtype!(
            to,
            |T| map_into::<S, T>(x, old, convert::<S, T>),
            unreachable!("`OpReader::dtype` only returns tensor dtypes")
        )
    }))
}

/// `std::minstd_rand` (`x = 48271 x mod (2^31 - 1)`), which 1.x's
/// sampling_id drew from.
struct MinStd(u64);

impl MinStd {
    const M: u64 = 2_147_483_647;

    /// libstdc++'s `seed(s)`: `s mod m`, 0 made 1.
    fn new(seed: u32) -> MinStd {
        let x = u64::from(seed) % MinStd::M;
        MinStd(if x == 0 { 1 } else { x })
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0 * 48_271 % MinStd::M;
        self.0
    }

    /// libstdc++'s `generate_canonical<float, 24>`: one draw (its range,
    /// 2^31 - 2 values, rounds to 2^31 in float).
    fn canonical_f32(&mut self) -> f32 {
        let r = ((self.next() - 1) as f32) / (2_147_483_646u32 as f32);
        if r >= 1.0 {
            1.0f32.next_down_compat()
        } else {
            r
        }
    }

    /// `generate_canonical<double, 53>`: two draws.
    fn canonical_f64(&mut self) -> f64 {
        let range = 2_147_483_646.0f64;
        let sum = (self.next() - 1) as f64 + (self.next() - 1) as f64 * range;
        let r = sum / (range * range);
        if r >= 1.0 {
            1.0f64.next_down_compat()
        } else {
            r
        }
    }
}

/// The largest float below 1.
trait NextDown {
    fn next_down_compat(self) -> Self;
}

impl NextDown for f32 {
    fn next_down_compat(self) -> f32 {
        f32::from_bits(self.to_bits() - 1)
    }
}

impl NextDown for f64 {
    fn next_down_compat(self) -> f64 {
        f64::from_bits(self.to_bits() - 1)
    }
}

/// `sampling_id` (1.x's CPU kernel): for each row of probabilities, a
/// uniform draw `r` in `[min, max)` from `minstd_rand(seed)` (seeded anew
/// each run; seed 0 takes a seed from the session's engine where 1.x
/// took `random_device`'s), and the first class where `r` minus the
/// probabilities so far drops below 0 (the last if none), as int64.
fn sampling_id(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("X")?, l.output("Out")?);
    let (min, max) = (l.float_or("min", 0.0)?, l.float_or("max", 1.0)?);
    let seed = l.int_or("seed", 0)? as u32;
    compute(move |s| {
        let t = s.tensor(&x)?;
        let [rows, width] = match t.shape() {
            &[r, w] => [r.max(0) as usize, w.max(0) as usize],
            other => {
                return Err(KernelError::Shape(format!(
                    "sampling_id: X must be 2-D, it is {other:?}"
                )))
            }
        };
        let seed = if seed == 0 {
            random::with_engine(0, |e| e.next_u64() as u32)
        } else {
            seed
        };
        let mut engine = MinStd::new(seed);
        let mut ids = Vec::with_capacity(rows);
        if let Some(v) = t.values::<f32>() {
            let (lo, hi) = (min as f32, max as f32);
            for row in v.chunks(width.max(1)).take(rows) {
                let mut r = engine.canonical_f32() * (hi - lo) + lo;
                let mut idx = width as i64 - 1;
                for (j, &p) in row.iter().enumerate() {
                    r -= p;
                    if r < 0.0 {
                        idx = j as i64;
                        break;
                    }
                }
                ids.push(idx);
            }
        } else if let Some(v) = t.values::<f64>() {
            for row in v.chunks(width.max(1)).take(rows) {
                let mut r = engine.canonical_f64() * (max - min) + min;
                let mut idx = width as i64 - 1;
                for (j, &p) in row.iter().enumerate() {
                    r -= p;
                    if r < 0.0 {
                        idx = j as i64;
                        break;
                    }
                }
                ids.push(idx);
            }
        } else {
            return Err(super::float::needs_float("sampling_id", &t));
        }
        drop(t);
        s.set_tensor(&out, Tensor::from_vec(&[rows as i64], ids)?);
        Ok(())
    })
}

/// Runs `$body` with `$T` the Rust type of a number `dtype`: `range` and
/// `linspace` compute in the tensors' own type, as Paddle's kernels (templates
/// over float, double, int and int64) do, so a float32 `range` adds up in
/// float32.
macro_rules! with_number {
    ($dtype:expr, $op:expr, |$T:ident| $body:expr) => {
        match $dtype {
            VarKind::Fp32 => {
                type $T = f32;
                $body
            }
            VarKind::Fp64 => {
                type $T = f64;
                $body
            }
            VarKind::Int32 => {
                type $T = i32;
                $body
            }
            VarKind::Int64 => {
                type $T = i64;
                $body
            }
            other => Err(KernelError::Dtype(format!(
                "{} takes float32, float64, int32 or int64, not {}",
                $op,
                crate::tensor::dtype_name(other)
            ))),
        }
    };
}

/// The one value of a one-element tensor of `T` (a `Start`, `End`, ...).
fn one<T: Element>(t: &Tensor, what: &str) -> Result<T, KernelError> {
    match t.values::<T>() {
        Some([v]) => Ok(*v),
        _ => Err(KernelError::Shape(format!(
            "{what} must hold one {} value; it is {} of shape {:?}",
            crate::tensor::dtype_name(T::KIND),
            crate::tensor::dtype_name(t.dtype()),
            t.shape()
        ))),
    }
}

/// `n` values: `start`, then `step` added to the previous one, as both
/// 1.x kernels (`range`, `linspace`) fill their output.
fn added_up<T: Element + std::ops::Add<Output = T>>(
    start: T,
    step: T,
    n: i64,
) -> Result<Tensor, KernelError> {
    let shape = [n];
    let mut v = Vec::with_capacity(alloc::check(&shape, T::KIND)?);
    let mut x = start;
    for _ in 0..n {
        v.push(x);
        x = x + step;
    }
    Tensor::from_vec(&shape, v)
}

/// `range` (1.5's `fluid.layers.range`): `start, start + step, ...` up to
/// `end` (excluded), added up in the tensors' type as 1.x's kernel does;
/// as many values as 1.x's `GetSize` counts.
fn range(l: &OpReader) -> Result<Exec, KernelError> {
    let (start, end, step) = (l.input("Start")?, l.input("End")?, l.input("Step")?);
    let out = l.output("Out")?;
    compute(move |s| {
        let st = s.tensor(&start)?;
        let t = with_number!(st.dtype(), "range", |T| {
            let a: T = one(&st, "Start")?;
            let b: T = one(&*s.tensor(&end)?, "End")?;
            let d: T = one(&*s.tensor(&step)?, "Step")?;
            if d == T::ZERO {
                return Err(KernelError::Invalid("range: Step must not be 0".into()));
            }
            if (d > T::ZERO && a > b) || (d < T::ZERO && a < b) {
                return Err(KernelError::Invalid(format!(
                    "range: Step {d:?} does not move Start {a:?} toward End {b:?}"
                )));
            }
            let span = (b.to_f64() - a.to_f64()).abs();
            let stride = d.to_f64().abs();
            let n = if matches!(T::KIND, VarKind::Int32 | VarKind::Int64) {
                ((span as i64 + stride as i64 - 1) / stride as i64) as f64
            } else {
                ((b - a) / d).to_f64().abs().ceil()
            };
            added_up(a, d, n as i64)
        })?;
        drop(st);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `linspace`: `Num` values from `Start` to `Stop`: `start`, then
/// `step = (stop - start) / (num - 1)` added up in the tensors' type, as
/// 1.x's kernel (float32 and float64 only) computed them.
fn linspace(l: &OpReader) -> Result<Exec, KernelError> {
    let (start, stop, num) = (l.input("Start")?, l.input("Stop")?, l.input("Num")?);
    let out = l.output("Out")?;
    compute(move |s| {
        let st = s.tensor(&start)?;
        let n = s.tensor(&num)?.scalar_i64()?;
        if n <= 0 {
            return Err(KernelError::Invalid(format!(
                "linspace: Num must be positive, it is {n}"
            )));
        }
        if !matches!(st.dtype(), VarKind::Fp32 | VarKind::Fp64) {
            return Err(KernelError::Dtype(format!(
                "linspace takes float32 or float64, not {}",
                crate::tensor::dtype_name(st.dtype())
            )));
        }
        let t = with_number!(st.dtype(), "linspace", |T| {
            let a: T = one(&st, "Start")?;
            let b: T = one(&*s.tensor(&stop)?, "Stop")?;
            let step = if n > 1 {
                (b - a) / T::from_i64(n - 1)
            } else {
                T::ZERO
            };
            added_up(a, step, n)
        })?;
        drop(st);
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `eye`: a `num_rows` x `num_columns` (-1: square) matrix of `dtype`,
/// ones on the diagonal.
fn eye(l: &OpReader) -> Result<Exec, KernelError> {
    let out = l.output("Out")?;
    let rows = l.int("num_rows")?;
    let cols = match l.int_or("num_columns", -1)? {
        -1 => rows,
        c => c,
    };
    let dtype = l.dtype("dtype", VarKind::Fp32)?;
    if rows < 0 || cols < 0 {
        return Err(KernelError::Attribute(format!(
            "eye: num_rows {rows} and num_columns {cols} must not be negative"
        )));
    }
    compute(move |s| {
        let mut t = Tensor::zeros(dtype, &[rows, cols])?;
        with_dtype!(
            dtype,
            |T| {
                let v = t
                    .make_values_mut::<T>()
                    .ok_or_else(|| KernelError::Dtype("eye: a buffer of another type".into()))?;
                for i in 0..rows.min(cols) as usize {
                    v[i * cols as usize + i] = T::from_i64(1);
                }
            },
            return Err(KernelError::Dtype("eye: unsupported dtype".into()))
        );
        s.set_tensor(&out, t);
        Ok(())
    })
}

/// `diag` (1.6): a square matrix with the one-dimensional `Diagonal` on
/// its diagonal and zeros elsewhere.
fn diag(l: &OpReader) -> Result<Exec, KernelError> {
    let (x, out) = (l.input("Diagonal")?, l.output("Out")?);
    compute(move |s| {
        let xt = s.tensor(&x)?;
        let [n] = *xt.shape() else {
            return Err(KernelError::Shape(format!(
                "diag: Diagonal must have one dimension, it has shape {:?}",
                xt.shape()
            )));
        };
        let data = with_data!(xt.data(), |v: T| {
            let n = n.max(0) as usize;
            let mut m = vec![T::ZERO; crate::tensor::alloc::check(&[n as i64, n as i64], T::KIND)?];
            for (i, &x) in v.iter().enumerate() {
                m[i * n + i] = x;
            }
            T::wrap(m.into())
        });
        let t = Tensor::new(&[n, n], data)?;
        drop(xt);
        s.set_tensor(&out, t);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn str_value_parses_like_paddle() {
        assert_eq!(Scalar::parse("7").expect("int"), Scalar::Int(7));
        assert_eq!(Scalar::parse("-1").expect("int"), Scalar::Int(-1));
        assert_eq!(Scalar::parse("1.5").expect("float"), Scalar::Float(1.5));
        assert_eq!(Scalar::parse("True").expect("bool"), Scalar::Int(1));
        assert_eq!(
            Scalar::parse("-inf").expect("inf"),
            Scalar::Float(f64::NEG_INFINITY)
        );
        assert!(Scalar::parse("seven").is_err());
        let big = Scalar::parse("9007199254740993").expect("int");
        let t = big.fill(VarKind::Int64, &[1]).expect("fill");
        assert_eq!(
            t.values::<i64>(),
            Some(&[9007199254740993][..]),
            "exact beyond 2^53"
        );
    }

    /// C++'s [rand.predef]: the 10000th draw of a default-constructed
    /// (seed 1) `minstd_rand` is 399268537.
    #[test]
    fn minstd_matches_the_standard() {
        let mut e = MinStd::new(1);
        let last = (0..10_000).map(|_| e.next()).last();
        assert_eq!(last, Some(399_268_537));
    }
}
