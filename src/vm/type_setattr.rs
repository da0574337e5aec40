//! `type.__setattr__` of a special method reaching the class's existing
//! subclasses, as in CPython.
//!
//! Assigning `Base.__mul__ = f` makes `Sub() * 2` call `f` for a `Sub`
//! defined before the assignment, in CPython (`update_subclasses`).
//! RustPython 0.4 refreshes the operator slots of the assigned class only,
//! so the subclass's slot stays empty and `Sub() * 2` raises TypeError;
//! Paddle 1.x's `math_op_patch` is such an assignment, made after
//! `Parameter(Variable)` exists. The host wraps the type's setattr slot:
//! after the VM's own assignment, each subclass that does not define the
//! name itself gets its slot refreshed by the VM's own code, through a
//! short-lived entry of the name in its dict.
use std::sync::OnceLock;

use rustpython_vm::builtins::{PyList, PyStr, PyType};
use rustpython_vm::function::PySetterValue;
use rustpython_vm::{AsObject, Py, PyObject, PyResult, VirtualMachine};

type Setattro = fn(&PyObject, &Py<PyStr>, PySetterValue, &VirtualMachine) -> PyResult<()>;

/// The VM's own setattr slot of `type` (the types are the process's).
static VM_SETATTR: OnceLock<Option<Setattro>> = OnceLock::new();

/// Wraps `type`'s setattr slot, once per process (the VM's types are
/// shared by its interpreters). Call before any class is made.
pub(crate) fn install(vm: &VirtualMachine) {
    VM_SETATTR.get_or_init(|| {
        let slot = &vm.ctx.types.type_type.slots.setattro;
        let own = slot.load();
        if own.is_some() {
            slot.store(Some(setattro));
        }
        own
    });
}

fn setattro(
    obj: &PyObject,
    name: &Py<PyStr>,
    value: PySetterValue,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let Some(&Some(vm_setattr)) = VM_SETATTR.get() else {
        return Err(vm.new_system_error("type's setattr slot is not installed".to_owned()));
    };
    vm_setattr(obj, name, value, vm)?;
    if SLOT_NAMES.contains(&name.as_str()) {
        if let Some(cls) = obj.downcast_ref::<PyType>() {
            refresh_subclasses(cls, name, vm_setattr, vm)?;
        }
    }
    Ok(())
}

/// The special methods behind a type's slots (CPython's `slotdefs`): the
/// names whose assignment CPython refreshes in subclasses. Others, such as
/// `__module__` or `__qualname__`, are plain attributes or descriptors.
const SLOT_NAMES: &[&str] = &[
    "__getattribute__",
    "__getattr__",
    "__setattr__",
    "__delattr__",
    "__repr__",
    "__hash__",
    "__call__",
    "__str__",
    "__lt__",
    "__le__",
    "__eq__",
    "__ne__",
    "__gt__",
    "__ge__",
    "__iter__",
    "__next__",
    "__get__",
    "__set__",
    "__delete__",
    "__init__",
    "__new__",
    "__del__",
    "__await__",
    "__aiter__",
    "__anext__",
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__mod__",
    "__rmod__",
    "__divmod__",
    "__rdivmod__",
    "__pow__",
    "__rpow__",
    "__neg__",
    "__pos__",
    "__abs__",
    "__bool__",
    "__invert__",
    "__lshift__",
    "__rlshift__",
    "__rshift__",
    "__rrshift__",
    "__and__",
    "__rand__",
    "__xor__",
    "__rxor__",
    "__or__",
    "__ror__",
    "__int__",
    "__float__",
    "__iadd__",
    "__isub__",
    "__imul__",
    "__imod__",
    "__ipow__",
    "__ilshift__",
    "__irshift__",
    "__iand__",
    "__ixor__",
    "__ior__",
    "__floordiv__",
    "__rfloordiv__",
    "__truediv__",
    "__rtruediv__",
    "__ifloordiv__",
    "__itruediv__",
    "__index__",
    "__matmul__",
    "__rmatmul__",
    "__imatmul__",
    "__len__",
    "__getitem__",
    "__setitem__",
    "__delitem__",
    "__contains__",
];

/// Refreshes the slot `name` of each subclass of `cls` (and theirs) that
/// does not define `name` itself.
fn refresh_subclasses(
    cls: &Py<PyType>,
    name: &Py<PyStr>,
    vm_setattr: Setattro,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let key = vm.ctx.intern_str(name.as_str());
    // `type.__subclasses__(cls)`: on a metaclass, `cls.__subclasses__` is
    // the unbound method.
    let subclasses = vm
        .ctx
        .types
        .type_type
        .as_object()
        .get_attr("__subclasses__", vm)?;
    let subs = subclasses.call((cls.to_owned(),), vm)?;
    let subs = subs
        .downcast::<PyList>()
        .map_err(|_| vm.new_type_error("__subclasses__() did not return a list".to_owned()))?;
    for sub in subs.borrow_vec().to_vec() {
        let Some(sub) = sub.downcast_ref::<PyType>() else {
            continue;
        };
        if sub.attributes.read().contains_key(key) {
            continue;
        }
        match sub.get_attr(key) {
            // Inherited: the VM sets the slot to look `name` up through the
            // class's MRO when it is assigned; then the entry goes.
            Some(inherited) => {
                vm_setattr(sub.as_object(), name, PySetterValue::Assign(inherited), vm)?;
                sub.attributes.write().shift_remove(key);
            }
            // Deleted everywhere: assigning and deleting clears the slot,
            // as deleting it from `cls` did.
            None => {
                vm_setattr(
                    sub.as_object(),
                    name,
                    PySetterValue::Assign(vm.ctx.none()),
                    vm,
                )?;
                vm_setattr(sub.as_object(), name, PySetterValue::Delete, vm)?;
            }
        }
        refresh_subclasses(sub, name, vm_setattr, vm)?;
    }
    Ok(())
}
