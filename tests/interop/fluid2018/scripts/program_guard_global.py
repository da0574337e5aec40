# Explicit main/startup programs; global variables initialized by the startup program.
import numpy as np
import paddle.fluid as fluid

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.data(name='x', shape=[None, 3], dtype='float32')
    counter = fluid.layers.create_global_var(
        shape=[1], value=0, dtype='int64', persistable=True)
    bias = fluid.layers.create_global_var(
        shape=[3], value=0.5, dtype='float32', persistable=True, name='bias')
    fluid.layers.increment(counter)
    hidden = fluid.layers.elementwise_add(x, bias, act='relu')
    prob = fluid.layers.softmax(hidden)
    loss = fluid.layers.mean(prob)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
loss_value, count = exe.run(main,
                            feed={'x': np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype='float32')},
                            fetch_list=[loss, counter])
