//! A program being built: Paddle's `ProgramDesc` ([`Program`]) with, per
//! block, an index from variable names to their declarations, so that
//! lookups stay O(1) in scripts with many thousands of variables.
//!
//! This is the native side of 1.x's `core.ProgramDesc`/`BlockDesc`: what
//! the fluid package's `framework.py` appends goes through
//! [`ProgramState::append_op`], which completes the op as Paddle's
//! `Operator.__init__` did (every declared slot, every attribute default),
//! infers its outputs' dtypes and shapes from the op's definition (Paddle's
//! `InferShape`), and passes `stop_gradient` on as Paddle 3's `append_op`
//! does.
use std::collections::HashMap;
use std::sync::Arc;

use fluidc_transpiler::ops::{self, InferCtx, TensorType};
use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind, Verified};

/// A program and the name index of its blocks.
#[derive(Debug, Clone)]
pub struct ProgramState {
    pub program: Program,
    index: Vec<HashMap<String, usize>>,
    /// Bumped by every change: a run reuses what it prepared for the same
    /// version (Paddle's program cache).
    pub version: u64,
    /// What a run prepared (feed and fetch ops added, verified, through the
    /// passes), for (version, feeds, fetches).
    pub prepared: Option<(PreparedKey, Arc<Verified>)>,
}

/// The version, feed names and fetch names a run prepared a program for.
pub type PreparedKey = (u64, Vec<String>, Vec<String>);

impl Default for ProgramState {
    fn default() -> Self {
        ProgramState::new()
    }
}

impl ProgramState {
    /// An empty program with its global block.
    pub fn new() -> ProgramState {
        ProgramState::from_program(Program {
            blocks: vec![Block::new(0, -1)],
            ..Default::default()
        })
    }

    /// A program read from elsewhere (a file, a clone, a pass's output).
    pub fn from_program(program: Program) -> ProgramState {
        let mut s = ProgramState {
            program,
            index: Vec::new(),
            version: 0,
            prepared: None,
        };
        s.reindex();
        s
    }

