//! `_numpy`: the native half of fluidc's `numpy` (docs/numpy.md).
//!
//! The semantics are [`crate::host`]'s (numpy's dtypes, promotion,
//! broadcasting, indexing, printing byte for byte, MT19937). This module
//! gives the VM one handle type, [`PyHostArray`], and functions over it;
//! the Python half (`src/python/numpy/`) is the `ndarray` class and the
//! numpy scalar types scripts see, whose methods and operators call these
//! functions.
//!
//! - `convert`: Python values as numpy reads them (operands, nested
//!   lists, indices, shapes, scalars);
//! - `ops`: element-wise functions (operators with Python scalars as weak
//!   operands, in-place operators, math functions, closeness);
//! - `array`: making, reshaping, joining and indexing arrays;
//! - `reduce`: reductions with `axis` (an int or a tuple), `keepdims`,
//!   `dtype` and `ddof`, and the cumulative and sorting functions;
//! - `random`: numpy's legacy `RandomState`.
//!
//! Results come back to Python as instances of the classes the Python half
//! registers (`register`): an `ndarray`, or a numpy scalar for a 0-d
//! result of a ufunc or a reduction, as in numpy ([`wrap_any`]); array
//! functions always give arrays ([`wrap_array`]).
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

use parking_lot::{RwLock, RwLockReadGuard, RwLockWriteGuard};
use rustpython_vm::builtins::{PyBaseExceptionRef, PyFloat, PyModule, PyStrRef, PyType, PyTypeRef};
use rustpython_vm::class::PyClassImpl;
use rustpython_vm::{
    pyclass, AsObject, PyObject, PyObjectRef, PyPayload, PyRef, PyResult, VirtualMachine,
};

use crate::host::strided::Strided;
use crate::host::{DType, ErrorKind, HostArray, HostError};

mod array;
mod convert;
mod ops;
mod random;
mod reduce;

pub use convert::nested;

/// The module's name in the VM.
pub const MODULE: &str = "_numpy";

/// An n-d array's storage: one [`HostArray`], written in place by item
/// assignment and in-place operators; or a view of another array.
///
/// An int64 array may be numpy's `longlong` flavour (dtype char `q`, not
/// `l`): the arrays Paddle gives for int64 tensors are, and numpy prints
/// them with `dtype=int64` in their `repr`. Results keep the flavour where
/// numpy's loops do (`add`, `multiply`, `maximum`, `negative`, `where`,
/// `sum`, `sort`, copies and reshapes, ...), not where they give `l`
/// (`floor_divide`, `remainder`, bitwise functions, `argmax`, ...).
#[pyclass(module = "_numpy", name = "HostArray")]
#[derive(Debug, PyPayload)]
pub struct PyHostArray {
    /// The values; for a view, the last ones it read or wrote (what it
    /// gives if its base was resized under it).
    array: RwLock<HostArray>,
    longlong: AtomicBool,
    view: Option<View>,
}

/// What numpy's basic indexing, `reshape` and `ravel` give: an array that
/// aliases its base, so that `p[i][j] += d`, `for row in a: row[0] = 0`
/// and `a.ravel()[k] = v` change `a`, as the finite-difference checks of
/// 2018 scripts rely on. Reading a view gathers its elements from the
/// base; writing one writes them back when the write guard drops
/// ([`ArrayWrite`]). The base is never itself a view: a view of a view
/// is laid out over the first base ([`Strided`]), as numpy's is.
#[derive(Debug)]
struct View {
    base: PyRef<PyHostArray>,
    layout: RwLock<Strided>,
}

/// What [`PyHostArray::reshape_view`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ViewReshape {
    /// The array is no view: the caller reshapes its storage.
    NotAView,
    Done,
    /// No layout of the base's elements has the new shape.
    Refused,
}

/// [`PyHostArray::read`]'s guard: the array's own storage, or a view's
/// values read from its base.
#[derive(Debug)]
pub enum ArrayRead<'a> {
    Own(RwLockReadGuard<'a, HostArray>),
    View(HostArray),
}

impl std::ops::Deref for ArrayRead<'_> {
    type Target = HostArray;
    fn deref(&self) -> &HostArray {
        match self {
            ArrayRead::Own(g) => g,
            ArrayRead::View(a) => a,
        }
    }
}

