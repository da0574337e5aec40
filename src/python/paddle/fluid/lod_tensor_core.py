"""1.x's `core.LoDTensor` and `core.Scope`, over fluidc's runtime sessions.

A LoDTensor is an array with LoD offsets. One taken from a scope
(`scope.find_var(name).get_tensor()`) *is* that scope's variable, as in
Paddle: it reads the scope each time it is looked at, and `set` writes
through to it.
"""
import operator
import _fluidc

import numpy as np


def _is_sequence(x):
    """What pybind11's list caster takes: a sequence (a list, a tuple, a
    numpy array, ...) but not a str or bytes."""
    return (hasattr(x, "__len__") and hasattr(x, "__getitem__")
            and not isinstance(x, (str, bytes, dict)))


def _offsets(lengths):
    """Length-based LoD to offsets. Lengths are `size_t` in 1.x's binding,
    so a negative one does not convert (pybind11's TypeError)."""
    if not _is_sequence(lengths):
        raise TypeError("recursive_sequence_lengths is a list of levels, each a list of "
                        "sequence lengths ([[3, 2]]), not %s" % type(lengths).__name__)
    out = []
    for level in lengths:
        if not _is_sequence(level):
            raise TypeError("recursive_sequence_lengths is a list of levels, each a list of "
                            "sequence lengths ([[3, 2]])")
        offs = [0]
        for n in level:
            n = int(n)
            if n < 0:
                raise TypeError("a sequence length cannot be negative: %d" % n)
            offs.append(offs[-1] + n)
        out.append(offs)
    return out


def _lengths(lod):
    return [[level[i + 1] - level[i] for i in range(len(level) - 1)] for level in lod]


def _check_lod(lod):
    if not _is_sequence(lod):
        raise TypeError("a LoD is a list of levels, each a list of offsets ([[0, 3, 5]])")
    out = []
    for level in lod:
        if not _is_sequence(level):
            raise TypeError("a LoD is a list of levels, each a list of offsets ([[0, 3, 5]])")
        out.append([int(o) for o in level])
    return out


def _valid(lod, height):
    """1.x's `CheckLoD(lod, tensor_height)`: every level has two offsets
    or more, starts at 0 and does not descend; each level ends at the
    number of sequences of the next; the last ends at the tensor's height
    when the height is known (> 0: a tensor with no data has height 0)."""
    if not lod:
        return True
    for level in lod:
        if len(level) < 2 or level[0] != 0:
            return False
        for i in range(len(level) - 1):
            if level[i + 1] < level[i]:
                return False
    if height > 0 and lod[-1][-1] != height:
        return False
    for k in range(len(lod) - 1):
        if lod[k][-1] != len(lod[k + 1]) - 1:
            return False
    return True


def _height(array):
    """The first dim of a tensor's data, as 1.x's `dims().front()` (0 for
    a tensor with no data)."""
    if array is None or not array.ndim:
        return 0
    return array.shape[0]


def _cpp_float(x):
    """C++'s default `ostream << double` (%g with 6 significant digits)."""
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0" if str(x).startswith("-") else "0"
    return "%g" % x


