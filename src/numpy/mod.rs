//! `_numpy`: the native half of fluidc's `numpy` (SPEC §8.2).
//!
//! The semantics are [`crate::host`]'s (numpy's dtypes, promotion,
//! broadcasting, indexing, printing byte for byte, MT19937). This module
//! gives the VM one handle type, [`PyHostArray`], and functions over it;
//! the Python half (`src/python/numpy/`) is the `ndarray` class scripts
//! see, whose methods and operators call these functions.
use parking_lot::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use rustpython_vm::builtins::PyModule;
use rustpython_vm::class::PyClassImpl;
use rustpython_vm::PyRef;
use rustpython_vm::{
    pyclass, AsObject, PyObject, PyObjectRef, PyPayload, PyResult, VirtualMachine,
};

use rustpython_vm::builtins::{PyBaseExceptionRef, PyFloat, PyInt, PyStrRef};

use crate::host::{DType, ErrorKind, HostArray, HostError, Nested};

/// The module's name in the VM.
pub const MODULE: &str = "_numpy";

/// An n-d array's storage: one [`HostArray`], written in place by item
/// assignment.
#[pyclass(module = "_numpy", name = "HostArray")]
#[derive(Debug, PyPayload)]
pub struct PyHostArray {
    array: RwLock<HostArray>,
}

impl PyHostArray {
    pub fn new(array: HostArray) -> PyHostArray {
        PyHostArray {
            array: RwLock::new(array),
        }
    }

    pub fn read(&self) -> RwLockReadGuard<'_, HostArray> {
        self.array.read()
    }

    pub fn write(&self) -> RwLockWriteGuard<'_, HostArray> {
        self.array.write()
    }

    pub fn into_pyobject(self, vm: &VirtualMachine) -> PyObjectRef {
        self.into_ref(&vm.ctx).into()
    }
}

#[pyclass]
impl PyHostArray {
    /// The shape, a tuple.
    #[pygetset]
    fn shape(&self, vm: &VirtualMachine) -> PyObjectRef {
        let a = self.read();
        vm.ctx
            .new_tuple(
                a.shape()
                    .iter()
                    .map(|d| vm.ctx.new_int(*d).into())
                    .collect(),
            )
            .into()
    }

    /// The dtype's name (`float32`).
    #[pygetset]
    fn dtype(&self) -> &'static str {
        self.read().dtype().name()
    }
}

/// A numpy error as the Python exception numpy raises.
pub fn host_error(vm: &VirtualMachine, e: HostError) -> PyBaseExceptionRef {
    let message = e.message.clone();
    match e.kind {
        ErrorKind::TypeError => vm.new_type_error(message),
        ErrorKind::IndexError => vm.new_index_error(message),
        ErrorKind::OverflowError => vm.new_overflow_error(message),
        ErrorKind::ZeroDivisionError => vm.new_zero_division_error(message),
        _ => vm.new_value_error(message),
    }
}

/// A Python value as numpy reads it (`np.array`): scalars, lists and
/// tuples of them, and arrays.
pub fn nested(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Nested> {
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(Nested::Bool(obj.is(&vm.ctx.true_value)));
    }
    if let Some(i) = obj.downcast_ref::<PyInt>() {
        return Ok(Nested::Int(i.try_to_primitive::<i64>(vm)?));
    }
    if let Some(f) = obj.downcast_ref::<PyFloat>() {
        return Ok(Nested::Float(f.to_f64()));
    }
    if let Ok(h) = array_handle(obj, vm) {
        return Ok(Nested::Array(h.read().clone()));
    }
    if let Some(items) = crate::native::convert::sequence(obj) {
        return items
            .iter()
            .map(|o| nested(o, vm))
            .collect::<PyResult<Vec<_>>>()
            .map(Nested::List);
    }
    Err(vm.new_type_error(format!(
        "a numpy array holds numbers, not {}",
        obj.class().name()
    )))
}

