# A LoDTensor fed to a data layer keeps its own dtype and LoD, as 1.x's
# feed op set the tensor as it was: 2018 op tests declared float32 data
# layers and fed int32 values and bool masks built as core.LoDTensor.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid import core

ids = fluid.layers.data(name='ids', shape=[1])
mask = fluid.layers.data(name='mask', shape=[1])
as_float = fluid.layers.cast(ids, 'float32')
doubled = fluid.layers.scale(as_float, scale=2.0)

place = fluid.CPUPlace()
t = core.LoDTensor()
t.set(np.arange(6).reshape(6, 1).astype('int32'), place)
t.set_recursive_sequence_lengths([[2, 3, 1]])
m = core.LoDTensor()
m.set(np.array([[True], [False], [True]]), place)

exe = fluid.Executor(place)
outs = exe.run(feed={'ids': t, 'mask': m}, fetch_list=[ids, mask, doubled],
               return_numpy=False)
for name, o in zip(['ids', 'mask', 'doubled'], outs):
    a = np.array(o)
    print(name, a.dtype, a.ravel().tolist(), o.recursive_sequence_lengths())
