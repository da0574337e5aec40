//! fold_constants: an op whose inputs are all constants becomes one constant
//! op: `fill_constant` when every element is equal, else `assign_value`.
//!
//! A constant is a non-persistable variable written exactly once in the
//! program, by a `fill_constant` (no shape/value tensor inputs) or an
//! `assign_value`, earlier in the same block. Folding evaluates with the
//! kernels' own arithmetic (f32 for FP32, truncating integer division,
//! no folding on integer overflow or division by zero), so the program's
//! results do not change. Only elementwise shapes fold: equal shapes, or one
//! side with a single element.
use std::collections::HashMap;

use super::{Context, PassError};
use crate::dataflow::{op_reads, op_writes, persistable_names, write_counts};
use crate::model::{AttrValue, Op, Program, VarKind};
use crate::proto::{scalar, Scalar};

#[derive(Debug, Clone, PartialEq)]
enum Data {
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
}

#[derive(Debug, Clone, PartialEq)]
struct Const {
    dtype: VarKind,
    shape: Vec<i64>,
    data: Data,
}

fn is_int(k: VarKind) -> bool {
    matches!(
        k,
        VarKind::Int8 | VarKind::Int16 | VarKind::Int32 | VarKind::Int64 | VarKind::Uint8
    )
}

fn is_float(k: VarKind) -> bool {
    matches!(k, VarKind::Fp32 | VarKind::Fp64)
}

/// Constants larger than this are left alone: folding is for scalars and
/// small tensors, and materializing a huge one would cost memory for nothing.
const MAX_FOLD_ELEMENTS: usize = 1024;

/// The element count of a shape, if it is known, small enough to fold, and
/// does not overflow.
fn numel(shape: &[i64]) -> Option<usize> {
    shape
        .iter()
        .try_fold(1usize, |acc, d| {
            usize::try_from(*d).ok().and_then(|d| acc.checked_mul(d))
        })
        .filter(|n| *n <= MAX_FOLD_ELEMENTS)
}

/// Whether an integer fits the dtype (folding must not overflow it).
fn fits(k: VarKind, v: i64) -> bool {
    match k {
        VarKind::Int8 => i8::try_from(v).is_ok(),
        VarKind::Uint8 => u8::try_from(v).is_ok(),
        VarKind::Int16 => i16::try_from(v).is_ok(),
        VarKind::Int32 => i32::try_from(v).is_ok(),
        _ => true,
    }
}

/// Rounds to the dtype's precision (FP32 values are stored as f64).
fn round(k: VarKind, x: f64) -> f64 {
    if k == VarKind::Fp32 {
        x as f32 as f64
    } else {
        x
    }
}

fn make(
    dtype: VarKind,
    shape: Vec<i64>,
    n: usize,
    value: f64,
    text: Option<&str>,
) -> Option<Const> {
    let data = if is_int(dtype) {
        let v = match text.filter(|t| !t.is_empty()) {
            Some(t) => t
                .parse::<i64>()
                .ok()
                .or_else(|| t.parse::<f64>().ok().map(|f| f as i64))?,
            None => value as i64,
        };
        Data::Int(vec![v; n])
    } else if is_float(dtype) {
        let v = match text.filter(|t| !t.is_empty()) {
            Some(t) => t.parse::<f64>().ok()?,
            None => value,
        };
        Data::Float(vec![round(dtype, v); n])
    } else if dtype == VarKind::Bool {
        let v = match text.filter(|t| !t.is_empty()) {
            Some(t) => t.parse::<f64>().ok().map(|f| f != 0.0).or(match t {
                "true" | "True" => Some(true),
                "false" | "False" => Some(false),
                _ => None,
            })?,
            None => value != 0.0,
        };
        Data::Bool(vec![v; n])
    } else {
        return None;
    };
    Some(Const { dtype, shape, data })
}

