# Reading an optimizer's learning rate back, as image_classification's
# train.py did: optimizer._global_learning_rate() after minimize().
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

def build(opt):
    img = fluid.layers.data(name="img", shape=[4], dtype="float32")
    label = fluid.layers.data(name="label", shape=[1], dtype="float32")
    pred = fluid.layers.fc(input=img, size=1)
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=label))
    before = opt._global_learning_rate()
    opt.minimize(loss)
    return before, loss

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    opt = fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9)
    before, loss = build(opt)
    lr = opt._global_learning_rate()
print("before minimize:", before)
print("after minimize:", isinstance(lr, fluid.framework.Variable), lr.persistable)
print("same with program:", opt._global_learning_rate(main) is lr)
print("other program:", opt._global_learning_rate(fluid.Program()))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
feed = {"img": np.ones((2, 4), dtype="float32"),
        "label": np.zeros((2, 1), dtype="float32")}
l, v = exe.run(main, feed=feed, fetch_list=[loss, lr])
print("lr value:", round(float(np.array(v).reshape(-1)[0]), 6))
# 1.x declared it [1]: a script indexes the fetched value.
print("lr fetched:", v.shape, v[0], "%.3f" % v[0])

# A decayed learning rate: the schedule's variable is the global one.
main2, startup2 = fluid.Program(), fluid.Program()
with fluid.program_guard(main2, startup2):
    decayed = fluid.layers.exponential_decay(learning_rate=0.1, decay_steps=1,
                                             decay_rate=0.5, staircase=True)
    opt2 = fluid.optimizer.SGD(learning_rate=decayed)
    build(opt2)
    print("decayed is global:", opt2._global_learning_rate() is decayed)
exe.run(startup2)
for step in range(3):
    v, = exe.run(main2, feed=feed, fetch_list=[opt2._global_learning_rate(main2)])
    print("step", step, round(float(np.array(v).reshape(-1)[0]), 6))