class LoDTensor(object):
    """A tensor with LoD (Paddle 3's DenseTensor): `LoDTensor()`, or 1.x's
    `LoDTensor(recursive_sequence_lengths)`, a tensor with a LoD and no
    data yet.

    `str()` is 1.x's `__str__` (shape, layout, place, dtype, every value);
    1.x defined no `__repr__`, so a tensor inside a list or dict prints as
    `<paddle.fluid.core.LoDTensor object at 0x...>` (1.0-1.3's module;
    1.4-1.6's was `core_avx`), not its values."""

    __module__ = "paddle.fluid.core"

    def __init__(self, recursive_sequence_lengths=None):
        self._array = None
        self._lod = []
        self._view = None  # (session, name): the scope variable this is
        self._dims = None  # `_set_dims` of a tensor with no data yet
        if recursive_sequence_lengths is not None:
            lod = _offsets(recursive_sequence_lengths)
            if not _valid(lod, -1):
                raise _fluidc.EnforceNotMet(
                    "the provided recursive_sequence_lengths info is invalid")
            self._lod = lod

    @classmethod
    def _make(cls, array, lod):
        """A tensor holding `array` with offsets `lod` (fluidc's own use)."""
        t = cls()
        t._array = array
        t._lod = lod or []
        return t

    @classmethod
    def _of_scope(cls, scope, name):
        t = cls()
        t._view = (scope._session, name)
        t._scope = scope
        return t

    def _pending_dims(self):
        if self._view is not None:
            return self._scope._dims.get(self._view[1])
        return self._dims

    def _set_pending_dims(self, dims):
        if self._view is not None:
            self._scope._dims[self._view[1]] = dims
        else:
            self._dims = dims

    def _read(self):
        if self._view is not None:
            session, name = self._view
            got = session.tensor(name)
            if got is None:
                # No data yet: the LoD set before it (1.x's set_input sets
                # the lengths, then the dims, then the data).
                return None, self._lod
            h, lod = got
            return np.ndarray._wrap(h), lod
        return self._array, self._lod

    def _write(self, array, lod):
        if self._view is not None:
            session, name = self._view
            session.set_tensor(name, array, lod)
        else:
            self._array, self._lod = array, lod

    def set(self, array, place=None):
        """Copies `array` into the tensor; its LoD stays as it was, checked
        only when asked (`has_valid_recursive_sequence_lengths`), as 1.x."""
        array = np.array(array)
        _, lod = self._read()
        self._write(array, lod)
        if self._pending_dims() is not None:
            self._set_pending_dims(None)

    def _get_dims(self):
        """1.x's `dims()` as a list: the dims `_set_dims` gave a tensor
        with no data yet, else its data's."""
        dims = self._pending_dims()
        return self.shape() if dims is None else list(dims)

    def _set_dims(self, dims):
        """1.x's `Resize`: the dims of the data the tensor holds; a tensor
        with no data yet keeps them for `_alloc_int`/`_alloc_float` (the
        array `set` copies in brings its own)."""
        array, lod = self._read()
        dims = [int(d) for d in dims]
        if array is None:
            if any(d < 0 for d in dims):
                raise _fluidc.EnforceNotMet("the dims of a tensor to allocate cannot be "
                                            "negative: %s" % dims)
            self._set_pending_dims(dims)
            return
        size = 1
        for d in dims:
            size *= d
        if size != array.size:
            raise _fluidc.EnforceNotMet("cannot resize a tensor of %d elements to %s"
                                        % (array.size, dims))
        self._write(array.reshape(dims), lod)

    def _alloc(self, dtype):
        """1.x's `mutable_data<T>(place)`: memory of the dims `_set_dims`
        gave (the data stays when it already has that type and size)."""
        array, lod = self._read()
        dims = self._pending_dims()
        if dims is None:
            if array is None:
                raise _fluidc.EnforceNotMet(
                    "When calling this method, the Tensor's numel must be equal or larger "
                    "than zero. Please check Tensor::dims, or Tensor::Resize has been "
                    "called first.")
            dims = list(array.shape)
        if array is not None and array.dtype.name == dtype and list(array.shape) == dims:
            return
        self._set_pending_dims(None)
        self._write(np.zeros(dims, dtype=dtype), lod)

    def _alloc_int(self, place):
        """Allocates the tensor's data as int32 (1.x's `int`)."""
        self._alloc("int32")

    def _alloc_float(self, place):
        """Allocates the tensor's data as float32."""
        self._alloc("float32")

    def set_lod(self, lod):
        """Sets the offset-based LoD; 1.x refused one `CheckLoD` refuses
        for the tensor's height."""
        lod = _check_lod(lod)
        array, _ = self._read()
        if not _valid(lod, _height(array)):
            raise _fluidc.EnforceNotMet("the provided lod info is invalid")
        if array is None:
            self._lod = lod
            return
        self._write(array, lod)

    def set_recursive_sequence_lengths(self, recursive_sequence_lengths):
        """Sets the LoD from sequence lengths; 1.x refused lengths whose
        offsets `CheckLoD` refuses for the tensor's height."""
        lod = _offsets(recursive_sequence_lengths)
        array, _ = self._read()
        if not _valid(lod, _height(array)):
            raise _fluidc.EnforceNotMet(
                "the provided recursive_sequence_lengths info is invalid")
        if array is None:
            self._lod = lod
            return
        self._write(array, lod)

    def lod(self):
        return [list(level) for level in self._read()[1]]

    def recursive_sequence_lengths(self):
        return _lengths(self._read()[1])

    def has_valid_recursive_sequence_lengths(self):
        array, lod = self._read()
        return _valid(lod, _height(array))

    def _element_array(self, dtype):
        """The data, which must be of `dtype`, as 1.x's `data<T>()`."""
        array, _ = self._read()
        if array is None:
            raise _fluidc.EnforceNotMet("holder_ should not be null: Tensor holds no memory. "
                                        "Call Tensor::mutable_data first.")
        if array.dtype.name != dtype:
            raise _fluidc.EnforceNotMet("Tensor holds the wrong type, it holds %s"
                                        % array.dtype.name)
        return array

    def _get_element(self, dtype, offset):
        array = self._element_array(dtype)
        offset = int(offset)
        if not 0 <= offset < array.size:
            raise IndexError("element %d of a tensor of %d elements" % (offset, array.size))
        return float(array.flatten()[offset])

    def _set_element(self, dtype, offset, value):
        array = self._element_array(dtype)
        offset = int(offset)
        if not 0 <= offset < array.size:
            raise IndexError("element %d of a tensor of %d elements" % (offset, array.size))
        flat = array.flatten()
        flat[offset] = float(value)
        _, lod = self._read()
        self._write(flat.reshape(array.shape), lod)

    def _get_float_element(self, offset):
        """Element `offset` of the flattened float32 tensor (1.x's test
        helper)."""
        return self._get_element("float32", offset)

    def _set_float_element(self, offset, value):
        """Sets element `offset` of the flattened float32 tensor."""
        self._set_element("float32", offset, value)

    def _get_double_element(self, offset):
        return self._get_element("float64", offset)

    def _set_double_element(self, offset, value):
        self._set_element("float64", offset, value)

    def _is_initialized(self):
        """1.x's: whether the tensor holds data."""
        return self._read()[0] is not None

    def _place(self):
        """1.x's: the place of the tensor's data, a `core.Place` (fluidc's
        tensors are on the CPU)."""
        from .core import Place
        return Place()

    def shape(self):
        """The dims (1.x: `[0]` for a tensor with no data)."""
        array, _ = self._read()
        return [0] if array is None else list(array.shape)

    def _dtype(self):
        array, _ = self._read()
        from .framework import convert_np_dtype_to_dtype_
        return convert_np_dtype_to_dtype_(array.dtype)

    def __array__(self, dtype=None):
        array, _ = self._read()
        if array is None:
            raise RuntimeError("the tensor holds no data yet; set() it first")
        return array if dtype is None else array.astype(dtype)

    def __getitem__(self, item):
        """1.4-1.5's slicing of a tensor (`t[1]`, `t[1:]`, `t[2::-2, 0:1]`):
        a new tensor of the selected elements, without LoD; an int keeps
        its axis, of size 1, as Paddle's PySliceTensor."""
        array = self.__array__()
        parts = item if isinstance(item, tuple) else (item,)
        keep = []
        for dim, part in enumerate(parts):
            if isinstance(part, slice) or part is Ellipsis:
                keep.append(part)
                continue
            i = operator.index(part)
            n = array.shape[dim]
            if not -n <= i < n:
                raise IndexError("index %d is out of range for a dim of %d" % (i, n))
            i = i + n if i < 0 else i
            keep.append(slice(i, i + 1))
        out = LoDTensor()
        out.set(array[tuple(keep)].copy())
        return out

    def __str__(self):
        array, lod = self._read()
        text = ""
        if lod:
            text = "  - lod: {%s}\n" % ", ".join(
                "{%s}" % ", ".join(str(o) for o in level) for level in lod)
        if array is None:
            return text + "  - shape: []\n  - layout: NCHW\n  - place: Place(cpu)"
        if array.dtype.kind == "f":
            data = " ".join(_cpp_float(float(v)) for v in array.flatten().tolist())
        else:
            data = " ".join(str(int(v)) for v in array.flatten().tolist())
        return "%s  - shape: [%s]\n  - layout: NCHW\n  - place: Place(cpu)\n  - dtype: %s\n  - data: [%s]" % (
            text, ", ".join(str(d) for d in array.shape), array.dtype.name, data)


