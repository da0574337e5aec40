//! fold_constants: an op whose inputs are all constants becomes one constant
//! op: `fill_constant` when every element is equal, else `assign_value`.
//!
//! A constant is a non-persistable variable written exactly once in the
//! program, by an op whose definition says it may be folded (pure,
//! deterministic) and whose inputs are constants, earlier in the same
//! block. The op is evaluated by an [`Evaluator`]: the runtime's own kernel
//! (the CLI passes the runtime's; the transpiler does not depend on it), so
//! folding computes exactly what the program would have computed at run
//! time, saturating casts and integer wrap-around included, and an op the
//! kernel refuses (integer division by zero) is left for run time to report.
//! Without an evaluator the pass changes nothing. Constants larger than
//! [`MAX_FOLD_ELEMENTS`] are left alone.
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use super::{Context, PassError};
use crate::dataflow::{op_reads, op_writes, persistable_names, write_counts};
use crate::model::{AttrValue, Op, Program, VarKind};
use crate::ops::{self, InferCtx, TensorType};
use crate::proto::{scalar, Scalar};

/// Folding is for scalars and small tensors: materializing a huge constant
/// in the program would cost memory for nothing.
pub const MAX_FOLD_ELEMENTS: usize = 1024;

/// A constant's elements, widened losslessly (every float32 and float64 is
/// an `f64`, every integer dtype an `i64`).
#[derive(Debug, Clone, PartialEq)]
pub enum ConstData {
    Int(Vec<i64>),
    Float(Vec<f64>),
    Bool(Vec<bool>),
}

/// A constant tensor.
#[derive(Debug, Clone, PartialEq)]
pub struct Constant {
    pub dtype: VarKind,
    pub dims: Vec<i64>,
    pub data: ConstData,
}

/// Runs one op on constant inputs, as the program would at run time.
pub trait Evaluator: Send + Sync {
    /// The op's outputs (by variable name) from its inputs (by variable
    /// name), or `None` if the op cannot be evaluated (the kernel refused).
    fn eval(&self, op: &Op, inputs: &[(&str, &Constant)]) -> Option<Vec<(String, Constant)>>;
}

/// An evaluator as the pass options hold it.
#[derive(Clone)]
pub struct EvaluatorRef(pub Arc<dyn Evaluator>);

impl fmt::Debug for EvaluatorRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Evaluator")
    }
}

fn numel(dims: &[i64]) -> Option<usize> {
    dims.iter().try_fold(1usize, |acc, d| {
        usize::try_from(*d).ok().and_then(|d| acc.checked_mul(d))
    })
}

/// Whether an op may be evaluated: foldable, runs no block, and its result
/// (inferred from its definition) is known and small.
fn worth_evaluating(op: &Op, consts: &HashMap<String, Constant>) -> bool {
    let Some(def) = ops::get(&op.ty).filter(|d| d.behaviour.foldable) else {
        return false;
    };
    if op.sub_blocks().next().is_some() {
        return false;
    }
    let Some(infer) = def.behaviour.infer else {
        return false;
    };
    let types = |name: &str| {
        consts
            .get(name)
            .map(|c| TensorType::new(c.dtype, c.dims.clone()))
    };
    match infer(&InferCtx::new(op, def, types)) {
        Ok(outs) => {
            !outs.is_empty()
                && outs
                    .iter()
                    .all(|(_, t)| numel(&t.dims).is_some_and(|n| n <= MAX_FOLD_ELEMENTS))
        }
        Err(_) => false,
    }
}

