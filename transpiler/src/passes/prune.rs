//! prune: keep what the fetch targets need plus every op with an effect;
//! drop the rest, dead stores, unused variables and unreferenced blocks.
//!
//! - Effects: channel ops, `go`, `select`, `print`, `feed`, `fetch`, writes to
//!   persistable variables, and ops whose blocks keep anything.
//! - Liveness is by name over the whole program and runs to a fixpoint:
//!   an op is kept if it has an effect or writes a needed name; what a kept
//!   op reads is needed. This is conservative across loops and blocks.
//! - Dead stores: within one block, an op without effects whose every output
//!   is written again by a later op of the same block before anything reads
//!   it (seed 000's `x_tmp = fill_constant(...)` before `assign(x, x_tmp)`).
//!   Ops with effects and ops that run blocks are barriers: a goroutine or a
//!   body may read the variable in between.
//! - Unused non-persistable variables are dropped; blocks no kept op runs
//!   are dropped and the rest renumbered, `sub_block`/`blocks_idx` with them.
use std::collections::HashSet;

use super::{Context, PassError};
use crate::dataflow::{op_reads, op_writes};
use crate::model::{Op, Program};
use crate::SELECT_NODE;

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    let before = program.clone();
    remove_dead_stores(&mut program, ctx);
    let persistable: HashSet<String> = program
        .blocks
        .iter()
        .flat_map(|b| {
            b.vars
                .iter()
                .filter(|v| v.is_persistable())
                .map(|v| v.name.clone())
        })
        .collect();
    let mut needed: HashSet<String> = ctx.options.fetch.iter().cloned().collect();
    let mut kept: Vec<Vec<bool>> = program
        .blocks
        .iter()
        .map(|b| vec![false; b.ops.len()])
        .collect();
    loop {
        let mut grew = false;
        for (bi, block) in program.blocks.iter().enumerate() {
            for (oi, op) in block.ops.iter().enumerate() {
                if kept[bi][oi] {
                    continue;
                }
                let keep = has_effect(op, &persistable)
                    || op_writes(op).iter().any(|n| needed.contains(*n))
                    || op.sub_blocks().any(|(_, s)| {
                        usize::try_from(s)
                            .is_ok_and(|s| kept.get(s).is_some_and(|k| k.iter().any(|x| *x)))
                    });
                if keep {
                    kept[bi][oi] = true;
                    needed.extend(op_reads(op).into_iter().map(str::to_string));
                    grew = true;
                }
            }
        }
        if !grew {
            break;
        }
    }
    let mut changed = false;
    for (bi, block) in program.blocks.iter_mut().enumerate() {
        let mut k = kept[bi].iter();
        let n = block.ops.len();
        block
            .ops
            .retain(|_| *k.next().unwrap_or(&true) || !ctx.step());
        changed |= block.ops.len() != n;
    }
    drop_unused_vars(&mut program);
    drop_unreferenced_blocks(&mut program);
    Ok((program.clone(), changed || program != before))
}

fn has_effect(op: &Op, persistable: &HashSet<String>) -> bool {
    matches!(
        op.ty.as_str(),
        "channel_create"
            | "channel_send"
            | "channel_recv"
            | "channel_close"
            | "go"
            | "select"
            | "print"
            | "feed"
            | "fetch"
    ) || op.ty == SELECT_NODE
        || op_writes(op).iter().any(|n| persistable.contains(*n))
}

fn is_barrier(op: &Op) -> bool {
    has_effect(op, &HashSet::new()) || op.sub_blocks().next().is_some()
}

fn remove_dead_stores(program: &mut Program, ctx: &mut Context) {
    let persistable: HashSet<String> = program
        .blocks
        .iter()
        .flat_map(|b| {
            b.vars
                .iter()
                .filter(|v| v.is_persistable())
                .map(|v| v.name.clone())
        })
        .collect();
    for block in &mut program.blocks {
        let ops = &block.ops;
        let mut dead = vec![false; ops.len()];
        for (i, op) in ops.iter().enumerate() {
            let outs = op_writes(op);
            if outs.is_empty() || has_effect(op, &persistable) || op.sub_blocks().next().is_some() {
                continue;
            }
            dead[i] = outs
                .iter()
                .all(|out| overwritten_before_read(&ops[i + 1..], out))
                && ctx.step();
        }
        let mut d = dead.iter();
        block.ops.retain(|_| !*d.next().unwrap_or(&false));
    }
}

/// Whether `name` is written by one of `later` before any of them reads it.
fn overwritten_before_read(later: &[Op], name: &str) -> bool {
    for op in later {
        if is_barrier(op) || op_reads(op).contains(&name) {
            return false;
        }
        if op_writes(op).contains(&name) {
            return true;
        }
    }
    false
}

fn drop_unused_vars(program: &mut Program) {
    let used: HashSet<String> = program
        .blocks
        .iter()
        .flat_map(|b| b.ops.iter())
        .flat_map(|op| {
            op_reads(op)
                .into_iter()
                .chain(op_writes(op))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    for block in &mut program.blocks {
        block
            .vars
            .retain(|v| v.is_persistable() || used.contains(&v.name));
    }
}

fn drop_unreferenced_blocks(program: &mut Program) {
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
        return;
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
}
