//! Where each variable of a program lives at run time: which block owns
//! it, whether it is a frame local or shared with goroutines, its slot
//! (see `crate::scope`), and how a name used in a block resolves.
use std::collections::HashSet;
use std::sync::Arc;

use fluidc_transpiler::{AttrValue, Program};
use foldhash::{HashMap, HashMapExt};
use parking_lot::Mutex;

use crate::scope::{Place, VarRef};

/// Which variables each block owns, where each lives (see `crate::scope`),
/// and where names resolve.
/// Where one name resolved, by the block the lookup started from.
type FoundIn = HashMap<usize, Option<(usize, u32)>>;

#[derive(Debug)]
pub(crate) struct Layout {
    /// The chain names resolve along: a parent for every block of the
    /// program, then for each grad block's restored forward block (see
    /// [`Layout::new`]), indexed past the program's blocks.
    parent: Vec<Option<usize>>,
    depth: Vec<u32>,
    /// The program block each chain entry stands for (itself for a
    /// program block; the forward block for a restored one).
    real: Vec<usize>,
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
    pub(crate) has_scope: Vec<bool>,
    /// Every resolution so far: (the block it was seen from, the owner's
    /// chain entry, the variable's number); [`Layout::sort`] reads them.
    pub(crate) uses: Mutex<Vec<(usize, usize, u32)>>,
    /// Where a name resolved from each block walked so far (by name, then
    /// block): a name used at every level of a deep nest is looked up from
    /// each block once, so loading is linear in the depth, not quadratic.
    /// A name's entries go when it is declared again.
    found: Mutex<HashMap<String, FoundIn>>,
    /// STEP_SCOPES variables a grad op reads.
    kept: HashSet<String>,
    /// Per block, after [`Layout::sort`]: how many blocks with a scope lie
    /// on its chain from block 0 (itself included).
    scopes_above: Vec<u32>,
}

