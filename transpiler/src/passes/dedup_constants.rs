//! dedup_constants: identical `fill_constant`s in one block are shared. The
//! later one is dropped and its readers read the first one instead. Both
//! outputs must be written only by these ops, not persistable and not fetch
//! targets (a fetch is reported by its variable's name).
use std::collections::{HashMap, HashSet};

use super::{Context, PassError};
use crate::dataflow::{op_writes, write_counts};
use crate::model::{AttrValue, Op, Program};

/// What makes two constants identical: every attribute except the callstack.
fn key(op: &Op) -> Option<String> {
    if op.ty != "fill_constant" || op.input_names().next().is_some() {
        return None;
    }
    let mut attrs: Vec<String> = op
        .attrs
        .iter()
        .filter(|a| a.name != "op_callstack")
        .map(|a| format!("{}={:?}", a.name, a.value))
        .collect();
    attrs.sort();
    Some(attrs.join(";"))
}

/// Renames `op`'s reads (inputs, and a select's `cases` channels and
/// values) by `renames`, one lookup per read: a program with many shared
/// constants renames in time linear in its size.
fn rename_reads(op: &mut Op, renames: &HashMap<&str, &str>) {
    for slot in &mut op.inputs {
        for a in &mut slot.arguments {
            if let Some(to) = renames.get(a.as_str()) {
                *a = to.to_string();
            }
        }
    }
    if let Some(AttrValue::Strings(cases)) = op.get_attr("cases") {
        let renamed: Vec<String> = cases
            .iter()
            .map(|c| {
                c.splitn(4, ',')
                    .enumerate()
                    .map(|(i, p)| match renames.get(p) {
                        Some(to) if i >= 2 => to,
                        _ => p,
                    })
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        op.set_attr("cases", AttrValue::Strings(renamed));
    }
}

pub fn run(mut program: Program, ctx: &mut Context) -> Result<(Program, bool), PassError> {
    let writes = write_counts(&program);
    let mut protected: HashSet<String> = ctx.options.fetch.iter().cloned().collect();
    for block in &program.blocks {
        protected.extend(
            block
                .vars
                .iter()
                .filter(|v| v.is_persistable())
                .map(|v| v.name.clone()),
        );
        for op in block.ops.iter().filter(|o| o.ty == "fetch") {
            protected.extend(op.input_names().map(str::to_string));
        }
    }
    let mut renames: Vec<(String, String)> = Vec::new();
    for block in &mut program.blocks {
        let mut first: HashMap<String, String> = HashMap::new();
        let mut drop = vec![false; block.ops.len()];
        for (i, op) in block.ops.iter().enumerate() {
            let Some(k) = key(op) else { continue };
            let outs = op_writes(op);
            let [out] = outs.as_slice() else { continue };
            if writes.get(*out) != Some(&1) || protected.contains(*out) {
                continue;
            }
            match first.get(&k) {
                Some(kept) if ctx.step() => {
                    renames.push((out.to_string(), kept.clone()));
                    drop[i] = true;
                }
                Some(_) => {}
                None => {
                    first.insert(k, out.to_string());
                }
            }
        }
        let mut d = drop.iter();
        block.ops.retain(|_| !*d.next().unwrap_or(&false));
    }
    let changed = !renames.is_empty();
    let renames: HashMap<&str, &str> = renames
        .iter()
        .map(|(from, to)| (from.as_str(), to.as_str()))
        .collect();
    for block in &mut program.blocks {
        block
            .vars
            .retain(|v| !renames.contains_key(v.name.as_str()));
        for op in &mut block.ops {
            rename_reads(op, &renames);
        }
    }
    Ok((program, changed))
}
