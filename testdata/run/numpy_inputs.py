# A host program that builds its inputs and expected values with numpy the
# way 2018 test scripts did: item assignment into arrays (also through
# another name, an attribute, a dict and a function argument), np.eye,
# np.full, np.dot, np.round, np.clip, np.where and shape functions.
import numpy as np
import paddle.fluid as fluid


class Inputs(object):
    def __init__(self, n):
        self.w = np.zeros((n, n), dtype='float32')

    def set_diagonal(self, value):
        for i in range(self.w.shape[0]):
            self.w[i, i] = value


def scale_first_row(arr, k):
    arr[0] *= k


x = fluid.layers.data(name='x', shape=[3], dtype='float32')
w = fluid.layers.data(name='w', shape=[3], dtype='float32', append_batch_size=False)
y = fluid.layers.elementwise_mul(x, w)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

batch = np.zeros((2, 3), dtype='float32')
alias = batch
for r in range(2):
    for c in range(3):
        batch[r, c] = (r + 1) * 0.5 - c * 0.25
alias[1, :] += 1
batch[batch < 0] = -0.125
scale_first_row(batch, 2)
inputs = Inputs(3)
inputs.set_diagonal(1.5)
inputs.w[0, 2] = -1
weights = {'w': inputs.w + np.eye(3, dtype='float32')}
weights['w'][2] = [0.25, 0.5, 0.75]
out, = exe.run(feed={'x': batch, 'w': weights['w'][1]}, fetch_list=[y])
expected = batch * weights['w'][1]
print(batch)
print(weights['w'])
print(out)
print(np.dot(batch, weights['w']), np.dot(batch[0], batch[1]))
print(np.allclose(out, expected), np.round(out, 2), out.round(1))
print(np.clip(out, 0, 1), np.where(out > 1, out, np.zeros_like(out)))
print(np.maximum(out, 0.5), np.minimum(out, np.full((2, 3), 2.0)))
print(np.squeeze(np.expand_dims(out, 0)).shape, np.reshape(out, -1), np.transpose(out).shape)
print(np.linspace(0, 1, 5), np.identity(2, dtype='int64'), np.floor(out), np.ceil(out))
try:
    batch[5, 0] = 1
except IndexError as e:
    print('IndexError:', e)
cube = np.arange(24).reshape(2, 3, 4).astype('float32') * 0.5
cube[..., 0] = -1
print(cube[..., 0], cube[1, ..., 2], np.std(cube), cube.var(axis=1), np.argmin(cube, axis=2))
print(np.any(cube > 10), (cube > 5).all(axis=0), np.isclose(cube[0, 0], [-1, 0.5, 1.0001, 1.5]))

# Reductions over several axes (a tuple), as gradient checks sum them.
cube = np.arange(60, dtype='float32').reshape(3, 4, 5) / 7
print(np.sum(cube, axis=(1, 2)), np.sum(cube, axis=(0, 1)), np.sum(cube, axis=(2, 0)).shape)
print(np.sum(cube, axis=(0, 1, 2)), np.sum(cube, axis=(1, 2), keepdims=True).shape, np.max(cube, axis=(0, 2)))
print(np.mean(cube, axis=(0, 1)), np.arange(24).reshape(2, 3, 4).sum(axis=(0, 2)))

# numpy 2's scalar rules (NEP 50): np.float32 with a Python number stays
# float32, as a loss compared with a Python constant does.
a32 = np.float32(0.1)
print(repr(a32 - 0.5), repr(0.5 - a32), repr(a32 * 2), (a32 - 0.5).dtype, abs(a32 - 0.3), repr(abs(np.float32(-2.5))))
print(max(np.float32(1), 2), "%s %.3f" % (np.float32(1.5), np.float32(0.25)), round(np.float32(2.567), 2), float(a32) - 0.5)
print(list(range(np.int64(3))), [10, 20, 30][np.int64(1)], np.float64(1) / 3, int(np.float32(2.7)))
