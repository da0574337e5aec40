//! `append_backward` (docs/training.md): the grad ops of a loss, built as Paddle
//! 3.3.1's legacy `paddle.base.backward.append_backward` builds them, so a
//! program fluidc trains is the program Paddle would train.
//!
//! The steps and their Paddle names, for the global block:
//! 1. mark the loss op (`op_role` Forward|Loss) and append
//!    `fill_constant(1.0)` for `loss@GRAD` (`_create_loss_op_desc_`);
//! 2. the no-grad set: `v@GRAD` for every variable with `stop_gradient` and
//!    every name the caller lists (`_get_stop_gradients_`);
//! 3. the ops on the path to the loss (`_find_op_path_`), and the outputs
//!    no one reads (`_find_no_grad_vars`);
//! 4. the grad ops, in reverse, from each op's maker ([`GradOpSpec`]);
//! 5. gradients written twice are renamed `X@GRAD@RENAME@block0@N` and
//!    added up by a `sum` (`_addup_repetitive_outputs_`);
//! 6. grad ops that produce or consume only unwanted gradients go, and a
//!    `fill_any_like` zero stands in for an unwanted gradient still read
//!    (`_remove_no_grad_branch_`, `_find_not_need_ops`);
//! 7. the ops are appended with `op_role` Backward, their gradient
//!    variables declared like their forward variables
//!    (`_append_backward_vars_`), and `op_role_var = [param, grad]` set on
//!    the last op writing each parameter's gradient.
//!
//! An op on the path that runs a sub-block (`while`, `conditional_block`)
//! gets a grad block: a new block, child of the block its grad op goes to,
//! whose `forward_block_idx` is the sub-block, holding the sub-block's grad
//! ops built the same way (`_append_backward_ops_` recursing); its grad op
//! (`while_grad`, `conditional_block_grad`) runs that block.
use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;

use crate::model::{Attr, AttrValue, Block, Op, Program, Slot, Var};
use crate::ops::{self, GradMaker, GradOpSpec, EMPTY_VAR, GRAD_SUFFIX};

/// Paddle's `OpRole` bits.
pub mod role {
    pub const FORWARD: i32 = 0;
    pub const BACKWARD: i32 = 1;
    pub const OPTIMIZE: i32 = 2;
    pub const LR_SCHED: i32 = 16;
    pub const LOSS: i32 = 256;
}

/// `name@GRAD`.
pub fn grad_name(name: &str) -> String {
    format!("{name}{GRAD_SUFFIX}")
}

/// Paddle's `_strip_grad_suffix_`: `x@GRAD` -> `x`,
/// `y@GRAD@RENAME@block0@1` -> `y`.
pub fn strip_grad_suffix(name: &str) -> &str {
    match name.find(GRAD_SUFFIX) {
        Some(pos) => &name[..pos],
        None => name,
    }
}

/// Builds the backward of `loss` into block 0 of `program` and returns the
/// (parameter, gradient) pairs, in the order of `parameters` (the trainable
/// parameters the caller wants, by name). `no_grad` lists variables whose
/// gradients are not wanted besides those with `stop_gradient`.
pub fn append_backward(
    program: &mut Program,
    loss: &str,
    parameters: &[String],
    no_grad: &[String],
) -> Result<Vec<(String, String)>, String> {
    let block = program
        .blocks
        .first_mut()
        .ok_or("the program has no global block")?;
    let loss_var = block
        .var(loss)
        .ok_or_else(|| format!("the loss `{loss}` is not a variable of the global block"))?
        .clone();
    let loss_op = block
        .ops
        .iter()
        .rposition(|op| op.output_names().any(|n| n == loss))
        .ok_or_else(|| format!("no op computes the loss `{loss}`"))?;
    block.ops[loss_op].set_attr("op_role", AttrValue::Int(role::FORWARD | role::LOSS));
    let op_device = match block.ops[loss_op].get_attr("op_device") {
        Some(AttrValue::String(s)) => s.clone(),
        _ => String::new(),
    };

    // 2. The no-grad sets.
    let (mut no_grad_dict, mut block_no_grad) = no_grad_sets(program, no_grad);

    // 3. The path to the loss, and the paths inside the blocks on it.
    let fwd_op_num = program.blocks[0].ops.len();
    let mut op_paths = HashMap::new();
    let targets = HashSet::from([loss.to_string()]);
    let path = find_op_path(program, 0, targets, &block_no_grad, &mut op_paths, false);
    let loss_targets = [loss.to_string()];
    for v in find_no_grad_vars(&program.blocks[0], &path, &loss_targets, &block_no_grad) {
        block_no_grad.insert(v);
    }
    no_grad_dict[0].extend(block_no_grad.iter().map(|n| grad_name(n)));

    // 1. loss@GRAD.
    let dims = loss_var
        .tensor_desc()
        .map(|t| t.dims.clone())
        .unwrap_or_default();
    let shape = if dims.is_empty() || dims.contains(&0) {
        dims
    } else {
        vec![1]
    };
    let mut fill = Op::new("fill_constant")
        .output("Out", &[&grad_name(loss)])
        .attr("shape", AttrValue::Longs(shape))
        .attr("value", AttrValue::Float(1.0))
        .attr(
            "dtype",
            AttrValue::Int(loss_var.dtype().map_or(5, |d| d as i32)),
        )
        .attr("force_cpu", AttrValue::Bool(false))
        .attr("op_role", AttrValue::Int(role::BACKWARD | role::LOSS))
        .attr("op_device", AttrValue::String(op_device));
    check_attrs(&mut fill);
    program.blocks[0].ops.push(fill);

    // 4.-6. The grad ops, in reverse, with the grad blocks of the loops
    // and branches on the path.
    let mut grad_to_var: HashMap<String, String> = HashMap::new();
    let mut ctx = Backward {
        program,
        no_grad: no_grad_dict,
        grad_to_var: &mut grad_to_var,
        op_paths: &op_paths,
        targets: &loss_targets,
    };
    let grad_ops = ctx.append_ops(0, &path, 0)?;
    program.blocks[0].ops.extend(grad_ops);

    // 7.
    let mut grad_info = HashMap::new();
    append_backward_vars(program, 0, fwd_op_num, &grad_to_var, &mut grad_info)?;
    let block = &mut program.blocks[0];
    let mut pairs = Vec::new();
    for p in parameters {
        let Some((g, b)) = grad_info.get(p) else {
            continue;
        };
        // Paddle pairs a parameter only with a gradient of the loss's block.
        if *b == 0 {
            pairs.push((p.clone(), g.clone()));
        }
    }
    for (p, g) in &pairs {
        if let Some(op) = block
            .ops
            .iter_mut()
            .rev()
            .find(|op| op.output_names().any(|n| n == g))
        {
            let mut val = vec![p.clone(), g.clone()];
            if let Some(AttrValue::Strings(old)) = op.get_attr("op_role_var") {
                val.extend(old.iter().cloned());
            }
            op.set_attr("op_role_var", AttrValue::Strings(val));
        }
    }
    Ok(pairs)
}

