//! Scopes: where variables live while a program runs.
//!
//! A scope belongs to one run of one block and has one slot per variable the
//! block owns; its parent is the scope of the block's parent block. Because
//! every block is only ever run by an op of its parent block (`while`,
//! `conditional_block`, `select`, `go`), the chain of scopes at run time
//! mirrors the chain of blocks, so the loader resolves every variable name to
//! a [`VarRef`] (how many scopes up, which slot) once, and a lookup at run
//! time is a short pointer walk instead of a name search. Persistable
//! variables are owned by block 0, whose scope is the root.
//!
//! Scopes are shared (`Arc`): a goroutine started by `go` runs in a child of
//! the scope the `go` op ran in and sees, by reference, every variable there;
//! a scope lives as long as any frame of any goroutine uses it. Each slot has
//! its own lock, so goroutines on different workers can read and write shared
//! variables safely (a program that races on a variable gets one of the
//! values, never a torn one).
use std::sync::Arc;

use parking_lot::Mutex;

use crate::tensor::Tensor;
use crate::value::{TypedChannel, Value};

/// A variable resolved at load time: `up` scopes above the current one, slot `slot`.
#[derive(Debug, Clone)]
pub(crate) struct VarRef {
    pub(crate) up: u32,
    pub(crate) slot: u32,
    pub(crate) name: Arc<str>,
}

impl VarRef {
    /// The same variable seen from a child scope.
    pub(crate) fn seen_from_child(&self) -> VarRef {
        VarRef {
            up: self.up + 1,
            ..self.clone()
        }
    }
}

#[derive(Debug)]
pub(crate) struct Scope {
    parent: Option<Arc<Scope>>,
    slots: Box<[Mutex<Value>]>,
}

impl Scope {
    pub(crate) fn root(slots: usize) -> Arc<Scope> {
        Arc::new(Scope {
            parent: None,
            slots: (0..slots).map(|_| Mutex::new(Value::Empty)).collect(),
        })
    }

    pub(crate) fn child(parent: &Arc<Scope>, slots: usize) -> Arc<Scope> {
        Arc::new(Scope {
            parent: Some(parent.clone()),
            slots: (0..slots).map(|_| Mutex::new(Value::Empty)).collect(),
        })
    }

    pub(crate) fn parent(&self) -> Option<&Arc<Scope>> {
        self.parent.as_ref()
    }

    fn cell(&self, r: &VarRef) -> &Mutex<Value> {
        let mut scope = self;
        for _ in 0..r.up {
            scope = scope
                .parent
                .as_deref()
                .expect("the loader resolves variables only to enclosing scopes");
        }
        &scope.slots[r.slot as usize]
    }

    pub(crate) fn get(&self, r: &VarRef) -> Value {
        self.cell(r).lock().clone()
    }

    pub(crate) fn set(&self, r: &VarRef, value: Value) {
        *self.cell(r).lock() = value;
    }

    /// Runs `f` on the slot under its lock (for the feed and fetch holders).
    pub(crate) fn with<R>(&self, r: &VarRef, f: impl FnOnce(&mut Value) -> R) -> R {
        f(&mut self.cell(r).lock())
    }

    pub(crate) fn tensor(&self, r: &VarRef) -> Result<Tensor, String> {
        match &*self.cell(r).lock() {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(format!(
                "`{}` must hold a tensor but holds {}",
                r.name,
                other.describe()
            )),
        }
    }

    pub(crate) fn set_tensor(&self, r: &VarRef, t: Tensor) {
        self.set(r, Value::Tensor(t));
    }

    pub(crate) fn channel(&self, r: &VarRef) -> Result<Arc<TypedChannel>, String> {
        match &*self.cell(r).lock() {
            Value::Channel(c) => Ok(c.clone()),
            other => Err(format!(
                "`{}` must hold a channel (made by channel_create) but holds {}",
                r.name,
                other.describe()
            )),
        }
    }

    /// The one bool of a condition variable (`while`, scalar `conditional_block`).
    pub(crate) fn condition(&self, r: &VarRef) -> Result<bool, String> {
        let t = self.tensor(r)?;
        match t.values::<bool>() {
            Some([b]) => Ok(*b),
            _ => Err(format!(
                "condition `{}` must be a bool tensor with one element, got {} of shape {:?}",
                r.name,
                crate::tensor::dtype_name(t.dtype()),
                t.shape()
            )),
        }
    }
}
