# A helper module beside testdata/run/sibling_import.py, imported by it the
# way 2018 Paddle tests imported their shared helpers (not a test script
# itself: the run-mode test skips files whose name starts with `_`).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

print("loading", __name__)

HIDDEN = 4
calls = []


class TinyNet(object):
    """Two fc layers; the weights start at a constant so both runs agree."""

    def __init__(self, hidden=HIDDEN):
        self.hidden = hidden

    def build(self, x):
        init = fluid.initializer.Constant(value=0.1)
        h = fluid.layers.fc(input=x, size=self.hidden, act='relu',
                            param_attr=fluid.ParamAttr(initializer=init))
        calls.append(self.hidden)
        return fluid.layers.fc(input=h, size=1,
                               param_attr=fluid.ParamAttr(initializer=init))


def batch(n, value=1.0):
    return np.full((n, 3), value, dtype='float32')


class ShapeError(ValueError):
    pass


def check_rows(a, rows):
    if a.shape[0] != rows:
        raise ShapeError("expected %d rows, got %d" % (rows, a.shape[0]))
    return a.shape[0]


def _private():
    return "hidden"


if __name__ == '__main__':
    print("never printed on import")
