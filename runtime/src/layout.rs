//! Where each variable of a program lives at run time: which block owns
//! it, whether it is a frame local or shared with goroutines, its slot
//! (see `crate::scope`), and how a name used in a block resolves.
use std::collections::HashMap;
use std::sync::Arc;

use fluidc_transpiler::{AttrValue, Program};
use parking_lot::Mutex;

use crate::scope::{Place, VarRef};

/// Which variables each block owns, where each lives (see `crate::scope`),
/// and where names resolve.
#[derive(Debug)]
pub(crate) struct Layout {
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
    pub(crate) has_scope: Vec<bool>,
    /// Every resolution so far: (the block it was seen from, the owner, the
    /// variable's number); [`Layout::sort`] reads them.
    pub(crate) uses: Mutex<Vec<(usize, usize, u32)>>,
}

impl Layout {
    pub(crate) fn new(p: &Program) -> Layout {
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

    pub(crate) fn declare(&mut self, block: usize, name: &str) {
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
    pub(crate) fn find(&self, block: usize, name: &str) -> Option<(usize, u32)> {
        let mut b = Some(block);
        while let Some(cur) = b {
            if let Some(&slot) = self.slots[cur].get(name) {
                return Some((cur, slot));
            }
            b = self.parent[cur];
        }
        None
    }

    pub(crate) fn resolve(&self, block: usize, name: &str) -> Option<VarRef> {
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
    pub(crate) fn sort(&mut self) {
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
    pub(crate) fn counts(&self, block: usize) -> (usize, usize) {
        let shared = self.shared[block].iter().filter(|s| **s).count();
        (self.shared[block].len() - shared, shared)
    }
}
