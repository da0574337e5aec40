//! The `ProgramBuilder`: owns the programs a script builds, the current block
//! of each (what `with` enters and leaves), Paddle's unique-name counters and
//! the `op_callstack` of the statement being evaluated.
use std::collections::HashMap;
use std::rc::Rc;

use fluidc_transpiler::{AttrValue, Block, Op, Program, Var, VarKind};

/// A program variable: which program and block declare it, and its name,
/// as the builder hands it out.
#[derive(Debug, Clone, PartialEq)]
pub struct VarRef {
    pub program: usize,
    pub block: usize,
    pub name: Rc<str>,
}

/// One `fluid.Program()` being built.
#[derive(Debug, Default)]
pub struct ProgramState {
    pub program: Program,
    pub current: usize,
    /// Per block, each declared name's position in `vars`, so that lookups
    /// stay O(1) in scripts with many thousands of variables.
    index: Vec<HashMap<String, usize>>,
}

/// An `exe.run(...)` the script made.
#[derive(Debug, Clone)]
pub struct Run {
    /// Where the script calls `exe.run`, for errors about its arguments.
    pub span: std::ops::Range<usize>,
    pub program: usize,
    pub feed: Vec<String>,
    pub fetch: Vec<String>,
}

#[derive(Debug)]
pub struct ProgramBuilder {
    pub programs: Vec<ProgramState>,
    /// `default_main_program()` and `default_startup_program()` now
    /// (`program_guard` switches them).
    pub main: usize,
    pub startup: usize,
    /// Each main program's startup program, as `program_guard` paired them.
    pub startup_of: HashMap<usize, usize>,
    counters: HashMap<String, usize>,
    /// The `op_callstack` lines for ops appended now.
    pub callstack: Vec<String>,
    pub runs: Vec<Run>,
    /// Run mode (`fluidc run script.py`): `exe.run` executes programs.
    pub run: Option<super::run::RunMode>,
    /// The scope views (`find_var(name).get_tensor()`) the script may
    /// still hold, refreshed after each run (`api::program::refresh_views`).
    pub views: Vec<std::rc::Weak<super::value::Object>>,
    /// Build mode stops the script at its first run of a program other
    /// than a startup program (SPEC §8.1): what it builds is complete then.
    pub stopped: bool,
    /// Each parameter's layer-side facts (trainable, learning rate,
    /// regularizer), by name, in creation order.
    pub params: indexmap::IndexMap<String, crate::front::api::param::ParamInfo>,
    /// `program.random_seed` per program (0 unless the script sets it).
    pub random_seeds: HashMap<usize, i64>,
    /// The scope runs use now (0: the global scope; `fluid.scope_guard`).
    pub scope: usize,
    /// How many scopes the script made (the global one counts).
    pub scopes: usize,
    /// Attributes every op appended now gets, as Paddle's guards set them
    /// (`_optimized_guard`: op_role and op_role_var; `name_scope`).
    pub op_guard: Vec<(String, AttrValue)>,
    /// Ops, variables and blocks added to all programs so far: the size the
    /// evaluator bounds ([`crate::front::eval`]'s `MAX_PROGRAM_SIZE`), since
    /// an unrolled Python loop can grow programs past the machine's memory.
    pub size: usize,
}

impl Default for ProgramBuilder {
    fn default() -> Self {
        ProgramBuilder::new()
    }
}

impl ProgramBuilder {
    pub fn new() -> Self {
        let mut b = ProgramBuilder {
            programs: Vec::new(),
            main: 0,
            startup: 0,
            startup_of: HashMap::new(),
            counters: HashMap::new(),
            callstack: Vec::new(),
            runs: Vec::new(),
            views: Vec::new(),
            run: None,
            stopped: false,
            params: indexmap::IndexMap::new(),
            random_seeds: HashMap::new(),
            op_guard: Vec::new(),
            scope: 0,
            scopes: 1,
            size: 0,
        };
        b.main = b.new_program();
        b.startup = b.new_program();
        b.startup_of.insert(b.main, b.startup);
        b
    }

