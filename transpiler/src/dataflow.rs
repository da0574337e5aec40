//! What blocks and ops read and write, as Paddle's Python computes it when it
//! closes a block: walk the block's direct ops in order; a name read before
//! any op of the block wrote it is an input of the block, a name written is
//! an output. An op that runs a sub-block lists that block's inputs and
//! outputs in its own slots, so nesting is covered. (Paddle iterates Python
//! sets, so its order varies; fluidc keeps first-seen order, which is stable.)
use std::collections::{HashMap, HashSet};

use crate::model::{AttrValue, Block, Op, Program};
use crate::SELECT_NODE;

/// Reads-before-writes and writes of a block's direct ops, in first-seen
/// order; `written` seeds names that count as already written. Each op's
/// slots are taken in name order, as Paddle's `op.input_names` lists them
/// (an `OpDesc` keeps its slots in a sorted map).
pub fn block_io(block: &Block, written: &[&str]) -> (Vec<String>, Vec<String>) {
    let mut produced: Vec<String> = written.iter().map(|s| s.to_string()).collect();
    let mut reads = Vec::new();
    for op in &block.ops {
        let mut sorted = op.clone();
        sorted.inputs.sort_by(|a, b| a.parameter.cmp(&b.parameter));
        sorted.outputs.sort_by(|a, b| a.parameter.cmp(&b.parameter));
        let op = &sorted;
        for name in op_reads(op) {
            if !produced.iter().any(|p| p == name) && !reads.iter().any(|r| r == name) {
                reads.push(name.to_string());
            }
        }
        for name in op_writes(op) {
            if !produced.iter().any(|p| p == name) {
                produced.push(name.to_string());
            }
        }
    }
    (reads, produced)
}

/// Of `names`, those declared in `block` or its ancestors, in order.
pub fn visible(program: &Program, block: usize, names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|n| program.find_var(block, n).is_some())
        .cloned()
        .collect()
}

/// The case strings of a select op or node: (index, kind, channel, value).
pub fn select_cases(op: &Op) -> Vec<(usize, i32, &str, &str)> {
    let Some(AttrValue::Strings(cases)) = op.get_attr("cases") else {
        return Vec::new();
    };
    cases
        .iter()
        .filter_map(|c| {
            let mut parts = c.splitn(4, ',');
            let index = parts.next()?.parse().ok()?;
            let kind = parts.next()?.parse().ok()?;
            Some((
                index,
                kind,
                parts.next().unwrap_or(""),
                parts.next().unwrap_or(""),
            ))
        })
        .collect()
}

fn is_select(op: &Op) -> bool {
    op.ty == "select" || op.ty == SELECT_NODE
}

/// Every name an op reads: its inputs; for a select, the channels and
/// sent values its `cases` name; for 1.x's `recurrent`, the `states` its
/// step block writes (the op reads them after each step, to start the next).
pub fn op_reads(op: &Op) -> Vec<&str> {
    let mut names: Vec<&str> = op.input_names().filter(|n| !n.is_empty()).collect();
    if op.ty == "recurrent" {
        if let Some(AttrValue::Strings(states)) = op.get_attr("states") {
            names.extend(states.iter().map(String::as_str));
        }
    }
    if is_select(op) {
        for (_, kind, channel, value) in select_cases(op) {
            names.extend([channel].into_iter().filter(|c| !c.is_empty()));
            if kind == 1 && !value.is_empty() {
                names.push(value);
            }
        }
    }
    names
}

/// Every name an op writes: its outputs and, for a select, the values its
/// receive cases write.
pub fn op_writes(op: &Op) -> Vec<&str> {
    let mut names: Vec<&str> = op.output_names().filter(|n| !n.is_empty()).collect();
    if is_select(op) {
        names.extend(
            select_cases(op)
                .into_iter()
                .filter(|c| c.1 == 2 && !c.3.is_empty())
                .map(|c| c.3),
        );
    }
    names
}

/// The names of every persistable variable of the program (any block).
pub fn persistable_names(program: &Program) -> HashSet<String> {
    program
        .blocks
        .iter()
        .flat_map(|b| {
            b.vars
                .iter()
                .filter(|v| v.is_persistable())
                .map(|v| v.name.clone())
        })
        .collect()
}

/// How many ops write each name, over the whole program.
pub fn write_counts(program: &Program) -> HashMap<String, usize> {
    let mut writes = HashMap::new();
    for op in program.blocks.iter().flat_map(|b| &b.ops) {
        for w in op_writes(op) {
            *writes.entry(w.to_string()).or_default() += 1;
        }
    }
    writes
}
