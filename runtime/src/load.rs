//! Loading: a verified program resolved once into a [`Runnable`].
//!
//! The runnable is what the executor runs and never changes: every op is
//! bound to its kernel (its attributes parsed, its variables resolved to
//! [`VarRef`]s), every block knows how many slots its scope needs. It is
//! shared by all workers. Ops the runtime does not implement are reported
//! here, all at once, before anything runs.
use std::collections::HashMap;
use std::sync::Arc;

use fluidc_transpiler::{AttrValue, Op, Program, VarKind, Verified};
use parking_lot::Mutex;

use crate::error::{OpInfo, RuntimeError};
use crate::ops::{Exec, Registry};
use crate::scope::{Place, VarRef};
use crate::tensor::tensor_dtype;

/// A program ready to run. See the module docs.
pub(crate) struct Runnable {
    pub(crate) blocks: Vec<LoadedBlock>,
    layout: Layout,
    /// Block 0's `feed` ops: (column, the variable it writes, the holder).
    pub(crate) feeds: Vec<(usize, String, VarRef)>,
    /// Block 0's `fetch` ops: (column, the variable it reads, the holder).
    pub(crate) fetches: Vec<(usize, String, VarRef)>,
    /// Whether any op starts a goroutine; without, one worker is enough.
    pub(crate) starts_goroutines: bool,
    /// The persistable variables (any block's; they live in block 0's
    /// scope), which a session keeps between runs.
    pub(crate) persistables: Vec<(String, VarRef)>,
}

pub(crate) struct LoadedBlock {
    pub(crate) ops: Vec<LoadedOp>,
    /// How many local variables a run of this block holds.
    pub(crate) locals: usize,
    /// Whether a run of this block makes a scope, and how many shared
    /// variables it holds (see `crate::scope`).
    pub(crate) has_scope: bool,
    pub(crate) shared: usize,
}

pub(crate) struct LoadedOp {
    pub(crate) exec: Exec,
    pub(crate) info: OpInfo,
}

impl std::fmt::Debug for Runnable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Runnable({} blocks)", self.blocks.len())
    }
}

/// Which variables each block owns, where each lives (see `crate::scope`),
/// and where names resolve.
#[derive(Debug)]
struct Layout {
    parent: Vec<Option<usize>>,
    depth: Vec<u32>,
    /// Per block, the variables it owns: name -> number.
    slots: Vec<HashMap<String, u32>>,
    /// Blocks that run as goroutines (the `sub_block` of a `go` op).
    go_body: Vec<bool>,
    /// Per block and owned variable: whether it is shared (else local).
    shared: Vec<Vec<bool>>,
    /// Per block and owned variable: its slot among the block's locals or
    /// among its shared variables.
    index: Vec<Vec<u32>>,
    /// Per block: whether a run of it makes a scope (it owns a shared
    /// variable, or it is block 0).
    has_scope: Vec<bool>,
    /// Every resolution so far: (the block it was seen from, the owner, the
    /// variable's number); [`Layout::sort`] reads them.
    uses: Mutex<Vec<(usize, usize, u32)>>,
}

impl Layout {
    fn new(p: &Program) -> Layout {
        let parent: Vec<Option<usize>> = p
            .blocks
            .iter()
            .map(|b| usize::try_from(b.parent_idx).ok())
            .collect();
        let depth = (0..p.blocks.len())
            .map(|b| p.scope_chain(b).len() as u32 - 1)
            .collect();
        let mut go_body = vec![false; p.blocks.len()];
        for op in p.blocks.iter().flat_map(|b| &b.ops) {
            if let (true, Some(AttrValue::Block(body))) = (op.ty == "go", op.get_attr("sub_block"))
            {
                if let Some(g) = usize::try_from(*body).ok().and_then(|b| go_body.get_mut(b)) {
                    *g = true;
                }
            }
        }
        let mut layout = Layout {
            parent,
            depth,
            slots: vec![HashMap::new(); p.blocks.len()],
            go_body,
            shared: vec![Vec::new(); p.blocks.len()],
            index: vec![Vec::new(); p.blocks.len()],
            has_scope: vec![false; p.blocks.len()],
            uses: Mutex::new(Vec::new()),
        };
        for (b, block) in p.blocks.iter().enumerate() {
            for var in &block.vars {
                // Persistable variables live in the root scope (block 0's).
                let owner = if var.is_persistable() { 0 } else { b };
                layout.declare(owner, &var.name);
            }
        }
        layout
    }