    /// Rebuilds the name index after a transformation of the whole
    /// program (backward, a pass).
    pub fn reindex(&mut self) {
        self.index = self
            .program
            .blocks
            .iter()
            .map(|b| {
                b.vars
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (v.name.clone(), k))
                    .collect()
            })
            .collect();
        self.version += 1;
    }

    pub fn touch(&mut self) {
        self.version += 1;
    }

    pub fn num_blocks(&self) -> usize {
        self.program.blocks.len()
    }

    pub fn block(&self, idx: usize) -> Result<&Block, String> {
        self.program
            .blocks
            .get(idx)
            .ok_or_else(|| format!("the program has no block {idx}"))
    }

    pub fn block_mut(&mut self, idx: usize) -> Result<&mut Block, String> {
        self.version += 1;
        self.program
            .blocks
            .get_mut(idx)
            .ok_or_else(|| format!("the program has no block {idx}"))
    }

    /// A new block whose parent is `parent`; its index.
    pub fn append_block(&mut self, parent: i32) -> usize {
        let idx = self.program.blocks.len();
        self.program.blocks.push(Block::new(idx as i32, parent));
        self.index.push(HashMap::new());
        self.version += 1;
        idx
    }

    /// Declares `var` in block `block`; a declaration of a name the block
    /// has replaces the old one.
    pub fn declare(&mut self, block: usize, var: Var) -> Result<(), String> {
        self.block(block)?;
        let vars = &mut self.program.blocks[block].vars;
        match self.index[block].get(&var.name) {
            Some(&at) => vars[at] = var,
            None => {
                self.index[block].insert(var.name.clone(), vars.len());
                vars.push(var);
            }
        }
        self.version += 1;
        Ok(())
    }

    /// Whether block `block` itself declares `name`.
    pub fn has_var(&self, block: usize, name: &str) -> bool {
        self.index.get(block).is_some_and(|i| i.contains_key(name))
    }

    /// The block, among `block` and its ancestors, that declares `name`.
    pub fn find_var(&self, block: usize, name: &str) -> Option<usize> {
        let mut b = block as i32;
        while b >= 0 {
            let idx = b as usize;
            if self.has_var(idx, name) {
                return Some(idx);
            }
            b = self.program.blocks.get(idx)?.parent_idx;
        }
        None
    }

    pub fn var(&self, block: usize, name: &str) -> Option<&Var> {
        let at = *self.index.get(block)?.get(name)?;
        self.program.blocks[block].vars.get(at)
    }

    pub fn var_mut(&mut self, block: usize, name: &str) -> Option<&mut Var> {
        let at = *self.index.get(block)?.get(name)?;
        self.version += 1;
        self.program.blocks[block].vars.get_mut(at)
    }

    /// Removes a variable's declaration from a block.
    pub fn remove_var(&mut self, block: usize, name: &str) -> bool {
        let Some(at) = self.index.get(block).and_then(|i| i.get(name)).copied() else {
            return false;
        };
        self.program.blocks[block].vars.remove(at);
        self.reindex();
        true
    }

    /// The declared type of a tensor variable visible from `block`.
    fn tensor_type(&self, block: usize, name: &str) -> Option<TensorType> {
        let b = self.find_var(block, name)?;
        let v = self.var(b, name)?;
        Some(TensorType::new(
            v.dtype()?,
            v.tensor_desc().map(|t| t.dims.clone()).unwrap_or_default(),
        ))
    }

    /// Completes `op` as Paddle's Python does when it appends one: every
    /// declared slot, every attribute's default.
    pub fn complete(op: &mut Op) {
        ops::fill_defaults(op);
    }

    /// The types inference gives `op`'s outputs, in block `block`: `Err`
    /// is what Paddle's `InferShape` would refuse whatever the data.
    pub fn infer(&self, block: usize, op: &Op) -> Result<Vec<(String, TensorType)>, String> {
        let Some(def) = ops::get(&op.ty) else {
            return Ok(Vec::new());
        };
        let Some(infer) = def.behaviour.infer else {
            return Ok(self.grads_like_forward(block, op));
        };
        let ctx = InferCtx::new(op, def, |n| self.tensor_type(block, n));
        let inferred = infer(&ctx)?;
        Ok(ops::typed_outputs(op, inferred)
            .into_iter()
            .map(|(_, name, t)| (name.clone(), t))
            .collect())
    }

    /// A grad op without inference of its own (one a script appends, as
    /// 1.x's op tests append `get_grad_op_desc`'s): each gradient slot
    /// `X@GRAD` takes the types of forward input slot `X`, as Paddle's grad
    /// InferShapes set them (`SetOutputDim(GradVarName("X"), x_dims)`).
    fn grads_like_forward(&self, block: usize, op: &Op) -> Vec<(String, TensorType)> {
        if !op.ty.ends_with("_grad") {
            return Vec::new();
        }
        let mut out = Vec::new();
        for slot in &op.outputs {
            let Some(fwd) = slot.parameter.strip_suffix(ops::GRAD_SUFFIX) else {
                continue;
            };
            for (g, x) in slot.arguments.iter().zip(op.inputs_of(fwd)) {
                if let Some(t) = self.tensor_type(block, x).filter(|_| g != ops::EMPTY_VAR) {
                    out.push((g.clone(), t));
                }
            }
        }
        out
    }

    /// Sets the inferred types on the outputs' declarations (dense
    /// tensors only). A 0-D output is declared `[1]`: Paddle 1.x had no
    /// 0-D tensors, its `mean`, `accuracy` and full reductions declared
    /// `[1]`, and 1.x scripts see shape `(1,)` (README, "Run mode"; the runtime
    /// fetches such a variable's 0-D value as `(1,)` too).
    pub fn apply_types(&mut self, block: usize, types: Vec<(String, TensorType)>) {
        for (name, mut t) in types {
            if t.dims.is_empty() {
                t.dims = vec![1];
            }
            let Some(b) = self.find_var(block, &name) else {
                continue;
            };
            if let Some(var) = self.var_mut(b, &name) {
                if let Some(d) = var.ty.dense_tensor.as_mut() {
                    d.tensor.dims = t.dims;
                    d.tensor.data_type = t.dtype as i32;
                }
            }
        }
    }

    /// 1.x's `OpDesc.infer_var_type`: the outputs take the dtypes
    /// inference gives them (their dims stay: `infer_shape` sets those),
    /// and are declared `SELECTED_ROWS` where Paddle makes them so.
    pub fn infer_var_types(&mut self, block: usize, op: &Op) -> Result<(), String> {
        for (name, t) in self.infer(block, op)? {
            let Some(b) = self.find_var(block, &name) else {
                continue;
            };
            if let Some(d) = self
                .var_mut(b, &name)
                .and_then(|v| v.ty.dense_tensor.as_mut())
            {
                d.tensor.data_type = t.dtype as i32;
            }
        }
        self.apply_selected_rows(block, op);
        Ok(())
    }

    /// Declares `SELECTED_ROWS` the outputs Paddle's `infer_var_type`
    /// makes so (`ops::selected_rows_outputs`: `elementwise_mul` of a
    /// sparse gradient, ...).
    fn apply_selected_rows(&mut self, block: usize, op: &Op) {
        let outs = ops::selected_rows_outputs(op, |n| {
            self.find_var(block, n)
                .and_then(|b| self.var(b, n))
                .and_then(|v| v.kind())
                == Some(VarKind::SelectedRows)
        });
        for name in outs {
            if let Some(b) = self.find_var(block, &name) {
                if let Some(v) = self.var_mut(b, &name) {
                    v.make_selected_rows();
                }
            }
        }
    }

    /// Appends (or, with `at`, inserts) a completed op to block `block`:
    /// infers its outputs and passes `stop_gradient` on. Returns the op's
    /// index in its block.
    pub fn add_op(&mut self, block: usize, at: Option<usize>, op: Op) -> Result<usize, String> {
        self.block(block)?;
        let types = self
            .infer(block, &op)
            .map_err(|e| format!("{}: {e}", op.ty))?;
        self.apply_types(block, types);
        self.apply_selected_rows(block, &op);
        // Paddle's `append_op` passes stop_gradient on; `_prepend_op` and
        // `_insert_op` (initializers, optimizers) do not.
        if at.is_none() {
            self.pass_stop_gradient(block, &op);
        }
        let ops = &mut self.program.blocks[block].ops;
        let at = at.unwrap_or(ops.len()).min(ops.len());
        ops.insert(at, op);
        self.version += 1;
        Ok(at)
    }

    /// Paddle 3's `Block.append_op` (`pass_stop_gradient`): when no input
    /// of an op is a variable with `stop_gradient` false, its outputs stop
    /// gradients too (`while` and `conditional_block` excepted). A variable
    /// that never set the flag has Python's default, false.
    fn pass_stop_gradient(&mut self, block: usize, op: &Op) {
        if matches!(op.ty.as_str(), "while" | "conditional_block") {
            return;
        }
        let stops = |name: &str| {
            self.find_var(block, name)
                .and_then(|b| self.var(b, name))
                .is_none_or(|v| v.stop_gradient == Some(true))
        };
        if !op.input_names().all(stops) {
            return;
        }
        let outputs: Vec<String> = op.output_names().map(str::to_string).collect();
        for name in outputs {
            if let Some(b) = self.find_var(block, &name) {
                if let Some(v) = self.var_mut(b, &name) {
                    v.stop_gradient = Some(true);
                }
            }
        }
    }

    /// Sets an attribute of op `index` of block `block`.
    pub fn set_op_attr(
        &mut self,
        block: usize,
        index: usize,
        name: &str,
        value: AttrValue,
    ) -> Result<(), String> {
        let op = self
            .block_mut(block)?
            .ops
            .get_mut(index)
            .ok_or_else(|| format!("block {block} has no op {index}"))?;
        op.set_attr(name, value);
        Ok(())
    }

    pub fn op(&self, block: usize, index: usize) -> Result<&Op, String> {
        self.block(block)?
            .ops
            .get(index)
            .ok_or_else(|| format!("block {block} has no op {index}"))
    }

    pub fn op_mut(&mut self, block: usize, index: usize) -> Result<&mut Op, String> {
        self.block_mut(block)?
            .ops
            .get_mut(index)
            .ok_or_else(|| format!("block {block} has no op {index}"))
    }
}
