"""1.x's `core.LoDTensor` and `core.Scope`, over fluidc's runtime sessions.

A LoDTensor is an array with LoD offsets. One taken from a scope
(`scope.find_var(name).get_tensor()`) *is* that scope's variable, as in
Paddle: it reads the scope each time it is looked at, and `set` writes
through to it.
"""
import _fluidc

import numpy as np


def _offsets(lengths):
    out = []
    for level in lengths:
        offs = [0]
        for n in level:
            n = int(n)
            if n < 0:
                raise ValueError("a sequence length cannot be negative: %d" % n)
            offs.append(offs[-1] + n)
        out.append(offs)
    return out


def _lengths(lod):
    return [[level[i + 1] - level[i] for i in range(len(level) - 1)] for level in lod]


def _check_lod(lod):
    if not isinstance(lod, (list, tuple)):
        raise TypeError("a LoD is a list of levels, each a list of offsets ([[0, 3, 5]])")
    out = []
    for level in lod:
        if not isinstance(level, (list, tuple)):
            raise TypeError("a LoD is a list of levels, each a list of offsets ([[0, 3, 5]])")
        out.append([int(o) for o in level])
    return out


def _valid(lod, rows):
    if not lod:
        return True
    for k, level in enumerate(lod):
        if not level or level[0] != 0:
            return False
        for i in range(len(level) - 1):
            if level[i + 1] < level[i]:
                return False
        if k + 1 < len(lod) and level[-1] != len(lod[k + 1]) - 1:
            return False
    return lod[-1][-1] == rows


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
    """A tensor with LoD (Paddle 3's DenseTensor)."""

    def __init__(self, array=None, lod=None):
        self._array = array
        self._lod = lod or []
        self._view = None  # (session, name): the scope variable this is

    @classmethod
    def _of_scope(cls, session, name):
        t = cls()
        t._view = (session, name)
        return t

    def _read(self):
        if self._view is not None:
            session, name = self._view
            got = session.tensor(name)
            if got is None:
                return None, []
            h, lod = got
            return np.ndarray._wrap(h), lod
        return self._array, self._lod

    def _write(self, array, lod):
        if self._view is not None:
            session, name = self._view
            session.set_tensor(name, array, lod)
        else:
            rows = array.shape[0] if array is not None and array.ndim else 1
            if array is not None and lod and not _valid(lod, rows):
                raise ValueError("the LoD %s does not fit a tensor of %d rows" % (lod, rows))
            self._array, self._lod = array, lod

    def set(self, array, place=None):
        array = np.asarray(array)
        _, lod = self._read()
        self._write(array, lod)

    def set_lod(self, lod):
        lod = _check_lod(lod)
        array, _ = self._read()
        if array is None:
            self._lod = lod
            return
        self._write(array, lod)

    def set_recursive_sequence_lengths(self, recursive_sequence_lengths):
        self.set_lod(_offsets(recursive_sequence_lengths))

    def lod(self):
        return [list(level) for level in self._read()[1]]

    def recursive_sequence_lengths(self):
        return _lengths(self._read()[1])

    def has_valid_recursive_sequence_lengths(self):
        array, lod = self._read()
        rows = 0 if array is None else (array.shape[0] if array.ndim else 1)
        return _valid(lod, rows)

    def _get_float_element(self, i):
        """Element `i` of the flattened tensor as a Python float (1.x's
        test helper)."""
        array, _ = self._read()
        if array is None:
            raise RuntimeError("the tensor holds no data yet; set() it first")
        return float(array.flatten()[i])

    _get_double_element = _get_float_element

    def shape(self):
        array, _ = self._read()
        return [] if array is None else list(array.shape)

    def _dtype(self):
        array, _ = self._read()
        from .framework import convert_np_dtype_to_dtype_
        return convert_np_dtype_to_dtype_(array.dtype)

    def __array__(self, dtype=None):
        array, _ = self._read()
        if array is None:
            raise RuntimeError("the tensor holds no data yet; set() it first")
        return array if dtype is None else array.astype(dtype)

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

    __repr__ = __str__


class LoDTensorArray(list):
    """A list of LoDTensors (`core.LoDTensorArray()`)."""


class LoDRankTable(object):
    """1.x's `core.LoDRankTable`: the sequences of one LoD level, longest
    first."""

    def __init__(self, items):
        self._items = [tuple(i) for i in items]

    def items(self):
        """(index of the sequence in its level, its length) pairs."""
        return list(self._items)


class _ScopeVar(object):
    """`scope.find_var(name)`: a variable of a scope."""

    def __init__(self, session, name):
        self._session = session
        self._name = name

    def get_tensor(self):
        return LoDTensor._of_scope(self._session, self._name)

    def get_lod_tensor_array(self):
        """The tensor array the variable holds, as a LoDTensorArray of the
        elements' values now (an element no write reached is an empty
        LoDTensor)."""
        items = self._session.tensor_array(self._name)
        if items is None:
            raise RuntimeError("variable %s does not hold a LoDTensorArray" % self._name)
        out = LoDTensorArray()
        for item in items:
            if item is None:
                out.append(LoDTensor())
            else:
                h, lod = item
                out.append(LoDTensor(np.ndarray._wrap(h), lod))
        return out

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

    def find_var(self, name):
        """The scope's variable `name`, or None if it holds none."""
        if not isinstance(name, str):
            raise TypeError("find_var() takes a variable name (str), not %s" % type(name).__name__)
        if not self._session.holds(name):
            return None
        return _ScopeVar(self._session, name)

    def var(self, name):
        return _ScopeVar(self._session, name)

    def new_scope(self):
        return Scope()

    def drop_kids(self):
        pass

    def local_var_names(self):
        return self._session.names()