    fn declare(&mut self, block: usize, name: &str) {
        let slots = &mut self.slots[block];
        let next = slots.len() as u32;
        if !slots.contains_key(name) {
            slots.insert(name.to_string(), next);
            // Until sorted, every variable counts as local, numbered in order.
            self.shared[block].push(false);
            self.index[block].push(next);
        }
    }

    /// The block that owns `name` as seen from `block`, and its number there.
    fn find(&self, block: usize, name: &str) -> Option<(usize, u32)> {
        let mut b = Some(block);
        while let Some(cur) = b {
            if let Some(&slot) = self.slots[cur].get(name) {
                return Some((cur, slot));
            }
            b = self.parent[cur];
        }
        None
    }

    fn resolve(&self, block: usize, name: &str) -> Option<VarRef> {
        let (owner, var) = self.find(block, name)?;
        self.uses.lock().push((block, owner, var));
        let slot = self.index[owner][var as usize];
        let place = if self.shared[owner][var as usize] {
            // Only blocks with a scope count as a step up the scope chain.
            let mut up = 0;
            let mut b = block;
            while b != owner {
                up += u32::from(self.has_scope[b]);
                b = self.parent[b].expect("the owner encloses the block");
            }
            Place::Shared { up, slot }
        } else {
            Place::Local {
                up: self.depth[block] - self.depth[owner],
                slot,
            }
        };
        Some(VarRef {
            place,
            name: Arc::from(name),
        })
    }

    /// Sorts variables into local and shared from the resolutions recorded
    /// so far: a variable used from a block inside a `go` body that lies
    /// below its owner is shared. Resolutions made earlier are stale.
    fn sort(&mut self) {
        for (mut b, owner, var) in std::mem::take(&mut *self.uses.lock()) {
            while b != owner {
                if self.go_body[b] {
                    self.shared[owner][var as usize] = true;
                    break;
                }
                b = self.parent[b].expect("the owner encloses the block");
            }
        }
        for b in 0..self.slots.len() {
            let (mut locals, mut shared) = (0, 0);
            for (is_shared, index) in self.shared[b].iter().zip(&mut self.index[b]) {
                let counter = if *is_shared { &mut shared } else { &mut locals };
                *index = *counter;
                *counter += 1;
            }
            self.has_scope[b] = b == 0 || shared > 0;
        }
    }

    /// How many (locals, shared variables) a run of `block` holds.
    fn counts(&self, block: usize) -> (usize, usize) {
        let shared = self.shared[block].iter().filter(|s| **s).count();
        (self.shared[block].len() - shared, shared)
    }
}

/// Names that stand for "no variable" in Paddle programs.
fn is_placeholder(name: &str) -> bool {
    name.is_empty() || name == "@EMPTY@"
}

