//! Making, converting, reshaping, joining and indexing arrays.
use ndarray::IxDyn;
use rustpython_vm::builtins::PyStrRef;
use rustpython_vm::function::OptionalArg;
use rustpython_vm::{AsObject, PyObject, PyObjectRef, PyRef, PyResult, VirtualMachine};

use super::convert::{
    float_arg, index_int, index_of, opt_int, scalar_arg, shape_arg, shape_tuple, signed_shape,
    to_array, Held,
};
use super::{
    dtype_arg, dtype_arg_as, wrap_any, wrap_any_as, wrap_array, wrap_array_as, wrap_handle,
    HostResult, PyHostArray, Scalars, ViewReshape,
};
use crate::host::ops::compact_shape;
use crate::host::{self, DType, HostArray, Index, Nested, Scalar};
use crate::native::convert::sequence;

/// Runs `$body` on the `ArrayD` inside a [`HostArray`], giving an array of
/// the same dtype.
macro_rules! map_same {
    ($h:expr, $a:ident => $body:expr) => {
        match $h {
            HostArray::Bool($a) => HostArray::Bool($body),
            HostArray::Int8($a) => HostArray::Int8($body),
            HostArray::UInt8($a) => HostArray::UInt8($body),
            HostArray::Int32($a) => HostArray::Int32($body),
            HostArray::Int64($a) => HostArray::Int64($body),
            HostArray::Float32($a) => HostArray::Float32($body),
            HostArray::Float64($a) => HostArray::Float64($body),
        }
    };
}

pub(super) use map_same;

/// A Python scalar for an element.
pub fn scalar_to_py(s: Scalar, vm: &VirtualMachine) -> PyObjectRef {
    match s {
        Scalar::Bool(b) => vm.ctx.new_bool(b).into(),
        Scalar::Int(i) => vm.ctx.new_int(i).into(),
        Scalar::Float(f) => vm.ctx.new_float(f).into(),
    }
}

fn nested_to_py(n: &Nested, vm: &VirtualMachine) -> PyObjectRef {
    match n {
        Nested::Bool(b) => vm.ctx.new_bool(*b).into(),
        Nested::Int(i) => vm.ctx.new_int(*i).into(),
        Nested::Float(f) => vm.ctx.new_float(*f).into(),
        Nested::List(items) => vm
            .ctx
            .new_list(items.iter().map(|i| nested_to_py(i, vm)).collect())
            .into(),
        Nested::Array(a) => nested_to_py(&a.tolist(), vm),
    }
}

/// `_numpy.array(obj, dtype)`: a new array (numpy's dtype discovery, or
/// the dtype given).
fn array(obj: PyObjectRef, dtype: Option<PyStrRef>, vm: &VirtualMachine) -> PyResult {
    let keep = dtype.is_none() && longlong(&obj, vm);
    let (d, q) = dtype_arg_as(dtype, vm)?;
    wrap_array_as(to_array(&obj, d, vm)?, q || keep, vm)
}

/// Whether `obj` is an int64 array or scalar of numpy's `longlong`
/// flavour.
fn longlong(obj: &PyObject, vm: &VirtualMachine) -> bool {
    super::handle_of(obj, vm).is_some_and(|h| h.is_longlong())
}

/// `_numpy.scalar(obj, dtype)`: `np.float32(x)`: a numpy scalar of a
/// number, an array of a sequence.
fn scalar(obj: PyObjectRef, dtype: Option<PyStrRef>, vm: &VirtualMachine) -> PyResult {
    let (d, q) = dtype_arg_as(dtype, vm)?;
    wrap_any_as(to_array(&obj, d, vm)?, q, vm)
}

/// The fill value of `np.full`: a number, or an array broadcast to the
/// shape.
fn full(
    shape: PyObjectRef,
    value: PyObjectRef,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let shape = shape_arg(&shape, vm)?;
    let keep = dtype.is_none() && longlong(&value, vm);
    let (d, q) = dtype_arg_as(dtype, vm)?;
    let v = Held::require(&value, vm)?.array();
    let d = d.unwrap_or(v.dtype());
    let mut out = HostArray::zeros(d, &shape).py(vm)?;
    if v.ndim() == 0 {
        let s = v.item().py(vm)?;
        out = HostArray::full(d, &shape, s).py(vm)?;
    } else {
        out.assign_index(&[Index::Ellipsis], &v).py(vm)?;
    }
    wrap_array_as(out, q || keep, vm)
}

