//! prune: keep what the fetch targets need plus every op with an effect;
//! drop the rest, dead stores, unused variables and unreferenced blocks.
//!
//! - Effects: ops whose definition ([`crate::ops`]) says they act on the
//!   world (channel ops, `go`, `select`, `print`, `feed`, `fetch`, and any
//!   op fluidc does not know), writes to persistable variables, and ops
//!   whose blocks keep anything.
//! - Liveness is by name over the whole program and runs to a fixpoint:
//!   an op is kept if it has an effect or writes a needed name; what a kept
//!   op reads is needed. This is conservative across loops and blocks.
//! - Dead stores: within one block, an op without effects whose every output
//!   is written again by a later op of the same block before anything reads
//!   it (seed 000's `x_tmp = fill_constant(...)` before `assign(x, x_tmp)`).
//!   Ops with effects and ops that run blocks are barriers: a goroutine or a
//!   body may read the variable in between. One backward sweep per block.
//! - Unused non-persistable variables are dropped; blocks no kept op runs
//!   are dropped and the rest renumbered, `sub_block`/`blocks_idx` with them.
use std::collections::{HashMap, HashSet};

use super::{Context, PassError};
use crate::dataflow::{op_reads, op_writes, persistable_names};
use crate::model::{Op, Program};
use crate::ops::{self, Effect};

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    // Each step only removes, so counting what it removes says whether the
    // program changed (no copy of the program to compare with).
    let mut changed = remove_dead_stores(&mut program, ctx);
    let kept = live_ops(&program, &ctx.options.fetch);
    for (bi, block) in program.blocks.iter_mut().enumerate() {
        let before = block.ops.len();
        let mut k = kept[bi].iter();
        block
            .ops
            .retain(|_| *k.next().unwrap_or(&true) || !ctx.step());
        changed |= block.ops.len() != before;
    }
    changed |= drop_unused_vars(&mut program);
    changed |= drop_unreferenced_blocks(&mut program);
    Ok((program, changed))
}

/// Which ops are live, as a worklist over names (linear in program size):
/// effects are live; a live op makes what it reads needed and the ops that
/// run its block live; a needed name makes every op writing it live.
fn live_ops(program: &Program, fetch: &[String]) -> Vec<Vec<bool>> {
    let persistable_owned = persistable_names(program);
    let persistable: HashSet<&str> = persistable_owned.iter().map(String::as_str).collect();
    let mut writers: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    let mut runners: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
    for (bi, block) in program.blocks.iter().enumerate() {
        for (oi, op) in block.ops.iter().enumerate() {
            for w in op_writes(op) {
                writers.entry(w).or_default().push((bi, oi));
            }
            for (_, sub) in op.sub_blocks() {
                if let Ok(sub) = usize::try_from(sub) {
                    runners.entry(sub).or_default().push((bi, oi));
                }
            }
        }
    }
    let mut kept: Vec<Vec<bool>> = program
        .blocks
        .iter()
        .map(|b| vec![false; b.ops.len()])
        .collect();
    let mut needed: HashSet<&str> = HashSet::new();
    let mut names: Vec<&str> = fetch.iter().map(String::as_str).collect();
    let mut ops: Vec<(usize, usize)> = Vec::new();
    for (bi, block) in program.blocks.iter().enumerate() {
        for (oi, op) in block.ops.iter().enumerate() {
            if has_effect(op, &persistable) {
                ops.push((bi, oi));
            }
        }
    }
    loop {
        if let Some((bi, oi)) = ops.pop() {
            if std::mem::replace(&mut kept[bi][oi], true) {
                continue;
            }
            names.extend(op_reads(&program.blocks[bi].ops[oi]));
            ops.extend(runners.get(&bi).into_iter().flatten().copied());
        } else if let Some(name) = names.pop() {
            if needed.insert(name) {
                ops.extend(writers.get(name).into_iter().flatten().copied());
            }
        } else {
            break;
        }
    }
    kept
}

/// Whether an op must be kept for its own sake: its definition says it acts
/// on the world (unknown ops do), or it writes a persistable variable.
fn has_effect(op: &Op, persistable: &HashSet<&str>) -> bool {
    ops::effect_of(&op.ty) == Effect::World
        || op_writes(op).iter().any(|n| persistable.contains(*n))
}

/// Ops a store cannot be seen past: effects, and ops that run blocks (a
/// goroutine or a body may read the variable in between).
fn is_barrier(op: &Op) -> bool {
    ops::effect_of(&op.ty) != Effect::Pure || op.sub_blocks().next().is_some()
}

