# sigmoid_cross_entropy_with_logits and its gradient, at a logit of
# exactly 0 among others (issue 38). The loss is max(x, 0) - x * label +
# log(1 + exp(-|x|)) and its gradient sigmoid(x) - label, as 1.x's
# kernels computed them (paddle/fluid/operators/
# sigmoid_cross_entropy_with_logits_op.h). Paddle 3.3.1's grad kernel
# gives sigmoid(0) - label - 1 at x == 0 (it takes the x < 0 branch's
# "- 1" there), so this is checked against numpy and central finite
# differences of the loss instead, and runs in fluidc only.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

logits = np.array([[0.0, 0.0, 0.0], [-1.5, 2.0, 0.0], [0.25, -0.25, 3.0]], dtype='float32')
labels = np.array([[0.0, 1.0, 0.3], [1.0, 0.0, 0.5], [0.7, 0.2, 1.0]], dtype='float32')

x = layers.data(name='x', shape=[3], dtype='float32')
label = layers.data(name='label', shape=[3], dtype='float32')
x.stop_gradient = False
loss = layers.sigmoid_cross_entropy_with_logits(x=x, label=label)
total = layers.reduce_sum(loss)
fluid.backward.append_backward(total)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
got_loss, got_grad = exe.run(feed={'x': logits, 'label': labels},
                             fetch_list=[loss, 'x@GRAD'])


def ce(z, t):
    z = z.astype('float64')
    return np.maximum(z, 0) - z * t + np.log1p(np.exp(-np.abs(z)))


want_grad = 1.0 / (1.0 + np.exp(-logits.astype('float64'))) - labels
assert np.allclose(got_loss, ce(logits, labels), atol=1e-6), (got_loss, ce(logits, labels))
assert np.allclose(got_grad, want_grad, atol=1e-6), (got_grad, want_grad)
assert np.allclose(got_grad[0], [0.5, -0.5, 0.2], atol=1e-7), got_grad[0]
h, z = 1e-4, logits.astype('float64')
finite = (ce(z + h, labels) - ce(z - h, labels)) / (2 * h)
assert np.allclose(got_grad, finite, atol=1e-5), (got_grad, finite)
print('ok')
