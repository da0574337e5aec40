//! `py_func`'s side in the host (1.x's `g_py_callables` and
//! `CallPythonFunc` in `py_func_op.cc`): the Python callables a script
//! registers (`core._append_python_callable_object_and_return_id`, which
//! `layers.py_func` calls with its `PyFuncRegistry` objects), and the
//! runtime's [`fluidc_runtime::Host`] that calls them when a `py_func` op
//! runs, with the op's tensors as `LoDTensor`s and the returned ones back.
//!
//! An exception the callable raises is kept ([`PyFuncs::take_raised`]) so
//! that `Executor.run` raises it again, as 1.x's pybind11 did: the script
//! sees the function's own exception, with its traceback.
use fluidc_runtime::{KernelError, Tensor};
use parking_lot::Mutex;
use rustpython_vm::builtins::{PyBaseExceptionRef, PyTuple};
use rustpython_vm::{AsObject, PyObjectRef, PyResult, VirtualMachine};

use super::session::{lod_from_py, tensor_to_py};
use crate::numpy::array_handle;

/// The module of the package that converts between runtime tensors and
/// `LoDTensor`s for the callables.
const TENSORS: &str = "paddle.fluid.lod_tensor_core";

/// The registered callables, by id, and the exception the last call raised.
#[derive(Debug, Default)]
pub struct PyFuncs {
    callables: Mutex<Vec<PyObjectRef>>,
    raised: Mutex<Option<PyBaseExceptionRef>>,
}

impl PyFuncs {
    /// Registers `callable`; its id is its index (1.x's
    /// `AppendPythonCallableObjectAndReturnId`).
    pub fn append(&self, callable: PyObjectRef) -> usize {
        let mut c = self.callables.lock();
        c.push(callable);
        c.len() - 1
    }

    /// The exception a callable raised in the run that just failed.
    pub fn take_raised(&self) -> Option<PyBaseExceptionRef> {
        self.raised.lock().take()
    }

    fn call_on(
        &self,
        vm: &VirtualMachine,
        callable: &PyObjectRef,
        inputs: &[Option<Tensor>],
    ) -> Result<Vec<Option<Tensor>>, String> {
        let raised = |e: PyBaseExceptionRef| {
            let text = exception_text(vm, &e);
            *self.raised.lock() = Some(e);
            text
        };
        vm.import(TENSORS, 0).map_err(raised)?;
        let module = vm
            .sys_module
            .get_attr("modules", vm)
            .and_then(|m| m.get_item(TENSORS, vm))
            .map_err(raised)?;
        let to_tensor = module.get_attr("_from_runtime", vm).map_err(raised)?;
        let mut args = Vec::with_capacity(inputs.len());
        for t in inputs {
            args.push(match t {
                Some(t) => {
                    let pair = tensor_to_py(t, vm).map_err(raised)?;
                    to_tensor.call((pair,), vm).map_err(raised)?
                }
                None => vm.ctx.none(),
            });
        }
        let returned = callable.call(args, vm).map_err(raised)?;
        let Ok(returned) = returned.downcast::<PyTuple>() else {
            return Err("the Python function's wrapper must return a tuple".into());
        };
        let to_runtime = module.get_attr("_to_runtime", vm).map_err(raised)?;
        let mut out = Vec::with_capacity(returned.len());
        for (i, item) in returned.iter().enumerate() {
            if vm.is_none(item) {
                out.push(None);
                continue;
            }
            let pair = to_runtime.call((item.clone(),), vm).map_err(raised)?;
            if vm.is_none(&pair) {
                return Err(format!("The {i}-th output must be LoDTensor"));
            }
            out.push(Some(runtime_tensor(&pair, vm).map_err(|e| {
                format!("the {i}-th output: {}", exception_text(vm, &e))
            })?));
        }
        Ok(out)
    }
}

/// A tensor from the `(array, lod)` pair `_to_runtime` gives.
fn runtime_tensor(pair: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Tensor> {
    let items = super::convert::sequence(pair)
        .filter(|p| p.len() == 2)
        .ok_or_else(|| vm.new_type_error("a tensor is (array, lod)".into()))?;
    let array = array_handle(&items[0], vm)?;
    let lod = lod_from_py(&items[1], vm)?;
    let a = array.read();
    let rows = a.shape().first().copied().unwrap_or(1);
    Tensor::check_lod(&lod, rows).map_err(|e| vm.new_value_error(e.to_string()))?;
    let t = a
        .to_tensor()
        .map_err(|e| vm.new_value_error(String::from(e)))?;
    Ok(t.with_lod(lod))
}

/// `TypeName: message`, as the last line of a traceback.
fn exception_text(vm: &VirtualMachine, e: &PyBaseExceptionRef) -> String {
    let name = e.class().name().to_string();
    match e.as_object().str(vm) {
        Ok(s) if !s.as_str().is_empty() => format!("{name}: {}", s.as_str()),
        _ => name,
    }
}

impl fluidc_runtime::Host for PyFuncs {
    fn call(
        &self,
        id: i64,
        inputs: Vec<Option<Tensor>>,
    ) -> Result<Vec<Option<Tensor>>, KernelError> {
        let callable = usize::try_from(id)
            .ok()
            .and_then(|i| self.callables.lock().get(i).cloned())
            .ok_or_else(|| KernelError::Invalid(format!("Invalid python callable id {id}")))?;
        rustpython_vm::vm::thread::with_vm(&callable, |vm| self.call_on(vm, &callable, &inputs))
            .unwrap_or_else(|| {
                Err(
                    "py_func's Python function can only run on the script's thread \
                     (not in a ParallelExecutor's places)"
                        .into(),
                )
            })
            .map_err(KernelError::Invalid)
    }
}