class LoDTensorArray(list):
    """A list of LoDTensors (`core.LoDTensorArray()`): `append`, `len`,
    indexing and item assignment, as 1.x's binding."""

    def append(self, tensor):
        if not isinstance(tensor, LoDTensor):
            raise TypeError("append(): incompatible function arguments: a LoDTensorArray "
                            "holds LoDTensors, not %s" % type(tensor).__name__)
        list.append(self, tensor)

    def __setitem__(self, i, tensor):
        if not isinstance(tensor, LoDTensor):
            raise TypeError("__setitem__(): incompatible function arguments: a LoDTensorArray "
                            "holds LoDTensors, not %s" % type(tensor).__name__)
        list.__setitem__(self, i, tensor)


class LoDRankTable(object):
    """1.x's `core.LoDRankTable`: the sequences of one LoD level, longest
    first."""

    def __init__(self, items):
        self._items = [tuple(i) for i in items]

    def items(self):
        """(index of the sequence in its level, its length) pairs."""
        return list(self._items)


class SelectedRows(object):
    """1.x's `core.SelectedRows()` / `core.SelectedRows(rows, height)`: a
    sparse tensor, the rows `rows` (of `height` in all) whose values are
    the rows of its tensor (`get_tensor()`)."""

    def __init__(self, *args):
        if len(args) == 0:
            rows, height = [], 0
        elif len(args) == 2 and _is_sequence(args[0]) and isinstance(args[1], int):
            rows, height = args
        else:
            raise TypeError("__init__(): incompatible constructor arguments. The following "
                            "argument types are supported:\n"
                            "    1. paddle.fluid.core.SelectedRows()\n"
                            "    2. paddle.fluid.core.SelectedRows(arg0: List[int], arg1: int)")
        self._rows = _int64_list(rows, "rows")
        self._height = int(height)
        self._value = LoDTensor()

    def get_tensor(self):
        """The values: a tensor of one row per row of `rows()`."""
        return self._value

    def numel(self):
        array, _ = self._value._read()
        return 0 if array is None else int(array.size)

    def set_height(self, height):
        if not isinstance(height, int):
            raise TypeError("set_height(): incompatible function arguments: an int, not %s"
                            % type(height).__name__)
        self._height = height

    def height(self):
        return self._height

    def set_rows(self, rows):
        self._rows = _int64_list(rows, "set_rows")

    def rows(self):
        return list(self._rows)

    def sync_index(self):
        """1.x built its row-to-index map here; fluidc looks rows up when
        it needs them."""


