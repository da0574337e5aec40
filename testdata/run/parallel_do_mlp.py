# ParallelDo as the 2018 book tests used it (`parallel=True`): get_places(),
# the network built inside `with pd.do():` on pd.read_input(...) views of
# the data layers, pd.write_output(...) for what the places return, and
# `pd()` for the merged outputs. fluidc (and the fluid2018 shim) run the
# block on one place, which is what 1.x computed with one place.
# Part 1: fit_a_line with one output; part 2: an MLP classifier writing
# two outputs (loss and accuracy), trained with Momentum.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
from paddle.fluid.layers.control_flow import ParallelDo
from paddle.fluid.layers.device import get_places

rng = np.random.RandomState(7)

# ---------------------------------------------------------------- fit_a_line
main, startup = fluid.Program(), fluid.Program()
startup.random_seed = 1
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[13], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    places = get_places(device_count=0, device_type='CPU')
    pd = ParallelDo(places, use_nccl=False)
    with pd.do():
        x_ = pd.read_input(x)
        y_ = pd.read_input(y)
        y_predict = fluid.layers.fc(input=x_, size=1, act=None)
        cost = fluid.layers.square_error_cost(input=y_predict, label=y_)
        avg_cost = fluid.layers.mean(x=cost)
        pd.write_output(avg_cost)
    cost = pd()
    avg_cost = fluid.layers.mean(x=cost)
    fluid.optimizer.SGD(learning_rate=0.01).minimize(avg_cost)

print('places var:', places.name)
print('pd() is the written var:', cost.name == pd.outputs[0].name)
print('ops:', [op.type for op in main.global_block().ops
               if op.type in ('mul', 'elementwise_add', 'square', 'mean', 'sgd')])

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
true_w = rng.uniform(-1, 1, size=(13, 1)).astype('float32')
for step in range(5):
    xs = rng.uniform(-1, 1, size=(16, 13)).astype('float32')
    ys = (xs.dot(true_w) + 0.5).astype('float32')
    loss, per_place = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[avg_cost, cost])
    print('fit_a_line step %d loss %.5f per-place shape %s' % (
        step, float(np.array(loss).reshape(-1)[0]), tuple(np.array(per_place).shape)))

# ---------------------------------------------------------------- MLP, two outputs
main, startup = fluid.Program(), fluid.Program()
startup.random_seed = 1
with fluid.program_guard(main, startup):
    img = fluid.layers.data(name='img', shape=[20], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    pd = ParallelDo(get_places())
    with pd.do():
        img_ = pd.read_input(img)
        label_ = pd.read_input(label)
        hidden = fluid.layers.fc(input=img_, size=32, act='relu')
        prediction = fluid.layers.fc(input=hidden, size=4, act='softmax')
        loss = fluid.layers.cross_entropy(input=prediction, label=label_)
        avg_loss = fluid.layers.mean(loss)
        acc = fluid.layers.accuracy(input=prediction, label=label_)
        for o in [avg_loss, acc]:
            pd.write_output(o)
    avg_loss, acc = pd()
    avg_loss = fluid.layers.mean(avg_loss)
    acc = fluid.layers.mean(acc)
    fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(avg_loss)

exe.run(startup)
centers = rng.normal(0, 2, size=(4, 20)).astype('float32')
for step in range(6):
    labels = rng.randint(0, 4, size=(32, 1)).astype('int64')
    imgs = (centers[labels[:, 0]] + rng.normal(0, 1, size=(32, 20))).astype('float32')
    l, a = exe.run(main, feed={'img': imgs, 'label': labels}, fetch_list=[avg_loss, acc])
    print('mlp step %d loss %.5f acc %.4f' % (step, float(np.array(l).reshape(-1)[0]),
                                             float(np.array(a).reshape(-1)[0])))