/// The no-grad sets, as gradient names, per block (`_get_stop_gradients_`);
/// the caller's names count in block 0. Also block 0's as variable names.
fn no_grad_sets(program: &Program, no_grad: &[String]) -> (Vec<HashSet<String>>, HashSet<String>) {
    let mut no_grad_dict: Vec<HashSet<String>> = program
        .blocks
        .iter()
        .map(|b| {
            b.vars
                .iter()
                .filter(|v| v.stop_gradient.unwrap_or(false))
                .map(|v| grad_name(&v.name))
                .collect()
        })
        .collect();
    no_grad_dict[0].extend(no_grad.iter().map(|n| grad_name(n)));
    let block_no_grad = no_grad_dict[0]
        .iter()
        .map(|n| strip_grad_suffix(n).to_string())
        .collect();
    (no_grad_dict, block_no_grad)
}

/// `calc_gradient(targets, inputs, target_gradients, no_grad_set)` (1.x's
/// `backward.calc_gradient` and `fluid.gradients`), as Paddle 3.3.1's
/// legacy `calc_gradient_helper` builds it on its first call: for each
/// target whose gradient is not given, `fill_any_like(1.0)` makes
/// `target@GRAD`; the grad ops of the ops on the path from `inputs` to the
/// targets follow (as `append_backward` builds them), reading a given
/// gradient in place of `target@GRAD`. Returns each input's gradient, or
/// None where the targets do not depend on it. A program that has a
/// backward already gets another one as 1.0-1.4 built it, under the same
/// `@GRAD` names, whose ops recompute them after the first backward's
/// (Paddle 1.5+ and 3.3.1 rename the second backward's gradients, for
/// double backward; 1.x scripts such as 2018's test_calc_gradient call it
/// twice on one program and fetch both results).
pub fn calc_gradient(
    program: &mut Program,
    targets: &[String],
    target_grads: &[Option<String>],
    inputs: &[String],
    no_grad: &[String],
) -> Result<Vec<Option<String>>, String> {
    let block = program
        .blocks
        .first()
        .ok_or("the program has no global block")?;
    for name in targets.iter().chain(inputs) {
        if block.var(name).is_none() {
            return Err(format!(
                "`{name}` is not a variable of the global block; calc_gradient builds the \
                 backward of block 0"
            ));
        }
    }
    let fwd_op_num = block.ops.len();
    // The targets' gradients: ones, or the given variables (renamed in).
    let mut given: HashMap<String, String> = HashMap::new();
    for (t, g) in targets.iter().zip(target_grads) {
        match g {
            Some(g) => {
                given.insert(grad_name(t), g.clone());
            }
            None => {
                let dtype = program.blocks[0]
                    .var(t)
                    .and_then(Var::dtype)
                    .map_or(5, |d| d as i32);
                let mut fill = Op::new("fill_any_like")
                    .input("X", &[t])
                    .output("Out", &[&grad_name(t)])
                    .attr("value", AttrValue::Float(1.0))
                    .attr("dtype", AttrValue::Int(dtype))
                    .attr("op_role", AttrValue::Int(role::BACKWARD));
                check_attrs(&mut fill);
                program.blocks[0].ops.push(fill);
            }
        }
    }
    let (mut no_grad_dict, mut block_no_grad) = no_grad_sets(program, no_grad);
    // The ops on a path from the inputs (`_find_op_path_` with inputs):
    // those reading an input or what such an op wrote.
    let block = &program.blocks[0];
    let mut from_inputs: HashSet<String> = inputs.iter().cloned().collect();
    let mut forward = vec![false; block.ops.len()];
    for (i, op) in block.ops.iter().enumerate() {
        if op.input_names().any(|n| from_inputs.contains(n)) && !has_empty_maker(&op.ty) {
            forward[i] = true;
            for n in op.output_names() {
                if !block_no_grad.contains(n) {
                    from_inputs.insert(n.to_string());
                }
            }
        }
    }
    let mut op_paths = HashMap::new();
    let wanted: HashSet<String> = targets.iter().cloned().collect();
    let path: Vec<usize> = find_op_path(program, 0, wanted, &block_no_grad, &mut op_paths, false)
        .into_iter()
        .filter(|&i| forward[i])
        .collect();
    let block = &program.blocks[0];
    for &i in &path {
        for n in block.ops[i].input_names() {
            let stop = block
                .var(n)
                .is_some_and(|v| v.stop_gradient.unwrap_or(false));
            if !from_inputs.contains(n) && stop {
                block_no_grad.insert(n.to_string());
            }
        }
    }
    for v in find_no_grad_vars(block, &path, targets, &block_no_grad) {
        block_no_grad.insert(v);
    }
    no_grad_dict[0].extend(block_no_grad.iter().map(|n| grad_name(n)));
    let mut grad_to_var: HashMap<String, String> = HashMap::new();
    let mut ctx = Backward {
        program,
        no_grad: no_grad_dict,
        grad_to_var: &mut grad_to_var,
        op_paths: &op_paths,
        targets,
    };
    let mut grad_ops = ctx.append_ops(0, &path, 0)?;
    // `_rename_grad_`: the grad ops read a given gradient for `target@GRAD`.
    for op in &mut grad_ops {
        for slot in &mut op.inputs {
            for a in &mut slot.arguments {
                if let Some(g) = given.get(a.as_str()) {
                    *a = g.clone();
                }
            }
        }
    }
    program.blocks[0].ops.extend(grad_ops);
    let mut grad_info = HashMap::new();
    append_backward_vars(program, 0, fwd_op_num, &grad_to_var, &mut grad_info)?;
    Ok(inputs
        .iter()
        .map(|i| match grad_info.get(i) {
            Some((g, 0)) => Some(g.clone()),
            _ => None,
        })
        .collect())
}

/// The block an op runs as its `sub_block`, if any.
fn sub_block_of(op: &Op) -> Option<usize> {
    match op.get_attr("sub_block") {
        Some(AttrValue::Block(b)) => usize::try_from(*b).ok(),
        _ => None,
    }
}