/// The constant an op defines, if it is a constant-making op.
fn defined_constant(op: &Op) -> Option<Const> {
    let int = |name| match op.get_attr(name) {
        Some(AttrValue::Int(i)) => Some(*i),
        _ => None,
    };
    let dtype = VarKind::try_from(int("dtype")?).ok()?;
    match op.ty.as_str() {
        "fill_constant" => {
            if op.input_names().next().is_some() {
                return None;
            }
            let shape = match op.get_attr("shape")? {
                AttrValue::Longs(v) => v.clone(),
                AttrValue::Ints(v) => v.iter().map(|x| i64::from(*x)).collect(),
                _ => return None,
            };
            let value = match op.get_attr("value") {
                Some(AttrValue::Float(f)) => f64::from(*f),
                Some(AttrValue::Float64(f)) => *f,
                _ => 0.0,
            };
            let text = match op.get_attr("str_value") {
                Some(AttrValue::String(s)) => Some(s.as_str()),
                _ => None,
            };
            make(dtype, shape.clone(), numel(&shape)?, value, text)
        }
        "assign_value" => {
            let shape: Vec<i64> = match op.get_attr("shape")? {
                AttrValue::Ints(v) => v.iter().map(|x| i64::from(*x)).collect(),
                AttrValue::Longs(v) => v.clone(),
                _ => return None,
            };
            let Some(AttrValue::Scalars(values)) = op.get_attr("values") else {
                return None;
            };
            if values.len() != numel(&shape)? {
                return None;
            }
            let data = if is_int(dtype) {
                Data::Int(values.iter().map(|s| s.i).collect::<Option<Vec<_>>>()?)
            } else if is_float(dtype) {
                Data::Float(
                    values
                        .iter()
                        .map(|s| s.r.map(|r| round(dtype, r)))
                        .collect::<Option<Vec<_>>>()?,
                )
            } else if dtype == VarKind::Bool {
                Data::Bool(values.iter().map(|s| s.b).collect::<Option<Vec<_>>>()?)
            } else {
                return None;
            };
            Some(Const { dtype, shape, data })
        }
        _ => None,
    }
}

fn attr_f64(op: &Op, name: &str, default: f64) -> f64 {
    match op.get_attr(name) {
        Some(AttrValue::Float(f)) => f64::from(*f),
        Some(AttrValue::Float64(f)) => *f,
        _ => default,
    }
}

/// Pairs elements of equal shapes, or broadcasts a one-element side.
fn broadcast(x: &Const, y: &Const) -> Option<(Vec<i64>, usize, bool, bool)> {
    let (nx, ny) = (numel(&x.shape)?, numel(&y.shape)?);
    if x.shape == y.shape {
        Some((x.shape.clone(), nx, false, false))
    } else if ny == 1 && y.shape.len() <= x.shape.len() {
        Some((x.shape.clone(), nx, false, true))
    } else if nx == 1 && x.shape.len() <= y.shape.len() {
        Some((y.shape.clone(), ny, true, false))
    } else {
        None
    }
}

