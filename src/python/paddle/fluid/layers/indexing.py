"""Indexing a Variable (`x[0]`, `x[:, 1]`, `x[0, 1:3, -1]`, `x[1:]`) builds
a `slice` op, as 1.x's `Variable.__getitem__` did: ints and slices of step
1 on the leading axes, an int dropping its axis (`decrease_axis`); a whole
axis of step -1 (`x[::-1]`) then a `reverse` op over those axes, as 1.5's."""
import operator

from ..framework import Variable
from .manipulation import _slice
from .tensor import reverse as reverse_layer

# Paddle's end for "to the end of the dim".
_TO_END = 2 ** 31 - 1


def _int(value, what):
    if isinstance(value, Variable) or not hasattr(value, "__index__"):
        raise TypeError("a Variable is indexed by ints and slices of ints; %s is %s"
                        % (what, type(value).__name__))
    return operator.index(value)


def _getitem(self, item):
    if not isinstance(item, tuple):
        item = (item,)
    axes, starts, ends, decrease, reverse = [], [], [], [], []
    for dim, part in enumerate(item):
        if part is Ellipsis or part is None:
            raise NotImplementedError(
                "indexing a Variable with %s is not supported; index each axis with an int or "
                "a slice, or use fluid.layers.unsqueeze for a new axis"
                % ("..." if part is Ellipsis else "None"))
        if isinstance(part, slice):
            step = 1 if part.step is None else _int(part.step, "the step")
            if step == -1 and part.start is None and part.stop is None:
                # Numbered as the sliced result's axes (ints drop theirs).
                reverse.append(dim - len(decrease))
                continue
            if step != 1:
                raise NotImplementedError(
                    "slicing a Variable takes a step of 1, or -1 over a whole axis (x[::-1]), "
                    "as 1.5's did")
            start = 0 if part.start is None else _int(part.start, "the start")
            end = _TO_END if part.stop is None else _int(part.stop, "the stop")
            if start == 0 and end == _TO_END:
                continue  # `:` keeps the whole axis
            axes.append(dim)
            starts.append(start)
            ends.append(end)
        else:
            n = _int(part, "the index")
            axes.append(dim)
            starts.append(n)
            ends.append(_TO_END if n == -1 else n + 1)
            decrease.append(dim)
    out = _slice(self, axes, starts, ends, decrease) if axes else self
    return reverse_layer(out, reverse) if reverse else out


def monkey_patch_getitem():
    Variable.__getitem__ = _getitem