/// [`PyHostArray::write`]'s guard: for a view, the values to change,
/// written back into the base when the guard is dropped.
#[derive(Debug)]
pub struct ArrayWrite<'a> {
    own: Option<RwLockWriteGuard<'a, HostArray>>,
    view: Option<(HostArray, &'a PyHostArray)>,
}

impl std::ops::Deref for ArrayWrite<'_> {
    type Target = HostArray;
    fn deref(&self) -> &HostArray {
        match (&self.own, &self.view) {
            (Some(g), _) => g,
            (None, Some((a, _))) => a,
            (None, None) => unreachable!("an ArrayWrite holds its array until dropped"),
        }
    }
}

impl std::ops::DerefMut for ArrayWrite<'_> {
    fn deref_mut(&mut self) -> &mut HostArray {
        match (&mut self.own, &mut self.view) {
            (Some(g), _) => g,
            (None, Some((a, _))) => a,
            (None, None) => unreachable!("an ArrayWrite holds its array until dropped"),
        }
    }
}

impl Drop for ArrayWrite<'_> {
    fn drop(&mut self) {
        if let Some((values, owner)) = self.view.take() {
            owner.write_back(values);
        }
    }
}

impl PyHostArray {
    pub fn new(array: HostArray) -> PyHostArray {
        PyHostArray::with_flavour(array, false)
    }

    /// An array of the `longlong` flavour when `longlong` and int64.
    pub fn with_flavour(array: HostArray, longlong: bool) -> PyHostArray {
        let q = longlong && array.dtype() == DType::Int64;
        PyHostArray {
            array: RwLock::new(array),
            longlong: AtomicBool::new(q),
            view: None,
        }
    }

    /// `h[index]` (basic items only) as a view, at `shape` when given
    /// (a reshape of the indexed part, which must be contiguous), or None
    /// when numpy would copy (an error is left for the copy to report).
    pub fn view_of(
        h: &PyRef<PyHostArray>,
        index: &[crate::host::Index],
        shape: Option<&[usize]>,
    ) -> Option<PyHostArray> {
        let (base, layout) = match &h.view {
            Some(v) => (v.base.clone(), v.layout.read().clone()),
            None => (h.clone(), Strided::whole(h.read().shape())),
        };
        let mut layout = layout.index(index)?;
        if let Some(shape) = shape {
            layout = layout.reshape(shape)?;
        }
        let values = base.read().gather_strided(&layout)?;
        Some(PyHostArray {
            longlong: AtomicBool::new(h.is_longlong()),
            view: Some(View {
                base,
                layout: RwLock::new(layout),
            }),
            array: RwLock::new(values),
        })
    }

    /// Whether the array is int64 of numpy's `longlong` flavour.
    pub fn is_longlong(&self) -> bool {
        self.longlong.load(Ordering::Relaxed) && self.read().dtype() == DType::Int64
    }

    /// The array, for reading. Recursive: `a + a` reads one handle twice
    /// while another thread may be waiting to write it.
    pub fn read(&self) -> ArrayRead<'_> {
        match &self.view {
            None => ArrayRead::Own(self.array.read_recursive()),
            Some(v) => {
                let values = v.base.read().gather_strided(&v.layout.read());
                ArrayRead::View(values.unwrap_or_else(|| self.array.read_recursive().clone()))
            }
        }
    }

    pub fn write(&self) -> ArrayWrite<'_> {
        match &self.view {
            None => ArrayWrite {
                own: Some(self.array.write()),
                view: None,
            },
            Some(_) => ArrayWrite {
                own: None,
                view: Some((self.read().clone(), self)),
            },
        }
    }

    /// Writes a view's new values into its base; kept as the view's last
    /// values too (what it gives if the base is resized under it).
    fn write_back(&self, values: HostArray) {
        let Some(v) = &self.view else { return };
        let layout = v.layout.read().clone();
        if values.size() == layout.size() {
            v.base.write().scatter_strided(&layout, &values);
        }
        *self.array.write() = values;
    }

    /// Whether the elements are one row-major run of the storage (an
    /// array that is not a view always is).
    pub fn is_contiguous(&self) -> bool {
        self.view
            .as_ref()
            .is_none_or(|v| v.layout.read().is_contiguous())
    }

    /// `a.shape = shape` on a view: the view keeps aliasing its base when
    /// its elements allow it; numpy refuses any other shape.
    pub fn reshape_view(&self, shape: &[usize]) -> ViewReshape {
        let Some(v) = &self.view else {
            return ViewReshape::NotAView;
        };
        let Some(new) = v.layout.read().reshape(shape) else {
            return ViewReshape::Refused;
        };
        *v.layout.write() = new;
        ViewReshape::Done
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
        convert::shape_tuple(a.shape(), vm)
    }

    /// The dtype's name (`float32`; `longlong` for int64 of that
    /// flavour).
    #[pygetset]
    fn dtype(&self) -> &'static str {
        if self.is_longlong() {
            "longlong"
        } else {
            self.read().dtype().name()
        }
    }

    #[pygetset]
    fn ndim(&self) -> usize {
        self.read().ndim()
    }

    #[pygetset]
    fn size(&self) -> usize {
        self.read().size()
    }
}