/// The state of one `append_backward` across the blocks it visits.
struct Backward<'a> {
    program: &'a mut Program,
    /// Per block, the gradient names not wanted (`no_grad_dict`).
    no_grad: Vec<HashSet<String>>,
    grad_to_var: &'a mut HashMap<String, String>,
    /// The forward path inside each sub-block on the way to the loss.
    op_paths: &'a HashMap<usize, Vec<usize>>,
    /// What the gradients are of: the loss, or `calc_gradient`'s targets.
    targets: &'a [String],
}

impl Backward<'_> {
    /// `_append_backward_ops_`: the grad ops of the ops `path` of block
    /// `b`, in reverse, for block `target`. An op that runs a sub-block
    /// first gets a grad block (a child of `target` whose forward block is
    /// the sub-block) holding the sub-block's grad ops.
    fn append_ops(&mut self, b: usize, path: &[usize], target: usize) -> Result<Vec<Op>, String> {
        let mut grad_ops: Vec<Op> = Vec::new();
        for &i in path.iter().rev() {
            let fwd = self.program.blocks[b].ops[i].clone();
            let mut grad_block = None;
            if let Some(sub) = sub_block_of(&fwd) {
                let g = self.program.blocks.len();
                let mut block = Block::new(g as i32, target as i32);
                block.forward_block_idx = Some(sub as i32);
                self.program.blocks.push(block);
                self.no_grad.push(HashSet::new());
                let sub_path = self.op_paths.get(&sub).cloned().unwrap_or_default();
                let ops = self.append_ops(sub, &sub_path, g)?;
                self.program.blocks[g].ops = ops;
                grad_block = Some(g);
            }
            let made = match &ops::get(&fwd.ty).map(|d| &d.grad) {
                Some(GradMaker::Ops(specs)) => self.make_grad_ops(b, &fwd, specs),
                Some(GradMaker::Blocks) => {
                    let g = grad_block.ok_or_else(|| {
                        format!("`{}` on the path to the loss has no sub_block", fwd.ty)
                    })?;
                    vec![self.make_block_grad(b, &fwd, g)?]
                }
                Some(GradMaker::Empty) => Vec::new(),
                Some(GradMaker::PyFunc) => self.make_py_func_grad(b, &fwd).into_iter().collect(),
                // A grad op's own gradient: Paddle has some (double grads),
                // fluidc none.
                _ if fwd.ty.ends_with("_grad") => {
                    return Err(format!(
                    "fluidc has no second-order gradient: the loss depends on the grad op `{}`; \
                         set stop_gradient on its outputs or pass them in no_grad_set",
                    fwd.ty
                ))
                }
                _ => {
                    return Err(format!(
                        "op `{}` has no gradient in Paddle, but the loss depends on it; \
                         set stop_gradient on its outputs or pass them in no_grad_set",
                        fwd.ty
                    ))
                }
            };
            for mut g in made {
                if let Some(dev) = fwd.get_attr("op_device").cloned() {
                    g.set_attr("op_device", dev);
                }
                grad_ops.push(g);
            }
        }
        // 5. and 6.
        let grad_ops = addup_repetitive_outputs(grad_ops, b);
        let grad_ops = remove_no_grad_branch(grad_ops, &mut self.no_grad[b], self.targets);
        let block = &self.program.blocks[b];
        let forward: Vec<&Op> = path.iter().map(|&i| &block.ops[i]).collect();
        let not_needed = find_not_need_ops(&grad_ops, &forward);
        Ok(grad_ops
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !not_needed.contains(k))
            .map(|(_, mut op)| {
                op.set_attr("op_role", AttrValue::Int(role::BACKWARD));
                op
            })
            .collect())
    }

    /// The grad ops an op's maker data describes.
    fn make_grad_ops(&mut self, b: usize, fwd: &Op, specs: &[GradOpSpec]) -> Vec<Op> {
        let (made, grad_to_var) = make_grad_ops(fwd, specs, &self.no_grad[b]);
        self.grad_to_var.extend(grad_to_var);
        made
    }

    /// Paddle's `PyFuncOpGradDescMaker`: none while the forward op has no
    /// backward callable (`backward_callable_id` < 0); else a `py_func`
    /// calling it, whose `X` is the forward inputs and outputs (but those
    /// in `backward_skip_vars`) then every output's gradient, and whose
    /// `Out` is every input's gradient (`@EMPTY@` where none is wanted).
    fn make_py_func_grad(&mut self, b: usize, fwd: &Op) -> Option<Op> {
        let backward = match fwd.get_attr("backward_callable_id") {
            Some(AttrValue::Int(id)) if *id >= 0 => *id,
            _ => return None,
        };
        let skip: HashSet<&str> = match fwd.get_attr("backward_skip_vars") {
            Some(AttrValue::Strings(v)) => v.iter().map(String::as_str).collect(),
            _ => HashSet::new(),
        };
        let mut ins: Vec<String> = fwd
            .inputs_of("X")
            .iter()
            .chain(fwd.outputs_of("Out"))
            .filter(|n| !skip.contains(n.as_str()))
            .cloned()
            .collect();
        ins.extend(fwd.outputs_of("Out").iter().map(|o| grad_name(o)));
        let outs = self.input_grads(b, fwd, "X");
        let ins: Vec<&str> = ins.iter().map(String::as_str).collect();
        let outs: Vec<&str> = outs.iter().map(String::as_str).collect();
        let mut op = Op::new("py_func").input("X", &ins).output("Out", &outs);
        op.set_attr("forward_callable_id", AttrValue::Int(backward));
        op.set_attr("backward_callable_id", AttrValue::Int(-1));
        Some(op)
    }

    /// `InputGrad(slot, false)`: a gradient name per argument of the
    /// forward input `slot`, `@EMPTY@` where it is not wanted.
    fn input_grads(&mut self, b: usize, fwd: &Op, slot: &str) -> Vec<String> {
        fwd.inputs_of(slot)
            .iter()
            .map(|x| {
                let g = grad_name(x);
                if self.no_grad[b].contains(&g) {
                    EMPTY_VAR.to_string()
                } else {
                    self.grad_to_var.insert(g.clone(), x.clone());
                    g
                }
            })
            .collect()
    }

    /// The grad op of a `while` or `conditional_block` whose grad block
    /// `g` is built: Paddle's C++ `WhileGradOpMaker` and
    /// `ConditionalBlockGradMaker`.
    fn make_block_grad(&mut self, b: usize, fwd: &Op, g: usize) -> Result<Op, String> {
        fn strs(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        let mut op = match fwd.ty.as_str() {
            "while" => {
                let mut igs = self.input_grads(b, fwd, "X");
                let grad_ops = &self.program.blocks[g].ops;
                let inner: HashSet<&str> = grad_ops.iter().flat_map(Op::output_names).collect();
                for ig in &mut igs {
                    if !inner.contains(ig.as_str()) {
                        *ig = EMPTY_VAR.to_string();
                    }
                }
                // The output gradients the grad block reads from outside:
                // names it reads that are neither the loop's inputs and
                // outputs, nor written before in it, nor forward variables.
                let grad_ops = &self.program.blocks[g].ops;
                let parent = usize::try_from(self.program.blocks[g].parent_idx).unwrap_or(0);
                let fwd_block = sub_block_of(fwd).unwrap_or(0);
                let mut block_ins: HashSet<&str> = fwd
                    .inputs_of("X")
                    .iter()
                    .chain(fwd.outputs_of("Out"))
                    .map(String::as_str)
                    .collect();
                let mut ogs: Vec<String> = Vec::new();
                for op in grad_ops {
                    for name in op.input_names() {
                        if block_ins.contains(name)
                            || self.program.find_var_recursive(fwd_block, name).is_some()
                            || self.program.find_var_recursive(parent, name).is_some()
                            || ogs.iter().any(|o| o == name)
                        {
                            continue;
                        }
                        ogs.push(name.to_string());
                    }
                    block_ins.extend(op.output_names());
                }
                let ogs = crate::cxx_hash::unordered_set_order(ogs);
                let mut op = Op::new("while_grad")
                    .input("X", &strs(fwd.inputs_of("X")))
                    .input("Out", &strs(fwd.outputs_of("Out")))
                    .input("StepScopes", &strs(fwd.outputs_of("StepScopes")))
                    .input("Out@GRAD", &strs(&ogs))
                    .output("X@GRAD", &strs(&igs));
                op.attrs = fwd.attrs.clone();
                op.set_attr("original_output_grad", AttrValue::Strings(ogs));
                op.set_attr("skip_eager_deletion_vars", AttrValue::Strings(Vec::new()));
                op
            }
            "conditional_block" => {
                let igs = self.input_grads(b, fwd, "Input");
                let ogs: Vec<String> = fwd.outputs_of("Out").iter().map(|o| grad_name(o)).collect();
                let mut op = Op::new("conditional_block_grad")
                    .input("Cond", &strs(fwd.inputs_of("Cond")))
                    .input("Input", &strs(fwd.inputs_of("Input")))
                    .input("Out", &strs(fwd.outputs_of("Out")))
                    .input("Out@GRAD", &strs(&ogs))
                    .input("Scope", &strs(fwd.outputs_of("Scope")))
                    .output("Input@GRAD", &strs(&igs));
                // 1.x's maker also had `Cond@GRAD` (InputGrad(Cond,
                // false)): a float condition the block reads gets its
                // gradient (1.0's test_conditional_block fetches it).
                // Paddle 3.3.1 dropped the slot, so it is written only
                // when some condition wants a gradient (never a bool one).
                let cgs = self.input_grads(b, fwd, "Cond");
                if cgs.iter().any(|g| g != EMPTY_VAR) {
                    op = op.output("Cond@GRAD", &strs(&cgs));
                }
                if let Some(v) = fwd.get_attr("is_scalar_condition") {
                    op.set_attr("is_scalar_condition", v.clone());
                }
                op
            }
            other => return Err(format!("gradients through `{other}` are not supported")),
        };
        op.set_attr("sub_block", AttrValue::Block(g as i32));
        Ok(op)
    }
}

