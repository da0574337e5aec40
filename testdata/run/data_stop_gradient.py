# 1.x's `layers.data(..., stop_gradient=False)`: a fed variable that
# backward differentiates, so `x@GRAD` is made and can be fetched (Paddle's
# 2018 test_lod_tensor_array_ops fetched it).
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    x = layers.data(name='x', shape=[3], dtype='float32', stop_gradient=False)
    y = layers.data(name='y', shape=[3], dtype='float32')
    print(x.stop_gradient, y.stop_gradient)
    z = layers.elementwise_mul(x, y)
    loss = layers.mean(layers.scale(z, scale=3.0))
    fluid.backward.append_backward(loss)

block = main.global_block()
print(block.has_var('x@GRAD'), block.has_var('y@GRAD'))
x_grad = block.var(x.name + '@GRAD')
print(x_grad.name, x_grad.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
xs = np.arange(6).reshape(2, 3).astype('float32')
ys = np.array([[1, 2, 3], [4, 5, 6]], dtype='float32')
g, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[x_grad])
print(g.shape, g.tolist())
