//! The runtime as `fold_constants`' evaluator: an op on constants is run by
//! its own kernel, so a folded program computes exactly what the unfolded
//! one would (one definition per op, and one implementation: ARCHITECTURE.md).
use fluidc_transpiler::model::{Block, Program, Var};
use fluidc_transpiler::passes::{ConstData, Constant, Evaluator};
use fluidc_transpiler::{Op, Verified};

use crate::tensor::{Data, Tensor};
use crate::{run, RunOptions};

/// Evaluates ops with the runtime's kernels. See the module docs.
#[derive(Debug, Clone, Copy, Default)]
pub struct KernelEvaluator;

impl Evaluator for KernelEvaluator {
    fn eval(&self, op: &Op, inputs: &[(&str, &Constant)]) -> Option<Vec<(String, Constant)>> {
        // A one-op program: the inputs declared and fed, the outputs fetched.
        let mut block = Block::new(0, -1);
        let mut feeds = Vec::with_capacity(inputs.len());
        for (name, c) in inputs {
            block.vars.push(Var::dense(*name, c.dtype, c.dims.clone()));
            feeds.push((name.to_string(), to_tensor(c)?));
        }
        block.ops.push(op.clone());
        let program = Verified::new(Program {
            blocks: vec![block],
            ..Default::default()
        })
        .ok()?;
        let fetch: Vec<String> = op.output_names().map(str::to_string).collect();
        let options = RunOptions {
            feeds,
            fetch,
            seed: Some(0),
            workers: Some(1),
            ..RunOptions::default()
        };
        let fetched = run(&program, options).ok()?;
        fetched
            .into_iter()
            .map(|(name, t)| Some((name, to_constant(&t))))
            .collect()
    }
}

fn to_tensor(c: &Constant) -> Option<Tensor> {
    let dtype = c.dtype;
    let t = match &c.data {
        ConstData::Int(v) => Tensor::from_vec(&c.dims, v.clone()).ok()?,
        ConstData::Float(v) => Tensor::from_vec(&c.dims, v.clone()).ok()?,
        ConstData::Bool(v) => Tensor::from_vec(&c.dims, v.clone()).ok()?,
    };
    // Widened data back to the constant's own dtype (exact: it came from it).
    t.cast(dtype).ok()
}

fn to_constant(t: &Tensor) -> Constant {
    let data = match t.data() {
        Data::Bool(v) => ConstData::Bool(v.to_vec()),
        Data::Int8(v) => ConstData::Int(v.iter().map(|x| i64::from(*x)).collect()),
        Data::Int32(v) => ConstData::Int(v.iter().map(|x| i64::from(*x)).collect()),
        Data::Int64(v) => ConstData::Int(v.to_vec()),
        Data::Float32(v) => ConstData::Float(v.iter().map(|x| f64::from(*x)).collect()),
        Data::Float64(v) => ConstData::Float(v.to_vec()),
    };
    Constant {
        dtype: t.dtype(),
        dims: t.shape().to_vec(),
        data,
    }
}
