# leaky_relu's gradient where its input is exactly 0 (an fc of an
# all-zero row with a zero bias gives such inputs): Paddle 1.x computed
# dout * (alpha * (x < 0) + (x >= 0)), so x = 0 passes dout whole.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[4], dtype='float32', append_batch_size=False)
x.stop_gradient = False
y = fluid.layers.mean(fluid.layers.leaky_relu(x, alpha=0.1))
fluid.backward.append_backward(y)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
g, = exe.run(feed={'x': np.array([0.0, -0.0, -2.0, 3.0], dtype='float32')},
             fetch_list=[x.name + '@GRAD'])
print(np.round(g, 6).tolist())
