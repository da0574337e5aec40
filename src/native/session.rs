//! `_fluidc.Session`: the runtime session of one scope (1.x's
//! `core.Scope` with the executor's program cache), and the conversions
//! between host arrays with LoD and runtime tensors.
use std::sync::Arc;

use fluidc_runtime::tensor::Lod;
use fluidc_runtime::Tensor;
use fluidc_transpiler::Verified;
use parking_lot::Mutex;
use rustpython_vm::builtins::PyStrRef;
use rustpython_vm::{pyclass, PyObjectRef, PyPayload, PyResult, VirtualMachine};

use crate::host::{DType, HostArray};
use crate::numpy::{array_handle, PyHostArray};

/// A scope: the persistable variables between runs.
#[pyclass(module = "_fluidc", name = "Session")]
#[derive(Debug, PyPayload)]
pub struct Session {
    pub inner: Arc<Mutex<fluidc_runtime::Session>>,
}

impl Session {
    pub fn wrap(inner: Arc<Mutex<fluidc_runtime::Session>>) -> Session {
        Session { inner }
    }

    /// The runtime session, for the script's thread. It is held only while
    /// the scope runs a program, so when it is taken the caller is a
    /// `py_func`'s function inside that run: 1.x let it read the scope, but
    /// fluidc has moved the scope's variables into the run, so it raises
    /// (where waiting would hang the script).
    pub fn lock(
        &self,
        vm: &VirtualMachine,
    ) -> PyResult<parking_lot::MutexGuard<'_, fluidc_runtime::Session>> {
        self.inner.try_lock().ok_or_else(|| {
            vm.new_exception_msg(
                vm.ctx.exceptions.not_implemented_error.to_owned(),
                "this scope is running a program: a py_func's function cannot use the scope \
                 (read or set its variables, make a fluid.Scope() beside it, run a program \
                 in it) while the program runs; give the function what it needs as inputs"
                    .into(),
            )
        })
    }
}

#[pyclass]
impl Session {
    /// `(array, lod)` of the tensor the scope holds for `name`, or None.
    #[pymethod]
    fn tensor(&self, name: PyStrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let t = self.lock(vm)?.tensor(name.as_str());
        match t {
            Some(t) => tensor_to_py(&t, vm),
            None => Ok(vm.ctx.none()),
        }
    }

    /// Sets the scope's tensor `name` to an array with LoD.
    #[pymethod]
    fn set_tensor(
        &self,
        name: PyStrRef,
        array: PyObjectRef,
        lod: PyObjectRef,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        let t = tensor_from_py(&name, &array, &lod, vm)?;
        self.lock(vm)?.set_tensor(name.as_str(), t);
        Ok(())
    }

    /// Sets the scope's tensor array `name` to `arrays` with `lods`.
    #[pymethod]
    fn set_tensor_array(
        &self,
        name: PyStrRef,
        arrays: Vec<PyObjectRef>,
        lods: Vec<PyObjectRef>,
        vm: &VirtualMachine,
    ) -> PyResult<()> {
        if arrays.len() != lods.len() {
            return Err(vm.new_value_error("one LoD per array".to_string()));
        }
        let tensors = arrays
            .iter()
            .zip(&lods)
            .map(|(array, lod)| tensor_from_py(&name, array, lod, vm))
            .collect::<PyResult<Vec<_>>>()?;
        self.lock(vm)?.set_tensor_array(name.as_str(), tensors);
        Ok(())
    }

    /// The `(array, lod)` elements (None where never written) of the
    /// tensor array the scope holds for `name`, or None.
    #[pymethod]
    fn tensor_array(&self, name: PyStrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let Some(items) = self.lock(vm)?.tensor_array(name.as_str()) else {
            return Ok(vm.ctx.none());
        };
        let mut out = Vec::with_capacity(items.len());
        for t in items {
            out.push(match t {
                Some(t) => tensor_to_py(&t, vm)?,
                None => vm.ctx.none(),
            });
        }
        Ok(vm.ctx.new_list(out).into())
    }

    /// The `(index, length)` items of the rank table the scope holds for
    /// `name`, longest first, or None.
    #[pymethod]
    fn rank_table(&self, name: PyStrRef, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        Ok(match self.lock(vm)?.rank_table(name.as_str()) {
            Some(items) => vm
                .ctx
                .new_list(
                    items
                        .into_iter()
                        .map(|(i, n)| {
                            vm.ctx
                                .new_tuple(vec![vm.ctx.new_int(i).into(), vm.ctx.new_int(n).into()])
                                .into()
                        })
                        .collect(),
                )
                .into(),
            None => vm.ctx.none(),
        })
    }

    /// Whether the scope holds a variable `name`.
    #[pymethod]
    fn holds(&self, name: PyStrRef, vm: &VirtualMachine) -> PyResult<bool> {
        Ok(self.lock(vm)?.holds(name.as_str()))
    }