    /// A new empty program with its global block.
    pub fn new_program(&mut self) -> usize {
        let program = Program {
            blocks: vec![Block::new(0, -1)],
            ..Default::default()
        };
        self.programs.push(ProgramState {
            program,
            current: 0,
            index: vec![HashMap::new()],
        });
        self.programs.len() - 1
    }

    /// Paddle's `unique_name.generate(key)`: `key_0`, `key_1`, ... one counter per key.
    pub fn unique(&mut self, key: &str) -> String {
        let n = self.counters.entry(key.to_string()).or_insert(0);
        let name = format!("{key}_{n}");
        *n += 1;
        name
    }

    /// Swaps the unique-name counters (for `unique_name.guard()`).
    pub fn swap_counters(&mut self, counters: HashMap<String, usize>) -> HashMap<String, usize> {
        std::mem::replace(&mut self.counters, counters)
    }

    /// Paddle's `name_scope(prefix)` names: `prefix`, `prefix_1`, ...
    pub fn unique_scope(&mut self, prefix: &str) -> String {
        let n = self
            .counters
            .entry(format!("name_scope {prefix}"))
            .or_insert(0);
        let name = match *n {
            0 => prefix.to_string(),
            k => format!("{prefix}_{k}"),
        };
        *n += 1;
        name
    }

    /// Rebuilds the variable index of `program` after a transformation
    /// that declared variables itself (append_backward).
    pub fn reindex(&mut self, program: usize) {
        let state = &mut self.programs[program];
        state.index = state
            .program
            .blocks
            .iter()
            .map(|b| {
                b.vars
                    .iter()
                    .enumerate()
                    .map(|(k, v)| (v.name.clone(), k))
                    .collect()
            })
            .collect();
    }

    /// `program.random_seed`: what an initializer with seed 0 uses.
    pub fn random_seed(&self, program: usize) -> i64 {
        self.random_seeds.get(&program).copied().unwrap_or(0)
    }

    /// A `LayerHelper(layer_type)`'s name, which also consumes a counter.
    pub fn helper_name(&mut self, layer_type: &str) -> String {
        self.unique(layer_type)
    }

    /// `helper.create_variable_for_type_inference`: `<helper name>.tmp_N`.
    pub fn tmp_name(&mut self, helper: &str) -> String {
        self.unique(&format!("{helper}.tmp"))
    }

    pub fn current_block(&self) -> usize {
        self.programs[self.main].current
    }

    pub fn block_mut(&mut self, program: usize, block: usize) -> &mut Block {
        &mut self.programs[program].program.blocks[block]
    }

    pub fn block(&self, program: usize, block: usize) -> &Block {
        &self.programs[program].program.blocks[block]
    }

    /// Declares `var` in the current block of the main program.
    pub fn declare(&mut self, var: Var) -> VarRef {
        let block = self.current_block();
        self.declare_in(self.main, block, var)
    }

    /// Declares `var` in a given block; a redeclaration replaces the old one
    /// (as Paddle's `create_var` with an existing name returns it).
    pub fn declare_in(&mut self, program: usize, block: usize, var: Var) -> VarRef {
        let name: std::rc::Rc<str> = var.name.as_str().into();
        let state = &mut self.programs[program];
        if state.index.len() < state.program.blocks.len() {
            state
                .index
                .resize_with(state.program.blocks.len(), HashMap::new);
        }
        let vars = &mut state.program.blocks[block].vars;
        match state.index[block].get(&var.name) {
            Some(&at) => vars[at] = var,
            None => {
                state.index[block].insert(var.name.clone(), vars.len());
                vars.push(var);
                self.size += 1;
            }
        }
        VarRef {
            program,
            block,
            name,
        }
    }

    /// A dense tensor temporary for a layer: `<helper>.tmp_N` in the current block.
    pub fn tmp_var(&mut self, helper: &str, dtype: VarKind, dims: Vec<i64>) -> VarRef {
        let name = self.tmp_name(helper);
        let mut var = Var::dense(name, dtype, dims);
        var.stop_gradient = Some(false);
        self.declare(var)
    }

    /// Whether block `block` of `program` declares `name`.
    pub fn declares(&self, program: usize, block: usize, name: &str) -> bool {
        self.programs[program]
            .index
            .get(block)
            .is_some_and(|i| i.contains_key(name))
    }