impl Runnable {
    pub(crate) fn load(program: &Verified) -> Result<Runnable, RuntimeError> {
        let p: &Program = program;
        let mut layout = Layout::new(p);
        // Outputs nobody declared become variables of the writing op's block
        // (Paddle's executor creates them in the local scope the same way).
        for (b, block) in p.blocks.iter().enumerate() {
            for op in &block.ops {
                for name in op.output_names().filter(|n| !is_placeholder(n)) {
                    if layout.find(b, name).is_none() {
                        layout.declare(b, name);
                    }
                }
                if op.ty == "select" {
                    declare_select_values(&mut layout, op, b);
                }
            }
        }

        // Build every kernel once to learn which blocks use which variables,
        // sort the variables into local and shared, then build for real.
        let registry = Registry::new();
        let first = Self::build(p, &registry, &layout);
        layout.sort();
        let (blocks, problems) = if first.1.is_empty() {
            Self::build(p, &registry, &layout)
        } else {
            first
        };
        layout.uses.lock().clear();
        if !problems.is_empty() {
            return Err(RuntimeError::new(problems.join("\n")));
        }
        let mut runnable = Runnable {
            blocks,
            layout,
            feeds: Vec::new(),
            fetches: Vec::new(),
            starts_goroutines: p
                .blocks
                .iter()
                .any(|b| b.ops.iter().any(|op| op.ty == "go")),
            persistables: Vec::new(),
        };
        let mut seen = std::collections::HashSet::new();
        for var in p.blocks.iter().flat_map(|b| &b.vars) {
            if var.is_persistable() && seen.insert(var.name.as_str()) {
                if let Some(r) = runnable.root_var(&var.name) {
                    runnable.persistables.push((var.name.clone(), r));
                }
            }
        }
        runnable.find_feeds_and_fetches(p)?;
        Ok(runnable)
    }

    /// Binds every op of every block to its kernel; the problems are the ops
    /// that could not be bound.
    fn build(p: &Program, registry: &Registry, layout: &Layout) -> (Vec<LoadedBlock>, Vec<String>) {
        let mut problems = Vec::new();
        let mut blocks = Vec::with_capacity(p.blocks.len());
        for (b, block) in p.blocks.iter().enumerate() {
            let mut ops = Vec::with_capacity(block.ops.len());
            for (i, op) in block.ops.iter().enumerate() {
                let info = OpInfo::new(op, b, i);
                let Some(build) = registry.get(&op.ty) else {
                    problems.push(format!(
                        "op {} is not implemented (block {b}, op {i})",
                        op.ty
                    ));
                    continue;
                };
                let loader = OpLoader {
                    program: p,
                    op,
                    block: b,
                    layout,
                };
                match build(&loader) {
                    Ok(exec) => ops.push(LoadedOp { exec, info }),
                    Err(e) => problems.push(info.error(e).message),
                }
            }
            let (locals, shared) = layout.counts(b);
            blocks.push(LoadedBlock {
                ops,
                locals,
                has_scope: layout.has_scope[b],
                shared,
            });
        }
        (blocks, problems)
    }

    fn find_feeds_and_fetches(&mut self, p: &Program) -> Result<(), RuntimeError> {
        for (i, op) in p.blocks[0].ops.iter().enumerate() {
            let loader = OpLoader {
                program: p,
                op,
                block: 0,
                layout: &self.layout,
            };
            let col = || -> Result<usize, String> {
                usize::try_from(loader.int("col", 0)?)
                    .map_err(|_| "attribute `col` must not be negative".to_string())
            };
            let found = match op.ty.as_str() {
                "feed" => (|| {
                    let var = loader.var_names("Out", false)?.remove(0);
                    self.feeds.push((col()?, var, loader.input("X")?));
                    Ok::<(), String>(())
                })(),
                "fetch" => (|| {
                    let var = loader.var_names("X", true)?.remove(0);
                    self.fetches.push((col()?, var, loader.output("Out")?));
                    Ok(())
                })(),
                _ => Ok(()),
            };
            found.map_err(|e| OpInfo::new(op, 0, i).error(e))?;
        }
        self.fetches.sort_by_key(|f| f.0);
        Ok(())
    }

    /// A variable of the root scope (block 0 and every persistable variable).
    pub(crate) fn root_var(&self, name: &str) -> Option<VarRef> {
        self.layout.resolve(0, name)
    }
}

