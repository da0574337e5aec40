//! Optimizer updates fused into the op that computes their gradient
//! (issue 40): a `mul_grad`, `matmul_grad` or `matmul_v2_grad` whose
//! `Y@GRAD` (a weight's gradient) only an
//! `sgd`, `momentum` or `adam` op reads runs as one kernel that computes
//! the gradient a block of rows at a time and updates the parameter (and
//! the optimizer's state) by each block right away
//! (`ops::matmul::mul_grad_fused`, `matmul_grad_fused`), so the gradient
//! is never written out.
//!
//! This happens when a program is loaded, never as a rewrite: the program
//! (what `fluidc compile` writes and what Paddle sees) stays the same. The
//! optimizer op stays in its place as an op that does nothing, so op counts
//! (`--max-steps`, `--profile` calls) are those of the program; its time is
//! counted in the `mul_grad`'s.
//!
//! Moving the update from the optimizer op to the producer must change
//! nothing but speed, so a pair is fused only when, conservatively:
//! - both ops are in block 0 and no op of the program starts a goroutine
//!   (nothing runs beside the block's ops);
//! - the gradient `G` is the producer's `Y@GRAD` and the optimizer's
//!   `Grad`; no other op of any block reads or writes a variable of that
//!   name (no clipping, regularization, `all_reduce`, `fetch`, `sum`);
//!   every declaration of it is a dense, non-persistable tensor;
//! - no op between the two mentions `G` or a variable the optimizer op
//!   writes (its parameter, moments, velocity, beta powers), or writes a
//!   variable it reads (the learning rate, `Beta1Tensor`, ...), and none
//!   runs a sub-block;
//! - the producer writes no variable of the optimizer op but `G`, and
//!   reads none it writes but its `Y` as the parameter (`X@GRAD` is
//!   computed from Y before the update, as the unfused order does).
//!
//! A run that asks for `G` as an extra fetch ([`crate::load::Runnable::for_fetch`])
//! runs the program unfused. `SessionOptions::no_fuse` (the CLI reads
//! `FLUIDC_NO_FUSE=1`) turns fusion off, to measure it and to check it:
//! the fused step gives the unfused step's bits (the update is the same
//! code, `ops::optim::Rule::apply`; `tests` below and
//! `runtime/tests/fused_updates.rs` check it).
use foldhash::{HashMap, HashMapExt, HashSet};

use fluidc_transpiler::{Program, VarKind};

use crate::exec::Exec;
use crate::kernel::{is_placeholder, OpReader};
use crate::layout::Layout;
use crate::ops::optim::Dense;

/// The optimizer ops whose update can be fused.
const UPDATES: [&str; 3] = ["sgd", "momentum", "adam"];

/// The ops computing a gradient (their `Y@GRAD`) that an update fuses into.
const PRODUCERS: [&str; 3] = ["mul_grad", "matmul_grad", "matmul_v2_grad"];

/// A pair of block 0's ops to fuse.
#[derive(Debug, PartialEq)]
pub(crate) struct Pair {
    pub(crate) producer: usize,
    pub(crate) update: usize,
    pub(crate) grad: String,
}

/// The pairs of `p` that can be fused (see the module docs).
pub(crate) fn pairs<'a>(p: &'a Program) -> Vec<Pair> {
    let all_ops = || p.blocks.iter().flat_map(|b| &b.ops);
    let Some(block) = p.blocks.first() else {
        return Vec::new();
    };
    // Most programs have no update to fuse: no need to count every name.
    if !block.ops.iter().any(|op| UPDATES.contains(&op.ty.as_str()))
        || all_ops().any(|op| op.ty == "go")
    {
        return Vec::new();
    }
    let mut reads: HashMap<&str, usize> = HashMap::new();
    let mut writes: HashMap<&str, usize> = HashMap::new();
    for op in all_ops() {
        for n in op.input_names() {
            *reads.entry(n).or_default() += 1;
        }
        for n in op.output_names() {
            *writes.entry(n).or_default() += 1;
        }
    }
    let mut found = Vec::new();
    for (o, op) in block.ops.iter().enumerate() {
        if !UPDATES.contains(&op.ty.as_str()) {
            continue;
        }
        let [g] = op.inputs_of("Grad") else {
            continue;
        };
        let g = g.as_str();
        if is_placeholder(g) || reads.get(g) != Some(&1) || writes.get(g) != Some(&1) {
            continue;
        }
        let plain = |v: &fluidc_transpiler::Var| {
            !v.is_persistable() && v.kind() == Some(VarKind::DenseTensor)
        };
        if !p
            .blocks
            .iter()
            .flat_map(|b| &b.vars)
            .filter(|v| v.name == g)
            .all(plain)
        {
            continue;
        }
        let Some(w) = block.ops[..o]
            .iter()
            .rposition(|q| q.output_names().any(|n| n == g))
        else {
            continue;
        };
        let producer = &block.ops[w];
        if !PRODUCERS.contains(&producer.ty.as_str()) || producer.outputs_of("Y@GRAD") != [g] {
            continue;
        }
        // What the optimizer writes (its state), and what it only reads
        // (the learning rate, `Beta1Tensor`, ...).
        let names = |it: &mut dyn Iterator<Item = &'a str>| -> HashSet<&'a str> {
            it.filter(|n| *n != g && !is_placeholder(n)).collect()
        };
        let writes_o = names(&mut op.output_names());
        let reads_o: HashSet<&str> = names(&mut op.input_names())
            .difference(&writes_o)
            .copied()
            .collect();
        let param = op.inputs_of("Param");
        let y_is_param = |n: &str| producer.inputs_of("Y") == [n] && param == [n];
        let shares = producer
            .output_names()
            .any(|n| n != g && (writes_o.contains(n) || reads_o.contains(n)))
            || producer
                .input_names()
                .any(|n| writes_o.contains(n) && !y_is_param(n));
        let between = block.ops[w + 1..o].iter().any(|q| {
            q.sub_blocks().next().is_some()
                || q.input_names().any(|n| n == g || writes_o.contains(n))
                || q.output_names()
                    .any(|n| n == g || writes_o.contains(n) || reads_o.contains(n))
        });
        if shares || between {
            continue;
        }
        found.push(Pair {
            producer: w,
            update: o,
            grad: g.to_string(),
        });
    }
    found
}

/// The fused kernels of the pairs of `p`: each pair whose fused kernel
/// could be built, with that kernel. The loader (`crate::load`) puts it in
/// place of the producer's and makes the optimizer op do nothing; a pair
/// left out stays as it was.
pub(crate) fn kernels(p: &Program, layout: &Layout) -> Vec<(Pair, Exec)> {
    let lod = crate::ops::lod::uses_lod(p);
    let mut fused = Vec::new();
    for pair in pairs(p) {
        let ops = &p.blocks[0].ops;
        let (pl, ol) = (
            OpReader::new(p, &ops[pair.producer], 0, layout),
            OpReader::new(p, &ops[pair.update], 0, layout),
        );
        let built = Dense::load(&ol)
            .and_then(|dense| match pl.op.ty.as_str() {
                "mul_grad" => crate::ops::matmul::mul_grad_fused(&pl, dense),
                _ => crate::ops::matmul::matmul_grad_fused(&pl, dense),
            })
            .and_then(|exec| match lod {
                // The LoD each op's own kernel would have shared, in order.
                true => crate::ops::lod::share_lod(&pl, exec)
                    .and_then(|exec| crate::ops::lod::share_lod(&ol, exec)),
                false => Ok(exec),
            });
        if let Ok(exec) = built {
            fused.push((pair, exec));
        }
    }
    fused
}