/// A module attribute the Python half registered, if it has.
fn registered(vm: &VirtualMachine, name: &'static str) -> Option<PyObjectRef> {
    let module = vm.import(MODULE, 0).ok()?;
    vm.get_attribute_opt(module, name).ok().flatten()
}

/// A numpy error as the Python exception numpy raises (`AxisError` is
/// `numpy.exceptions.AxisError` once the Python half registered it).
pub fn host_error(vm: &VirtualMachine, e: HostError) -> PyBaseExceptionRef {
    let message = e.message.clone();
    match e.kind {
        ErrorKind::TypeError => vm.new_type_error(message),
        ErrorKind::IndexError => vm.new_index_error(message),
        ErrorKind::OverflowError => vm.new_overflow_error(message),
        ErrorKind::ZeroDivisionError => vm.new_zero_division_error(message),
        ErrorKind::AxisError => registered_error(
            vm,
            "AxisError",
            vm.ctx.exceptions.value_error.to_owned(),
            message,
        ),
        ErrorKind::Unsupported => vm.new_not_implemented_error(message),
        ErrorKind::ValueError => vm.new_value_error(message),
    }
}

/// An exception of a class the Python half registered (`name`), or of
/// `fallback` before it has.
pub(crate) fn registered_error(
    vm: &VirtualMachine,
    name: &'static str,
    fallback: PyTypeRef,
    message: String,
) -> PyBaseExceptionRef {
    // Called, so a Python class's `__init__` runs.
    registered(vm, "_errors")
        .and_then(|errors| errors.get_item(name, vm).ok())
        .and_then(|cls| cls.call((message.clone(),), vm).ok())
        .and_then(|e| {
            e.downcast::<rustpython_vm::builtins::PyBaseException>()
                .ok()
        })
        .unwrap_or_else(|| vm.new_exception_msg(fallback, message))
}

/// Shorthand: a host result as a Python result.
trait HostResult<T> {
    fn py(self, vm: &VirtualMachine) -> PyResult<T>;
}

impl<T> HostResult<T> for Result<T, HostError> {
    fn py(self, vm: &VirtualMachine) -> PyResult<T> {
        self.map_err(|e| host_error(vm, e))
    }
}

thread_local! {
    /// [`classes`] once found, for this thread's VM: every array and scalar
    /// a numpy function returns is an instance of one, and finding them by
    /// name (an import and three lookups) cost more than most operations.
    /// Emptied when a VM makes the module ([`make_module`]) and when a
    /// script's run ends ([`forget_classes`]), so it never outlives its VM.
    static CLASSES: RefCell<Option<(PyTypeRef, PyObjectRef)>> = const { RefCell::new(None) };
}

/// What the Python half registered ([`register`]): the `ndarray` class and
/// the scalar types by dtype name.
pub(crate) fn classes(vm: &VirtualMachine) -> Option<(PyTypeRef, PyObjectRef)> {
    if let Some(found) = CLASSES.with(|c| c.borrow().clone()) {
        return Some(found);
    }
    let registry = registered(vm, "_classes")?;
    let items = crate::native::convert::sequence(&registry)?;
    let [array, scalars] = items.as_slice() else {
        return None;
    };
    let found = (array.clone().downcast::<PyType>().ok()?, scalars.clone());
    CLASSES.with(|c| *c.borrow_mut() = Some(found.clone()));
    Some(found)
}

/// Empties [`classes`]' memory (the VM that registered them is going).
pub fn forget_classes() {
    CLASSES.with(|c| c.borrow_mut().take());
}