/// A select's receive cases write the value variable named in `cases`; one
/// that no enclosing block declares belongs to the cases block.
fn declare_select_values(layout: &mut Layout, op: &Op, block: usize) {
    let (Some(AttrValue::Strings(cases)), Some(AttrValue::Block(body))) =
        (op.get_attr("cases"), op.get_attr("sub_block"))
    else {
        return;
    };
    let Ok(body) = usize::try_from(*body) else {
        return;
    };
    for case in cases {
        if let Some(value) = case.split(',').nth(3).filter(|v| !v.is_empty()) {
            if layout.find(block, value).is_none() && layout.find(body, value).is_none() {
                layout.declare(body, value);
            }
        }
    }
}

/// What a kernel builder sees of one op: its slots resolved to variables and
/// its attributes read with the types Paddle writes (older and newer forms).
pub(crate) struct OpLoader<'a> {
    pub(crate) program: &'a Program,
    pub(crate) op: &'a Op,
    pub(crate) block: usize,
    layout: &'a Layout,
}

impl<'a> OpLoader<'a> {
    /// A loader for another op of the program, in `block` (to read its
    /// attributes and resolve its variables).
    pub(crate) fn for_op(&self, block: usize, op: &'a Op) -> OpLoader<'a> {
        OpLoader {
            program: self.program,
            op,
            block,
            layout: self.layout,
        }
    }

    /// Resolves `name` as seen from `block`.
    pub(crate) fn var_in(&self, block: usize, name: &str) -> Result<VarRef, String> {
        self.layout.resolve(block, name).ok_or_else(|| {
            format!("variable `{name}` is not declared in block {block} or its ancestors")
        })
    }

    pub(crate) fn var(&self, name: &str) -> Result<VarRef, String> {
        self.var_in(self.block, name)
    }

    /// The variable names of an input (`input = true`) or output slot, without placeholders.
    pub(crate) fn var_names(&self, slot: &str, input: bool) -> Result<Vec<String>, String> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        let names: Vec<String> = args
            .iter()
            .filter(|n| !is_placeholder(n))
            .cloned()
            .collect();
        if names.is_empty() {
            return Err(format!(
                "{} `{slot}` names no variable",
                if input { "input" } else { "output" }
            ));
        }
        Ok(names)
    }

    fn one(&self, slot: &str, input: bool) -> Result<VarRef, String> {
        let names = self.var_names(slot, input)?;
        if names.len() != 1 {
            return Err(format!(
                "{} `{slot}` must name one variable, it names {}",
                if input { "input" } else { "output" },
                names.len()
            ));
        }
        self.var(&names[0])
    }

