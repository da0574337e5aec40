"""Layers whose `name=` names their output variable itself, as Paddle
1.1-1.6 wrote them (python/paddle/fluid/layers/nn.py: scale, _elementwise_op,
mean, mul, _logical_op, ...: `helper.create_variable(name=name, ...)`),
so a 1.x script could fetch the output by that name. Paddle 3.3.1's
static layers ignore `name` here (its `scale` output is `scale_0.tmp_0`),
so this script is fluidc-only: what it asserts is 1.6's source."""
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = fluid.layers.data(name='y', shape=[3], dtype='float32')
scaled = fluid.layers.scale(x, scale=2.0, bias=1.0, name='scaled')
summed = fluid.layers.elementwise_add(scaled, y, name='summed')
prod = fluid.layers.elementwise_mul(summed, y, name='prod')
avg = fluid.layers.mean(prod, name='avg')
w = fluid.layers.create_parameter(shape=[3, 2], dtype='float32', name='w',
                                  default_initializer=fluid.initializer.Constant(0.5))
mm = fluid.layers.mul(x, w, name='mm')
less = fluid.layers.less_than(x, y)
both = fluid.layers.logical_and(less, less, name='both')
plain = fluid.layers.scale(x, scale=3.0)

names = [v.name for v in (scaled, summed, prod, avg, mm, both)]
assert names == ['scaled', 'summed', 'prod', 'avg', 'mm', 'both'], names
# Without a name, the layer's temporary.
assert plain.name.startswith('scale_') and plain.name.endswith('.tmp_0'), plain.name

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xv = np.array([[1., 2., 3.]], dtype='float32')
yv = np.array([[3., 2., 1.]], dtype='float32')
out = exe.run(feed={'x': xv, 'y': yv}, fetch_list=['scaled', 'summed', 'avg', 'mm', 'both'])
np.testing.assert_allclose(out[0], xv * 2 + 1)
np.testing.assert_allclose(out[1], xv * 2 + 1 + yv)
np.testing.assert_allclose(out[2], [((xv * 2 + 1 + yv) * yv).mean()])
np.testing.assert_allclose(out[3], xv.dot(np.full((3, 2), 0.5, 'float32')))
assert out[4].tolist() == [[True, False, False]], out[4]
print('names ok')