/// Removes, in each block, the stores that a later op of the block
/// overwrites whole before anything reads them. One backward sweep per
/// block: `overwritten` holds the names that the ops after the current one
/// overwrite whole before reading (since the last barrier). Whether it
/// removed any.
fn remove_dead_stores(program: &mut Program, ctx: &mut Context) -> bool {
    let persistable = persistable_names(program);
    let persistable: HashSet<&str> = persistable.iter().map(String::as_str).collect();
    let mut dead_per_block = Vec::with_capacity(program.blocks.len());
    for block in &program.blocks {
        let mut dead = vec![false; block.ops.len()];
        let mut overwritten: HashMap<&str, bool> = HashMap::new();
        for (i, op) in block.ops.iter().enumerate().rev() {
            let outs = op_writes(op);
            let whole = ops::writes_whole(&op.ty);
            dead[i] = whole
                && !outs.is_empty()
                && !has_effect(op, &persistable)
                && op.sub_blocks().next().is_none()
                && outs
                    .iter()
                    .all(|o| overwritten.get(o).copied().unwrap_or(false));
            if is_barrier(op) {
                overwritten.clear();
                continue;
            }
            for w in outs {
                overwritten.insert(w, whole);
            }
            for r in op_reads(op) {
                overwritten.insert(r, false);
            }
        }
        dead_per_block.push(dead);
    }
    // Rewrites are counted in program order, so `--max-steps` bisects the
    // same way whatever the sweep's direction.
    let mut removed = false;
    for (block, mut dead) in program.blocks.iter_mut().zip(dead_per_block) {
        for d in dead.iter_mut().filter(|d| **d) {
            *d = ctx.step();
            removed |= *d;
        }
        let mut d = dead.iter();
        block.ops.retain(|_| !*d.next().unwrap_or(&false));
    }
    removed
}

/// Paddle 1.x's `Program.prune(targets)` (its C++ `framework::Prune`):
/// `program` cut down to the ops `targets` (block, op index) need. Walking
/// each block backward, an op is kept if it is a target or writes a name a
/// kept op reads; a kept op's blocks are cut the same way, from what the op
/// reads and writes. Blocks no kept op runs go (the rest renumbered), and
/// each block keeps only the variables its kept ops name. Unlike the pass,
/// this knows no effects: what the targets do not need goes.
pub fn to_targets(program: &Program, targets: &[(usize, usize)]) -> Program {
    fn cut(
        program: &Program,
        b: usize,
        targets: &HashSet<(usize, usize)>,
        mut needed: HashSet<String>,
        keep: &mut Vec<Vec<bool>>,
    ) {
        let Some(block) = program.blocks.get(b) else {
            return;
        };
        for (i, op) in block.ops.iter().enumerate().rev() {
            let wanted =
                targets.contains(&(b, i)) || op_writes(op).iter().any(|w| needed.contains(*w));
            if !wanted {
                continue;
            }
            keep[b][i] = true;
            needed.extend(op_reads(op).into_iter().map(String::from));
            for (_, sub) in op.sub_blocks() {
                if let Ok(sub) = usize::try_from(sub) {
                    if sub != b && sub < program.blocks.len() {
                        let names = op_reads(op).into_iter().chain(op_writes(op));
                        let from: HashSet<String> = names.map(String::from).collect();
                        cut(program, sub, targets, from, keep);
                    }
                }
            }
        }
    }
    let targets: HashSet<(usize, usize)> = targets.iter().copied().collect();
    let mut keep: Vec<Vec<bool>> = program
        .blocks
        .iter()
        .map(|b| vec![false; b.ops.len()])
        .collect();
    cut(program, 0, &targets, HashSet::new(), &mut keep);
    let mut out = program.clone();
    for (block, keep) in out.blocks.iter_mut().zip(&keep) {
        let mut k = keep.iter();
        block.ops.retain(|_| *k.next().unwrap_or(&false));
        let named: HashSet<&str> = block
            .ops
            .iter()
            .flat_map(|op| op.input_names().chain(op.output_names()))
            .collect();
        let names: HashSet<String> = named.into_iter().map(String::from).collect();
        block.vars.retain(|v| names.contains(&v.name));
    }
    drop_unreferenced_blocks(&mut out);
    out
}