/// A new instance of `cls` (a Python class without `__slots__`) whose
/// `_h` is the handle.
fn instance(cls: PyTypeRef, h: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let dict = vm.ctx.new_dict();
    dict.set_item(vm.ctx.intern_str("_h"), h, vm)?;
    Ok(vm.ctx.new_base_object(cls, Some(dict)))
}

/// The array as an `ndarray` (the bare handle before the Python half
/// registered its classes).
pub fn wrap_array(a: HostArray, vm: &VirtualMachine) -> PyResult {
    wrap_array_as(a, false, vm)
}

/// [`wrap_array`] of the `longlong` flavour when `longlong` (and int64).
pub fn wrap_array_as(a: HostArray, longlong: bool, vm: &VirtualMachine) -> PyResult {
    wrap_handle(PyHostArray::with_flavour(a, longlong), vm)
}

/// An `ndarray` over `h` (an array or a view).
pub fn wrap_handle(h: PyHostArray, vm: &VirtualMachine) -> PyResult {
    let h = h.into_pyobject(vm);
    match classes(vm) {
        Some((array, _)) => instance(array, h, vm),
        None => Ok(h),
    }
}

/// A ufunc's or a reduction's result: a numpy scalar when it has no
/// dimensions, else an `ndarray`.
pub fn wrap_any(a: HostArray, vm: &VirtualMachine) -> PyResult {
    wrap_any_as(a, false, vm)
}

/// [`wrap_any`] of the `longlong` flavour when `longlong` (and int64).
pub fn wrap_any_as(a: HostArray, longlong: bool, vm: &VirtualMachine) -> PyResult {
    if a.ndim() != 0 {
        return wrap_array_as(a, longlong, vm);
    }
    Scalars::new(a.dtype(), longlong, vm)?.make(a, vm)
}

/// Makes numpy scalars of one dtype from 0-d arrays, its class found once:
/// iterating over an array makes one per element, and finding the class
/// (an import and three lookups by name) cost more than the scalar.
pub(crate) struct Scalars {
    /// None before the Python half registered its classes (bare handles).
    cls: Option<PyTypeRef>,
    longlong: bool,
}

impl Scalars {
    pub(crate) fn new(dtype: DType, longlong: bool, vm: &VirtualMachine) -> PyResult<Scalars> {
        let longlong = longlong && dtype == DType::Int64;
        let Some((_, scalars)) = classes(vm) else {
            return Ok(Scalars {
                cls: None,
                longlong,
            });
        };
        let name = if longlong { "longlong" } else { dtype.name() };
        let cls = scalars
            .get_item(name, vm)?
            .downcast::<PyType>()
            .map_err(|_| vm.new_type_error("numpy scalar types are classes".to_owned()))?;
        Ok(Scalars {
            cls: Some(cls),
            longlong,
        })
    }

    /// The scalar of the 0-d array `a` (of the dtype given to [`Scalars::new`]).
    pub(crate) fn make(&self, a: HostArray, vm: &VirtualMachine) -> PyResult {
        let value = match a.dtype() {
            DType::Float64 => match a.item() {
                Ok(crate::host::Scalar::Float(f)) => Some(f),
                _ => None,
            },
            _ => None,
        };
        let h = PyHostArray::with_flavour(a, self.longlong).into_pyobject(vm);
        let Some(cls) = &self.cls else {
            return Ok(h);
        };
        match value {
            // `np.float64` is a Python float: the value is its payload.
            Some(f) => {
                let obj = PyFloat::from(f).into_ref_with_type(vm, cls.clone())?;
                obj.as_object().set_attr(vm.ctx.intern_str("_h"), h, vm)?;
                Ok(obj.into())
            }
            None => instance(cls.clone(), h, vm),
        }
    }
}

/// The storage of an array argument: a handle, or an `ndarray` or numpy
/// scalar (its `_h`).
pub fn array_handle(obj: &PyObject, vm: &VirtualMachine) -> PyResult<PyRef<PyHostArray>> {
    if let Ok(h) = obj.to_owned().downcast::<PyHostArray>() {
        return Ok(h);
    }
    let not_array = || {
        vm.new_type_error(format!(
            "expected a numpy array, not {}",
            obj.class().name()
        ))
    };
    let h = h_attr(obj, vm)?.ok_or_else(not_array)?;
    h.downcast::<PyHostArray>().map_err(|_| not_array())
}

