"""paddle.fluid.average (1.x): averages a script keeps in Python of the
values it fetched (losses, accuracies, batch sizes). Nothing here touches
a program.

1.x (1.2 on) also warned on stderr that the class was deprecated in favour
of `fluid.metrics`; fluidc has no `fluid.metrics`, so it does not say so.
"""
import numpy as np

__all__ = ["WeightedAverage"]


def _is_number(value):
    # 1.x: a Python int or float (numpy's float64 is one), or a numpy
    # array of shape (1,), as a fetched [1] loss is.
    return isinstance(value, (int, float)) or (
        isinstance(value, np.ndarray) and value.shape == (1,))


def _is_number_or_array(value):
    return _is_number(value) or isinstance(value, np.ndarray)


class WeightedAverage(object):
    """sum(value * weight) / sum(weight) of what `add` was given since the
    last `reset`; values may be numbers or numpy arrays (averaged
    elementwise), weights are numbers."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.numerator = None
        self.denominator = None

    def add(self, value, weight):
        if not _is_number_or_array(value):
            raise ValueError("The 'value' must be a number(int, float) or a numpy ndarray.")
        if not _is_number(weight):
            raise ValueError("The 'weight' must be a number(int, float).")
        if self.numerator is None or self.denominator is None:
            self.numerator = value * weight
            self.denominator = weight
        else:
            self.numerator += value * weight
            self.denominator += weight

    def eval(self):
        if self.numerator is None or self.denominator is None:
            raise ValueError("There is no data to be averaged in WeightedAverage.")
        return self.numerator / self.denominator