    fn optional(&self, slot: &str, input: bool) -> Result<Option<VarRef>, String> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        if args.iter().all(|n| is_placeholder(n)) {
            return Ok(None);
        }
        self.one(slot, input).map(Some)
    }

    fn many(&self, slot: &str, input: bool) -> Result<Vec<VarRef>, String> {
        let args = if input {
            self.op.inputs_of(slot)
        } else {
            self.op.outputs_of(slot)
        };
        args.iter()
            .filter(|n| !is_placeholder(n))
            .map(|n| self.var(n))
            .collect()
    }

    pub(crate) fn input(&self, slot: &str) -> Result<VarRef, String> {
        self.one(slot, true)
    }

    pub(crate) fn opt_input(&self, slot: &str) -> Result<Option<VarRef>, String> {
        self.optional(slot, true)
    }

    pub(crate) fn inputs(&self, slot: &str) -> Result<Vec<VarRef>, String> {
        self.many(slot, true)
    }

    pub(crate) fn output(&self, slot: &str) -> Result<VarRef, String> {
        self.one(slot, false)
    }

    pub(crate) fn opt_output(&self, slot: &str) -> Result<Option<VarRef>, String> {
        self.optional(slot, false)
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&AttrValue> {
        self.op.get_attr(name)
    }

    fn bad_attr(&self, name: &str, expected: &str) -> String {
        format!(
            "attribute `{name}` must be {expected}, it is {:?}",
            self.attr(name)
        )
    }

    /// An INT or LONG attribute.
    pub(crate) fn int(&self, name: &str, default: i64) -> Result<i64, String> {
        match self.attr(name) {
            None => Ok(default),
            Some(AttrValue::Int(v)) => Ok(i64::from(*v)),
            Some(AttrValue::Long(v)) => Ok(*v),
            Some(_) => Err(self.bad_attr(name, "an integer")),
        }
    }

    /// A FLOAT, FLOAT64 or integer attribute.
    pub(crate) fn float(&self, name: &str, default: f64) -> Result<f64, String> {
        match self.attr(name) {
            None => Ok(default),
            Some(AttrValue::Float(v)) => Ok(f64::from(*v)),
            Some(AttrValue::Float64(v)) => Ok(*v),
            Some(AttrValue::Int(v)) => Ok(f64::from(*v)),
            Some(AttrValue::Long(v)) => Ok(*v as f64),
            Some(_) => Err(self.bad_attr(name, "a number")),
        }
    }

    pub(crate) fn bool(&self, name: &str, default: bool) -> Result<bool, String> {
        match self.attr(name) {
            None => Ok(default),
            Some(AttrValue::Bool(v)) => Ok(*v),
            Some(_) => Err(self.bad_attr(name, "a BOOLEAN")),
        }
    }

    /// An INTS or LONGS attribute (2018 wrote shapes as INTS, Paddle 3 as LONGS).
    pub(crate) fn ints(&self, name: &str) -> Result<Option<Vec<i64>>, String> {
        match self.attr(name) {
            None => Ok(None),
            Some(AttrValue::Ints(v)) => Ok(Some(v.iter().map(|&x| i64::from(x)).collect())),
            Some(AttrValue::Longs(v)) => Ok(Some(v.clone())),
            Some(_) => Err(self.bad_attr(name, "INTS or LONGS")),
        }
    }

    pub(crate) fn string(&self, name: &str) -> Result<Option<&str>, String> {
        match self.attr(name) {
            None => Ok(None),
            Some(AttrValue::String(s)) => Ok(Some(s)),
            Some(_) => Err(self.bad_attr(name, "a STRING")),
        }
    }

    pub(crate) fn strings(&self, name: &str) -> Result<Vec<String>, String> {
        match self.attr(name) {
            None => Ok(Vec::new()),
            Some(AttrValue::Strings(s)) => Ok(s.clone()),
            Some(_) => Err(self.bad_attr(name, "STRINGS")),
        }
    }

    /// A dtype attribute (a `VarType.Type` number) that tensors can hold.
    pub(crate) fn dtype(&self, name: &str, default: VarKind) -> Result<VarKind, String> {
        let number = self.int(name, default as i64)?;
        tensor_dtype(number).map_err(|e| format!("attribute `{name}`: {e}"))
    }

    /// The block the op runs (`sub_block`).
    pub(crate) fn sub_block(&self) -> Result<usize, String> {
        match self.attr("sub_block") {
            Some(AttrValue::Block(b)) => {
                usize::try_from(*b).map_err(|_| self.bad_attr("sub_block", "a block"))
            }
            _ => Err(self.bad_attr("sub_block", "a BLOCK")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One definition per op, one kernel per definition (SPEC §9.1): every
    /// op the transpiler defines has a kernel under the same type.
    #[test]
    fn every_defined_op_has_a_kernel() {
        let registry = Registry::new();
        let missing: Vec<&str> = fluidc_transpiler::ops::registry()
            .types()
            .into_iter()
            .filter(|ty| *ty != fluidc_transpiler::SELECT_NODE) // lowered before any run
            .filter(|ty| registry.get(ty).is_none())
            .collect();
        assert!(
            missing.is_empty(),
            "defined ops without a kernel: {missing:?}"
        );
    }
}