/// Drops the variables no op names (persistable ones stay); whether it
/// dropped any.
fn drop_unused_vars(program: &mut Program) -> bool {
    let used: HashSet<&str> = program
        .blocks
        .iter()
        .flat_map(|b| b.ops.iter())
        .flat_map(|op| op_reads(op).into_iter().chain(op_writes(op)))
        .collect();
    let keep: Vec<Vec<bool>> = program
        .blocks
        .iter()
        .map(|b| {
            b.vars
                .iter()
                .map(|v| v.is_persistable() || used.contains(v.name.as_str()))
                .collect()
        })
        .collect();
    let mut dropped = false;
    for (block, keep) in program.blocks.iter_mut().zip(keep) {
        dropped |= keep.contains(&false);
        let mut k = keep.into_iter();
        block.vars.retain(|_| k.next().unwrap_or(true));
    }
    dropped
}

/// Drops the blocks no op of block 0's tree runs, renumbering the rest;
/// whether it dropped any.
fn drop_unreferenced_blocks(program: &mut Program) -> bool {
    let n = program.blocks.len();
    let mut reachable = vec![false; n];
    let mut stack = vec![0usize];
    while let Some(b) = stack.pop() {
        if b >= n || std::mem::replace(&mut reachable[b], true) {
            continue;
        }
        for op in &program.blocks[b].ops {
            stack.extend(op.sub_blocks().filter_map(|(_, s)| usize::try_from(s).ok()));
        }
    }
    if reachable.iter().all(|r| *r) {
        return false;
    }
    let mut new_index = vec![-1i32; n];
    let mut next = 0;
    for (b, r) in reachable.iter().enumerate() {
        if *r {
            new_index[b] = next;
            next += 1;
        }
    }
    let renumber = |i: i32| {
        usize::try_from(i)
            .ok()
            .and_then(|i| new_index.get(i).copied())
            .unwrap_or(-1)
    };
    let blocks = std::mem::take(&mut program.blocks);
    for (b, mut block) in blocks.into_iter().enumerate() {
        if !reachable[b] {
            continue;
        }
        block.idx = new_index[b];
        if b != 0 {
            block.parent_idx = renumber(block.parent_idx);
        }
        block.forward_block_idx = block.forward_block_idx.map(renumber);
        for op in &mut block.ops {
            for a in &mut op.attrs {
                for r in a.value.block_refs_mut() {
                    *r = renumber(*r);
                }
            }
        }
        program.blocks.push(block);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AttrValue, Block, Var, VarKind};
    use crate::passes::Options;

    fn ctx(options: &Options) -> Context<'_> {
        Context {
            options,
            steps_left: None,
        }
    }

    #[test]
    fn a_partial_writer_is_never_a_dead_store() {
        let mut b = Block::new(0, -1);
        for v in ["i0", "i1", "a", "b", "n"] {
            b.vars.push(Var::dense(v, VarKind::Int64, vec![1]));
        }
        b.vars.push(Var::plain("arr", VarKind::DenseTensorArray));
        b.ops.push(
            Op::new("write_to_array")
                .input("X", &["a"])
                .input("I", &["i0"])
                .output("Out", &["arr"]),
        );
        b.ops.push(
            Op::new("write_to_array")
                .input("X", &["b"])
                .input("I", &["i1"])
                .output("Out", &["arr"]),
        );
        b.ops.push(
            Op::new("lod_array_length")
                .input("X", &["arr"])
                .output("Out", &["n"]),
        );
        let p = Program {
            blocks: vec![b],
            ..Default::default()
        };
        let options = Options {
            fetch: vec!["n".into()],
            ..Options::default()
        };
        let (out, _) = run(p, &mut ctx(&options)).expect("prune runs");
        assert_eq!(
            out.blocks[0]
                .ops
                .iter()
                .filter(|o| o.ty == "write_to_array")
                .count(),
            2
        );
    }

    #[test]
    fn a_whole_overwrite_kills_the_earlier_store() {
        let mut b = Block::new(0, -1);
        b.vars.push(Var::dense("x", VarKind::Int64, vec![1]));
        let fill = |v: f32| {
            Op::new("fill_constant")
                .output("Out", &["x"])
                .attr("value", AttrValue::Float(v))
        };
        b.ops.push(fill(1.0));
        b.ops.push(fill(2.0));
        let p = Program {
            blocks: vec![b],
            ..Default::default()
        };
        let options = Options {
            fetch: vec!["x".into()],
            ..Options::default()
        };
        let (out, changed) = run(p, &mut ctx(&options)).expect("prune runs");
        assert!(changed);
        assert_eq!(out.blocks[0].ops.len(), 1);
        assert_eq!(
            out.blocks[0].ops[0].get_attr("value"),
            Some(&AttrValue::Float(2.0))
        );
    }
}