/// The handle inside `obj` if it is an array or numpy scalar, without
/// raising.
pub(crate) fn handle_of(obj: &PyObject, vm: &VirtualMachine) -> Option<PyRef<PyHostArray>> {
    if let Some(h) = obj.downcast_ref::<PyHostArray>() {
        return Some(h.to_owned());
    }
    // Python numbers and containers have no `_h`; skip the lookup.
    let cls = obj.class();
    if cls.is(vm.ctx.types.int_type)
        || cls.is(vm.ctx.types.float_type)
        || cls.is(vm.ctx.types.bool_type)
        || cls.is(vm.ctx.types.list_type)
        || cls.is(vm.ctx.types.tuple_type)
        || cls.is(vm.ctx.types.none_type)
    {
        return None;
    }
    h_attr(obj, vm)
        .ok()
        .flatten()
        .and_then(|h| h.downcast::<PyHostArray>().ok())
}

/// `obj._h`, read from the instance's dict when it is there, as every
/// `ndarray` and numpy scalar keeps it (a generic lookup first walks the
/// class's bases for a descriptor: six classes for a scalar, on every
/// operand of every operation), else as an attribute (a property of a
/// list-backed array).
fn h_attr(obj: &PyObject, vm: &VirtualMachine) -> PyResult<Option<PyObjectRef>> {
    let key = vm.ctx.intern_str("_h");
    if let Some(dict) = obj.dict() {
        if let Some(h) = dict.get_item_opt(key, vm)? {
            return Ok(Some(h));
        }
    }
    vm.get_attribute_opt(obj.to_owned(), key)
}

/// A dtype name and flavour: `longlong` is int64 of that flavour.
pub(crate) fn dtype_arg_as(
    name: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult<(Option<DType>, bool)> {
    match name {
        Some(n) if matches!(n.as_str(), "longlong" | "q") => Ok((Some(DType::Int64), true)),
        other => Ok((dtype_arg(other, vm)?, false)),
    }
}

/// A dtype name (the Python half passes `np.dtype(...).name`), `None`
/// for numpy's default.
fn dtype_arg(name: Option<PyStrRef>, vm: &VirtualMachine) -> PyResult<Option<DType>> {
    match name {
        None => Ok(None),
        Some(n) => DType::from_name(n.as_str()).map(Some).ok_or_else(|| {
            vm.new_type_error(format!(
                "fluidc's numpy has no arrays of dtype '{}' (it has bool, int32, int64, float32 and float64)",
                n.as_str()
            ))
        }),
    }
}

/// `_numpy.register(ndarray, scalar_types, errors)`: the Python half's
/// `ndarray` class, its numpy scalar types by dtype name, and its exception
/// classes by name (`AxisError`, `CastingError` for in-place casts,
/// `NoLoopError` for ufuncs of strings).
fn register(
    ndarray: PyTypeRef,
    scalar_types: PyObjectRef,
    errors: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    forget_classes();
    let module = vm.import(MODULE, 0)?;
    let classes = vm.ctx.new_tuple(vec![ndarray.into(), scalar_types]);
    module.set_attr("_classes", classes, vm)?;
    module.set_attr("_errors", errors, vm)?;
    Ok(())
}

/// `_numpy.mark_longlong(h)`: makes an int64 array numpy's `longlong`
/// flavour, as Paddle's tensors convert to numpy (`ndarray._wrap`).
fn mark_longlong(h: PyRef<PyHostArray>) {
    h.longlong.store(true, Ordering::Relaxed);
}

/// Creates the `_numpy` module.
pub fn make_module(vm: &VirtualMachine) -> PyRef<PyModule> {
    forget_classes();
    let module = vm.new_module(MODULE, vm.ctx.new_dict(), None);
    let m = module.as_object();
    let _ = m.set_attr("HostArray", PyHostArray::make_class(&vm.ctx), vm);
    let _ = m.set_attr(
        "RandomState",
        random::PyRandomState::make_class(&vm.ctx),
        vm,
    );
    let _ = m.set_attr("register", vm.new_function("register", register), vm);
    let _ = m.set_attr(
        "mark_longlong",
        vm.new_function("mark_longlong", mark_longlong),
        vm,
    );
    array::add_functions(m, vm);
    ops::add_functions(m, vm);
    reduce::add_functions(m, vm);
    module
}