def _int64_list(rows, what):
    if not _is_sequence(rows):
        raise TypeError("%s(): incompatible function arguments: a list of ints, not %s"
                        % (what, type(rows).__name__))
    out = []
    for r in rows:
        if isinstance(r, float) or not hasattr(r, "__index__"):
            raise TypeError("%s(): incompatible function arguments: a list of ints" % what)
        out.append(int(r))
    return out


class _ScopeVar(object):
    """`scope.find_var(name)` / `scope.var(name)`: a variable of a scope."""

    def __init__(self, scope, name):
        self._scope = scope
        self._session = scope._session
        self._name = name

    def get_tensor(self):
        return LoDTensor._of_scope(self._scope, self._name)

    def get_lod_tensor_array(self):
        """The tensor array the variable holds. One a run left in the scope
        comes as a LoDTensorArray of the elements' values now (an element
        no write reached is an empty LoDTensor). A variable that holds
        nothing yet becomes an empty array, as 1.x's `GetMutable`: the
        scope keeps that array (`append` and item assignment stay), for
        Python to read; programs do not see it."""
        items = self._session.tensor_array(self._name)
        if items is None:
            arrays = self._scope._arrays
            if self._name in arrays:
                return arrays[self._name]
            if self._session.holds(self._name) or self._name in self._scope._feed_fetch:
                raise _fluidc.EnforceNotMet(
                    "Variable %s must be type LoDTensorArray, it holds another type"
                    % self._name)
            out = arrays[self._name] = LoDTensorArray()
            self._scope._vars.add(self._name)
            return out
        out = LoDTensorArray()
        for item in items:
            if item is None:
                out.append(LoDTensor())
            else:
                h, lod = item
                out.append(LoDTensor._make(np.ndarray._wrap(h), lod))
        return out

    def _holds_other(self, kind):
        """Whether the variable holds a value that is not a `kind` (1.x's
        `GetMutable<T>` refused to change a variable's type)."""
        held = self._scope._values.get(self._name)
        if held is not None:
            return not isinstance(held, kind)
        return (self._session.holds(self._name) or self._name in self._scope._arrays
                or self._name in self._scope._feed_fetch)

    def _set_value(self, kind, value):
        if self._holds_other(kind):
            raise _fluidc.EnforceNotMet("Variable %s must be type %s, it holds another type"
                                        % (self._name, kind.__name__))
        self._scope._values[self._name] = value

    def _get_value(self, kind):
        held = self._scope._values.get(self._name)
        if held is None and not self._holds_other(kind):
            raise _fluidc.EnforceNotMet("Variable %s must hold some thing" % self._name)
        if not isinstance(held, kind):
            raise _fluidc.EnforceNotMet("Variable %s must be type %s, it holds another type"
                                        % (self._name, kind.__name__))
        return held

    def is_int(self):
        return type(self._scope._values.get(self._name)) is int

    def set_int(self, value):
        """Holds the C++ `int` `value` (1.0's OpTest feeds int attributes'
        inputs so); programs do not read it."""
        if not isinstance(value, int):
            raise TypeError("set_int(): incompatible function arguments: an int, not %s"
                            % type(value).__name__)
        if not -2 ** 31 <= value < 2 ** 31:
            raise TypeError("set_int(): incompatible function arguments: %d is not a C++ int"
                            % value)
        self._set_value(int, int(value))

    def get_int(self):
        return self._get_value(int)

    def is_float(self):
        return type(self._scope._values.get(self._name)) is float

    def set_float(self, value):
        """Holds the C++ `float` `value` (rounded to float32)."""
        if not isinstance(value, (int, float)):
            raise TypeError("set_float(): incompatible function arguments: a float, not %s"
                            % type(value).__name__)
        self._set_value(float, float(np.float32(value)))

    def get_float(self):
        return self._get_value(float)

    def get_selected_rows(self):
        """The SelectedRows the variable holds (made if it holds nothing,
        as 1.x's `GetMutable`). The scope keeps it for Python: fluidc's
        programs read sparse values as the dense tensors their ops make."""
        held = self._scope._values.get(self._name)
        if isinstance(held, SelectedRows):
            return held
        self._set_value(SelectedRows, SelectedRows())
        return self._scope._values[self._name]

    def get_lod_rank_table(self):
        """The rank table the variable holds (`lod_rank_table`'s output)."""
        items = self._session.rank_table(self._name)
        if items is None:
            raise RuntimeError("variable %s does not hold a LoDRankTable" % self._name)
        return LoDRankTable(items)


