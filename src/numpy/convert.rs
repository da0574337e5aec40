//! Python values as numpy reads them: operands (arrays strong, Python
//! numbers weak), nested lists (`np.array`), indices, shapes and axes.
use rustpython_vm::builtins::{PyBytes, PyDict, PyFloat, PyInt, PyRange, PySlice, PyStr};
use rustpython_vm::{AsObject, PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

use super::{handle_of, host_error, PyHostArray};
use crate::host::{DType, HostArray, Index, Nested, Operand, Scalar};
use crate::native::convert::sequence;

/// A shape as a Python tuple.
pub fn shape_tuple(shape: &[usize], vm: &VirtualMachine) -> PyObjectRef {
    vm.ctx
        .new_tuple(shape.iter().map(|d| vm.ctx.new_int(*d).into()).collect())
        .into()
}

/// A Python int as i64; one beyond it is numpy's `OverflowError`.
fn int_value(i: &PyInt, vm: &VirtualMachine) -> PyResult<i64> {
    i.try_to_primitive::<i64>(vm).map_err(|_| {
        vm.new_overflow_error(format!(
            "Python integer {} out of bounds for int64",
            i.as_bigint()
        ))
    })
}

/// A Python number (`bool`, `int`, `float` and their subclasses that are
/// not numpy scalars) as a weak scalar.
fn python_scalar(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<Scalar>> {
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(Some(Scalar::Bool(obj.is(&vm.ctx.true_value))));
    }
    if let Some(i) = obj.downcast_ref::<PyInt>() {
        return Ok(Some(Scalar::Int(int_value(i, vm)?)));
    }
    if let Some(f) = obj.downcast_ref::<PyFloat>() {
        return Ok(Some(Scalar::Float(f.to_f64())));
    }
    Ok(None)
}

/// Whether `obj` is exactly a Python `bool`, `int` or `float`.
fn is_exact_number(obj: &PyObject, vm: &VirtualMachine) -> bool {
    let cls = obj.class();
    cls.is(vm.ctx.types.int_type)
        || cls.is(vm.ctx.types.float_type)
        || cls.is(vm.ctx.types.bool_type)
}

/// `obj.__array__()` if it has one (a fluid `LoDTensor`), as a handle.
fn array_protocol(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<PyRef<PyHostArray>>> {
    let Some(method) = vm.get_attribute_opt(obj.to_owned(), "__array__")? else {
        return Ok(None);
    };
    let result = method.call((), vm)?;
    Ok(handle_of(&result, vm))
}

/// A Python value as numpy reads it (`np.array`): numbers, lists and
/// tuples of them, arrays and numpy scalars, `range`s and other
/// sequences, and objects with `__array__`.
pub fn nested(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Nested> {
    nested_at(obj, 0, vm)
}

/// numpy's limit on the dims of an array (`NPY_MAXDIMS`): deeper nesting
/// (a list holding itself, a sequence whose items are sequences without
/// end, as `UserString`'s are) is refused before it exhausts the stack.
const MAX_DIMS: usize = 64;

fn nested_at(obj: &PyObject, depth: usize, vm: &VirtualMachine) -> PyResult<Nested> {
    if depth > MAX_DIMS {
        return Err(vm.new_value_error(format!(
            "setting an array element with a sequence: it nests deeper than {MAX_DIMS} dimensions"
        )));
    }
    if is_exact_number(obj, vm) {
        if let Some(s) = python_scalar(obj, vm)? {
            return Ok(s.into());
        }
    }
    if let Some(items) = sequence(obj) {
        return items
            .iter()
            .map(|o| nested_at(o, depth + 1, vm))
            .collect::<PyResult<Vec<_>>>()
            .map(Nested::List);
    }
    if let Some(h) = handle_of(obj, vm) {
        return Ok(Nested::Array(h.read().clone()));
    }
    if let Some(s) = python_scalar(obj, vm)? {
        return Ok(s.into());
    }
    // `__array__` first: numpy prefers it to the sequence protocol.
    if let Some(h) = array_protocol(obj, vm)? {
        return Ok(Nested::Array(h.read().clone()));
    }
    if obj.downcast_ref::<PyRange>().is_some() || is_other_sequence(obj, vm)? {
        let list = vm
            .ctx
            .types
            .list_type
            .as_object()
            .call((obj.to_owned(),), vm)?;
        return nested_at(&list, depth, vm);
    }
    Err(vm.new_type_error(format!(
        "fluidc's numpy makes arrays of numbers only, not of {}",
        obj.class().name()
    )))
}

/// Whether numpy reads `obj` as a sequence though it is not a list or a
/// tuple: it has `__len__` and `__getitem__` (a `collections.deque`, a
/// user's sequence class), and is not a string or a mapping, which numpy
/// makes an array of one object from.
fn is_other_sequence(obj: &PyObject, vm: &VirtualMachine) -> PyResult<bool> {
    if obj.downcast_ref::<PyStr>().is_some()
        || obj.downcast_ref::<PyBytes>().is_some()
        || obj.downcast_ref::<PyDict>().is_some()
    {
        return Ok(false);
    }
    // A mapping that is not a dict (`UserDict`, a `mappingproxy`): numpy
    // makes an object of it, not a sequence of its keys.
    if vm.get_attribute_opt(obj.to_owned(), "keys")?.is_some() {
        return Ok(false);
    }
    let cls = obj.class();
    Ok(
        cls.has_attr(vm.ctx.intern_str("__len__"))
            && cls.has_attr(vm.ctx.intern_str("__getitem__")),
    )
}

/// `np.asarray(obj)` as a host array (with `dtype`, numpy's cast).
pub fn to_array(obj: &PyObject, dtype: Option<DType>, vm: &VirtualMachine) -> PyResult<HostArray> {
    if let Some(h) = handle_of(obj, vm) {
        let a = h.read();
        return Ok(match dtype {
            Some(d) if d != a.dtype() => a.astype(d),
            _ => a.clone(),
        });
    }
    let n = nested(obj, vm)?;
    HostArray::from_nested(&n, dtype).map_err(|e| host_error(vm, e))
}

/// An operand of an element-wise function: an array (ndarrays, numpy
/// scalars and lists, strongly typed) or a Python number (weak).
pub enum Held {
    Handle(PyRef<PyHostArray>),
    Owned(HostArray),
    Scalar(Scalar),
}

impl Held {
    /// The operand `obj` is, or `None` when numpy would not take it as a
    /// number (the operator then returns `NotImplemented`).
    pub fn of(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<Held>> {
        if is_exact_number(obj, vm) {
            return Ok(python_scalar(obj, vm)?.map(Held::Scalar));
        }
        if sequence(obj).is_some() || obj.downcast_ref::<PyRange>().is_some() {
            let n = nested(obj, vm)?;
            let a = HostArray::from_nested(&n, None).map_err(|e| host_error(vm, e))?;
            return Ok(Some(Held::Owned(a)));
        }
        if let Some(h) = handle_of(obj, vm) {
            return Ok(Some(Held::Handle(h)));
        }
        if let Some(s) = python_scalar(obj, vm)? {
            return Ok(Some(Held::Scalar(s)));
        }
        if let Some(h) = array_protocol(obj, vm)? {
            return Ok(Some(Held::Handle(h)));
        }
        if is_other_sequence(obj, vm)? {
            let n = nested(obj, vm)?;
            let a = HostArray::from_nested(&n, None).map_err(|e| host_error(vm, e))?;
            return Ok(Some(Held::Owned(a)));
        }
        Ok(None)
    }

    /// The operand, or numpy's `TypeError` for a value it cannot take.
    pub fn require(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Held> {
        Held::of(obj, vm)?.ok_or_else(|| {
            vm.new_type_error(format!(
                "fluidc's numpy takes numbers and arrays of numbers, not {}",
                obj.class().name()
            ))
        })
    }

    /// Whether the operand is an int64 array of numpy's `longlong`
    /// flavour.
    pub fn longlong(&self) -> bool {
        matches!(self, Held::Handle(h) if h.is_longlong())
    }

    /// Runs `f` with the operand.
    pub fn with<R>(&self, f: impl FnOnce(Operand<'_>) -> R) -> R {
        match self {
            Held::Handle(h) => {
                let a = h.read();
                f(Operand::Array(&a))
            }
            Held::Owned(a) => f(Operand::Array(a)),
            Held::Scalar(s) => f(Operand::Scalar(*s)),
        }
    }

    /// The operand as an array (a Python number as numpy's default dtype
    /// for it).
    pub fn array(&self) -> HostArray {
        match self {
            Held::Handle(h) => h.read().clone(),
            Held::Owned(a) => a.clone(),
            Held::Scalar(s) => HostArray::scalar(DType::default_for(s.kind()), *s),
        }
    }
}

/// Runs `f` with two operands.
pub fn with2<R>(a: &Held, b: &Held, f: impl FnOnce(Operand<'_>, Operand<'_>) -> R) -> R {
    a.with(|x| b.with(|y| f(x, y)))
}

/// An integer argument (a Python int, a numpy integer, `__index__`).
pub fn index_int(obj: &PyObject, vm: &VirtualMachine) -> PyResult<i64> {
    if obj.class().is(vm.ctx.types.bool_type) {
        return Ok(i64::from(obj.is(&vm.ctx.true_value)));
    }
    if let Some(i) = obj.downcast_ref::<PyInt>() {
        return int_value(i, vm);
    }
    let i = obj.try_index(vm)?;
    int_value(&i, vm)
}

/// A Python number or numpy scalar as a scalar (`np.arange`'s bounds,
/// `np.full`'s value).
pub fn scalar_arg(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Scalar> {
    if let Some(h) = handle_of(obj, vm) {
        let a = h.read();
        if a.size() == 1 {
            return a.item().map_err(|e| host_error(vm, e));
        }
        return Err(vm.new_type_error(
            "only 0-dimensional arrays can be converted to Python scalars".to_owned(),
        ));
    }
    if let Some(s) = python_scalar(obj, vm)? {
        return Ok(s);
    }
    if let Ok(i) = obj.try_index(vm) {
        return Ok(Scalar::Int(int_value(&i, vm)?));
    }
    let f = obj.try_float(vm)?;
    Ok(Scalar::Float(f.to_f64()))
}

/// A float argument (`rtol`, `np.linspace`'s ends).
pub fn float_arg(obj: &PyObject, vm: &VirtualMachine) -> PyResult<f64> {
    Ok(scalar_arg(obj, vm)?.as_f64())
}

/// A shape: an int or a sequence of ints (negative dimensions are numpy's
/// `ValueError`).
pub fn shape_arg(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<usize>> {
    signed_shape(obj, vm)?
        .into_iter()
        .map(|d| {
            usize::try_from(d)
                .map_err(|_| vm.new_value_error("negative dimensions are not allowed".to_owned()))
        })
        .collect()
}

/// A shape that may hold `-1` (`reshape`).
pub fn signed_shape(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<i64>> {
    if let Some(items) = sequence(obj) {
        return items.iter().map(|d| shape_item(d, vm)).collect();
    }
    if let Some(h) = handle_of(obj, vm) {
        let a = h.read();
        if a.ndim() == 1 && a.dtype().is_int() {
            return Ok(a.to_vec::<i64>());
        }
    }
    Ok(vec![shape_item(obj, vm)?])
}

fn shape_item(obj: &PyObject, vm: &VirtualMachine) -> PyResult<i64> {
    index_int(obj, vm).map_err(|_| {
        vm.new_type_error(format!(
            "'{}' object cannot be interpreted as an integer",
            obj.class().name()
        ))
    })
}

/// An `axis` argument: `None`, an int, or a tuple of ints.
pub enum Axes {
    All,
    One(i64),
    Many(Vec<i64>),
}

pub fn axes_arg(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Axes> {
    if vm.is_none(obj) {
        return Ok(Axes::All);
    }
    if let Some(items) = sequence(obj) {
        return items
            .iter()
            .map(|d| index_int(d, vm))
            .collect::<PyResult<Vec<i64>>>()
            .map(Axes::Many);
    }
    Ok(Axes::One(index_int(obj, vm)?))
}

/// An optional int (`None` is `None`).
pub fn opt_int(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<i64>> {
    if vm.is_none(obj) {
        Ok(None)
    } else {
        index_int(obj, vm).map(Some)
    }
}

const VALID_INDICES: &str = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices";

/// A subscript (`a[key]`) as numpy's index items.
pub fn index_of(key: &PyObject, vm: &VirtualMachine) -> PyResult<Vec<Index>> {
    if let Some(t) = key.downcast_ref::<rustpython_vm::builtins::PyTuple>() {
        return t.as_slice().iter().map(|k| index_item(k, vm)).collect();
    }
    Ok(vec![index_item(key, vm)?])
}

fn slice_bound(v: Option<&PyObjectRef>, vm: &VirtualMachine) -> PyResult<Option<i64>> {
    match v {
        None => Ok(None),
        Some(v) if vm.is_none(v) => Ok(None),
        Some(v) => index_int(v, vm).map(Some).map_err(|_| {
            vm.new_type_error(
                "slice indices must be integers or None or have an __index__ method".to_owned(),
            )
        }),
    }
}

fn index_item(key: &PyObject, vm: &VirtualMachine) -> PyResult<Index> {
    if vm.is_none(key) {
        return Ok(Index::NewAxis);
    }
    if key.is(&vm.ctx.ellipsis) {
        return Ok(Index::Ellipsis);
    }
    if let Some(s) = key.downcast_ref::<PySlice>() {
        return Ok(Index::Slice(
            slice_bound(s.start.as_ref(), vm)?,
            slice_bound(Some(&s.stop), vm)?,
            slice_bound(s.step.as_ref(), vm)?,
        ));
    }
    if key.class().is(vm.ctx.types.bool_type) {
        let b = key.is(&vm.ctx.true_value);
        return Ok(Index::Array(HostArray::scalar(
            DType::Bool,
            Scalar::Bool(b),
        )));
    }
    if let Some(i) = key.downcast_ref::<PyInt>() {
        return Ok(Index::Int(int_value(i, vm)?));
    }
    if key.downcast_ref::<PyFloat>().is_some() && handle_of(key, vm).is_none() {
        return Err(vm.new_index_error(VALID_INDICES.to_owned()));
    }
    if sequence(key).is_some() {
        let n = nested(key, vm)?;
        let a = HostArray::from_nested(&n, None).map_err(|e| host_error(vm, e))?;
        return array_index(a, vm);
    }
    if let Some(h) = handle_of(key, vm) {
        let a = h.read().clone();
        // A float numpy scalar is no integer; a 0-d float array is a float
        // array.
        let scalar = super::classes(vm).is_some_and(|(array, _)| !key.fast_isinstance(&array));
        if a.ndim() == 0 && a.dtype().is_float() && scalar {
            return Err(vm.new_index_error(VALID_INDICES.to_owned()));
        }
        if a.ndim() == 0 && a.dtype().is_int() {
            return Ok(Index::Int(
                a.item()
                    .map_err(|e| host_error(vm, e))?
                    .as_i64()
                    .map_err(|e| host_error(vm, e))?,
            ));
        }
        return array_index(a, vm);
    }
    if let Ok(i) = key.try_index(vm) {
        return Ok(Index::Int(int_value(&i, vm)?));
    }
    Err(vm.new_index_error(VALID_INDICES.to_owned()))
}

fn array_index(a: HostArray, vm: &VirtualMachine) -> PyResult<Index> {
    if a.dtype().is_float() && a.size() > 0 {
        return Err(vm.new_index_error(
            "arrays used as indices must be of integer (or boolean) type".to_owned(),
        ));
    }
    Ok(Index::Array(a))
}
