# abs keeps its input's LoD, as in Paddle 1.x (issue 38). fluidc only:
# Paddle 3.3.1's abs (phi's RealAndImagInferMeta) drops the LoD, so its
# sequence_pool refuses the output, while 1.x registered abs as one of
# the activations, whose ActivationOp::InferShape calls
# ctx->ShareLoD("X", "Out") (paddle/fluid/operators/activation_op.cc,
# v1.0 to v1.8). Checked against numpy: the pooled sums of |x| per
# sequence, and abs's gradient sign(x) through the pooled sums.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

data = np.array([[0.3, -1.2], [1.7, 0.45], [-2.2, 0.9],
                 [0.6, -0.35], [1.25, -2.0], [-0.7, 1.6]], dtype='float32')
lengths = [2, 3, 1]

x = layers.data(name='x', shape=[2], dtype='float32', lod_level=1)
x.stop_gradient = False
y = layers.abs(x)
pooled = layers.sequence_pool(input=y, pool_type='sum')
loss = layers.reduce_sum(layers.elementwise_mul(
    pooled, layers.assign(np.array([[1.0, 2.0]], dtype='float32'))))
fluid.backward.append_backward(loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
got_y, got_pooled, got_dx = exe.run(
    feed={'x': fluid.create_lod_tensor(data, [lengths], place)},
    fetch_list=[y, pooled, 'x@GRAD'], return_numpy=False)

assert got_y.lod() == [[0, 2, 5, 6]], got_y.lod()
starts = np.cumsum([0] + lengths)
want = np.array([np.abs(data[a:b]).sum(axis=0) for a, b in zip(starts[:-1], starts[1:])])
assert np.allclose(np.array(got_pooled), want, atol=1e-6), (np.array(got_pooled), want)
assert np.allclose(np.array(got_dx), np.sign(data) * np.array([1.0, 2.0])), np.array(got_dx)
print('ok')
