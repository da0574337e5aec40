//! Data-parallel trainer programs (`fluidc distribute`, docs/distributed.md):
//! the transform Paddle's `GradAllReduce` (one ring) applies to a training
//! program and its startup program, so that Paddle's collective engine, or
//! fluidc's `run --nranks`, trains it on N ranks, each on its shard of the
//! batch:
//!
//! - `scale(1/N)` after the loss-gradient op (`op_role` Backward|Loss), so
//!   the summed gradients are those of the mean over the whole batch;
//! - `all_reduce` (sum, ring 0) after each backward op whose `op_role_var`
//!   names a parameter's final gradient, in the order Paddle inserts them;
//! - `broadcast` from rank 0 of every parameter at the end of the startup
//!   program, so every rank starts from rank 0's initial values.
//!
//! Paddle's stream-sync ops (`c_sync_calc_stream`, `c_sync_comm_stream`)
//! are left out: they have no CPU kernel and order nothing on CPU.
//!
//! The transform finds its places through the roles the backward pass set,
//! and a program without them would train each rank alone, silently. So it
//! checks them first and refuses ([`DistributeError`]) a program that lacks
//! one, and what the collective engine cannot do: sparse gradients and
//! parameter-server ops.
use std::collections::HashSet;
use std::fmt;

use crate::backward::{check_attrs, role};
use crate::model::{AttrValue, Op, Program, VarKind};
use crate::verify::{Verified, VerifyError};

/// Why a pair of programs cannot be made into trainer programs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DistributeError {
    /// Fewer than two ranks (Paddle's transform refuses one, too).
    TooFewRanks(usize),
    /// No op carries `op_role` Backward|Loss: the program was not built by
    /// `minimize` / `append_backward`, so no gradient can be scaled.
    NoLossGradient,
    /// An optimizer op updates `param` from `grad`, and no backward op
    /// names `param` in its `op_role_var`: its gradient would not be
    /// all-reduced.
    GradientWithoutRole { param: String, grad: String },
    /// A trained parameter is not `is_parameter` in the named program
    /// (`main` or `startup`): it would not be broadcast.
    NotAParameter {
        param: String,
        program: &'static str,
    },
    /// A parameter's gradient is sparse (SelectedRows, `is_sparse=True`).
    SparseGradient { param: String, grad: String },
    /// The program already holds collective ops, or parameter-server ops.
    Unsupported { op: String },
    /// The result did not verify (a fluidc bug).
    Invalid(String),
}

impl fmt::Display for DistributeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DistributeError::TooFewRanks(n) => write!(
                f,
                "--nranks {n}: data-parallel training needs at least 2 ranks"
            ),
            DistributeError::NoLossGradient => write!(
                f,
                "the main program has no loss-gradient op (op_role 257, Backward|Loss): \
                 build it with optimizer.minimize(loss) or append_backward(loss)"
            ),
            DistributeError::GradientWithoutRole { param, grad } => write!(
                f,
                "parameter `{param}` is updated from `{grad}`, but no backward op names \
                 `{param}` in its op_role_var, so its gradient would not be all-reduced and \
                 each rank would train it alone"
            ),
            DistributeError::NotAParameter { param, program } => write!(
                f,
                "`{param}` is trained but not marked is_parameter in the {program} program, \
                 so it would not be broadcast from rank 0"
            ),
            DistributeError::SparseGradient { param, grad } => write!(
                f,
                "`{grad}`, the gradient of `{param}`, is sparse (SelectedRows, from \
                 is_sparse=True); Paddle's collective engine all-reduces dense gradients \
                 only: build the layer with is_sparse=False"
            ),
            DistributeError::Unsupported { op } if op == "all_reduce" || op == "broadcast" => {
                write!(
                    f,
                    "the program already holds `{op}` ops: it is a trainer program already"
                )
            }
            DistributeError::Unsupported { op } => write!(
                f,
                "the program holds `{op}`, a parameter-server op; Paddle 3.3.1's engine \
                 trains in collective mode only (no send/recv/listen_and_serv on CPU)"
            ),
            DistributeError::Invalid(e) => write!(f, "the trainer program is invalid: {e}"),
        }
    }
}