/// Fills an op built here with its proto's defaults, as Paddle's
/// `OpDesc::CheckAttrs` does (no `op_callstack`; `op_namescope` and
/// `op_role_var` at their proto defaults, unlike ops the front end appends).
/// Grad ops, and the forward variable of each gradient they name
/// (`grad_to_var`).
pub type GradOps = (Vec<Op>, Vec<(String, String)>);

/// 1.x's `core.get_grad_op_desc(op, no_grad_set, [])` for an op without
/// a sub-block: its grad ops as its maker makes them, and the forward
/// variable of each input gradient they write.
pub fn grad_op_descs(fwd: &Op, no_grad: &HashSet<String>) -> Result<GradOps, String> {
    match ops::get(&fwd.ty).map(|d| &d.grad) {
        Some(GradMaker::Ops(specs)) => {
            let (made, mut grad_to_var) = make_grad_ops(fwd, specs, no_grad);
            // The makers' OutputGrad recorded the output gradients they read too.
            for g in made.iter().flat_map(|op| op.input_names()) {
                let v = strip_grad_suffix(g);
                if v != g
                    && fwd.output_names().any(|o| o == v)
                    && !grad_to_var.iter().any(|(n, _)| n == g)
                {
                    grad_to_var.push((g.to_string(), v.to_string()));
                }
            }
            Ok((made, grad_to_var))
        }
        Some(GradMaker::Empty) => Ok((Vec::new(), Vec::new())),
        Some(_) => Err(format!(
            "the grad op of `{}` is made from its sub-block by append_backward",
            fwd.ty
        )),
        None => Err(format!("op `{}` has no gradient in Paddle", fwd.ty)),
    }
}

/// The grad ops `specs` make of `fwd` (gradients in `no_grad` not bound),
/// and each written input gradient's forward variable.
fn make_grad_ops(fwd: &Op, specs: &[GradOpSpec], no_grad: &HashSet<String>) -> GradOps {
    let want = |v: &str| {
        let g = grad_name(v);
        (!no_grad.contains(&g)).then_some(g)
    };
    let mut made = Vec::new();
    let mut grad_to_var = Vec::new();
    for spec in specs {
        for g in spec.make(fwd, &want) {
            for (slot, refs) in &spec.outputs {
                for r in refs {
                    if r.source != ops::grad::Source::InGrad {
                        continue;
                    }
                    // By name, not by position: a maker that makes one
                    // op per input (`sum`'s scale ops) writes the
                    // gradient of input i from an op with one output.
                    let inputs = fwd.inputs_of(&r.slot);
                    for name in g.outputs_of(slot) {
                        if let Some(v) = inputs.iter().find(|v| grad_name(v) == *name) {
                            grad_to_var.push((name.clone(), v.clone()));
                        }
                    }
                }
            }
            made.push(g);
        }
    }
    (made, grad_to_var)
}

