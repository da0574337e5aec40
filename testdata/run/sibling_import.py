# Importing a helper module that sits beside the script: `import`,
# `import ... as`, `from ... import`, `from ... import *`, module state,
# classes and exceptions defined in the module. The module's code runs once.
from __future__ import print_function

import _sibling_helpers
import _sibling_helpers as helpers
from _sibling_helpers import TinyNet, batch as make_batch
from _sibling_helpers import *

import numpy as np
import paddle.fluid as fluid

print(_sibling_helpers is helpers, helpers.__name__, HIDDEN)

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = TinyNet().build(x)
z = TinyNet(hidden=2).build(x)
print(helpers.calls, calls is helpers.calls)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for n in [1, 3]:
    out_y, out_z = exe.run(feed={'x': make_batch(n, 2.0)}, fetch_list=[y, z])
    print(n, out_y.shape, np.round(out_y[:, 0], 4), np.round(out_z[:, 0], 4))

print(type(TinyNet()).__name__, type(TinyNet()))
try:
    check_rows(batch(2), 3)
except helpers.ShapeError as e:
    print("caught", type(e).__name__, e)
except ValueError:
    print("not reached")
print(check_rows(batch(5), 5))

helpers.HIDDEN = 7
print(_sibling_helpers.HIDDEN, HIDDEN)
print(hasattr(helpers, '_private'), hasattr(helpers, 'missing'), helpers._private())
