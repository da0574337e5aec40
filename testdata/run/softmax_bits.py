# Class probabilities and their loss as Paddle computes them in float32:
# softmax and softmax_with_cross_entropy match Paddle's bits row by row.
import numpy as np
import paddle.fluid as fluid
np.random.seed(3)
for n in [3, 8, 10, 17, 100]:
    prog = fluid.Program()
    with fluid.program_guard(prog):
        x = fluid.layers.data(name='x', shape=[n], dtype='float32')
        lab = fluid.layers.data(name='lab', shape=[1], dtype='int64')
        y = fluid.layers.softmax(x)
        loss = fluid.layers.softmax_with_cross_entropy(x, lab)
    exe = fluid.Executor(fluid.CPUPlace())
    v = (np.random.randn(4, n) * 3).astype('float32')
    l = np.random.randint(0, n, size=(4, 1)).astype('int64')
    a, b = exe.run(prog, feed={'x': v, 'lab': l}, fetch_list=[y, loss])
    print(n, [repr(float(t)) for t in a[0][:4]], [repr(float(t)) for t in b[:, 0]])
