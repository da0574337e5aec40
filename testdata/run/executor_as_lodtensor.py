# fluid.executor._as_lodtensor(array, place): a LoDTensor copy of a numpy
# array, as 2018 unit tests built feed tensors and tensor-array items.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.executor import _as_lodtensor

place = fluid.CPUPlace()
data = np.arange(6, dtype="float32").reshape(2, 3)
t = _as_lodtensor(data, place)
print(isinstance(t, fluid.core.LoDTensor), t.shape(), t.recursive_sequence_lengths())
data[0, 0] = 100.0  # the tensor holds a copy
print(np.array(t).tolist())
ids = _as_lodtensor(np.array([[1], [3]], dtype="int64"), place)
print(np.array(ids).dtype, np.array(ids).ravel().tolist())

items = [_as_lodtensor(np.full((1, 2), i, dtype="float32"), place) for i in range(3)]
print(len(items), [np.array(a).tolist() for a in items])

# a feed given as a tensor
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[3], dtype="float32")
    y = fluid.layers.scale(x, scale=2.0, bias=1.0)
exe = fluid.Executor(place)
exe.run(startup)
out, = exe.run(main, feed={"x": t}, fetch_list=[y])
print(out.tolist())

try:
    _as_lodtensor([np.ones((1, 3), dtype="float32")], place)
except RuntimeError as e:
    print("RuntimeError:", " ".join(str(e).split()))