fn binary(op: &str, x: &Const, y: &Const) -> Option<Const> {
    if x.dtype != y.dtype {
        return None;
    }
    let (shape, n, xs, ys) = broadcast(x, y)?;
    let at = |i: usize, scalar: bool| if scalar { 0 } else { i };
    let compare = |o: std::cmp::Ordering| -> Option<bool> {
        Some(match op {
            "less_than" => o.is_lt(),
            "less_equal" => o.is_le(),
            "greater_than" => o.is_gt(),
            "greater_equal" => o.is_ge(),
            "equal" => o.is_eq(),
            "not_equal" => o.is_ne(),
            _ => return None,
        })
    };
    let data = match (&x.data, &y.data) {
        (Data::Int(a), Data::Int(b)) => {
            let pairs = (0..n).map(|i| (a[at(i, xs)], b[at(i, ys)]));
            if op.starts_with("elementwise_") {
                Data::Int(
                    pairs
                        .map(|(p, q)| match op {
                            "elementwise_add" => p.checked_add(q).filter(|r| fits(x.dtype, *r)),
                            "elementwise_sub" => p.checked_sub(q).filter(|r| fits(x.dtype, *r)),
                            "elementwise_mul" => p.checked_mul(q).filter(|r| fits(x.dtype, *r)),
                            "elementwise_div" => p.checked_div(q).filter(|r| fits(x.dtype, *r)),
                            "elementwise_max" => Some(p.max(q)),
                            "elementwise_min" => Some(p.min(q)),
                            _ => None,
                        })
                        .collect::<Option<Vec<_>>>()?,
                )
            } else {
                Data::Bool(
                    pairs
                        .map(|(p, q)| compare(p.cmp(&q)))
                        .collect::<Option<Vec<_>>>()?,
                )
            }
        }
        (Data::Float(a), Data::Float(b)) => {
            let pairs = (0..n).map(|i| (a[at(i, xs)], b[at(i, ys)]));
            if op.starts_with("elementwise_") {
                let k = x.dtype;
                Data::Float(
                    pairs
                        .map(|(p, q)| {
                            let r = match (op, k) {
                                ("elementwise_add", VarKind::Fp32) => {
                                    f64::from(p as f32 + q as f32)
                                }
                                ("elementwise_sub", VarKind::Fp32) => {
                                    f64::from(p as f32 - q as f32)
                                }
                                ("elementwise_mul", VarKind::Fp32) => {
                                    f64::from(p as f32 * q as f32)
                                }
                                ("elementwise_div", VarKind::Fp32) => {
                                    f64::from(p as f32 / q as f32)
                                }
                                ("elementwise_add", _) => p + q,
                                ("elementwise_sub", _) => p - q,
                                ("elementwise_mul", _) => p * q,
                                ("elementwise_div", _) => p / q,
                                ("elementwise_max", _) => p.max(q),
                                ("elementwise_min", _) => p.min(q),
                                _ => return None,
                            };
                            r.is_finite().then_some(r)
                        })
                        .collect::<Option<Vec<_>>>()?,
                )
            } else {
                Data::Bool(
                    pairs
                        .map(|(p, q)| p.partial_cmp(&q).and_then(compare))
                        .collect::<Option<Vec<_>>>()?,
                )
            }
        }
        (Data::Bool(a), Data::Bool(b)) => {
            let pairs = (0..n).map(|i| (a[at(i, xs)], b[at(i, ys)]));
            Data::Bool(
                pairs
                    .map(|(p, q)| match op {
                        "logical_and" => Some(p && q),
                        "logical_or" => Some(p || q),
                        "logical_xor" => Some(p != q),
                        "equal" => Some(p == q),
                        "not_equal" => Some(p != q),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()?,
            )
        }
        _ => return None,
    };
    let dtype = if matches!(data, Data::Bool(_)) {
        VarKind::Bool
    } else {
        x.dtype
    };
    Some(Const { dtype, shape, data })
}

fn to_f64s(d: &Data) -> Vec<f64> {
    match d {
        Data::Int(v) => v.iter().map(|x| *x as f64).collect(),
        Data::Float(v) => v.clone(),
        Data::Bool(v) => v.iter().map(|b| f64::from(u8::from(*b))).collect(),
    }
}

fn evaluate(op: &Op, consts: &HashMap<String, Const>) -> Option<Const> {
    let get = |slot: &str| op.inputs_of(slot).first().and_then(|n| consts.get(n));
    match op.ty.as_str() {
        "assign" => get("X").cloned(),
        "logical_not" => {
            let x = get("X")?;
            let Data::Bool(v) = &x.data else { return None };
            Some(Const {
                data: Data::Bool(v.iter().map(|b| !b).collect()),
                ..x.clone()
            })
        }
        "scale" => {
            let x = get("X")?;
            let (s, b) = (attr_f64(op, "scale", 1.0), attr_f64(op, "bias", 0.0));
            let after = !matches!(
                op.get_attr("bias_after_scale"),
                Some(AttrValue::Bool(false))
            );
            let Data::Float(v) = &x.data else { return None };
            let k = x.dtype;
            let f = |p: f64| {
                if k == VarKind::Fp32 {
                    let (p, s, b) = (p as f32, s as f32, b as f32);
                    f64::from(if after { p * s + b } else { (p + b) * s })
                } else if after {
                    p * s + b
                } else {
                    (p + b) * s
                }
            };
            Some(Const {
                data: Data::Float(v.iter().map(|p| f(*p)).collect()),
                ..x.clone()
            })
        }
        "increment" => {
            let x = get("X")?;
            let step = attr_f64(op, "step", 1.0);
            let data = match &x.data {
                Data::Int(v)
                    if step.fract() == 0.0
                        && v.iter().all(|p| {
                            p.checked_add(step as i64).is_some_and(|r| fits(x.dtype, r))
                        }) =>
                {
                    Data::Int(
                        v.iter()
                            .map(|p| p.checked_add(step as i64))
                            .collect::<Option<Vec<_>>>()?,
                    )
                }
                Data::Float(v) => Data::Float(v.iter().map(|p| round(x.dtype, p + step)).collect()),
                _ => return None,
            };
            Some(Const { data, ..x.clone() })
        }
        "cast" => {
            let x = get("X")?;
            let Some(AttrValue::Int(out)) = op.get_attr("out_dtype") else {
                return None;
            };
            let out = VarKind::try_from(*out).ok()?;
            let vals = to_f64s(&x.data);
            // Narrowing casts wrap, as the kernel's static_cast does.
            let narrow = |v: i64| match out {
                VarKind::Int32 => i64::from(v as i32),
                VarKind::Int16 => i64::from(v as i16),
                VarKind::Int8 => i64::from(v as i8),
                VarKind::Uint8 => i64::from(v as u8),
                _ => v,
            };
            let data = if is_int(out) {
                if let Data::Int(v) = &x.data {
                    Data::Int(v.iter().map(|v| narrow(*v)).collect())
                } else {
                    Data::Int(vals.iter().map(|f| narrow(f.trunc() as i64)).collect())
                }
            } else if is_float(out) {
                Data::Float(vals.iter().map(|f| round(out, *f)).collect())
            } else if out == VarKind::Bool {
                Data::Bool(vals.iter().map(|f| *f != 0.0).collect())
            } else {
                return None;
            };
            Some(Const {
                dtype: out,
                shape: x.shape.clone(),
                data,
            })
        }
        ty @ ("elementwise_add" | "elementwise_sub" | "elementwise_mul" | "elementwise_div"
        | "elementwise_max" | "elementwise_min" | "less_than" | "less_equal"
        | "greater_than" | "greater_equal" | "equal" | "not_equal" | "logical_and"
        | "logical_or" | "logical_xor") => {
            if matches!(op.get_attr("axis"), Some(AttrValue::Int(a)) if *a != -1) {
                return None;
            }
            binary(ty, get("X")?, get("Y")?)
        }
        _ => None,
    }
}

/// The constant op that writes `c` into `out`.
fn constant_op(out: &str, c: &Const) -> Op {
    let vals = to_f64s(&c.data);
    let uniform = vals.windows(2).all(|w| w[0] == w[1]);
    if uniform {
        let v = vals.first().copied().unwrap_or(0.0);
        let text = match &c.data {
            Data::Int(x) => x.first().copied().unwrap_or(0).to_string(),
            Data::Float(_) => format!("{v:?}"),
            Data::Bool(_) => if v != 0.0 { "1.0" } else { "0.0" }.to_string(),
        };
        return Op::new("fill_constant")
            .output("Out", &[out])
            .attr("shape", AttrValue::Longs(c.shape.clone()))
            .attr("dtype", AttrValue::Int(c.dtype as i32))
            .attr("value", AttrValue::Float(v as f32))
            .attr("str_value", AttrValue::String(text))
            .attr("force_cpu", AttrValue::Bool(false));
    }
    let scalars = match &c.data {
        Data::Int(v) => v
            .iter()
            .map(|i| Scalar {
                r#type: scalar::Type::Long as i32,
                i: Some(*i),
                ..Default::default()
            })
            .collect(),
        Data::Float(v) => v
            .iter()
            .map(|r| Scalar {
                r#type: scalar::Type::Float64 as i32,
                r: Some(*r),
                ..Default::default()
            })
            .collect(),
        Data::Bool(v) => v
            .iter()
            .map(|b| Scalar {
                r#type: scalar::Type::Boolean as i32,
                b: Some(*b),
                ..Default::default()
            })
            .collect(),
    };
    Op::new("assign_value")
        .output("Out", &[out])
        .attr("dtype", AttrValue::Int(c.dtype as i32))
        .attr(
            "shape",
            AttrValue::Ints(c.shape.iter().map(|d| *d as i32).collect()),
        )
        .attr("values", AttrValue::Scalars(scalars))
}

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    let writes = write_counts(&program);
    let persistable = persistable_names(&program);
    let single = |name: &str| writes.get(name) == Some(&1) && !persistable.contains(name);
    let mut changed = false;
    for block in &mut program.blocks {
        let mut consts: HashMap<String, Const> = HashMap::new();
        for op in &mut block.ops {
            let outs = op_writes(op);
            let [out] = outs.as_slice() else { continue };
            let out = out.to_string();
            if !single(&out) {
                continue;
            }
            if let Some(c) = defined_constant(op) {
                consts.insert(out, c);
                continue;
            }
            let reads = op_reads(op);
            if reads.is_empty()
                || !reads.iter().all(|r| consts.contains_key(*r))
                || op.sub_blocks().next().is_some()
            {
                continue;
            }
            if let Some(c) = evaluate(op, &consts) {
                if ctx.step() {
                    let mut folded = constant_op(&out, &c);
                    if let Some(stack) = op.get_attr("op_callstack") {
                        folded.set_attr("op_callstack", stack.clone());
                    }
                    *op = folded;
                    consts.insert(out, c);
                    changed = true;
                }
            }
        }
    }
    Ok((program, changed))
}