impl std::error::Error for DistributeError {}

/// Ops that mean the program is already distributed, or is a
/// parameter-server program.
const REFUSED_OPS: &[&str] = &[
    "all_reduce",
    "broadcast",
    "c_allreduce_sum",
    "c_broadcast",
    "send",
    "recv",
    "listen_and_serv",
    "send_barrier",
    "fetch_barrier",
    "distributed_lookup_table",
    "split_ids",
    "merge_ids",
];

/// The trainer programs for `nranks` ranks: (main, startup).
pub fn distribute(
    main: &Verified,
    startup: &Verified,
    nranks: usize,
) -> Result<(Verified, Verified), DistributeError> {
    if nranks < 2 {
        return Err(DistributeError::TooFewRanks(nranks));
    }
    check(main, Some(startup))?;
    let mut main = Program::clone(main);
    let mut startup = Program::clone(startup);
    scale_loss_gradients(&mut main, nranks);
    all_reduce_gradients(&mut main);
    broadcast_parameters(&mut startup);
    let verify = |p: Program| Verified::new(p).map_err(|e: VerifyError| e.to_string());
    Ok((
        verify(main).map_err(DistributeError::Invalid)?,
        verify(startup).map_err(DistributeError::Invalid)?,
    ))
}

fn int_attr(op: &Op, name: &str) -> Option<i32> {
    match op.get_attr(name) {
        Some(AttrValue::Int(v)) => Some(*v),
        _ => None,
    }
}

/// Paddle's `_is_backward_op`: `op_role` has the Backward bit.
fn is_backward(op: &Op) -> bool {
    int_attr(op, "op_role").is_some_and(|r| r & role::BACKWARD != 0)
}

/// Paddle's `_is_loss_grad_op`: `op_role` has Backward and Loss.
fn is_loss_grad(op: &Op) -> bool {
    int_attr(op, "op_role").is_some_and(|r| r & role::BACKWARD != 0 && r & role::LOSS != 0)
}