class Scope(object):
    """`fluid.Scope()` / `core.Scope()`: a scope of its own."""

    def __init__(self, _session=None):
        self._session = _session if _session is not None else _fluidc.HOST.session(False)
        # Names `var(name)` made, tensor arrays made from Python, and the
        # feed/fetch lists of `set_feed_variable`: what 1.x's scope held
        # besides the runs' variables.
        self._vars = set()
        self._arrays = {}
        self._feed_fetch = {}
        # `_set_dims` of tensors with no data yet.
        self._dims = {}
        # What `set_int`, `set_float` and `get_selected_rows` put in the
        # scope's variables.
        self._values = {}
        # 1.x's scope tree: `new_scope()` makes a kid, whose `find_var`
        # searches its parents too.
        self._parent = None
        self._kids = []

    def _push_arrays(self):
        """Hands the tensor arrays Python built in the scope
        (`get_lod_tensor_array()`, then `append`) to the scope's variables,
        where a run reads them (as 1.x's scope held them); the scope reads
        them back from there."""
        for name, items in list(self._arrays.items()):
            self._session.set_tensor_array(name, [np.array(t) for t in items],
                                           [t.lod() for t in items])
            del self._arrays[name]

    def find_var(self, name):
        """The variable `name` of the scope or, failing that, of its
        nearest parent that holds one; None if none does."""
        if not isinstance(name, str):
            raise TypeError("find_var() takes a variable name (str), not %s" % type(name).__name__)
        scope = self
        while scope is not None:
            if scope._session.holds(name) or name in scope._vars:
                return _ScopeVar(scope, name)
            scope = scope._parent
        return None

    def var(self, name):
        """The scope's variable `name`, made if the scope holds none."""
        if not isinstance(name, str):
            raise TypeError("var() takes a variable name (str), not %s" % type(name).__name__)
        self._vars.add(name)
        return _ScopeVar(self, name)

    def new_scope(self):
        """A kid scope: its own variables, and its parents' through
        `find_var`."""
        kid = Scope()
        kid._parent = self
        self._kids.append(kid)
        return kid

    def drop_kids(self):
        """Forgets the kid scopes (1.x deleted them)."""
        self._kids = []

    def local_var_names(self):
        return sorted(set(self._session.names()) | self._vars)