    /// Finds a variable visible from the current block of the main program.
    pub fn lookup(&self, name: &str) -> Option<VarRef> {
        let p = &self.programs[self.main].program;
        let cur = self.current_block();
        p.scope_chain(cur)
            .into_iter()
            .find(|&b| self.declares(self.main, b, name))
            .map(|block| VarRef {
                program: self.main,
                block,
                name: name.into(),
            })
    }

    pub fn var(&self, r: &VarRef) -> &Var {
        let state = &self.programs[r.program];
        let at = state.index[r.block][&*r.name];
        &state.program.blocks[r.block].vars[at]
    }

    /// Mutable access to a declared variable.
    pub fn var_mut(&mut self, r: &VarRef) -> &mut Var {
        let state = &mut self.programs[r.program];
        let at = state.index[r.block][&*r.name];
        &mut state.program.blocks[r.block].vars[at]
    }

    /// Appends `op` to the current block of the main program, recording the
    /// Python source location in `op_callstack` as Paddle does.
    pub fn append(&mut self, op: Op) {
        let block = self.current_block();
        self.append_to(self.main, block, op);
    }

    pub fn append_to(&mut self, program: usize, block: usize, op: Op) {
        let op = self.with_callstack(op);
        self.pass_stop_gradient(program, block, &op);
        self.block_mut(program, block).ops.push(op);
        self.size += 1;
    }

    /// Paddle 3's `Block.append_op` (`pass_stop_gradient`): when no input
    /// of an op is a variable with `stop_gradient` false, its outputs stop
    /// gradients too (`while` and `conditional_block` excepted). A variable
    /// that never set the flag has Python's default, false.
    fn pass_stop_gradient(&mut self, program: usize, block: usize, op: &Op) {
        if matches!(op.ty.as_str(), "while" | "conditional_block") {
            return;
        }
        let state = &mut self.programs[program];
        let chain = state.program.scope_chain(block);
        // Each name's declaration, through the per-block index (O(1) each).
        let find = |state: &ProgramState, name: &str| {
            chain
                .iter()
                .find_map(|&b| state.index.get(b)?.get(name).map(|&i| (b, i)))
        };
        let stops = |name: &str| {
            find(state, name)
                .is_none_or(|(b, i)| state.program.blocks[b].vars[i].stop_gradient == Some(true))
        };
        if !op.input_names().all(stops) {
            return;
        }
        for name in op.output_names() {
            if let Some((b, i)) = find(state, name) {
                state.program.blocks[b].vars[i].stop_gradient = Some(true);
            }
        }
    }

    /// Puts `op` first in a block, as Paddle's initializers do in the
    /// startup program.
    pub fn prepend_to(&mut self, program: usize, block: usize, op: Op) {
        let op = self.with_callstack(op);
        self.block_mut(program, block).ops.insert(0, op);
        self.size += 1;
    }

    /// The op as Paddle's Python appends it: the Python source location in
    /// `op_callstack`, and every attribute the op's definition has a
    /// default for.
    fn with_callstack(&self, mut op: Op) -> Op {
        if !self.callstack.is_empty() && op.get_attr("op_callstack").is_none() {
            op.set_attr("op_callstack", AttrValue::Strings(self.callstack.clone()));
        }
        for (name, value) in &self.op_guard {
            if op.get_attr(name).is_none() {
                op.set_attr(name, value.clone());
            }
        }
        fluidc_transpiler::ops::fill_defaults(&mut op);
        op
    }

    /// Creates a child block of the current one and makes it current.
    pub fn enter_block(&mut self) -> usize {
        let parent = self.current_block();
        let p = &mut self.programs[self.main];
        let idx = p.program.blocks.len();
        p.program.blocks.push(Block::new(idx as i32, parent as i32));
        p.index.push(HashMap::new());
        p.current = idx;
        self.size += 1;
        idx
    }

    /// Makes the parent of the current block current again.
    pub fn exit_block(&mut self) {
        let p = &mut self.programs[self.main];
        let parent = p.program.blocks[p.current].parent_idx;
        p.current = usize::try_from(parent).unwrap_or(0);
    }
}
