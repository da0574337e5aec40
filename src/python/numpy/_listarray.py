"""What arrays of str (`_strarray.py`) and object arrays (`_objarray.py`)
share: both are arrays of Python values that numpy's numeric code does not
hold. Loaded with them, on first use.

Such an array keeps its values in a flat list `_s` in C order and its
shape in `_shape`. Indexing, reshaping, transposing and broadcasting run on
an int64 array of positions into that list (`_positions()`), so they
follow numpy's rules (and errors) exactly; the values at the resulting
positions are then gathered into a new array. Like fluidc's other arrays,
a part taken out of an array is a copy.

A subclass says what differs (see `_ListArray`); printing is numpy's
layout (`_formatArray`, `_extendLine`) with the subclass's formatter for
one element.
"""
import builtins as _builtins

import numpy as _np


class _ListArray(_np.ndarray):
    """An array of Python values in a flat list.

    A subclass gives `dtype`, `itemsize`, `_new(values, shape)` (an array
    of its own kind), `_element(x)` (what indexing one value returns),
    `_element_text(x)` (one value as printing shows it), `_dtype_text`
    (the `dtype=` of its repr), and the errors `_numbers_only()` (numeric
    code reading it), `_no_method(name)` (an ndarray method it lacks) and
    `_no_argument(name)` (an argument it does not take)."""

    # -- attributes
    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, value):
        self._shape = self._positions().reshape(value).shape
        self._ia = None

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def size(self):
        return len(self._s)

    @property
    def nbytes(self):
        return self.itemsize * len(self._s)

    @property
    def strides(self):
        step = self.itemsize
        out = []
        for d in reversed(self._shape):
            out.append(step)
            step *= d
        return tuple(reversed(out))

    @property
    def T(self):
        return self._gather(self._positions().T)

    @property
    def base(self):
        return None

    @property
    def _h(self):
        # What numpy's numeric code reads: a clear error for these arrays.
        raise self._numbers_only()

    # -- positions
    def _positions(self):
        """An int64 array of this shape holding 0 .. size-1."""
        ia = self._ia
        if ia is None:
            ia = _np.arange(len(self._s)).reshape(self._shape)
            self._ia = ia
        return ia

    def _gather(self, pos):
        """The array of the values at `pos` (an array of positions), or one
        value (as `_element` gives it) when `pos` is a number."""
        s = self._s
        if isinstance(pos, _np.ndarray):
            return self._new([s[i] for i in pos.ravel().tolist()], pos.shape)
        return self._element(s[_builtins.int(pos)])

    # -- conversions
    def __array__(self, dtype=None, copy=None):
        raise self._numbers_only()

    def tolist(self):
        return nest(_builtins.list(self._s), self._shape)

    def item(self, *args):
        if not args:
            if len(self._s) != 1:
                raise ValueError("can only convert an array of size 1 to a Python scalar")
            return self._s[0]
        if len(args) == 1 and isinstance(args[0], tuple):
            args = args[0]
        if len(args) == 1:
            i = _builtins.int(args[0])
            n = len(self._s)
            if not -n <= i < n:
                raise IndexError("index %d is out of bounds for size %d" % (i, n))
            return self._s[i]
        return self._gather(self._positions()[tuple(args)])

    def copy(self, order="C"):
        return self._new(_builtins.list(self._s), self._shape)

    def view(self, dtype=None, type=None):
        if dtype is not None and _np.dtype(dtype) != self.dtype:
            raise NotImplementedError("fluidc's numpy has no views of other dtypes")
        return self.copy()

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # -- shapes
    def reshape(self, *shape, order="C"):
        if len(shape) == 1:
            shape = shape[0]
        return self._new(_builtins.list(self._s), self._positions().reshape(shape).shape)

    def flatten(self, order="C"):
        return self._new(_builtins.list(self._s), (len(self._s),))

    ravel = flatten

    def transpose(self, *axes):
        return self._gather(self._positions().transpose(*axes))

    def swapaxes(self, axis1, axis2):
        return self._gather(self._positions().swapaxes(axis1, axis2))

    def squeeze(self, axis=None):
        return self._gather(self._positions().squeeze(axis))

    def repeat(self, repeats, axis=None):
        return self._gather(self._positions().repeat(repeats, axis))

    def take(self, indices, axis=None, out=None, mode="raise"):
        if out is not None:
            raise self._no_argument("take(out=)")
        return self._gather(_np.take(self._positions(), indices, axis, mode=mode))

    # -- Python protocols
    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in _builtins.range(self._shape[0]))

    def __getitem__(self, key):
        if len(self._shape) == 1:
            # A vector's int and slice index the list itself.
            if type(key) is _builtins.int:
                n = self._shape[0]
                if not -n <= key < n:
                    raise IndexError("index %d is out of bounds for axis 0 with size %d" % (key, n))
                return self._element(self._s[key])
            if type(key) is slice:
                part = self._s[key]
                return self._new(part, (len(part),))
        return self._gather(self._positions()[key])

    def __bool__(self):
        if len(self._s) == 1:
            return _builtins.bool(self._s[0])
        if not self._s:
            raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` "
                             "to check that an array is not empty.")
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all()")

    def __repr__(self):
        return _format(self, True)

    def __str__(self):
        return _format(self, False)

    def __format__(self, spec):
        if not self._shape:
            return _builtins.format(self._s[0], spec)
        if spec == "":
            return _format(self, False)
        raise TypeError("unsupported format string passed to numpy.ndarray.__format__")


def _stub(name):
    def method(self, *args, **kwargs):
        raise self._no_method(name)
    method.__name__ = name
    return method


def _stub_property(name):
    def getter(self):
        raise self._no_method(name)
    return property(getter)


_KEEP = ("__new__", "__init__", "__hash__", "_wrap", "_wrap_plain", "__dict__", "__weakref__",
         "__module__", "__doc__", "__qualname__", "__init_subclass__", "__class__")


def finish(cls, keep=()):
    """Makes `cls` (a subclass of _ListArray) look like numpy's ndarray.
    Every other ndarray method computes with numbers: on `cls` it is an
    error naming it (`_no_method`). `keep` names more ndarray methods it
    inherits as they are."""
    own = cls.__mro__[:cls.__mro__.index(_np.ndarray)]
    for name, v in _builtins.list(vars(_np.ndarray).items()):
        if name in _KEEP or name in keep or any(name in k.__dict__ for k in own):
            continue
        if isinstance(v, property):
            setattr(cls, name, _stub_property(name))
        elif callable(v):
            setattr(cls, name, _stub(name))
    cls.__name__ = "ndarray"
    cls.__qualname__ = "ndarray"
    cls.__module__ = "numpy"


# ---------------------------------------------------------------- shapes


def shape_str(s):
    """A shape as numpy's messages write it: (2,3) or (2,)."""
    return "(" + ",".join(_builtins.str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


def count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def nest(flat, shape):
    """`tolist()`: the flat values nested as lists of `shape`."""
    if not shape:
        return flat[0]
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0] if shape[0] else 0
    return [nest(flat[i * step:(i + 1) * step], shape[1:]) for i in _builtins.range(shape[0])]


def common_shape(shapes):
    """The longest start the (non-empty list of) shapes share: how deep
    numpy's shape discovery goes through nested sequences."""
    common = shapes[0]
    for s in shapes[1:]:
        k = 0
        while k < len(common) and k < len(s) and common[k] == s[k]:
            k += 1
        common = common[:k]
    return common


def pair(xs, xshape, ys, yshape):
    """Two flat lists of values of the given shapes, broadcast together:
    (xs, ys, shape)."""
    if xshape == yshape:
        return xs, ys, xshape
    ia = _np.arange(len(xs)).reshape(xshape)
    ib = _np.arange(len(ys)).reshape(yshape)
    pa = ia + ib * 0
    pb = ib + ia * 0
    return [xs[i] for i in pa.ravel().tolist()], [ys[i] for i in pb.ravel().tolist()], pa.shape


def spread(vals, vshape, shape):
    """The values (flat, of shape `vshape`) broadcast to `shape` for an
    assignment, with numpy's error when they do not broadcast."""
    if vshape == shape:
        return vals
    try:
        vi = _np.broadcast_to(_np.arange(len(vals)).reshape(vshape), shape)
    except ValueError:
        raise ValueError("could not broadcast input array from shape %s into shape %s"
                         % (shape_str(vshape), shape_str(shape)))
    return [vals[i] for i in vi.ravel().tolist()]


# ---------------------------------------------------------------- printing


def _extend(s, line, word, width, indent):
    """numpy's `_extendLine`: adds `word` to `line`, first ending the line
    when it would pass `width` (a line holding only the indent takes any
    word)."""
    if len(line) + len(word) > width and len(line) > len(indent):
        s += line.rstrip() + "\n"
        line = indent
    return s, line + word


def _extend_pretty(s, line, word, width, indent):
    """numpy's `_extendLine_pretty`: a word of several lines keeps its
    lines aligned. (An element's repr() of a str is always one line.)"""
    words = word.splitlines()
    if len(words) == 1:
        return _extend(s, line, word, width, indent)
    longest = _builtins.max(len(w) for w in words)
    if len(line) + longest > width and len(line) > len(indent):
        s += line.rstrip() + "\n"
        line = indent + words[0]
        hang = indent
    else:
        hang = " " * len(line)
        line += words[0]
    for w in words[1:]:
        s += line.rstrip() + "\n"
        line = hang + w
    line += " " * (longest - len(words[-1]))
    return s, line


def _layout(a, linewidth, sep, indent):
    """numpy's `_formatArray` with the array's element formatter: nested
    brackets, items wrapped at `linewidth`, summarized with `...` past the
    print threshold."""
    opts = _np._print_options
    threshold = opts["threshold"]
    edge = opts["edgeitems"]
    summarize = threshold is not None and len(a._s) > threshold
    shape = a._shape
    strides = []
    step = 1
    for d in reversed(shape):
        strides.append(step)
        step *= d
    strides.reverse()
    s_ = a._s
    text = a._element_text

    def block(offset, axis, hang, width):
        if axis == len(shape):
            return text(s_[offset])
        n = shape[axis]
        cut = summarize and 2 * edge < n
        items = (_builtins.list(_builtins.range(edge)) + [None] + _builtins.list(_builtins.range(n - edge, n))
                 if cut else _builtins.list(_builtins.range(n)))
        inner_hang = hang + " "
        inner_width = width - 1
        rows = len(shape) - axis
        if rows == 1:
            item_width = width - _builtins.max(len(sep.rstrip()), 1)
            out = ""
            line = hang
            for k, i in enumerate(items):
                if i is None:
                    out, line = _extend(out, line, "...", item_width, hang)
                else:
                    word = block(offset + i * strides[axis], axis + 1, inner_hang, inner_width)
                    out, line = _extend_pretty(out, line, word, item_width, hang)
                if k != len(items) - 1:
                    line += sep
            out += line
        else:
            line_sep = sep.rstrip() + "\n" * (rows - 1)
            parts = []
            for i in items:
                parts.append(hang + ("..." if i is None else block(offset + i * strides[axis], axis + 1,
                                                                    inner_hang, inner_width)))
            out = line_sep.join(parts)
        return "[" + out[len(hang):] + "]"

    return block(0, 0, indent, linewidth)


def _format(a, is_repr):
    """str() and repr() of an array, as numpy's array_str/array_repr."""
    opts = _np._print_options
    linewidth = opts["linewidth"]
    if not is_repr:
        if not a._shape:
            return _builtins.str(a._s[0])
        if not a._s:
            return "[]"
        return _layout(a, linewidth, " ", " ")
    prefix = "array("
    if not a._s:
        body = "[]"
    else:
        # (A 0-d array's body is its element's text.)
        body = _layout(a, linewidth - 1, ", ", " " * (len(prefix) + 1))
    extras = []
    size = len(a._s)
    threshold = opts["threshold"]
    if (size == 0 and a._shape != (0,)) or (threshold is not None and size > threshold):
        extras.append("shape=%r" % (a._shape,))
    extras.append(a._dtype_text)
    text = prefix + body + ","
    extra = ", ".join(extras) + ")"
    last = len(text) - (text.rfind("\n") + 1)
    spacer = " "
    if last + len(extra) + 1 > linewidth:
        spacer = "\n" + " " * len(prefix)
    return text + spacer + extra