def set_feed_variable(scope, tensor, var_name, index):
    """1.x's `core.set_feed_variable`: puts `tensor` at `index` of the
    feed list `var_name` of `scope` (made, and grown, as needed)."""
    if not isinstance(scope, Scope):
        raise TypeError("set_feed_variable(): incompatible function arguments: a Scope, "
                        "not %s" % type(scope).__name__)
    if not isinstance(tensor, LoDTensor):
        raise TypeError("set_feed_variable(): incompatible function arguments: a LoDTensor, "
                        "not %s" % type(tensor).__name__)
    index = int(index)
    if index < 0:
        raise TypeError("set_feed_variable(): incompatible function arguments: the index "
                        "is a size_t, not %d" % index)
    if var_name not in scope._feed_fetch and (
            scope._session.holds(var_name) or var_name in scope._arrays):
        raise _fluidc.EnforceNotMet("Variable %s holds another type than a feed list" % var_name)
    items = scope._feed_fetch.setdefault(var_name, [])
    while len(items) <= index:
        items.append(LoDTensor())
    array, lod = tensor._read()
    items[index] = LoDTensor._make(array, [list(level) for level in lod])
    scope._vars.add(var_name)


def get_fetch_variable(scope, var_name, index):
    """1.x's `core.get_fetch_variable`: item `index` of the feed/fetch
    list `var_name` of `scope`."""
    if not isinstance(scope, Scope):
        raise TypeError("get_fetch_variable(): incompatible function arguments: a Scope, "
                        "not %s" % type(scope).__name__)
    items = scope._feed_fetch.get(var_name)
    if items is None:
        raise _fluidc.EnforceNotMet("Only FeedFetchList can be invoked by GetFetchVariable: "
                                    "variable %s holds none" % var_name)
    index = int(index)
    if not 0 <= index < len(items):
        raise _fluidc.EnforceNotMet("Enforce failed. Expected index < fetch_outputs.size(), "
                                    "but received index:%d >= fetch_outputs.size():%d."
                                    % (index, len(items)))
    return items[index]


# 1.x's classes were pybind's, in paddle.fluid.core: `type(t)` printed
# `<class 'paddle.fluid.core.LoDTensor'>`.
LoDTensor.__module__ = "paddle.fluid.core"
LoDTensorArray.__module__ = "paddle.fluid.core"
SelectedRows.__module__ = "paddle.fluid.core"


def _from_runtime(pair):
    """A `py_func` input for its Python function: the runtime's `(array
    handle, lod)` as a LoDTensor, as 1.x's PyFuncOp passed LoDTensors."""
    h, lod = pair
    return LoDTensor._make(np.ndarray._wrap(h), lod)


def _to_runtime(tensor):
    """A `py_func` output back to the runtime: a LoDTensor's `(array,
    lod)`, or None for anything else (1.x's PyFuncOp took LoDTensors only)."""
    if not isinstance(tensor, LoDTensor):
        return None
    return tensor._read()
