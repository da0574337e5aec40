# An SSD inference model as 2019 deployment code saved and reloaded it:
# multi_box_head and detection_output, save_inference_model, then the
# reloaded program gives the same detections (with their LoD).
import numpy as np
import tempfile
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 4
image = fluid.layers.data(name='image', shape=[3, 16, 16], dtype='float32')
conv1 = fluid.layers.conv2d(image, num_filters=4, filter_size=3, stride=2, padding=1, act='relu')
conv2 = fluid.layers.conv2d(conv1, num_filters=4, filter_size=3, stride=2, padding=1, act='relu')
locs, confs, boxes, variances = fluid.layers.multi_box_head(
    inputs=[conv1, conv2], image=image, base_size=16, num_classes=3,
    aspect_ratios=[[2.], [2.]], min_sizes=[4.0, 8.0], max_sizes=[8.0, 14.0], flip=True)
nmsed = fluid.layers.detection_output(locs, confs, boxes, variances, score_threshold=0.3,
                                      keep_top_k=5)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(2)
img = np.random.rand(2, 3, 16, 16).astype('float32')
d0 = exe.run(feed={'image': img}, fetch_list=[nmsed], return_numpy=False)[0]
path = tempfile.mkdtemp()
fluid.io.save_inference_model(path, ['image'], [nmsed], exe)
prog, feeds, fetches = fluid.io.load_inference_model(path, exe)
print(feeds, [op.type for op in prog.global_block().ops
              if op.type not in ('feed', 'fetch')][-5:])
d1 = exe.run(prog, feed={feeds[0]: img}, fetch_list=fetches, return_numpy=False)[0]
print(np.array(d0).shape, d0.lod(), np.array_equal(np.array(d0), np.array(d1)), d1.lod())
print(np.round(np.array(d1).astype('float64'), 4).tolist())