pub fn check_attrs(op: &mut Op) {
    let Some(def) = ops::get(&op.ty) else {
        return;
    };
    for a in &def.attrs {
        if a.name == "op_callstack" || op.get_attr(&a.name).is_some() {
            continue;
        }
        if let Some(v) = &a.default {
            op.attrs.push(Attr {
                name: crate::model::intern(&a.name),
                value: v.clone(),
            });
        }
    }
    for s in def.inputs.iter().filter(|s| !s.extra) {
        if op.inputs.iter().all(|u| u.parameter != s.name) {
            op.inputs.push(Slot::new(s.name.clone(), Vec::new()));
        }
    }
    for s in def.outputs.iter().filter(|s| !s.extra) {
        if op.outputs.iter().all(|u| u.parameter != s.name) {
            op.outputs.push(Slot::new(s.name.clone(), Vec::new()));
        }
    }
}

fn has_empty_maker(ty: &str) -> bool {
    ops::get(ty).is_some_and(|d| d.grad == GradMaker::Empty)
}

/// `_find_op_path_`: the ops of block `b` that `targets` depend on
/// through variables not in `no_grad`, in program order, by index. For
/// each op that runs a sub-block, the path inside that block goes into
/// `paths` (`_get_sub_block_path`). In a `while` body (`is_while`), an op
/// writing a variable the path reads counts even if it comes later, since
/// the next iteration reads what it wrote.
fn find_op_path(
    program: &Program,
    b: usize,
    targets: HashSet<String>,
    no_grad: &HashSet<String>,
    paths: &mut HashMap<usize, Vec<usize>>,
    is_while: bool,
) -> Vec<usize> {
    let block = &program.blocks[b];
    let mut outputs = targets;
    let mut relevant = vec![true; block.ops.len()];
    for (i, op) in block.ops.iter().enumerate().rev() {
        if let Some(sub) = sub_block_of(op).filter(|&s| s < program.blocks.len()) {
            let sub_targets: HashSet<String> = op
                .output_names()
                .filter(|n| outputs.contains(*n))
                .map(str::to_string)
                .collect();
            let sub_path = sub_block_path(program, sub, op, sub_targets, paths);
            paths.insert(sub, sub_path);
        }
        if op.output_names().any(|n| outputs.contains(n)) && !has_empty_maker(&op.ty) {
            for n in op.input_names() {
                if !no_grad.contains(n) {
                    outputs.insert(n.to_string());
                }
            }
        } else {
            relevant[i] = false;
        }
    }
    if is_while {
        for (i, op) in block.ops.iter().enumerate().rev() {
            if !relevant[i] && op.output_names().any(|n| outputs.contains(n)) {
                relevant[i] = true;
                if !has_empty_maker(&op.ty) {
                    for n in op.input_names() {
                        if !no_grad.contains(n) {
                            outputs.insert(n.to_string());
                        }
                    }
                }
            }
        }
    }
    (0..block.ops.len()).filter(|&i| relevant[i]).collect()
}

/// `_get_sub_block_path`: the path inside the block `sub` that `op` runs,
/// towards the op's outputs in `targets` and the inputs of the ops in the
/// block that write them. Paddle looks for it with an empty no-grad set.
fn sub_block_path(
    program: &Program,
    sub: usize,
    op: &Op,
    targets: HashSet<String>,
    paths: &mut HashMap<usize, Vec<usize>>,
) -> Vec<usize> {
    if op.ty != "while" && op.ty != "conditional_block" {
        return (0..program.blocks[sub].ops.len()).collect();
    }
    let mut outputs = targets.clone();
    for var in &targets {
        for inner in &program.blocks[sub].ops {
            if inner.output_names().any(|n| n == var) {
                outputs.extend(inner.input_names().map(str::to_string));
            }
        }
    }
    find_op_path(
        program,
        sub,
        outputs,
        &HashSet::new(),
        paths,
        op.ty == "while",
    )
}

/// `_find_no_grad_vars`: outputs of ops on the path that nothing on the
/// way to the loss reads (and that are not stop_gradient already).
fn find_no_grad_vars(
    block: &Block,
    path: &[usize],
    targets: &[String],
    no_grad: &HashSet<String>,
) -> Vec<String> {
    let mut outputs: HashSet<String> = targets.iter().cloned().collect();
    let mut found = Vec::new();
    for &i in path.iter().rev() {
        let op = &block.ops[i];
        let inputs: HashSet<&str> = op.input_names().collect();
        if op.sub_blocks().next().is_none() {
            for out in op.output_names() {
                let stop = block
                    .var(out)
                    .is_some_and(|v| v.stop_gradient.unwrap_or(false));
                if !outputs.contains(out) && !inputs.contains(out) && !stop {
                    found.push(out.to_string());
                }
            }
        }
        for n in op.input_names() {
            if !no_grad.contains(n) {
                outputs.insert(n.to_string());
            }
        }
    }
    found
}

/// Input argument names in Paddle's order: slots sorted by name (OpDesc
/// keeps them in a `std::map`), arguments in order.
fn input_args(op: &Op) -> Vec<String> {
    sorted_args(&op.inputs)
}

fn output_args(op: &Op) -> Vec<String> {
    sorted_args(&op.outputs)
}

fn sorted_args(slots: &[Slot]) -> Vec<String> {
    let mut s: Vec<&Slot> = slots.iter().collect();
    s.sort_by(|a, b| a.parameter.cmp(&b.parameter));
    s.iter().flat_map(|s| s.arguments.iter().cloned()).collect()
}

fn rename_in(op: &mut Op, old: &str, new: &str) {
    for slot in op.inputs.iter_mut().chain(op.outputs.iter_mut()) {
        for a in &mut slot.arguments {
            if a == old {
                *a = new.to_string();
            }
        }
    }
}

/// `_create_op_desc_("sum", ...)` for accumulating `renamed` into `var`.
fn sum_op(renamed: &[String], var: &str, device: &str) -> Op {
    let refs: Vec<&str> = renamed.iter().map(String::as_str).collect();
    Op::new("sum")
        .input("X", &refs)
        .output("Out", &[var])
        .attr("op_device", AttrValue::String(device.to_string()))
        .attr("op_role", AttrValue::Int(role::BACKWARD))
}

