# layer_norm's Mean and Variance as 1.x declared and wrote them: one value
# per row of X flattened at begin_norm_axis, a vector ({left} in 1.x's
# InferShape), which 1.x's test_layer_norm_op compared with numpy's.
# fluidc only: Paddle 3.3.1 shapes them as the dims before the axis.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3, 4, 5], dtype='float32')
y = fluid.layers.layer_norm(x, begin_norm_axis=3)
block = fluid.default_main_program().global_block()
op = [o for o in block.ops if o.type == 'layer_norm'][0]
mean, var = op.output('Mean')[0], op.output('Variance')[0]
print(block.var(mean).shape, block.var(var).shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xv = np.random.RandomState(5).rand(2, 3, 4, 5).astype('float32')
m, v = exe.run(feed={'x': xv}, fetch_list=[mean, var])
rows = xv.reshape(24, 5)
assert m.shape == (24,) and v.shape == (24,), (m.shape, v.shape)
assert np.allclose(m, rows.mean(axis=1), atol=1e-6)
assert np.allclose(v, rows.var(axis=1), atol=1e-6)
print(m.shape, v.shape)
