//! lower_select: each high-level select node ([`crate::SELECT_NODE`])
//! becomes exactly what docs/programs.md and seed 000 show, in the node's block:
//!
//! 1. `fill_constant` shape [1], INT32, value -1 -> `case_to_execute`;
//! 2. `select` with inputs `X` (what the case bodies read from enclosing
//!    blocks, plus case_to_execute) and `case_to_execute`, output `Out`
//!    (what the bodies write in enclosing blocks, plus case_to_execute),
//!    attrs `sub_block` = a new cases block and `cases` = the case strings;
//!
//! and the cases block (parent: the node's block) holds, per case i:
//! `fill_constant` [1] INT32 value i, `equal`(that, case_to_execute), and a
//! scalar `conditional_block` on it running case i's body (re-parented to
//! the cases block) with a new STEP_SCOPES `Scope` output.
use super::{Context, PassError};
use crate::dataflow::{block_io, visible};
use crate::model::{AttrValue, Block, Op, Program, Var, VarKind};
use crate::names::Namer;
use crate::ops;
use crate::SELECT_NODE;

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    let mut namer = Namer::new(&program);
    let mut changed = false;
    // New blocks are appended, so walk by index while the list grows.
    let mut b = 0;
    while b < program.blocks.len() {
        let mut i = 0;
        while i < program.blocks[b].ops.len() {
            if program.blocks[b].ops[i].ty == SELECT_NODE && ctx.step() {
                let replacement = lower_one(&mut program, &mut namer, b, i)?;
                let n = replacement.len();
                program.blocks[b].ops.splice(i..=i, replacement);
                i += n;
                changed = true;
            } else {
                i += 1;
            }
        }
        b += 1;
    }
    Ok((program, changed))
}

fn err(message: String) -> PassError {
    PassError {
        pass: "lower_select",
        kind: super::PassErrorKind::Malformed,
        message,
    }
}

fn fill_int32(out: &str, value: i32) -> Op {
    Op::new("fill_constant")
        .output("Out", &[out])
        .attr("shape", AttrValue::Longs(vec![1]))
        .attr("dtype", AttrValue::Int(VarKind::Int32 as i32))
        .attr("value", AttrValue::Float(value as f32))
        .attr("str_value", AttrValue::String(value.to_string()))
        .attr("force_cpu", AttrValue::Bool(false))
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Lowers the node at `program.blocks[b].ops[i]`; returns the ops that replace it.
fn lower_one(
    program: &mut Program,
    namer: &mut Namer,
    b: usize,
    i: usize,
) -> Result<Vec<Op>, PassError> {
    let node = program.blocks[b].ops[i].clone();
    let Some(AttrValue::Strings(cases)) = node.get_attr("cases").cloned() else {
        return Err(err(format!(
            "block {b}, op {i}: the select node has no `cases` strings"
        )));
    };
    let bodies: Vec<usize> = match node.get_attr("case_blocks") {
        Some(AttrValue::Blocks(v)) => v.iter().map(|x| *x as usize).collect(),
        _ => {
            return Err(err(format!(
                "block {b}, op {i}: the select node has no `case_blocks`"
            )))
        }
    };
    if bodies.len() != cases.len() {
        return Err(err(format!(
            "block {b}, op {i}: {} cases but {} case blocks",
            cases.len(),
            bodies.len()
        )));
    }
    let case_to_execute = namer.fresh_tmp("fill_constant");
    program.blocks[b].vars.push(Var::dense(
        case_to_execute.as_str(),
        VarKind::Int32,
        vec![1],
    ));

    let cases_idx = program.blocks.len();
    let mut cases_block = Block::new(cases_idx as i32, b as i32);
    let (mut x, mut out): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    for (index, body) in bodies.iter().enumerate() {
        let body_block = program
            .blocks
            .get_mut(*body)
            .ok_or_else(|| err(format!("case block {body} does not exist")))?;
        body_block.parent_idx = cases_idx as i32;
        let (reads, writes) = block_io(&program.blocks[*body], &[]);
        let params = visible(program, b, &reads);
        let outs = visible(program, b, &writes);
        for r in &params {
            if !x.contains(r) {
                x.push(r.clone());
            }
        }
        for w in &outs {
            if !out.contains(w) {
                out.push(w.clone());
            }
        }
        let idx_var = namer.fresh_tmp("fill_constant");
        let eq_var = namer.fresh_tmp("equal");
        let scope = namer.fresh("_generated_var");
        cases_block
            .vars
            .push(Var::dense(idx_var.as_str(), VarKind::Int32, vec![1]));
        cases_block
            .vars
            .push(Var::dense(eq_var.as_str(), VarKind::Bool, vec![1]));
        cases_block
            .vars
            .push(Var::plain(scope.as_str(), VarKind::StepScopes));
        cases_block.ops.push(fill_int32(&idx_var, index as i32));
        cases_block.ops.push(
            Op::new("equal")
                .input("X", &[&idx_var])
                .input("Y", &[&case_to_execute])
                .output("Out", &[&eq_var])
                .attr("axis", AttrValue::Int(-1))
                .attr("force_cpu", AttrValue::Bool(false)),
        );
        cases_block.ops.push(
            Op::new("conditional_block")
                .input("Cond", &[&eq_var])
                .input("Input", &strs(&params))
                .output("Out", &strs(&outs))
                .output("Scope", &[&scope])
                .attr("sub_block", AttrValue::Block(*body as i32))
                .attr("is_scalar_condition", AttrValue::Bool(true)),
        );
    }
    // Completed as Paddle's Python appends ops (every slot and default).
    cases_block.ops.iter_mut().for_each(ops::fill_defaults);
    program.blocks.push(cases_block);
    x.push(case_to_execute.clone());
    out.push(case_to_execute.clone());

    let mut init = fill_int32(&case_to_execute, -1);
    let mut select = Op::new("select")
        .input("X", &strs(&x))
        .input("case_to_execute", &[&case_to_execute])
        .output("Out", &strs(&out))
        .attr("sub_block", AttrValue::Block(cases_idx as i32))
        .attr("cases", AttrValue::Strings(cases));
    if let Some(stack) = node.get_attr("op_callstack") {
        init.set_attr("op_callstack", stack.clone());
        select.set_attr("op_callstack", stack.clone());
    }
    ops::fill_defaults(&mut init);
    ops::fill_defaults(&mut select);
    Ok(vec![init, select])
}