/// `_addup_repetitive_outputs_` (with Paddle's default
/// `FLAGS_max_inplace_grad_add = 0`, so always `sum`).
fn addup_repetitive_outputs(mut descs: Vec<Op>, block_idx: usize) -> Vec<Op> {
    let mut pending: IndexMap<usize, Vec<Op>> = IndexMap::new();
    let mut rename_count: HashMap<String, usize> = HashMap::new();
    let mut renamed: IndexMap<String, Vec<String>> = IndexMap::new();
    let mut start_idx: HashMap<String, usize> = HashMap::new();
    let mut device: HashMap<String, String> = HashMap::new();
    let new_name = |var: &str, count: &mut HashMap<String, usize>| {
        let c = count.entry(var.to_string()).or_insert(0);
        let n = format!("{var}@RENAME@block{block_idx}@{c}");
        *c += 1;
        n
    };
    for idx in 0..descs.len() {
        for var in input_args(&descs[idx]) {
            if !var.contains(GRAD_SUFFIX) {
                continue;
            }
            let list = renamed.entry(var.clone()).or_default();
            if list.len() > 1 {
                let dev = device.get(&var).cloned().unwrap_or_default();
                pending
                    .entry(idx)
                    .or_default()
                    .push(sum_op(list, &var, &dev));
                *list = vec![var.clone()];
            }
        }
        let op_device = match descs[idx].get_attr("op_device") {
            Some(AttrValue::String(s)) => s.clone(),
            _ => String::new(),
        };
        let inputs: HashSet<String> = input_args(&descs[idx]).into_iter().collect();
        let mut params: Vec<String> = descs[idx]
            .outputs
            .iter()
            .map(|s| s.parameter.clone())
            .collect();
        params.sort();
        for (param_idx, param) in params.iter().enumerate() {
            let mut args = descs[idx].outputs_of(param).to_vec();
            for arg_idx in 0..args.len() {
                let var = args[arg_idx].clone();
                if !var.contains(GRAD_SUFFIX) || var == EMPTY_VAR || inputs.contains(&var) {
                    continue;
                }
                let list = renamed.entry(var.clone()).or_default();
                if list.is_empty() {
                    *list = vec![var.clone()];
                    start_idx.insert(var.clone(), idx);
                    continue;
                }
                if list.len() == 1 {
                    let first = new_name(&var, &mut rename_count);
                    renamed[&var][0] = first.clone();
                    let start = start_idx.get(&var).copied().unwrap_or(0);
                    for op in &mut descs[start..idx] {
                        rename_in(op, &var, &first);
                    }
                    for ops in pending.values_mut() {
                        for op in ops {
                            rename_in(op, &var, &first);
                        }
                    }
                    for p in &params[..param_idx] {
                        if let Some(slot) =
                            descs[idx].outputs.iter_mut().find(|s| &s.parameter == p)
                        {
                            for a in &mut slot.arguments {
                                if *a == var {
                                    *a = first.clone();
                                }
                            }
                        }
                    }
                    for a in &mut args[..arg_idx] {
                        if *a == var {
                            *a = first.clone();
                        }
                    }
                }
                let next = new_name(&var, &mut rename_count);
                args[arg_idx] = next.clone();
                if let Some(slot) = descs[idx]
                    .outputs
                    .iter_mut()
                    .find(|s| &s.parameter == param)
                {
                    slot.arguments = args.clone();
                }
                renamed[&var].push(next);
                device.insert(var.clone(), op_device.clone());
            }
        }
    }
    let end = descs.len();
    let finals: Vec<(String, Vec<String>)> = renamed
        .iter()
        .filter(|(_, l)| l.len() > 1)
        .map(|(v, l)| (v.clone(), l.clone()))
        .collect();
    for (var, list) in finals {
        let dev = device.get(&var).cloned().unwrap_or_default();
        pending
            .entry(end)
            .or_default()
            .push(sum_op(&list, &var, &dev));
    }
    for (idx, ops) in pending.into_iter().rev() {
        for (i, op) in ops.into_iter().enumerate() {
            descs.insert(idx + i, op);
        }
    }
    descs
}

/// `_remove_no_grad_branch_`.
fn remove_no_grad_branch(
    descs: Vec<Op>,
    no_grad: &mut HashSet<String>,
    targets: &[String],
) -> Vec<Op> {
    let target_grads: HashSet<String> = targets.iter().map(|t| grad_name(t)).collect();
    let mut kept = Vec::new();
    for op in descs {
        let outs = output_args(&op);
        if outs.is_empty() || outs.iter().all(|o| no_grad.contains(o)) {
            continue;
        }
        let grad_ins: Vec<String> = input_args(&op)
            .into_iter()
            .filter(|n| n.contains(GRAD_SUFFIX))
            .collect();
        if !grad_ins.is_empty() && grad_ins.iter().all(|n| no_grad.contains(n)) {
            for o in outs {
                if !target_grads.contains(&o) {
                    no_grad.insert(o);
                }
            }
            continue;
        }
        kept.push(op);
    }
    let mut out = Vec::with_capacity(kept.len());
    for op in kept {
        for arg in input_args(&op) {
            if arg.contains(GRAD_SUFFIX) && no_grad.contains(&arg) {
                let mut zero = Op::new("fill_any_like")
                    .input("X", &[strip_grad_suffix(&arg)])
                    .output("Out", &[&arg])
                    .attr("value", AttrValue::Float(0.0))
                    .attr("dtype", AttrValue::Int(-1))
                    .attr("op_role", AttrValue::Int(role::BACKWARD))
                    .attr("op_device", AttrValue::String(String::new()));
                check_attrs(&mut zero);
                out.push(zero);
            }
        }
        out.push(op);
    }
    out
}

