# Resizing feature maps as 2018-19 image programs did (segmentation heads
# upsampling a score map, detection necks, image_resize_short for
# preprocessing): fluid.layers.image_resize, resize_bilinear and
# resize_nearest with out_shape or scale, align_corners True and False,
# align_mode 0 and 1 (1.4's arguments; 1.2's scripts call without them),
# actual_shape, then a few SGD steps through an upsampling so the
# bilinear and nearest grads are used.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 9
with fluid.program_guard(main, startup):
    image = fluid.layers.data(name='image', shape=[2, 5, 6], dtype='float32')
    size = fluid.layers.data(name='size', shape=[2], dtype='int32', append_batch_size=False)
    resized = [
        ('bilinear 1.2-style', fluid.layers.image_resize(image, out_shape=[7, 9])),
        ('bilinear corners mode0', fluid.layers.resize_bilinear(
            image, out_shape=[8, 4], align_corners=True, align_mode=0)),
        ('bilinear no-corners mode0', fluid.layers.resize_bilinear(
            image, out_shape=[8, 11], align_corners=False, align_mode=0)),
        ('bilinear no-corners mode1', fluid.layers.resize_bilinear(
            image, out_shape=[3, 4], align_corners=False, align_mode=1)),
        ('bilinear scale', fluid.layers.resize_bilinear(image, scale=1.5)),
        ('bilinear scale no-corners', fluid.layers.image_resize(
            image, scale=0.7, align_corners=False, align_mode=0)),
        ('nearest', fluid.layers.resize_nearest(image, out_shape=[9, 7])),
        ('nearest no-corners', fluid.layers.resize_nearest(
            image, out_shape=[4, 13], align_corners=False)),
        ('nearest scale', fluid.layers.image_resize(image, scale=2, resample='NEAREST')),
        ('short side', fluid.layers.image_resize_short(image, 3)),
        ('short side nearest', fluid.layers.image_resize_short(image, 8, resample='NEAREST')),
        ('same size', fluid.layers.resize_bilinear(image, out_shape=[5, 6])),
        ('actual_shape', fluid.layers.resize_bilinear(image, out_shape=[4, 4],
                                                      actual_shape=size)),
    ]
    for what, out in resized:
        print(what, out.shape)

    feat = fluid.layers.conv2d(input=image, num_filters=3, filter_size=3, stride=2,
                               padding=1, act='relu', param_attr='enc_w', bias_attr='enc_b')
    up = fluid.layers.resize_bilinear(feat, out_shape=[5, 6], align_corners=False,
                                      align_mode=0)
    up_near = fluid.layers.resize_nearest(feat, scale=2.0)
    score = fluid.layers.conv2d(input=up, num_filters=2, filter_size=1,
                                param_attr='dec_w', bias_attr='dec_b')
    target = fluid.layers.data(name='target', shape=[2, 5, 6], dtype='float32')
    cost = fluid.layers.mean(fluid.layers.square_error_cost(score, target)) \
        + 0.1 * fluid.layers.mean(fluid.layers.square(up_near))
    fluid.optimizer.SGD(learning_rate=0.2).minimize(cost)

for bad in [dict(resample='BICUBIC', out_shape=[3, 3]), dict(out_shape=None),
            dict(out_shape=[3, 3], align_mode=2), dict(out_shape=[3, 3], align_corners=1),
            dict(out_shape=[3]), dict(scale=-1.0), dict(out_shape=[3, 3], actual_shape=[3, 3])]:
    try:
        with fluid.program_guard(fluid.Program(), fluid.Program()):
            x = fluid.layers.data(name='x', shape=[1, 4, 4], dtype='float32')
            fluid.layers.image_resize(x, **bad)
        print('accepted', bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)

rng = np.random.RandomState(21)
feed = {
    'image': rng.uniform(-1, 1, (2, 2, 5, 6)).astype('float32'),
    'size': np.array([6, 3], dtype='int32'),
    'target': rng.uniform(-1, 1, (2, 2, 5, 6)).astype('float32'),
}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
values = exe.run(main, feed=feed, fetch_list=[out for _, out in resized])
for (what, _), v in zip(resized, values):
    print(what, v.shape, 'sum %.4f' % v.sum())
    print(' ', fmt(v[1, 1, :2]))
params = ['enc_w', 'enc_b', 'dec_w', 'dec_b']
for step in range(5):
    c, u = exe.run(main, feed=feed, fetch_list=[cost, up])
    total = sum(float(np.abs(np.array(fluid.global_scope().find_var(name).get_tensor())).sum())
                for name in params)
    print('step %d cost %.5f up %.5f |params| %.4f'
          % (step, float(np.array(c).flatten()[0]), u.mean(), total))