impl Layout {
    pub(crate) fn new(p: &Program) -> Layout {
        let n = p.blocks.len();
        let mut parent: Vec<Option<usize>> = p
            .blocks
            .iter()
            .map(|b| usize::try_from(b.parent_idx).ok())
            .collect();
        let mut real: Vec<usize> = (0..n).collect();
        // A grad block runs on top of a restored run of its forward block,
        // which the grad op pushes on top of its own frame: names resolve
        // through the forward block's own variables, then the grad op's
        // block (for a loop's grad, the grad block's parent, where the
        // forward block's own parent lies below: the same chain; for a
        // loop's grad nested in another grad block, that outer grad block,
        // whose chain reaches the outer forward run). The restored run is a
        // chain entry of its own, so a forward block reached from its grad
        // block resolves differently from the forward block run forward.
        for b in 0..n {
            if let Some(f) = forward_of(p, b) {
                let restored = parent.len();
                parent.push(parent[b]);
                real.push(f);
                parent[b] = Some(restored);
            }
        }
        // Depths along that chain (a verified program's blocks all reach
        // block 0; a chain that does not ends at depth 0).
        let mut depth: Vec<Option<u32>> = vec![None; parent.len()];
        for start in 0..parent.len() {
            let mut walk = Vec::new();
            let mut cur = Some(start);
            let base = loop {
                match cur {
                    Some(c) if depth[c].is_none() && !walk.contains(&c) => {
                        walk.push(c);
                        cur = parent[c];
                    }
                    Some(c) => break depth[c].map_or(0, |d| d + 1),
                    None => break 0,
                }
            };
            for (k, c) in walk.into_iter().rev().enumerate() {
                depth[c] = Some(base + k as u32);
            }
        }
        let depth: Vec<u32> = depth.into_iter().map(|d| d.unwrap_or(0)).collect();
        let go_body_len = parent.len();
        let mut go_body = vec![false; go_body_len];
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
            real,
            slots: vec![HashMap::new(); p.blocks.len()],
            go_body,
            shared: vec![Vec::new(); p.blocks.len()],
            index: vec![Vec::new(); p.blocks.len()],
            has_scope: vec![false; p.blocks.len()],
            uses: Mutex::new(Vec::new()),
            found: Mutex::new(HashMap::new()),
            scopes_above: vec![0; go_body_len],
            kept: HashSet::new(),
        };
        for (b, block) in p.blocks.iter().enumerate() {
            for var in &block.vars {
                // Persistable variables live in the root scope (block 0's).
                let owner = if var.is_persistable() { 0 } else { b };
                layout.declare(owner, &var.name);
            }
        }
        for op in p.blocks.iter().flat_map(|b| &b.ops) {
            // The scopes a grad op reads: their loop or branch keeps its runs.
            match op.ty.as_str() {
                "while_grad" => layout
                    .kept
                    .extend(op.inputs_of("StepScopes").iter().cloned()),
                "conditional_block_grad" => {
                    layout.kept.extend(op.inputs_of("Scope").iter().cloned())
                }
                _ => continue,
            }
            if op.ty != "while_grad" {
                continue;
            }
            // A loop's grad block reads the inputs each step copied.
            let Some(AttrValue::Block(g)) = op.get_attr("sub_block") else {
                continue;
            };
            let Some(g) = usize::try_from(*g).ok().filter(|&g| g < p.blocks.len()) else {
                continue;
            };
            if let Some(f) = forward_of(p, g) {
                for name in step_copies(p, f, op.inputs_of("X")) {
                    layout.declare(g, &name);
                }
            }
        }
        layout
    }

    /// Whether a grad op reads the STEP_SCOPES variable `name` (so the op
    /// writing it keeps its runs there).
    pub(crate) fn is_kept(&self, name: &str) -> bool {
        self.kept.contains(name)
    }

    /// The block whose own variables hold `name` as seen from `block`.
    pub(crate) fn owner(&self, block: usize, name: &str) -> Option<usize> {
        self.find(block, name).map(|(at, _)| self.real[at])
    }

    pub(crate) fn declare(&mut self, block: usize, name: &str) {
        let slots = &mut self.slots[block];
        let next = slots.len() as u32;
        if !slots.contains_key(name) {
            slots.insert(name.to_string(), next);
            self.found.get_mut().remove(name);
            // Until sorted, every variable counts as local, numbered in order.
            self.shared[block].push(false);
            self.index[block].push(next);
        }
    }

    /// Where on `block`'s chain `name` is owned (a chain entry: see
    /// [`Layout::real`] for its block), and its number there. Each block's
    /// answer is remembered, so the walk up stops at the first block
    /// already asked.
    pub(crate) fn find(&self, block: usize, name: &str) -> Option<(usize, u32)> {
        // Most names are the block's own: no walk to remember.
        if let Some(&slot) = self.slots[block].get(name) {
            return Some((block, slot));
        }
        let mut found = self.found.lock();
        if !found.contains_key(name) {
            found.insert(name.to_string(), HashMap::new());
        }
        let known = found.get_mut(name).expect("inserted above");
        let mut walked = Vec::new();
        let mut b = Some(block);
        let owner = loop {
            let Some(cur) = b else {
                break None;
            };
            if let Some(&owner) = known.get(&cur) {
                break owner;
            }
            if let Some(&slot) = self.slots[self.real[cur]].get(name) {
                break Some((cur, slot));
            }
            walked.push(cur);
            b = self.parent[cur];
        };
        for cur in walked {
            known.insert(cur, owner);
        }
        owner
    }

    pub(crate) fn resolve(&self, block: usize, name: &str) -> Option<VarRef> {
        let (at, var) = self.find(block, name)?;
        self.uses.lock().push((block, at, var));
        let owner = self.real[at];
        let slot = self.index[owner][var as usize];
        let place = if self.shared[owner][var as usize] {
            // Only blocks with a scope count as a step up the scope chain:
            // those below the owner, down to the block itself.
            let up = self.scopes_above[block] - self.scopes_above[at];
            Place::Shared { up, slot }
        } else {
            Place::Local {
                up: self.depth[block] - self.depth[at],
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
    /// below its owner is shared. Resolutions made earlier are stale if
    /// this returns true: whether any variable's place or any block's
    /// scope changed (never, in a program without `go`, once sorted).
    pub(crate) fn sort(&mut self) -> bool {
        let before = (
            self.shared.clone(),
            self.index.clone(),
            self.has_scope.clone(),
            self.scopes_above.clone(),
        );
        // Blocks in order of depth, so each parent comes before its children.
        let mut order: Vec<usize> = (0..self.parent.len()).collect();
        order.sort_by_key(|&b| self.depth[b]);
        // The depth of the nearest `go` body on each block's chain (itself
        // included): a use from `b` crosses a `go` body below its owner when
        // that body is deeper than the owner.
        let mut go_depth: Vec<Option<u32>> = vec![None; self.parent.len()];
        for &b in &order {
            go_depth[b] = if self.go_body[b] {
                Some(self.depth[b])
            } else {
                self.parent[b].and_then(|p| go_depth[p])
            };
        }
        for (b, at, var) in std::mem::take(&mut *self.uses.lock()) {
            if go_depth[b].is_some_and(|d| d > self.depth[at]) {
                self.shared[self.real[at]][var as usize] = true;
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
        for &b in &order {
            let above = self.parent[b].map_or(0, |p| self.scopes_above[p]);
            self.scopes_above[b] = above + u32::from(self.has_scope[self.real[b]]);
        }
        before
            != (
                self.shared.clone(),
                self.index.clone(),
                self.has_scope.clone(),
                self.scopes_above.clone(),
            )
    }

    /// How many (locals, shared variables) a run of `block` holds.
    pub(crate) fn counts(&self, block: usize) -> (usize, usize) {
        let shared = self.shared[block].iter().filter(|s| **s).count();
        (self.shared[block].len() - shared, shared)
    }
}

/// The forward block of grad block `b`, which the runtime runs on top of a
/// restored run of that block: a different block, not a grad block itself.
/// The grad op sits in `b`'s parent: beside the forward block's loop or
/// branch (their parents are the same block), or, for a loop or branch
/// nested in another, in the outer one's grad block, whose own chain
/// reaches the outer forward run the inner one ran in.
pub(crate) fn forward_of(p: &Program, b: usize) -> Option<usize> {
    let block = p.blocks.get(b)?;
    let f = usize::try_from(block.forward_block_idx?).ok()?;
    let fwd = p.blocks.get(f)?;
    let plain = fwd.forward_block_idx.is_none_or(|x| x < 0);
    (f != b && plain).then_some(f)
}

/// The inputs `xs` of a `while` over block `f` that each step copies when
/// it starts, for the grad block (Paddle's WhileOp copies each input that
/// is a dense tensor, not a parameter, and not both read and written by one
/// op of the body; persistable variables are left out too, as nothing in
/// one run changes them behind the loop).
pub(crate) fn step_copies(p: &Program, f: usize, xs: &[String]) -> Vec<String> {
    let Some(body) = p.blocks.get(f) else {
        return Vec::new();
    };
    let in_place: HashSet<&str> = body
        .ops
        .iter()
        .flat_map(|op| {
            let outs: HashSet<&str> = op.output_names().collect();
            op.input_names()
                .filter(move |n| outs.contains(n))
                .collect::<Vec<_>>()
        })
        .collect();
    xs.iter()
        .filter(|x| !in_place.contains(x.as_str()))
        .filter(|x| {
            p.find_var_recursive(f, x).is_some_and(|(_, v)| {
                v.kind() == Some(fluidc_transpiler::VarKind::DenseTensor)
                    && !v.is_persistable()
                    && v.is_parameter != Some(true)
            })
        })
        .cloned()
        .collect()
}
