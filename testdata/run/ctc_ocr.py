# A CTC text recognizer in the style of 2018's OCR models (ocr_recognition's
# crnn_ctc): per-frame features of variable-length lines (LoD), a
# projection to the characters plus the blank, warpctc as the loss, and
# for evaluation ctc_greedy_decoder + edit_distance against the labels.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
fluid.default_main_program().random_seed = 11
NUM_CLASSES = 5  # characters 0..4; the blank is 5
frames = fluid.layers.data(name='frames', shape=[6], dtype='float32', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int32', lod_level=1)
hidden = fluid.layers.fc(input=frames, size=12, act='tanh',
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=3)))
logits = fluid.layers.fc(input=hidden, size=NUM_CLASSES + 1,
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=4)))
cost = fluid.layers.warpctc(input=logits, label=label, blank=NUM_CLASSES, norm_by_times=True)
avg_cost = fluid.layers.mean(cost)
decoded = fluid.layers.ctc_greedy_decoder(input=logits, blank=NUM_CLASSES)
casted = fluid.layers.cast(x=label, dtype='int64')
distance, seq_num = fluid.layers.edit_distance(input=decoded, label=casted, normalized=False)
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(avg_cost)

rng = np.random.RandomState(2)
frame_lengths = [7, 5, 6]
label_seqs = [[1, 3, 3], [0, 2], [4, 1, 0]]
features = rng.uniform(-1, 1, (sum(frame_lengths), 6)).astype('float32')
labels = np.array([c for seq in label_seqs for c in seq], dtype='int32').reshape(-1, 1)
place = fluid.CPUPlace()
feed = {'frames': fluid.create_lod_tensor(features, [frame_lengths], place),
        'label': fluid.create_lod_tensor(labels, [[len(s) for s in label_seqs]], place)}
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
for step in range(6):
    c, per_line = exe.run(feed=feed, fetch_list=[avg_cost, cost])
    print(step, np.round(c, 4), np.round(per_line.ravel(), 4).tolist())
dec, dist, n = exe.run(test_program, feed=feed, fetch_list=[decoded, distance, seq_num], return_numpy=False)
print('decoded', np.array(dec).ravel().tolist(), dec.lod())
print('distance', np.array(dist).ravel().tolist(), np.array(n).tolist())

# The loss's gradient without norm_by_times, and a line that decodes to
# nothing (every frame's best class the blank): 1.x's decoder gives [[-1]].
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[4], dtype='float32', lod_level=1)
    x.stop_gradient = False
    y = fluid.layers.data(name='y', shape=[1], dtype='int32', lod_level=1)
    loss = fluid.layers.reduce_sum(fluid.layers.warpctc(input=x, label=y, blank=0))
    fluid.backward.append_backward(loss)
    blanks = fluid.layers.ctc_greedy_decoder(input=x, blank=3)
xs = rng.uniform(-1, 1, (5, 4)).astype('float32')
xs[3:, 3] = 5.0
l, g = exe.run(main, feed={'x': fluid.create_lod_tensor(xs, [[3, 2]], place),
                           'y': fluid.create_lod_tensor(np.array([[1], [2], [3]], dtype='int32'), [[2, 1]], place)},
               fetch_list=[loss, 'x@GRAD'], return_numpy=False)
print('loss', round(float(np.array(l).ravel()[0]), 4), 'x@GRAD', np.round(np.array(g), 4).tolist(), g.lod())
only_blanks = xs[3:].copy()
out = exe.run(main, feed={'x': fluid.create_lod_tensor(only_blanks, [[2]], place),
                          'y': fluid.create_lod_tensor(np.array([[1]], dtype='int32'), [[1]], place)},
              fetch_list=[blanks], return_numpy=False)[0]
print('all blank', np.array(out).tolist(), out.lod())