/// `_find_not_need_ops`: grad ops in a part of the backward graph that
/// starts from gradients nothing produces (indices into `descs`).
fn find_not_need_ops(descs: &[Op], forward: &[&Op]) -> HashSet<usize> {
    let mut forward_vars: HashSet<String> = HashSet::new();
    for op in forward {
        forward_vars.extend(op.input_names().map(str::to_string));
        forward_vars.extend(op.output_names().map(str::to_string));
    }
    // Variable versions: each output makes a new node; inputs read the last.
    let mut versions: HashMap<String, Vec<usize>> = HashMap::new();
    let mut var_pending: Vec<Vec<usize>> = Vec::new(); // var node -> op indices
    let mut op_inputs: Vec<Vec<usize>> = Vec::new();
    let mut op_outputs: Vec<Vec<usize>> = Vec::new();
    let mut backward_vars: HashSet<String> = HashSet::new();
    let mut special = Vec::new();
    for (k, op) in descs.iter().enumerate() {
        let ins = input_args(op);
        let input_set: HashSet<&String> = ins.iter().collect();
        let new_vars = input_set
            .iter()
            .filter(|n| !forward_vars.contains(n.as_str()) && !backward_vars.contains(n.as_str()))
            .count();
        backward_vars.extend(output_args(op));
        let mut in_nodes = Vec::new();
        for name in &ins {
            let list = versions.entry(name.clone()).or_default();
            if list.is_empty() {
                list.push(var_pending.len());
                var_pending.push(Vec::new());
            }
            let node = *list.last().unwrap_or(&0);
            var_pending[node].push(k);
            in_nodes.push(node);
        }
        let mut out_nodes = Vec::new();
        for name in output_args(op) {
            let node = var_pending.len();
            var_pending.push(Vec::new());
            versions.entry(name).or_default().push(node);
            out_nodes.push(node);
        }
        op_inputs.push(in_nodes);
        op_outputs.push(out_nodes);
        if new_vars == input_set.len() {
            special.push(k);
        }
    }
    let mut not_needed = HashSet::new();
    for s in special {
        let mut list = vec![s];
        let mut ready: HashSet<usize> = op_inputs[s].iter().copied().collect();
        let mut remove = true;
        let mut candidates = std::collections::VecDeque::from([s]);
        while let Some(k) = candidates.pop_front() {
            if op_inputs[k].iter().all(|n| ready.contains(n)) && !op_inputs[k].is_empty() {
                for &o in &op_outputs[k] {
                    candidates.extend(var_pending[o].iter().copied());
                    list.extend(var_pending[o].iter().copied());
                }
                ready.extend(op_outputs[k].iter().copied());
            } else {
                remove = false;
                break;
            }
        }
        if remove {
            not_needed.extend(list);
        }
    }
    if not_needed.len() == descs.len() {
        return HashSet::new();
    }
    not_needed
}