/// `_numpy.arange(start, stop, step, dtype)` (`stop` None: `arange(start)`).
fn arange(
    start: PyObjectRef,
    stop: PyObjectRef,
    step: PyObjectRef,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let (start, stop) = if vm.is_none(&stop) {
        (Scalar::Int(0), scalar_arg(&start, vm)?)
    } else {
        (scalar_arg(&start, vm)?, scalar_arg(&stop, vm)?)
    };
    let step = if vm.is_none(&step) {
        Scalar::Int(1)
    } else {
        scalar_arg(&step, vm)?
    };
    let d = dtype_arg(dtype, vm)?;
    wrap_array(host::arange(start, stop, step, d).py(vm)?, vm)
}

/// `_numpy.linspace(start, stop, num, endpoint, dtype)`.
fn linspace(
    start: PyObjectRef,
    stop: PyObjectRef,
    num: PyObjectRef,
    endpoint: bool,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let num = index_int(&num, vm)?;
    let num = usize::try_from(num).map_err(|_| {
        vm.new_value_error(format!("Number of samples, {num}, must be non-negative."))
    })?;
    let r = host::linspace(
        float_arg(&start, vm)?,
        float_arg(&stop, vm)?,
        num,
        endpoint,
        dtype_arg(dtype, vm)?,
    );
    wrap_array(r.py(vm)?, vm)
}

/// `_numpy.eye(n, m, k, dtype)`.
fn eye(
    n: PyObjectRef,
    m: PyObjectRef,
    k: PyObjectRef,
    dtype: Option<PyStrRef>,
    vm: &VirtualMachine,
) -> PyResult {
    let count = |v: i64| {
        usize::try_from(v)
            .map_err(|_| vm.new_value_error("negative dimensions are not allowed".to_owned()))
    };
    let n = count(index_int(&n, vm)?)?;
    let m = opt_int(&m, vm)?.map(count).transpose()?;
    let k = index_int(&k, vm)?;
    let d = dtype_arg(dtype, vm)?.unwrap_or(DType::Float64);
    wrap_array(host::eye(n, m, k, d).py(vm)?, vm)
}

/// The arrays of a sequence argument (`np.concatenate`'s).
/// The arrays of a sequence argument, and whether any is of the
/// `longlong` flavour (which a join keeps).
fn array_list(seq: &PyObject, vm: &VirtualMachine) -> PyResult<(Vec<HostArray>, bool)> {
    let items = match sequence(seq) {
        Some(items) => items,
        None => match super::handle_of(seq, vm) {
            Some(h) => {
                let a = h.read().clone();
                let n = a.shape().first().copied().unwrap_or(0);
                let rows = (0..n as i64)
                    .map(|i| a.index(&[Index::Int(i)]).py(vm))
                    .collect::<PyResult<Vec<_>>>()?;
                return Ok((rows, h.is_longlong()));
            }
            None => {
                let list = vm
                    .ctx
                    .types
                    .list_type
                    .as_object()
                    .call((seq.to_owned(),), vm)?;
                sequence(&list).unwrap_or_default()
            }
        },
    };
    let q = items.iter().any(|o| longlong(o, vm));
    let arrays = items
        .iter()
        .map(|o| to_array(o, None, vm))
        .collect::<PyResult<Vec<_>>>()?;
    Ok((arrays, q))
}

/// `_numpy.concatenate(arrays, axis)` (`axis` None: flattened).
fn concatenate(seq: PyObjectRef, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (arrays, q) = array_list(&seq, vm)?;
    let refs: Vec<&HostArray> = arrays.iter().collect();
    let axis = opt_int(&axis, vm)?;
    wrap_array_as(host::concatenate(&refs, axis).py(vm)?, q, vm)
}

/// `_numpy.stack(arrays, axis)`.
fn stack(seq: PyObjectRef, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (arrays, q) = array_list(&seq, vm)?;
    let refs: Vec<&HostArray> = arrays.iter().collect();
    let axis = index_int(&axis, vm)?;
    wrap_array_as(host::stack(&refs, axis).py(vm)?, q, vm)
}

