//! Loading: a verified program resolved once into a [`Runnable`].
//!
//! The runnable is what the executor runs and never changes: every op is
//! bound to its kernel (its attributes parsed, its variables resolved to
//! [`VarRef`]s), every block knows how many slots its scope needs. It is
//! shared by all workers. Ops the runtime does not implement are reported
//! here, all at once, before anything runs.
use fluidc_transpiler::{AttrValue, Op, Program, Verified};

use crate::error::{KernelError, OpInfo, RuntimeError};
use crate::exec::Exec;
use crate::kernel::Registry;
use crate::kernel::{is_placeholder, OpReader};
use crate::layout::Layout;
use crate::scope::VarRef;

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
    /// Whether any op calls the session's host (`py_func`): then the run
    /// stays on the calling thread, where the host lives (`crate::host`).
    pub(crate) calls_host: bool,
    /// The persistable variables (any block's; they live in block 0's
    /// scope), which a session keeps between runs.
    pub(crate) persistables: Vec<(String, VarRef)>,
    /// Block 0's variables declared with shape `[1]`: a 0-D value of one
    /// fetches as shape `(1,)` (README, "Run mode": Paddle 1.x had no 0-D tensors,
    /// and the programs it wrote, and fluidc writes, declare such a
    /// `mean` or `accuracy` as `[1]`; Paddle 3.3.1's declare `[]`).
    pub(crate) declared_one: std::collections::HashSet<String>,
    /// The gradients that fused optimizer updates never write
    /// (`crate::fuse`), and the program to load unfused for a run that
    /// fetches one of them ([`Runnable::for_fetch`]).
    fused_grads: Vec<String>,
    unfused: Option<Box<Unfused>>,
    /// Whether selects run op by op (`without_select_dispatch`).
    select_ops: bool,
}

/// The program of a fused [`Runnable`], and its unfused load once a run
/// needed it.
struct Unfused {
    program: Verified,
    loaded: std::sync::OnceLock<Box<Runnable>>,
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

impl Runnable {
    /// Drops every select's direct dispatch (`SessionOptions::select_ops`):
    /// the cases blocks then run op by op.
    pub(crate) fn without_select_dispatch(&mut self) {
        self.select_ops = true;
        for op in self.blocks.iter_mut().flat_map(|b| b.ops.iter_mut()) {
            if let Exec::Control(crate::exec::Control::Select(sel)) = &mut op.exec {
                sel.dispatch = None;
            }
        }
    }

    /// The runnable to run when a run fetches `extra` besides the
    /// program's fetch targets: this one, or, when it asks for a gradient
    /// a fused update never writes, the program loaded unfused.
    pub(crate) fn for_fetch(&self, extra: &[String]) -> Result<&Runnable, RuntimeError> {
        let Some(unfused) = &self.unfused else {
            return Ok(self);
        };
        if !extra.iter().any(|n| self.fused_grads.contains(n)) {
            return Ok(self);
        }
        if let Some(r) = unfused.loaded.get() {
            return Ok(r);
        }
        let mut r = Runnable::load(&unfused.program, false)?;
        if self.select_ops {
            r.without_select_dispatch();
        }
        Ok(unfused.loaded.get_or_init(|| Box::new(r)))
    }

    /// Loads `program`; with `fuse`, optimizer updates are fused into
    /// the ops computing their gradients where that is safe (`crate::fuse`).
    pub(crate) fn load(program: &Verified, fuse: bool) -> Result<Runnable, RuntimeError> {
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

        // Build every kernel with every variable local to learn which blocks
        // use which variables, sort the variables into local and shared, and
        // build again if that moved any (only a program with `go` can).
        let registry = crate::ops::registry();
        layout.sort();
        let first = Self::build(p, registry, &layout);
        let moved = layout.sort();
        let (mut blocks, problems) = if first.1.is_empty() && moved {
            Self::build(p, registry, &layout)
        } else {
            first
        };
        if !problems.is_empty() {
            layout.uses.lock().clear();
            return Err(RuntimeError::joined(problems));
        }
        let mut fused_grads = Vec::new();
        if let (true, Some(block0)) = (fuse, blocks.first_mut()) {
            for (pair, exec) in crate::fuse::kernels(p, &layout) {
                block0.ops[pair.producer].exec = exec;
                block0.ops[pair.update].exec = Exec::Compute(Box::new(|_| Ok(())));
                fused_grads.push(pair.grad);
            }
        }
        layout.uses.lock().clear();
        let mut runnable = Runnable {
            blocks,
            layout,
            feeds: Vec::new(),
            fetches: Vec::new(),
            starts_goroutines: p
                .blocks
                .iter()
                .any(|b| b.ops.iter().any(|op| op.ty == "go")),
            calls_host: p
                .blocks
                .iter()
                .any(|b| b.ops.iter().any(|op| op.ty == "py_func")),
            persistables: Vec::new(),
            declared_one: p.blocks[0]
                .vars
                .iter()
                .filter(|v| v.tensor_desc().is_some_and(|t| t.dims == [1]))
                .map(|v| v.name.clone())
                .collect(),
            unfused: (!fused_grads.is_empty()).then(|| {
                Box::new(Unfused {
                    program: program.clone(),
                    loaded: std::sync::OnceLock::new(),
                })
            }),
            fused_grads,
            select_ops: false,
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
    fn build(
        p: &Program,
        registry: &Registry,
        layout: &Layout,
    ) -> (Vec<LoadedBlock>, Vec<RuntimeError>) {
        let mut problems = Vec::new();
        let mut blocks = Vec::with_capacity(p.blocks.len());
        let lod = crate::ops::lod::uses_lod(p);
        for (b, block) in p.blocks.iter().enumerate() {
            let mut ops = Vec::with_capacity(block.ops.len());
            for (i, op) in block.ops.iter().enumerate() {
                let info = OpInfo::new(op, b, i);
                let Some(build) = registry.get(&op.ty) else {
                    let why = format!("op {} is not implemented", op.ty);
                    problems.push(RuntimeError::with_kernel(
                        format!("{why} (block {b}, op {i})"),
                        KernelError::Unsupported(why),
                    ));
                    continue;
                };
                let loader = OpReader::new(p, op, b, layout);
                let built = match build(&loader) {
                    Ok(exec) if lod => crate::ops::lod::share_lod(&loader, exec),
                    other => other,
                };
                match built {
                    Ok(exec) => ops.push(LoadedOp { exec, info }),
                    Err(e) => problems.push(info.kernel_error(e)),
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
            let loader = OpReader::new(p, op, 0, &self.layout);
            let col = || -> Result<usize, KernelError> {
                usize::try_from(loader.int_or("col", 0)?).map_err(|_| {
                    KernelError::Attribute("attribute `col` must not be negative".into())
                })
            };
            let found = match op.ty.as_str() {
                "feed" => (|| {
                    let var = loader.var_names("Out", false)?.remove(0);
                    self.feeds.push((col()?, var, loader.input("X")?));
                    Ok::<(), KernelError>(())
                })(),
                "fetch" => (|| {
                    let var = loader.var_names("X", true)?.remove(0);
                    self.fetches.push((col()?, var, loader.output("Out")?));
                    Ok(())
                })(),
                _ => Ok(()),
            };
            found.map_err(|e| OpInfo::new(op, 0, i).kernel_error(e))?;
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

#[cfg(test)]
mod tests {
    /// One definition per op, one kernel per definition (ARCHITECTURE.md): every
    /// op the transpiler defines has a kernel under the same type.
    #[test]
    fn every_defined_op_has_a_kernel() {
        let registry = crate::ops::registry();
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