    /// The names the scope holds, sorted.
    #[pymethod]
    fn names(&self, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
        let s = self.lock(vm)?;
        Ok(vm
            .ctx
            .new_list(
                s.names()
                    .into_iter()
                    .map(|n| vm.ctx.new_str(n).into())
                    .collect(),
            )
            .into())
    }
}

/// A tensor as `(array, lod)` for Python.
pub fn tensor_to_py(t: &Tensor, vm: &VirtualMachine) -> PyResult<PyObjectRef> {
    let a = HostArray::from_tensor(t).map_err(|e| vm.new_value_error(String::from(e)))?;
    let lod: Vec<PyObjectRef> = t
        .lod()
        .iter()
        .map(|level| {
            vm.ctx
                .new_list(level.iter().map(|o| vm.ctx.new_int(*o).into()).collect())
                .into()
        })
        .collect();
    Ok(vm
        .ctx
        .new_tuple(vec![
            PyHostArray::new(a).into_pyobject(vm),
            vm.ctx.new_list(lod).into(),
        ])
        .into())
}

/// LoD offsets from a list of lists of ints (None: no LoD).
pub fn lod_from_py(obj: &PyObjectRef, vm: &VirtualMachine) -> PyResult<Lod> {
    if vm.is_none(obj) {
        return Ok(Vec::new());
    }
    let levels = super::convert::sequence(obj)
        .ok_or_else(|| vm.new_type_error("a LoD is a list of lists of offsets".into()))?;
    levels
        .iter()
        .map(|l| {
            let offs = super::convert::sequence(l)
                .ok_or_else(|| vm.new_type_error("a LoD level is a list of offsets".into()))?;
            offs.iter()
                .map(|o| rustpython_vm::TryFromObject::try_from_object(vm, o.clone()))
                .collect::<PyResult<Vec<usize>>>()
        })
        .collect()
}

/// A fed value as the variable's declared dtype (Paddle converts a list
/// or a number), or in its own with `keep_dtype` (a numpy array or a
/// LoDTensor, which Paddle's feed op set as it was); a shape or a kept
/// dtype that does not fit a variable declared with need_check_feed
/// (`fluid.data`) is refused, as Paddle's `check_feed_shape_type` does.
pub fn feed_tensor(
    program: &Verified,
    name: &str,
    value: &HostArray,
    lod: Lod,
    keep_dtype: bool,
) -> Result<Tensor, String> {
    let Some(var) = program.blocks[0].var(name) else {
        return Err(format!(
            "cannot feed `{name}`: it is not a variable of the program's global block"
        ));
    };
    let checked = var.need_check_feed.unwrap_or(false);
    let mut value = match var.dtype().and_then(dtype_of) {
        Some(d) if d != value.dtype() && !keep_dtype => value.astype(d),
        Some(d) if d != value.dtype() && checked => {
            return Err(format!(
                "The data type of fed Variable '{name}' must be '{}', but received '{}'",
                d.name(),
                value.dtype().name()
            ))
        }
        _ => value.clone(),
    };
    if let Some(dims) = var.tensor_desc().map(|t| &t.dims) {
        if value.size() == 1
            && value.ndim() != dims.len()
            && dims.iter().all(|d| *d == 1 || *d == -1)
        {
            // One value for a one-element variable (`[1]`, a scalar).
            value = value.reshape(&vec![1; dims.len()]).map_err(String::from)?;
        }
        let shape = value.shape();
        // Paddle checks a fed shape only for variables that ask for it
        // (`fluid.data`'s need_check_feed); `layers.data` takes any shape.
        let fits = !checked
            || dims.len() == shape.len()
                && dims
                    .iter()
                    .zip(shape)
                    .all(|(&d, &s)| d < 0 || d as usize == s);
        if !fits {
            return Err(format!(
                "cannot feed `{name}`: the value has shape {shape:?} but `{name}` is declared {dims:?} \
                 (-1 is any size); reshape the value"
            ));
        }
    }
    let rows = value.shape().first().copied().unwrap_or(1);
    Tensor::check_lod(&lod, rows).map_err(|e| format!("cannot feed `{name}`: {e}"))?;
    Ok(value.to_tensor().map_err(String::from)?.with_lod(lod))
}

/// The host dtype of a program dtype.
fn dtype_of(kind: fluidc_transpiler::VarKind) -> Option<DType> {
    DType::from_name(fluidc_transpiler::model::dtype_name(kind))
}

/// A numpy array with LoD as a tensor of the scope's variable `name`
/// (the LoD checked against its rows).
fn tensor_from_py(
    name: &PyStrRef,
    array: &PyObjectRef,
    lod: &PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<Tensor> {
    let array = array_handle(array, vm)?;
    let lod = lod_from_py(lod, vm)?;
    let a = array.read();
    let rows = a.shape().first().copied().unwrap_or(1);
    Tensor::check_lod(&lod, rows)
        .map_err(|e| vm.new_value_error(format!("cannot set `{}`: {e}", name.as_str())))?;
    Ok(a.to_tensor()
        .map_err(|e| vm.new_value_error(String::from(e)))?
        .with_lod(lod))
}