/// A boolean scalar in an index (`a[True]`, `x[np.False_]`) adds an axis
/// of length 1 (`True`) or 0 (`False`), as numpy's 0-d boolean index does:
/// the index with those items as `None`, and the output axes to empty.
fn bool_scalars(
    index: Vec<Index>,
    ndim: usize,
    vm: &VirtualMachine,
) -> PyResult<(Vec<Index>, Vec<usize>)> {
    let is_bool0 =
        |i: &Index| matches!(i, Index::Array(a) if a.ndim() == 0 && a.dtype() == DType::Bool);
    if !index.iter().any(is_bool0) {
        return Ok((index, Vec::new()));
    }
    if index
        .iter()
        .any(|i| matches!(i, Index::Array(_)) && !is_bool0(i))
    {
        return Err(vm.new_not_implemented_error(
            "fluidc's numpy does not combine a boolean scalar index with other array indices"
                .to_owned(),
        ));
    }
    let consumed = index
        .iter()
        .filter(|i| matches!(i, Index::Int(_) | Index::Slice(..)))
        .count();
    let mut out_axis = 0;
    let mut empty = Vec::new();
    let mut replaced = Vec::with_capacity(index.len());
    for i in index {
        match &i {
            Index::Int(_) => {}
            Index::Slice(..) | Index::NewAxis => out_axis += 1,
            Index::Ellipsis => out_axis += ndim.saturating_sub(consumed),
            Index::Array(a) => {
                if a.item().map(|s| !s.truthy()).unwrap_or(false) {
                    empty.push(out_axis);
                }
                out_axis += 1;
                replaced.push(Index::NewAxis);
                continue;
            }
        }
        replaced.push(i);
    }
    Ok((replaced, empty))
}

/// `_numpy.getitem(h, key)`: `a[key]`; an element is a numpy scalar.
fn getitem(h: PyRef<PyHostArray>, key: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let index = index_of(&key, vm)?;
    let ndim = h.read().ndim();
    let (index, empty) = bool_scalars(index, ndim, vm)?;
    let mut r = h.read().index(&index).py(vm)?;
    for &axis in &empty {
        let mut cut = vec![Index::Slice(None, None, None); axis];
        cut.push(Index::Slice(Some(0), Some(0), None));
        r = r.index(&cut).py(vm)?;
    }
    let q = h.is_longlong();
    if r.ndim() == 0 && Index::yields_scalar(&index) {
        return wrap_any_as(r, q, vm);
    }
    match empty
        .is_empty()
        .then(|| PyHostArray::view_of(&h, &index, None))
    {
        Some(Some(view)) => wrap_handle(view, vm),
        _ => wrap_array_as(r, q, vm),
    }
}

/// `_numpy.setitem(h, key, value)`: `a[key] = value`, in place.
fn setitem(
    h: PyRef<PyHostArray>,
    key: PyObjectRef,
    value: PyObjectRef,
    vm: &VirtualMachine,
) -> PyResult<()> {
    let index = index_of(&key, vm)?;
    let (dtype, ndim) = {
        let a = h.read();
        (a.dtype(), a.ndim())
    };
    let (index, empty) = bool_scalars(index, ndim, vm)?;
    if !empty.is_empty() {
        return Ok(());
    }
    // A Python value is read at the array's dtype (numpy's checks for
    // Python ints out of range); arrays cast as they are written.
    let v = match super::handle_of(&value, vm) {
        Some(v) => v.read().clone(),
        None => {
            let n = super::nested(&value, vm)?;
            HostArray::from_nested(&n, Some(dtype)).py(vm)?
        }
    };
    h.write().assign_index(&index, &v).py(vm)
}

