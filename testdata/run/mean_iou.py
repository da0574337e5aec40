# Mean IoU of a segmentation net's predictions, as a 2019 DeepLab eval
# script computed it, batch by batch, on int64 and int32 labels.
import numpy as np
import paddle.fluid as fluid

num_classes = 4
pred = fluid.layers.data(name='pred', shape=[6, 6], dtype='int64')
label = fluid.layers.data(name='label', shape=[6, 6], dtype='int64')
miou, wrong, correct = fluid.layers.mean_iou(pred, label, num_classes)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

np.random.seed(7)
for step in range(3):
    y = np.random.randint(0, num_classes, size=(2, 6, 6)).astype('int64')
    p = y.copy()
    flip = np.random.rand(2, 6, 6) < 0.3 * (step + 1)
    p[flip] = np.random.randint(0, num_classes, size=int(flip.sum()))
    m, w, c = exe.run(feed={'pred': p, 'label': y}, fetch_list=[miou, wrong, correct])
    print('step %d: miou %.6f shape %s' % (step, m[0], m.shape))
    print('  wrong', w.tolist(), w.dtype)
    print('  correct', c.tolist(), c.dtype)

# A class that never occurs does not count; int32 labels work too.
small = fluid.Program()
with fluid.program_guard(small):
    p32 = fluid.layers.data(name='p32', shape=[4], dtype='int32')
    l32 = fluid.layers.data(name='l32', shape=[4], dtype='int32')
    m32, w32, c32 = fluid.layers.mean_iou(p32, l32, 5)
m, w, c = exe.run(small,
                  feed={'p32': np.array([[0, 0, 1, 1], [1, 2, 2, 0]], 'int32'),
                        'l32': np.array([[0, 1, 1, 1], [1, 2, 0, 0]], 'int32')},
                  fetch_list=[m32, w32, c32])
print('int32: miou %.6f' % m[0], w.tolist(), c.tolist())