/// `_append_backward_vars_`: from op `start` of block `b` (and in the
/// grad blocks of the ops there), drops grad ops with nothing to do,
/// declares each new gradient variable like its forward variable, and
/// records forward name -> (gradient name, block) in `info`.
fn append_backward_vars(
    program: &mut Program,
    b: usize,
    start: usize,
    grad_to_var: &HashMap<String, String>,
    info: &mut HashMap<String, (String, usize)>,
) -> Result<(), String> {
    // A grad block's inputs that its op also writes count as declared (a
    // `while_grad` carries them from one iteration to the next).
    let parent_op_vars: HashSet<String> = program
        .blocks
        .iter()
        .flat_map(|blk| &blk.ops)
        .find(|op| b != 0 && sub_block_of(op) == Some(b))
        .map(|op| {
            let outs: HashSet<&str> = op.output_names().collect();
            op.input_names()
                .filter(|n| outs.contains(n))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut remove = Vec::new();
    for idx in start..program.blocks[b].ops.len() {
        if let Some(sub) = sub_block_of(&program.blocks[b].ops[idx]) {
            if sub < program.blocks.len() {
                append_backward_vars(program, sub, 0, grad_to_var, info)?;
            }
        }
        let op = &program.blocks[b].ops[idx];
        let outputs: Vec<String> = output_args(op)
            .into_iter()
            .filter(|n| n != EMPTY_VAR)
            .collect();
        if outputs.is_empty() {
            remove.push(idx);
            continue;
        }
        let grad_ins: Vec<String> = input_args(op)
            .into_iter()
            .filter(|n| n.contains(GRAD_SUFFIX))
            .collect();
        let declared = |n: &str| program.find_var_recursive(b, n).is_some();
        if !grad_ins.is_empty()
            && grad_ins
                .iter()
                .all(|n| !declared(n) && !parent_op_vars.contains(n))
        {
            remove.push(idx);
            continue;
        }
        if op.ty == "sum" {
            let kept: Vec<String> = op
                .inputs_of("X")
                .iter()
                .filter(|n| declared(n))
                .cloned()
                .collect();
            if kept.is_empty() {
                return Err("internal: a gradient sum has no inputs left".into());
            }
            if let Some(slot) = program.blocks[b].ops[idx]
                .inputs
                .iter_mut()
                .find(|s| s.parameter == "X")
            {
                slot.arguments = kept;
            }
        }
        check_attrs(&mut program.blocks[b].ops[idx]);
        for name in output_args(&program.blocks[b].ops[idx]) {
            if name == EMPTY_VAR || program.find_var_recursive(b, &name).is_some() {
                continue;
            }
            let var = grad_var_like(program, b, &name);
            program.blocks[b].vars.push(var);
            if let Some(v) = grad_to_var.get(&name) {
                info.insert(v.clone(), (name.clone(), b));
            }
        }
        mark_sparse_grads(program, b, idx);
    }
    for idx in remove.into_iter().rev() {
        program.blocks[b].ops.remove(idx);
    }
    Ok(())
}

/// Paddle's `infer_var_type` where it makes a gradient sparse
/// ([`ops::selected_rows_outputs`]: a sparse `lookup_table(_v2)_grad`, a
/// `sum` of such gradients).
fn mark_sparse_grads(program: &mut Program, b: usize, idx: usize) {
    let outs = ops::selected_rows_outputs(&program.blocks[b].ops[idx], |n| {
        program.find_var_recursive(b, n).and_then(|(_, v)| v.kind())
            == Some(crate::VarKind::SelectedRows)
    });
    for v in program.blocks[b].vars.iter_mut() {
        if outs.contains(&v.name) {
            v.make_selected_rows();
        }
    }
}

/// A new gradient variable `name` of block `b`, of its forward variable's
/// kind (tensor or tensor array), dtype and shape
/// (`_infer_var_data_type_shape_`); float32 when there is none.
fn grad_var_like(program: &Program, b: usize, name: &str) -> Var {
    let fwd = program
        .find_var_recursive(b, strip_grad_suffix(name))
        .map(|(_, v)| v);
    let dtype = fwd.and_then(Var::dtype).unwrap_or(crate::VarKind::Fp32);
    let dims = fwd
        .and_then(Var::tensor_desc)
        .map(|t| t.dims.clone())
        .unwrap_or_default();
    let mut var = Var::dense(name.to_string(), dtype, dims);
    if fwd.and_then(Var::kind) == Some(crate::VarKind::DenseTensorArray) {
        var.ty.r#type = crate::VarKind::DenseTensorArray as i32;
        var.ty.tensor_array =
            var.ty
                .dense_tensor
                .take()
                .map(|d| crate::proto::var_type::DenseTensorArrayDesc {
                    tensor: d.tensor,
                    legacy_lod_level: d.legacy_lod_level,
                });
    }
    Var {
        stop_gradient: Some(false),
        ..var
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::VarKind;

    fn var(name: &str, dims: Vec<i64>, stop: bool) -> Var {
        Var {
            stop_gradient: Some(stop),
            ..Var::dense(name, VarKind::Fp32, dims)
        }
    }

    /// `loss = mean(x*w + x*w)`: `w` is read twice, so its two gradients
    /// are renamed `w@GRAD@RENAME@block0@N` and added by a `sum` that
    /// carries `op_role_var`; `x` (stop_gradient) gets no gradient at all.
    #[test]
    fn fan_in_is_renamed_and_summed_and_stopped_inputs_get_nothing() {
        let mut block = Block::new(0, -1);
        block.vars = vec![
            var("x", vec![-1, 3], true),
            var("w", vec![3, 2], false),
            var("a", vec![-1, 2], false),
            var("b", vec![-1, 2], false),
            var("s", vec![-1, 2], false),
            var("loss", vec![], false),
        ];
        let mul = |out: &str| {
            let mut op = Op::new("mul")
                .input("X", &["x"])
                .input("Y", &["w"])
                .output("Out", &[out]);
            ops::fill_defaults(&mut op);
            op
        };
        let mut add = Op::new("elementwise_add")
            .input("X", &["a"])
            .input("Y", &["b"])
            .output("Out", &["s"]);
        ops::fill_defaults(&mut add);
        let mut mean = Op::new("mean").input("X", &["s"]).output("Out", &["loss"]);
        ops::fill_defaults(&mut mean);
        block.ops = vec![mul("a"), mul("b"), add, mean];
        let mut program = Program {
            blocks: vec![block],
            ..Default::default()
        };
        let pairs = append_backward(&mut program, "loss", &["w".into()], &[]).expect("backward");
        assert_eq!(pairs, vec![("w".to_string(), "w@GRAD".to_string())]);
        let b = &program.blocks[0];
        let types: Vec<&str> = b.ops.iter().map(|o| o.ty.as_str()).collect();
        assert_eq!(
            types,
            [
                "mul",
                "mul",
                "elementwise_add",
                "mean",
                "fill_constant",
                "mean_grad",
                "elementwise_add_grad",
                "mul_grad",
                "mul_grad",
                "sum"
            ]
        );
        let sum = &b.ops[9];
        assert_eq!(
            sum.inputs_of("X"),
            ["w@GRAD@RENAME@block0@0", "w@GRAD@RENAME@block0@1"]
        );
        assert_eq!(sum.outputs_of("Out"), ["w@GRAD"]);
        assert_eq!(
            sum.get_attr("op_role_var"),
            Some(&AttrValue::Strings(vec!["w".into(), "w@GRAD".into()]))
        );
        for g in &b.ops[7..9] {
            assert!(g.outputs_of("X@GRAD").is_empty(), "x stops gradients");
        }
        assert!(b.var("x@GRAD").is_none());
        let wg = b.var("w@GRAD").expect("declared");
        assert_eq!(wg.tensor_desc().map(|t| t.dims.clone()), Some(vec![3, 2]));
        assert_eq!(
            b.ops[3].get_attr("op_role"),
            Some(&AttrValue::Int(role::LOSS))
        );
    }

    /// `py_func`'s grad is a `py_func` calling the backward callable,
    /// as Paddle 3.3.1's maker makes it (the case `dump-grad-makers.py`
    /// asks Paddle): X is the forward inputs and outputs less
    /// `backward_skip_vars`, then the output gradients; Out every input's
    /// gradient, `@EMPTY@` for a stopped one. Without a backward callable,
    /// none.
    #[test]
    fn py_func_grad_calls_the_backward_callable() {
        for backward in [3, -1] {
            let mut block = Block::new(0, -1);
            block.vars = vec![
                var("a", vec![-1, 2], false),
                var("b", vec![-1, 2], true),
                var("c", vec![-1, 2], false),
                var("d", vec![-1, 2], false),
                var("loss", vec![], false),
            ];
            let mut f = Op::new("py_func")
                .input("X", &["a", "b"])
                .output("Out", &["c", "d"]);
            f.set_attr("forward_callable_id", AttrValue::Int(2));
            f.set_attr("backward_callable_id", AttrValue::Int(backward));
            f.set_attr(
                "backward_skip_vars",
                AttrValue::Strings(vec!["a".into(), "d".into()]),
            );
            ops::fill_defaults(&mut f);
            let mut mean = Op::new("mean").input("X", &["c"]).output("Out", &["loss"]);
            ops::fill_defaults(&mut mean);
            block.ops = vec![f, mean];
            let mut program = Program {
                blocks: vec![block],
                ..Default::default()
            };
            append_backward(&mut program, "loss", &[], &[]).expect("backward");
            let grads: Vec<&Op> = program.blocks[0].ops[2..]
                .iter()
                .filter(|o| o.ty == "py_func")
                .collect();
            if backward < 0 {
                assert!(grads.is_empty());
                assert!(program.blocks[0].var("a@GRAD").is_none());
                continue;
            }
            let [g] = grads.as_slice() else {
                panic!("one grad py_func, got {}", grads.len());
            };
            assert_eq!(g.inputs_of("X"), ["b", "c", "c@GRAD", "d@GRAD"]);
            assert_eq!(g.outputs_of("Out"), ["a@GRAD", "@EMPTY@"]);
            assert_eq!(g.get_attr("forward_callable_id"), Some(&AttrValue::Int(3)));
            assert_eq!(
                g.get_attr("backward_callable_id"),
                Some(&AttrValue::Int(-1))
            );
            let ag = program.blocks[0].var("a@GRAD").expect("declared");
            assert_eq!(ag.tensor_desc().map(|t| t.dims.clone()), Some(vec![-1, 2]));
        }
    }

    #[test]
    fn a_loss_nothing_computes_is_an_error() {
        let mut block = Block::new(0, -1);
        block.vars = vec![var("loss", vec![], false)];
        let mut program = Program {
            blocks: vec![block],
            ..Default::default()
        };
        let e = append_backward(&mut program, "loss", &[], &[]).unwrap_err();
        assert!(e.contains("no op computes the loss"), "{e}");
    }
}