/// The constant op that writes `c` into `out`.
fn constant_op(out: &str, c: &Constant) -> Op {
    let first_text = match &c.data {
        ConstData::Int(v) => v.first().map(|x| (*x as f64, x.to_string())),
        ConstData::Float(v) => v.first().map(|x| (*x, format!("{x:?}"))),
        ConstData::Bool(v) => v.first().map(|b| {
            (
                f64::from(u8::from(*b)),
                if *b { "1.0" } else { "0.0" }.to_string(),
            )
        }),
    };
    let uniform = match &c.data {
        ConstData::Int(v) => v.windows(2).all(|w| w[0] == w[1]),
        ConstData::Float(v) => v.windows(2).all(|w| w[0].to_bits() == w[1].to_bits()),
        ConstData::Bool(v) => v.windows(2).all(|w| w[0] == w[1]),
    };
    if uniform {
        let (value, text) = first_text.unwrap_or((0.0, "0".into()));
        return ops::def("fill_constant")
            .op()
            .output("Out", &[out])
            .attr("shape", AttrValue::Longs(c.dims.clone()))
            .attr("dtype", AttrValue::Int(c.dtype as i32))
            .attr("value", AttrValue::Float(value as f32))
            .attr("str_value", AttrValue::String(text))
            .attr("force_cpu", AttrValue::Bool(false));
    }
    let scalar = |ty: scalar::Type| Scalar {
        r#type: ty as i32,
        ..Default::default()
    };
    let scalars = match &c.data {
        ConstData::Int(v) => v
            .iter()
            .map(|i| Scalar {
                i: Some(*i),
                ..scalar(scalar::Type::Long)
            })
            .collect(),
        ConstData::Float(v) => v
            .iter()
            .map(|r| Scalar {
                r: Some(*r),
                ..scalar(scalar::Type::Float64)
            })
            .collect(),
        ConstData::Bool(v) => v
            .iter()
            .map(|b| Scalar {
                b: Some(*b),
                ..scalar(scalar::Type::Boolean)
            })
            .collect(),
    };
    ops::def("assign_value")
        .op()
        .output("Out", &[out])
        .attr("dtype", AttrValue::Int(c.dtype as i32))
        .attr(
            "shape",
            AttrValue::Ints(c.dims.iter().map(|d| *d as i32).collect()),
        )
        .attr("values", AttrValue::Scalars(scalars))
}

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    let Some(EvaluatorRef(evaluator)) = ctx.options.evaluator.clone() else {
        return Ok((program, false));
    };
    let writes = write_counts(&program);
    let persistable = persistable_names(&program);
    let single = |name: &str| writes.get(name) == Some(&1) && !persistable.contains(name);
    // The dtypes each name is declared with, in any block: a kernel whose
    // result has another dtype (reduce_sum of int32 makes int64, as
    // Paddle's does) is left to run time, or the folded constant would
    // contradict the declaration and fail verification.
    let mut declared: HashMap<String, Vec<VarKind>> = HashMap::new();
    for v in program.blocks.iter().flat_map(|b| &b.vars) {
        if let Some(dtype) = v.dtype() {
            declared.entry(v.name.clone()).or_default().push(dtype);
        }
    }
    let mut changed = false;
    for block in &mut program.blocks {
        let mut consts: HashMap<String, Constant> = HashMap::new();
        for op in &mut block.ops {
            let outs = op_writes(op);
            let [out] = outs.as_slice() else { continue };
            let out = out.to_string();
            let reads = op_reads(op);
            if !single(&out)
                || !reads.iter().all(|r| consts.contains_key(*r))
                || !worth_evaluating(op, &consts)
            {
                continue;
            }
            let inputs: Vec<(&str, &Constant)> = reads
                .iter()
                .filter_map(|r| consts.get_key_value(*r))
                .map(|(k, v)| (k.as_str(), v))
                .collect();
            let Some(mut results) = evaluator.eval(op, &inputs) else {
                continue;
            };
            let Some(pos) = results.iter().position(|(name, _)| *name == out) else {
                continue;
            };
            let c = results.swap_remove(pos).1;
            if numel(&c.dims).is_none_or(|n| n > MAX_FOLD_ELEMENTS)
                || declared
                    .get(&out)
                    .is_some_and(|d| d.iter().any(|&t| t != c.dtype))
            {
                continue;
            }
            // An op without inputs already is a constant op.
            if !reads.is_empty() {
                if !ctx.step() {
                    continue;
                }
                let mut folded = constant_op(&out, &c);
                for a in op.attrs.iter().filter(|a| a.name.starts_with("op_")) {
                    folded.set_attr(a.name, a.value.clone());
                }
                ops::fill_defaults(&mut folded);
                *op = folded;
                changed = true;
            }
            consts.insert(out, c);
        }
    }
    Ok((program, changed))
}
