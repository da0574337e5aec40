# A layer written in a 2018 model file the way fluid's own layers were:
# `LayerHelper('name', **locals())` takes the layer's arguments from its
# locals(), names its temporaries after it and applies its `act`.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.layer_helper import LayerHelper


def scaled_shift(x, scale, shift=0.0, act=None, name=None):
    helper = LayerHelper('scaled_shift', **locals())
    print(sorted(helper.kwargs), helper.kwargs['scale'], helper.kwargs['shift'])
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type='scale', inputs={'X': [helper.kwargs['x']]},
                     outputs={'Out': [out]},
                     attrs={'scale': float(scale), 'bias': float(shift)})
    return helper.append_activation(out)


def arguments(a, b=2, *rest, **named):
    c = a + b
    return sorted(locals().items())


print(arguments(1))
print(arguments(1, 3, 4, 5, key='v'))

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = scaled_shift(x, scale=2.0, shift=-3.0, act='relu')
z = scaled_shift(x=y, scale=0.5)
print(y.name, z.name)

exe = fluid.Executor(fluid.CPUPlace())
feed = {'x': np.array([[1, 2, 3], [0, 4, -1]], dtype='float32')}
# y = relu(2x - 3), z = y / 2
got = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[y, z])
print([g.tolist() for g in got])