/// `_numpy.rows(h)`: what iterating over an array gives.
/// Rows of more than one dimension are views, as numpy's are.
fn rows(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult<Vec<PyObjectRef>> {
    let a = h.read().clone();
    let Some(&n) = a.shape().first() else {
        return Err(vm.new_type_error("iteration over a 0-d array".to_owned()));
    };
    if a.ndim() == 1 {
        let scalars = Scalars::new(a.dtype(), h.is_longlong(), vm)?;
        return a
            .elements()
            .into_iter()
            .map(|e| scalars.make(e, vm))
            .collect();
    }
    (0..n as i64)
        .map(|i| {
            let index = [Index::Int(i)];
            if let Some(view) = PyHostArray::view_of(&h, &index, None) {
                return wrap_handle(view, vm);
            }
            let r = a.index(&index).py(vm)?;
            wrap_any_as(r, h.is_longlong(), vm)
        })
        .collect()
}

/// `_numpy.tolist(h)`: nested lists of Python numbers (a 0-d array: the
/// number).
fn tolist(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyObjectRef {
    nested_to_py(&h.read().tolist(), vm)
}

/// `_numpy.item(h, args)`: `a.item()`, `a.item(flat)`, `a.item(i, j)`.
fn item(h: PyRef<PyHostArray>, args: Vec<PyObjectRef>, vm: &VirtualMachine) -> PyResult {
    let a = h.read();
    let s = match args.as_slice() {
        [] => a.item().py(vm)?,
        [one] if sequence(one).is_none() => a.item_at(index_int(one, vm)?).py(vm)?,
        many => {
            let items = match many {
                [one] => sequence(one).unwrap_or_default(),
                _ => many.to_vec(),
            };
            let index = items
                .iter()
                .map(|i| index_int(i, vm).map(Index::Int))
                .collect::<PyResult<Vec<Index>>>()?;
            if index.len() != a.ndim() {
                return Err(vm.new_value_error("incorrect number of indices for array".to_owned()));
            }
            a.index(&index).py(vm)?.item().py(vm)?
        }
    };
    Ok(scalar_to_py(s, vm))
}

/// Print options from the Python half: `None` (numpy's defaults) or
/// `(precision, threshold, edgeitems, linewidth, suppress, floatmode)`.
fn print_options(opts: &PyObject, vm: &VirtualMachine) -> PyResult<host::PrintOptions> {
    let mut o = host::PrintOptions::default();
    if vm.is_none(opts) {
        return Ok(o);
    }
    let items = sequence(opts).unwrap_or_default();
    let [precision, threshold, edgeitems, linewidth, suppress, floatmode] = items.as_slice() else {
        return Err(vm.new_type_error("print options are a 6-tuple".to_owned()));
    };
    let count = |v: &PyObject| -> PyResult<usize> {
        // `threshold=np.inf` or `sys.maxsize`: never summarize.
        match scalar_arg(v, vm)? {
            Scalar::Float(f) if f.is_infinite() && f > 0.0 => Ok(usize::MAX),
            s => Ok(usize::try_from(s.as_i64().py(vm)?).unwrap_or(0)),
        }
    };
    o.precision = i32::try_from(index_int(precision, vm)?).unwrap_or(8);
    o.threshold = count(threshold)?;
    o.edgeitems = count(edgeitems)?;
    o.linewidth = count(linewidth)?;
    o.suppress = suppress.to_owned().try_to_bool(vm)?;
    let mode = floatmode.str(vm)?;
    o.floatmode = match mode.as_str() {
        "fixed" => host::FloatMode::Fixed,
        "unique" => host::FloatMode::Unique,
        "maxprec" => host::FloatMode::MaxPrec,
        "maxprec_equal" => host::FloatMode::MaxPrecEqual,
        other => return Err(vm.new_value_error(format!("floatmode option must be one of 'fixed', 'unique', 'maxprec', 'maxprec_equal', not {other}"))),
    };
    Ok(o)
}

/// numpy's `repr` and `str` of an array, and of a numpy scalar (a 0-d
/// array printed as a scalar: `1.5` and `np.float32(1.5)`), under the
/// print options `opts`.
fn format(
    h: PyRef<PyHostArray>,
    how: PyStrRef,
    opts: OptionalArg<PyObjectRef>,
    vm: &VirtualMachine,
) -> PyResult<String> {
    let o = match opts {
        OptionalArg::Present(opts) => print_options(&opts, vm)?,
        OptionalArg::Missing => host::PrintOptions::default(),
    };
    let longlong = h.is_longlong();
    let a = h.read();
    Ok(match how.as_str() {
        "repr" if longlong => host::array_repr_longlong(&a, &o),
        "repr" => host::array_repr_with(&a, &o),
        "str" => host::array_str_with(&a, &o),
        "array2string" => host::array2string_with(&a, &o),
        "scalar_repr" => host::scalar_repr(&a),
        "scalar_str" => host::scalar_str(&a),
        other => return Err(vm.new_value_error(format!("no format `{other}`"))),
    })
}

/// `_numpy.astype(h, dtype)`: a new array.
fn astype(h: PyRef<PyHostArray>, dtype: PyStrRef, vm: &VirtualMachine) -> PyResult {
    let (d, q) = dtype_arg_as(Some(dtype), vm)?;
    let r = h.read().astype(d.unwrap_or(DType::Float64));
    wrap_array_as(r, q, vm)
}

/// `_numpy.reshape(h, shape)` (one dimension may be -1).
/// A view of `h`, as numpy's reshape of a contiguous array is.
fn reshape(h: PyRef<PyHostArray>, shape: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let shape = signed_shape(&shape, vm)?;
    let r = h.read().reshape(&shape).py(vm)?;
    match PyHostArray::view_of(&h, &[], Some(r.shape())) {
        Some(view) => wrap_handle(view, vm),
        None => wrap_array_as(r, h.is_longlong(), vm),
    }
}

/// `_numpy.ravel(h)`: `a.ravel()`, a view of a C-contiguous array (a
/// copy of any other, as numpy's order 'C'; `flatten` always copies).
fn ravel(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult {
    let size = h.read().size();
    let view = h
        .is_contiguous()
        .then(|| PyHostArray::view_of(&h, &[], Some(&[size])));
    match view.flatten() {
        Some(view) => wrap_handle(view, vm),
        None => flatten(h, vm),
    }
}

/// `_numpy.set_shape(h, shape)`: `a.shape = shape`, in place (a view
/// keeps aliasing its base).
fn set_shape(h: PyRef<PyHostArray>, shape: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    let shape = signed_shape(&shape, vm)?;
    let r = h.read().reshape(&shape).py(vm)?;
    match h.reshape_view(r.shape()) {
        ViewReshape::Done => {}
        ViewReshape::NotAView => *h.write() = r,
        ViewReshape::Refused => {
            return Err(vm.new_attribute_error(
                "Incompatible shape for in-place modification. Use `.reshape()` to make a \
                 copy with the desired shape."
                    .to_owned(),
            ))
        }
    }
    Ok(())
}

/// `_numpy.transpose(h, axes)` (`None` reverses the axes).
fn transpose(h: PyRef<PyHostArray>, axes: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let axes = if vm.is_none(&axes) {
        None
    } else {
        Some(signed_shape(&axes, vm)?)
    };
    let r = h.read().transpose(axes.as_deref()).py(vm)?;
    wrap_array_as(r, h.is_longlong(), vm)
}

/// `_numpy.squeeze(h, axis)`: `axis` None, an int or a tuple.
fn squeeze(h: PyRef<PyHostArray>, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let a = h.read().clone();
    if vm.is_none(&axis) {
        return wrap_array_as(a.squeeze(None).py(vm)?, h.is_longlong(), vm);
    }
    let mut axes = signed_shape(&axis, vm)?;
    let ndim = a.ndim();
    let mut resolved = Vec::with_capacity(axes.len());
    for &ax in &axes {
        let k = crate::host::array::normalize_axis(ax, ndim).py(vm)?;
        if a.shape()[k] != 1 {
            return Err(vm.new_value_error(
                "cannot select an axis to squeeze out which has size not equal to one".to_owned(),
            ));
        }
        resolved.push(k as i64);
    }
    axes = resolved;
    let keep: Vec<i64> = (0..ndim)
        .filter(|k| !axes.contains(&(*k as i64)))
        .map(|k| a.shape()[k] as i64)
        .collect();
    wrap_array_as(a.reshape(&keep).py(vm)?, h.is_longlong(), vm)
}

/// `_numpy.expand_dims(h, axis)`: `axis` an int or a tuple.
fn expand_dims(h: PyRef<PyHostArray>, axis: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let a = h.read().clone();
    let axes = signed_shape(&axis, vm)?;
    let out_ndim = a.ndim() + axes.len();
    let mut new_axes = Vec::with_capacity(axes.len());
    for &ax in &axes {
        let k = crate::host::array::normalize_axis(ax, out_ndim).py(vm)?;
        if new_axes.contains(&k) {
            return Err(vm.new_value_error("repeated axis".to_owned()));
        }
        new_axes.push(k);
    }
    let mut old = a.shape().iter();
    let shape: Vec<i64> = (0..out_ndim)
        .map(|k| {
            if new_axes.contains(&k) {
                1
            } else {
                old.next().map_or(1, |&d| d as i64)
            }
        })
        .collect();
    wrap_array_as(a.reshape(&shape).py(vm)?, h.is_longlong(), vm)
}

/// `_numpy.flatten(h)`.
fn flatten(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult {
    let r = h.read().flatten();
    wrap_array_as(r, h.is_longlong(), vm)
}

/// `_numpy.copy(h)`.
fn copy(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult {
    let r = h.read().clone();
    wrap_array_as(r, h.is_longlong(), vm)
}

/// `_numpy.broadcast_to(x, shape)`.
fn broadcast_to(x: PyObjectRef, shape: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let a = to_array(&x, None, vm)?;
    let q = longlong(&x, vm);
    let shape = shape_arg(&shape, vm)?;
    let fail = || {
        vm.new_value_error(format!(
            "operands could not be broadcast together with remapped shapes [original->remapped]: {}  and requested shape {}",
            compact_shape(a.shape()),
            compact_shape(&shape)
        ))
    };
    if a.ndim() > shape.len() {
        return Err(fail());
    }
    let b = map_same!(&a, x => match x.broadcast(IxDyn(&shape)) {
        Some(v) => v.to_owned(),
        None => return Err(fail()),
    });
    wrap_array_as(b, q, vm)
}

/// `_numpy.nonzero(x)`: a tuple of int64 arrays.
fn nonzero(x: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let a = to_array(&x, None, vm)?;
    if a.ndim() == 0 {
        return Err(vm.new_value_error(
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.".to_owned(),
        ));
    }
    let cols = host::nonzero(&a)
        .into_iter()
        .map(|c| wrap_array(c, vm))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(vm.ctx.new_tuple(cols).into())
}

/// `_numpy.dot(a, b)`: `np.dot` (a 0-d operand multiplies).
fn dot(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (x, y) = (to_array(&a, None, vm)?, to_array(&b, None, vm)?);
    if x.ndim() == 0 || y.ndim() == 0 {
        let r = host::binary(host::BinaryOp::Mul, (&x).into(), (&y).into()).py(vm)?;
        return wrap_any(r, vm);
    }
    wrap_any(host::dot(&x, &y).py(vm)?, vm)
}

/// `_numpy.matmul(a, b)`: `np.matmul` / `a @ b`, stacks of matrices
/// broadcast.
fn matmul(a: PyObjectRef, b: PyObjectRef, vm: &VirtualMachine) -> PyResult {
    let (x, y) = (to_array(&a, None, vm)?, to_array(&b, None, vm)?);
    for (k, arr) in [&x, &y].iter().enumerate() {
        if arr.ndim() == 0 {
            return Err(vm.new_value_error(format!(
                "matmul: Input operand {k} does not have enough dimensions (has 0, gufunc core with signature (n?,k),(k,m?)->(n?,m?) requires 1)"
            )));
        }
    }
    let kx = x.shape()[x.ndim() - 1];
    let ky = if y.ndim() == 1 {
        y.shape()[0]
    } else {
        y.shape()[y.ndim() - 2]
    };
    if kx != ky {
        return Err(vm.new_value_error(format!(
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {ky} is different from {kx})"
        )));
    }
    if x.ndim() <= 2 && y.ndim() <= 2 {
        return wrap_any(host::dot(&x, &y).py(vm)?, vm);
    }
    // Stacks: promote 1-d operands, broadcast the batch dimensions.
    let x2 = if x.ndim() == 1 {
        x.reshape(&[1, kx as i64]).py(vm)?
    } else {
        x.clone()
    };
    let y2 = if y.ndim() == 1 {
        y.reshape(&[ky as i64, 1]).py(vm)?
    } else {
        y.clone()
    };
    let (bx, by) = (&x2.shape()[..x2.ndim() - 2], &y2.shape()[..y2.ndim() - 2]);
    let batch = host::broadcast_shapes(&[bx, by]).py(vm)?;
    let (n, m) = (x2.shape()[x2.ndim() - 2], y2.shape()[y2.ndim() - 1]);
    let expand = |arr: &HostArray, rows: usize, cols: usize| -> PyResult<HostArray> {
        let mut shape = batch.clone();
        shape.extend([rows, cols]);
        let b = map_same!(arr, v => match v.broadcast(IxDyn(&shape)) {
            Some(view) => view.to_owned(),
            None => return Err(vm.new_value_error("matmul: batch dimensions do not broadcast".to_owned())),
        });
        let total: usize = batch.iter().product();
        b.reshape(&[total as i64, rows as i64, cols as i64]).py(vm)
    };
    let (xs, ys) = (expand(&x2, n, kx)?, expand(&y2, ky, m)?);
    let total: usize = batch.iter().product();
    let mut parts = Vec::with_capacity(total);
    for i in 0..total as i64 {
        let p = xs.index(&[Index::Int(i)]).py(vm)?;
        let q = ys.index(&[Index::Int(i)]).py(vm)?;
        parts.push(host::dot(&p, &q).py(vm)?);
    }
    let mut shape: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    if x.ndim() > 1 {
        shape.push(n as i64);
    }
    if y.ndim() > 1 {
        shape.push(m as i64);
    }
    let r = if parts.is_empty() {
        let d = host::DType::promote(x.dtype(), y.dtype());
        let s: Vec<usize> = shape.iter().map(|&d| d as usize).collect();
        HostArray::zeros(d, &s).py(vm)?
    } else {
        let refs: Vec<&HostArray> = parts.iter().collect();
        host::stack(&refs, 0).py(vm)?.reshape(&shape).py(vm)?
    };
    wrap_any(r, vm)
}

/// `_numpy.to_float(h)`: `float(a)`.
fn to_float(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult<f64> {
    h.read().to_float().py(vm)
}

/// `_numpy.to_int(h)`: `int(a)` (NaN and infinities are Python's errors).
fn to_int(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult {
    let a = h.read();
    if a.size() != 1 {
        return Err(vm.new_type_error(
            "only 0-dimensional arrays can be converted to Python scalars".to_owned(),
        ));
    }
    match a.item().py(vm)? {
        Scalar::Float(f) => {
            // Python's int(float): exact for any finite value.
            let f = vm.ctx.new_float(f);
            vm.ctx.types.int_type.as_object().call((f,), vm)
        }
        s => Ok(vm.ctx.new_int(s.as_i64().py(vm)?).into()),
    }
}

/// `_numpy.truthy(h)`: `bool(a)`.
fn truthy(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult<bool> {
    h.read().truthy().py(vm)
}

/// `_numpy.to_index(h)`: `operator.index(a)`, integers only.
fn to_index(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyResult<i64> {
    let a = h.read();
    if a.ndim() != 0 || !(a.dtype().is_int()) {
        return Err(vm.new_type_error(
            "only integer scalar arrays can be converted to a scalar index".to_owned(),
        ));
    }
    a.item().py(vm)?.as_i64().py(vm)
}

/// `_numpy.fill(h, value)`: `a.fill(value)`, in place.
fn fill(h: PyRef<PyHostArray>, value: PyObjectRef, vm: &VirtualMachine) -> PyResult<()> {
    let s = scalar_arg(&value, vm)?;
    let (dtype, shape) = {
        let a = h.read();
        (a.dtype(), a.shape().to_vec())
    };
    let s = match (s, dtype.is_int()) {
        (Scalar::Int(_), true) | (Scalar::Float(_), true) => {
            let n = Nested::from(s);
            HostArray::from_nested(&n, Some(dtype))
                .py(vm)?
                .item()
                .py(vm)?
        }
        _ => s,
    };
    *h.write() = HostArray::full(dtype, &shape, s).py(vm)?;
    Ok(())
}

/// `_numpy.assign(h, x)`: replaces the whole contents (`a.sort()` in
/// place).
fn assign(h: PyRef<PyHostArray>, x: PyRef<PyHostArray>) {
    let v = x.read().clone();
    *h.write() = v;
}

/// `_numpy.empty_handle(shape, dtype)`: zeros (numpy's `empty` is
/// uninitialised; fluidc's is zeros).
fn zeros(shape: PyObjectRef, dtype: Option<PyStrRef>, vm: &VirtualMachine) -> PyResult {
    let shape = shape_arg(&shape, vm)?;
    let (d, q) = dtype_arg_as(dtype, vm)?;
    let d = d.unwrap_or(DType::Float64);
    wrap_array_as(HostArray::zeros(d, &shape).py(vm)?, q, vm)
}

/// `_numpy.info(h)`: `(shape, dtype name)` in one call.
fn info(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyObjectRef {
    let a = h.read();
    vm.ctx
        .new_tuple(vec![
            shape_tuple(a.shape(), vm),
            vm.ctx.new_str(a.dtype().name()).into(),
        ])
        .into()
}

/// `_numpy.tobytes(h)`: the elements' bytes, little-endian, row-major.
fn tobytes(h: PyRef<PyHostArray>, vm: &VirtualMachine) -> PyObjectRef {
    let a = h.read();
    let mut out = Vec::with_capacity(a.size() * 8);
    match &*a {
        HostArray::Bool(x) => out.extend(x.iter().map(|&b| u8::from(b))),
        HostArray::Int8(x) => out.extend(x.iter().map(|v| v.to_le_bytes()[0])),
        HostArray::UInt8(x) => out.extend(x.iter().copied()),
        HostArray::Int32(x) => x.iter().for_each(|v| out.extend(v.to_le_bytes())),
        HostArray::Int64(x) => x.iter().for_each(|v| out.extend(v.to_le_bytes())),
        HostArray::Float32(x) => x.iter().for_each(|v| out.extend(v.to_le_bytes())),
        HostArray::Float64(x) => x.iter().for_each(|v| out.extend(v.to_le_bytes())),
    }
    vm.ctx.new_bytes(out).into()
}

/// `_numpy.frombuffer(data, dtype, count, offset)`: a 1-d array of the
/// little-endian elements of `data`.
fn frombuffer(
    data: rustpython_vm::builtins::PyBytesRef,
    dtype: Option<PyStrRef>,
    count: i64,
    offset: i64,
    vm: &VirtualMachine,
) -> PyResult {
    let d = dtype_arg(dtype, vm)?.unwrap_or(DType::Float64);
    let bytes = data.as_bytes();
    let offset = usize::try_from(offset)
        .ok()
        .filter(|&o| o <= bytes.len())
        .ok_or_else(|| {
            vm.new_value_error(
                "offset must be non-negative and no greater than buffer length".to_owned(),
            )
        })?;
    let bytes = &bytes[offset..];
    let width = match d {
        DType::Bool | DType::Int8 | DType::UInt8 => 1,
        DType::Int32 | DType::Float32 => 4,
        DType::Int64 | DType::Float64 => 8,
    };
    if !bytes.len().is_multiple_of(width) && count < 0 {
        return Err(vm.new_value_error("buffer size must be a multiple of element size".to_owned()));
    }
    let n = if count < 0 {
        bytes.len() / width
    } else {
        let n = count as usize;
        if n * width > bytes.len() {
            return Err(vm.new_value_error("buffer is smaller than requested size".to_owned()));
        }
        n
    };
    let chunks = bytes[..n * width].chunks_exact(width);
    let a = match d {
        DType::Bool => HostArray::from_vec(&[n], chunks.map(|c| c[0] != 0).collect()),
        DType::Int8 => {
            HostArray::from_vec(&[n], chunks.map(|c| i8::from_le_bytes([c[0]])).collect())
        }
        DType::UInt8 => HostArray::from_vec(&[n], chunks.map(|c| c[0]).collect()),
        DType::Int32 => HostArray::from_vec(
            &[n],
            chunks
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        DType::Float32 => HostArray::from_vec(
            &[n],
            chunks
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        DType::Int64 => HostArray::from_vec(
            &[n],
            chunks
                .map(|c| i64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect(),
        ),
        DType::Float64 => HostArray::from_vec(
            &[n],
            chunks
                .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect(),
        ),
    };
    wrap_array(a.py(vm)?, vm)
}

/// `_numpy.from_flat(values, shape, dtype)`: an array from a flat list
/// (unpickling).
fn from_flat(
    values: PyObjectRef,
    shape: PyObjectRef,
    dtype: PyStrRef,
    vm: &VirtualMachine,
) -> PyResult {
    let (d, q) = dtype_arg_as(Some(dtype), vm)?;
    let flat = to_array(&values, d, vm)?;
    let shape: Vec<i64> = shape_arg(&shape, vm)?.iter().map(|&x| x as i64).collect();
    wrap_array_as(flat.reshape(&shape).py(vm)?, q, vm)
}

pub(super) fn add_functions(m: &PyObject, vm: &VirtualMachine) {
    macro_rules! add {
        ($($name:literal => $f:expr),* $(,)?) => {
            $(let _ = m.set_attr($name, vm.new_function($name, $f), vm);)*
        };
    }
    add!(
        "array" => array,
        "scalar" => scalar,
        "full" => full,
        "zeros" => zeros,
        "arange" => arange,
        "linspace" => linspace,
        "eye" => eye,
        "concatenate" => concatenate,
        "stack" => stack,
        "getitem" => getitem,
        "setitem" => setitem,
        "rows" => rows,
        "tolist" => tolist,
        "item" => item,
        "format" => format,
        "astype" => astype,
        "reshape" => reshape,
        "set_shape" => set_shape,
        "transpose" => transpose,
        "squeeze" => squeeze,
        "expand_dims" => expand_dims,
        "flatten" => flatten,
        "ravel" => ravel,
        "copy" => copy,
        "broadcast_to" => broadcast_to,
        "nonzero" => nonzero,
        "dot" => dot,
        "matmul" => matmul,
        "to_float" => to_float,
        "to_int" => to_int,
        "truthy" => truthy,
        "to_index" => to_index,
        "fill" => fill,
        "assign" => assign,
        "info" => info,
        "from_flat" => from_flat,
        "tobytes" => tobytes,
        "frombuffer" => frombuffer,
    );
}
