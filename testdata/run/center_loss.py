# Face-recognition style training with 1.6's center_loss next to a softmax
# loss: deep features from an fc, class centers the op moves towards each
# batch (alpha 0.5) while SGD trains the fc through both losses; a second
# head with update_center=False and a Variable alpha.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
img = fluid.layers.data(name='img', shape=[6], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
feat = fluid.layers.fc(input=img, size=3, param_attr=fluid.ParamAttr(
    name='fc_w', initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=21)))
closs = fluid.layers.center_loss(feat, label, num_classes=4, alpha=0.5,
                                 param_attr=fluid.ParamAttr(
                                     name='centers',
                                     initializer=fluid.initializer.Uniform(-1.0, 1.0, seed=8)))
rate = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.25)
frozen = fluid.layers.center_loss(feat, label, num_classes=4, alpha=rate, update_center=False,
                                  param_attr=fluid.ParamAttr(
                                      name='frozen_centers',
                                      initializer=fluid.initializer.Constant(0.1)))
logits = fluid.layers.fc(input=feat, size=4)
ce = fluid.layers.softmax_with_cross_entropy(logits, label)
loss = fluid.layers.mean(ce) + 0.3 * fluid.layers.mean(closs) + 0.1 * fluid.layers.mean(frozen)
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
print(closs.shape, sorted(p.name for p in fluid.default_main_program().global_block().all_parameters()))


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = ((np.arange(42, dtype='float32').reshape(7, 6) * 5) % 9) / 4.0 - 1.0
y = np.array([[0], [2], [2], [1], [0], [2], [3]], dtype='int64')
for step in range(3):
    l, cl, fr, c, fc_, g = exe.run(feed={'img': x, 'label': y},
                                   fetch_list=[loss, closs, frozen, 'centers', 'frozen_centers',
                                               feat.name + '@GRAD'])
    print(step, show(l), show(cl.reshape(-1)), show(fr[:3].reshape(-1)))
    print(show(c), show(fc_[0]), show(g[1]))