/// The `[param, grad, ...]` pairs of a backward op's `op_role_var`.
fn role_var_pairs(op: &Op) -> Vec<(&str, &str)> {
    match op.get_attr("op_role_var") {
        Some(AttrValue::Strings(v)) if is_backward(op) => v
            .chunks_exact(2)
            .map(|p| (p[0].as_str(), p[1].as_str()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Paddle's `_is_update_op`: an optimizer op (Param, Grad, LearningRate).
fn updates(op: &Op) -> Option<(&str, &str)> {
    let has = |slot: &str| op.inputs.iter().any(|s| s.parameter == slot);
    if !(has("Param") && has("Grad") && has("LearningRate")) {
        return None;
    }
    Some((
        op.inputs_of("Param").first()?.as_str(),
        op.inputs_of("Grad").first()?.as_str(),
    ))
}

/// The main program of 1.x's `ParallelExecutor` on `nranks` places: its
/// gradients scaled and all-reduced as [`distribute`] does (the places'
/// parameters start equal because the executor copies them, not through
/// a startup program). A program with no loss-gradient op (an inference
/// or test program) runs unchanged on each place.
pub fn data_parallel(main: &Program, nranks: usize) -> Result<Program, DistributeError> {
    if nranks < 2 {
        return Err(DistributeError::TooFewRanks(nranks));
    }
    let mut main = main.clone();
    if !main.blocks[0].ops.iter().any(is_loss_grad) {
        return Ok(main);
    }
    check(&main, None)?;
    scale_loss_gradients(&mut main, nranks);
    all_reduce_gradients(&mut main);
    Ok(main)
}

/// The properties the transform depends on (see the module docs): a
/// trained parameter must be `is_parameter` in `main` and, when given,
/// in `startup`.
fn check(main: &Program, startup: Option<&Program>) -> Result<(), DistributeError> {
    let programs: Vec<(&Program, &'static str)> = std::iter::once((main, "main"))
        .chain(startup.map(|s| (s, "startup")))
        .collect();
    for op in programs
        .iter()
        .flat_map(|(p, _)| &p.blocks)
        .flat_map(|b| &b.ops)
    {
        if REFUSED_OPS.contains(&op.ty.as_str()) {
            return Err(DistributeError::Unsupported { op: op.ty.clone() });
        }
    }
    let block = &main.blocks[0];
    if !block.ops.iter().any(is_loss_grad) {
        return Err(DistributeError::NoLossGradient);
    }
    let pairs: Vec<(&str, &str)> = block.ops.iter().flat_map(role_var_pairs).collect();
    let sparse = |grad: &str| block.var(grad).and_then(|v| v.kind()) == Some(VarKind::SelectedRows);
    // The update may read a gradient clipping or regularization made from
    // the one the pair names: what matters is that the parameter has a pair.
    let reduced: HashSet<&str> = pairs.iter().map(|(p, _)| *p).collect();
    for (param, grad) in block
        .ops
        .iter()
        .filter_map(updates)
        .chain(pairs.iter().copied())
    {
        let pair = || (param.to_string(), grad.to_string());
        if sparse(grad) {
            let (param, grad) = pair();
            return Err(DistributeError::SparseGradient { param, grad });
        }
        if !reduced.contains(param) {
            let (param, grad) = pair();
            return Err(DistributeError::GradientWithoutRole { param, grad });
        }
        for &(program, name) in &programs {
            let is_param = program.blocks[0]
                .var(param)
                .is_some_and(|v| v.is_parameter == Some(true));
            if !is_param {
                return Err(DistributeError::NotAParameter {
                    param: param.to_string(),
                    program: name,
                });
            }
        }
    }
    Ok(())
}

/// A collective op writing `var` over itself, with Paddle's defaults.
fn collective(ty: &str, var: &str, attrs: [(&str, i32); 3]) -> Op {
    let mut op = Op::new(ty).input("x", &[var]).output("out", &[var]);
    for (name, value) in attrs {
        op = op.attr(name, AttrValue::Int(value));
    }
    check_attrs(&mut op);
    op
}

/// `scale(1/N)` of the loss gradient after each loss-gradient op.
fn scale_loss_gradients(main: &mut Program, nranks: usize) {
    let ops = &mut main.blocks[0].ops;
    for idx in (0..ops.len()).rev() {
        if !is_loss_grad(&ops[idx]) {
            continue;
        }
        let Some(grad) = ops[idx].output_names().next().map(str::to_string) else {
            continue;
        };
        let mut scale = Op::new("scale")
            .input("X", &[&grad])
            .output("Out", &[&grad])
            .attr("scale", AttrValue::Float(1.0 / nranks as f32))
            .attr("op_role", AttrValue::Int(role::BACKWARD));
        check_attrs(&mut scale);
        ops.insert(idx + 1, scale);
    }
}

/// `all_reduce` of each gradient an `op_role_var` names, right after the
/// op that produces it. As in Paddle, the ops are visited last to first
/// and an op's pairs are inserted at the same place, so the last pair's
/// all_reduce comes first.
fn all_reduce_gradients(main: &mut Program) {
    let ops = &mut main.blocks[0].ops;
    for idx in (0..ops.len()).rev() {
        let grads: Vec<String> = role_var_pairs(&ops[idx])
            .into_iter()
            .map(|(_, g)| g.to_string())
            .collect();
        for grad in grads {
            let reduce = collective(
                "all_reduce",
                &grad,
                [
                    ("ring_id", 0),
                    ("reduce_type", 0),
                    ("op_role", role::BACKWARD),
                ],
            );
            ops.insert(idx + 1, reduce);
        }
    }
}

/// `broadcast` from rank 0 of every parameter, at the end of the startup
/// program, in name order (Paddle iterates the parameters of a parsed
/// program, whose C++ block keeps its variables sorted by name).
fn broadcast_parameters(startup: &mut Program) {
    let block = &mut startup.blocks[0];
    let mut params: Vec<String> = block
        .vars
        .iter()
        .filter(|v| v.is_parameter == Some(true))
        .map(|v| v.name.clone())
        .collect();
    params.sort();
    for param in params {
        let op = collective(
            "broadcast",
            &param,
            [("ring_id", 0), ("root", 0), ("op_role", role::FORWARD)],
        );
        block.ops.push(op);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Block;

    fn op(ty: &str, role: i32, role_var: &[&str]) -> Op {
        Op::new(ty).attr("op_role", AttrValue::Int(role)).attr(
            "op_role_var",
            AttrValue::Strings(role_var.iter().map(|s| s.to_string()).collect()),
        )
    }

    fn program(ops: Vec<Op>) -> Program {
        let mut block = Block::new(0, -1);
        block.ops = ops;
        Program {
            blocks: vec![block],
            ..Program::default()
        }
    }

    fn reduced(p: &Program) -> Vec<(usize, String)> {
        p.blocks[0]
            .ops
            .iter()
            .enumerate()
            .filter(|(_, o)| o.ty == "all_reduce")
            .map(|(i, o)| (i, o.inputs_of("x")[0].clone()))
            .collect()
    }

    /// As Paddle's `_insert_allreduce_ops`: after the op that names them,
    /// an op's pairs in reverse order; forward and optimizer ops with
    /// `op_role_var` are not backward ops and get none.
    #[test]
    fn all_reduces_follow_their_backward_op_last_pair_first() {
        let mut p = program(vec![
            op("mul", role::FORWARD, &["w", "w@GRAD"]),
            op("fill_constant", role::BACKWARD | role::LOSS, &[]),
            op("sum", role::BACKWARD, &["a", "a@GRAD", "b", "b@GRAD"]),
            op("mul_grad", role::BACKWARD, &["w", "w@GRAD"]),
            op("sgd", role::OPTIMIZE, &["w", "w@GRAD"]),
        ]);
        all_reduce_gradients(&mut p);
        assert_eq!(
            reduced(&p),
            [
                (3, "b@GRAD".to_string()),
                (4, "a@GRAD".to_string()),
                (6, "w@GRAD".to_string())
            ]
        );
    }

    #[test]
    fn the_loss_gradient_is_scaled_by_one_over_n_right_after_it() {
        let mut p = program(vec![
            op("mean", role::FORWARD | role::LOSS, &[]),
            op("fill_constant", role::BACKWARD | role::LOSS, &[]).output("Out", &["l@GRAD"]),
            op("mean_grad", role::BACKWARD, &[]),
        ]);
        scale_loss_gradients(&mut p, 4);
        let scale = &p.blocks[0].ops[2];
        assert_eq!(scale.ty, "scale");
        assert_eq!(scale.inputs_of("X"), ["l@GRAD"]);
        assert_eq!(scale.outputs_of("Out"), ["l@GRAD"]);
        assert_eq!(scale.get_attr("scale"), Some(&AttrValue::Float(0.25)));
        assert_eq!(
            scale.get_attr("op_role"),
            Some(&AttrValue::Int(role::BACKWARD))
        );
    }

    /// ParallelExecutor's program: a test program runs as it is on each
    /// place; a training program gets the scale and the all_reduce ops,
    /// and nothing is broadcast (the executor copies the parameters).
    #[test]
    fn data_parallel_changes_only_training_programs() {
        let forward = program(vec![op("mul", role::FORWARD, &[])]);
        assert_eq!(data_parallel(&forward, 2), Ok(forward.clone()));
        let train = program(vec![
            op("mean", role::FORWARD | role::LOSS, &[]),
            op("fill_constant", role::BACKWARD | role::LOSS, &[]).output("Out", &["l@GRAD"]),
            op("mul_grad", role::BACKWARD, &["w", "w@GRAD"]),
        ]);
        let mut train = train;
        let mut w = crate::model::Var::dense("w", VarKind::Fp32, vec![2, 2]);
        w.is_parameter = Some(true);
        train.blocks[0].vars.push(w);
        let parallel = data_parallel(&train, 2).expect("a training program");
        let types: Vec<&str> = parallel.blocks[0]
            .ops
            .iter()
            .map(|o| o.ty.as_str())
            .collect();
        assert_eq!(
            types,
            ["mean", "fill_constant", "scale", "mul_grad", "all_reduce"]
        );
        assert_eq!(
            data_parallel(&train, 1),
            Err(DistributeError::TooFewRanks(1))
        );
    }
}
