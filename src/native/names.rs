//! `_fluidc.UniqueNameGenerator`: Paddle's `unique_name` counters,
//! `key_0`, `key_1`, ... one counter per key, after an optional prefix.
//!
//! Native because every layer call names its outputs through it, and the
//! same counter in Python cost the VM as much as appending the op.
use std::collections::HashMap;

use parking_lot::Mutex;
use rustpython_vm::builtins::{PyStrRef, PyTypeRef};
use rustpython_vm::function::{FuncArgs, OptionalArg};
use rustpython_vm::types::{Callable, Constructor};
use rustpython_vm::{pyclass, PyObjectRef, PyPayload, PyResult, VirtualMachine};

#[pyclass(module = "_fluidc", name = "UniqueNameGenerator")]
#[derive(Debug, PyPayload)]
pub struct UniqueNameGenerator {
    prefix: String,
    ids: Mutex<HashMap<String, u64>>,
}

impl Constructor for UniqueNameGenerator {
    type Args = OptionalArg<Option<PyStrRef>>;
    fn py_new(cls: PyTypeRef, prefix: Self::Args, vm: &VirtualMachine) -> PyResult {
        let prefix = prefix
            .flatten()
            .map(|p| p.as_str().to_string())
            .unwrap_or_default();
        UniqueNameGenerator {
            prefix,
            ids: Mutex::new(HashMap::new()),
        }
        .into_ref_with_type(vm, cls)
        .map(Into::into)
    }
}

impl Callable for UniqueNameGenerator {
    type Args = FuncArgs;
    /// `generator(key)`: the next name for `key`.
    fn call(zelf: &rustpython_vm::Py<Self>, args: FuncArgs, vm: &VirtualMachine) -> PyResult {
        let (key,): (PyStrRef,) = args.bind(vm)?;
        let key = key.as_str();
        let mut ids = zelf.ids.lock();
        let n = match ids.get_mut(key) {
            Some(n) => n,
            None => ids.entry(key.to_string()).or_insert(0),
        };
        let name = format!("{}{key}_{n}", zelf.prefix);
        *n += 1;
        Ok(vm.ctx.new_str(name).into())
    }
}

#[pyclass(with(Constructor, Callable))]
impl UniqueNameGenerator {
    /// The prefix every name starts with.
    #[pygetset]
    fn prefix(&self) -> String {
        self.prefix.clone()
    }

    /// The counters: how many names each key has had (a copy).
    #[pygetset]
    fn ids(&self, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let dict = vm.ctx.new_dict();
        for (k, n) in self.ids.lock().iter() {
            dict.set_item(k.as_str(), vm.ctx.new_int(*n).into(), vm)?;
        }
        Ok(dict.into())
    }
}
