pub use crate::{
    object::{
        AsObject, Py, PyExact, PyObject, PyObjectRef, PyPayload, PyRef, PyRefExact, PyResult,
        PyWeakRef,
    },
    vm::{Context, Interpreter, Settings, VirtualMachine},
};
