# A 2019 (Paddle 1.6) CTR script with fluid.contrib's layers: two sparse
# slots pooled with fused_embedding_seq_pool (id 0 the padding), a hidden
# layer through fused_elemwise_activation, running statistics from
# ctr_metric_bundle (MAE, RMSE, actual and predicted CTR, COPC), every
# fused_elemwise_activation kernel on small tensors, and multiclass_nms2's
# kept box indices.
import numpy as np
import paddle.fluid as fluid

rng = np.random.RandomState(3)
EMB = rng.uniform(-0.3, 0.3, (12, 4)).astype('float32')
W_H = rng.uniform(-0.4, 0.4, (8, 6)).astype('float32')
B_H = rng.uniform(-0.1, 0.1, (6,)).astype('float32')
W_O = rng.uniform(-0.4, 0.4, (6, 1)).astype('float32')


def numpy_attr(value):
    return fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(value))


user = fluid.layers.data(name='user', shape=[1], dtype='int64', lod_level=1)
item = fluid.layers.data(name='item', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
emb_attr = fluid.ParamAttr(name='slot_emb',
                           initializer=fluid.initializer.NumpyArrayInitializer(EMB))
u = fluid.contrib.fused_embedding_seq_pool(user, size=[12, 4], padding_idx=0,
                                           param_attr=emb_attr)
i = fluid.contrib.layers.fused_embedding_seq_pool(item, size=[12, 4], padding_idx=0,
                                                  param_attr='slot_emb')
feat = fluid.layers.concat([u, i], axis=1)
from_numpy = fluid.initializer.NumpyArrayInitializer
hidden = fluid.layers.mul(feat, fluid.layers.create_parameter(
    shape=[8, 6], dtype='float32', default_initializer=from_numpy(W_H)))
bias = fluid.layers.create_parameter(shape=[6], dtype='float32',
                                     default_initializer=from_numpy(B_H))
act = fluid.contrib.fused_elemwise_activation(hidden, bias, ['relu', 'elementwise_add'], axis=1)
logit = fluid.layers.fc(act, size=1, param_attr=numpy_attr(W_O), bias_attr=False)
prob = fluid.layers.sigmoid(logit)
loss = fluid.layers.mean(fluid.layers.sigmoid_cross_entropy_with_logits(logit, label))
sqrerr, abserr, prob_sum, q, pos, ins = fluid.contrib.ctr_metric_bundle(prob, label)
print("pooled shape:", u.shape, "bundle:", [v.shape for v in (sqrerr, ins)],
      [v.persistable for v in (sqrerr, abserr, prob_sum, q, pos, ins)])
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
for step in range(5):
    lens = [1 + (step + k) % 3 for k in range(4)]
    uid = rng.randint(0, 12, (sum(lens), 1)).astype('int64')
    iid = rng.randint(0, 12, (4, 1)).astype('int64')
    y = rng.randint(0, 2, (4, 1)).astype('float32')
    feed = {'user': fluid.create_lod_tensor(uid, [lens], place),
            'item': fluid.create_lod_tensor(iid, [[1, 1, 1, 1]], place), 'label': y}
    l, se, ae, ps, qs, po, n = exe.run(feed=feed,
                                       fetch_list=[loss, sqrerr, abserr, prob_sum, q, pos, ins])
    n = float(n[0])
    print("step %d loss %.5f mae %.5f rmse %.5f actual_ctr %.4f predicted_ctr %.5f q %.5f "
          "copc %.5f ins %d" % (step, float(np.array(l).ravel()[0]), float(ae[0]) / n,
                                np.sqrt(float(se[0]) / n), float(po[0]) / n, float(ps[0]) / n,
                                float(qs[0]) / n, float(po[0]) / float(ps[0]), n))
emb = np.array(fluid.global_scope().find_var('slot_emb').get_tensor())
print("padding row untouched:", np.array_equal(emb[0], EMB[0]),
      "trained rows:", int((np.abs(emb - EMB).sum(axis=1) > 0).sum()))

# Every kernel 1.6's fused_elemwise_activation had.
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    x = fluid.layers.data(name='x', shape=[2, 3], dtype='float32', append_batch_size=False)
    y = fluid.layers.data(name='y', shape=[3], dtype='float32', append_batch_size=False)
    x.stop_gradient = False
    pairs = [['elementwise_add', 'scale'], ['scale', 'elementwise_add'],
             ['elementwise_add', 'relu'], ['relu', 'elementwise_add'],
             ['elementwise_mul', 'scale'], ['tanh', 'elementwise_add'],
             ['elementwise_mul', 'tanh'], ['elementwise_mul', 'sigmoid']]
    outs = [fluid.contrib.fused_elemwise_activation(x, y, p, axis=1, scale=0.5) for p in pairs]
    total = fluid.layers.sum([fluid.layers.reduce_sum(o) for o in outs])
    x_grad, = fluid.backward.gradients([total], [x])
xv = np.array([[0.5, -1.0, 2.0], [-0.3, 0.8, -1.5]], 'float32')
yv = np.array([0.2, 0.7, -0.4], 'float32')
got = exe.run(prog, feed={'x': xv, 'y': yv}, fetch_list=outs + [x_grad])
for p, o in zip(pairs, got):
    print(",".join(p), np.round(o.astype('float64'), 5).tolist())
print("x grad", np.round(got[-1].astype('float64'), 5).tolist())
try:
    fluid.contrib.fused_elemwise_activation(x, y, 'relu')
except ValueError as e:
    print("ValueError:", e)

# multiclass_nms2: the kept detections and the index of each one's box.
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    boxes = fluid.layers.data(name='boxes', shape=[5, 4], dtype='float32')
    scores = fluid.layers.data(name='scores', shape=[3, 5], dtype='float32')
    kept, index = fluid.contrib.multiclass_nms2(boxes, scores, score_threshold=0.2,
                                                nms_top_k=4, keep_top_k=3, nms_threshold=0.45,
                                                return_index=True)
    only = fluid.contrib.layers.multiclass_nms2(boxes, scores, 0.3, 5, 2)
bx = np.array([[[0.1, 0.1, 0.5, 0.5], [0.12, 0.1, 0.52, 0.5], [0.6, 0.6, 0.9, 0.9],
                [0.0, 0.5, 0.3, 0.95], [0.55, 0.58, 0.88, 0.92]],
               [[0.2, 0.2, 0.4, 0.4], [0.5, 0.1, 0.9, 0.3], [0.21, 0.2, 0.41, 0.42],
                [0.1, 0.6, 0.3, 0.8], [0.6, 0.6, 0.7, 0.7]]], 'float32')
sc = np.array([[[0.1, 0.1, 0.1, 0.1, 0.1], [0.9, 0.8, 0.3, 0.25, 0.6], [0.05, 0.1, 0.7, 0.5, 0.65]],
               [[0.1, 0.1, 0.1, 0.1, 0.1], [0.4, 0.35, 0.85, 0.1, 0.3], [0.3, 0.9, 0.2, 0.6, 0.1]]],
              'float32')
k, ix, o = exe.run(prog, feed={'boxes': bx, 'scores': sc}, fetch_list=[kept, index, only],
                   return_numpy=False)
print("kept", np.round(np.array(k).astype('float64'), 4).tolist(), k.lod())
print("index", np.array(ix).ravel().tolist(), ix.lod(), kept.stop_gradient, index.stop_gradient)
print("only", np.round(np.array(o).astype('float64'), 4).tolist(), o.lod())