fn dtype_arg(name: Option<PyStrRef>, vm: &VirtualMachine) -> PyResult<Option<DType>> {
    match name {
        None => Ok(None),
        Some(n) => DType::from_name(n.as_str())
            .map(Some)
            .ok_or_else(|| vm.new_type_error(format!("data type '{}' not understood", n.as_str()))),
    }
}

/// `np.array(value, dtype)`: numpy's dtype discovery, or the given dtype.
fn from_py(
    value: PyObjectRef,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult<PyHostArray> {
    let n = nested(&value, vm)?;
    let a = HostArray::from_nested(&n, dtype_arg(dtype, vm)?).map_err(|e| host_error(vm, e))?;
    Ok(PyHostArray::new(a))
}

fn to_py(n: &Nested, vm: &VirtualMachine) -> PyObjectRef {
    match n {
        Nested::Bool(b) => vm.ctx.new_bool(*b).into(),
        Nested::Int(i) => vm.ctx.new_int(*i).into(),
        Nested::Float(f) => vm.ctx.new_float(*f).into(),
        Nested::List(items) => vm
            .ctx
            .new_list(items.iter().map(|i| to_py(i, vm)).collect())
            .into(),
        Nested::Array(a) => to_py(&a.tolist(), vm),
    }
}

/// `a.tolist()`: nested lists of Python numbers (a 0-d array: the number).
fn tolist(a: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyObjectRef {
    to_py(&a.read().tolist(), vm)
}

/// numpy's `repr` and `str` of an array, and of a numpy scalar (a 0-d
/// array printed as a scalar: `1.5` and `np.float32(1.5)`).
fn format(a: PyRef<PyHostArray>, how: PyStrRef, vm: &VirtualMachine) -> PyResult<String> {
    let a = a.read();
    Ok(match how.as_str() {
        "repr" => crate::host::array_repr(&a),
        "str" => crate::host::array_str(&a),
        "scalar_repr" => crate::host::scalar_repr(&a),
        "scalar_str" => crate::host::scalar_str(&a),
        other => return Err(vm.new_value_error(format!("no format `{other}`"))),
    })
}

/// `a.astype(dtype)`: a new array.
fn astype(a: PyRef<PyHostArray>, dtype: PyStrRef, vm: &VirtualMachine) -> PyResult<PyHostArray> {
    let d = dtype_arg(Some(dtype), vm)?.unwrap_or(DType::Float64);
    Ok(PyHostArray::new(a.read().astype(d)))
}

/// `a.reshape(shape)` (one dim may be -1).
fn reshape(a: PyRef<PyHostArray>, shape: Vec<i64>, vm: &VirtualMachine) -> PyResult<PyHostArray> {
    let r = a.read().reshape(&shape).map_err(|e| host_error(vm, e))?;
    Ok(PyHostArray::new(r))
}

/// The storage of an array argument: a handle, or an `ndarray` (its `_h`).
pub fn array_handle(obj: &PyObject, vm: &VirtualMachine) -> PyResult<PyRef<PyHostArray>> {
    if let Ok(h) = obj.to_owned().downcast::<PyHostArray>() {
        return Ok(h);
    }
    let h = obj.get_attr("_h", vm).map_err(|_| {
        vm.new_type_error(format!(
            "expected a numpy array, not {}",
            obj.class().name()
        ))
    })?;
    h.downcast::<PyHostArray>()
        .map_err(|o| vm.new_type_error(format!("expected a numpy array, not {}", o.class().name())))
}

/// Creates the `_numpy` module.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let m = module.as_object();
    let _ = m.set_attr("HostArray", PyHostArray::make_class(&vm.ctx), vm);
    let _ = m.set_attr("from_py", vm.new_function("from_py", from_py), vm);
    let _ = m.set_attr("tolist", vm.new_function("tolist", tolist), vm);
    let _ = m.set_attr("format", vm.new_function("format", format), vm);
    let _ = m.set_attr("astype", vm.new_function("astype", astype), vm);
    let _ = m.set_attr("reshape", vm.new_function("reshape", reshape), vm);
    module
}
