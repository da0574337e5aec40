# test_inference_model_io style: minimize(loss, init_program) puts the
# optimizer's state into the program given, not the default startup.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

program = fluid.Program()
init_program = fluid.Program()
with fluid.program_guard(program, init_program):
    x = layers.data(name='x', shape=[2], dtype='float32')
    y = layers.data(name='y', shape=[1], dtype='float32')
    y_predict = layers.fc(input=x, size=1, act=None,
                          param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)))
    cost = layers.square_error_cost(input=y_predict, label=y)
    avg_cost = layers.mean(cost)
    sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.001)
    sgd_optimizer.minimize(avg_cost, init_program)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(init_program, feed={}, fetch_list=[])
tensor_x = np.array([[1, 1], [1, 2], [3, 4], [5, 2]]).astype("float32")
tensor_y = np.array([[-2], [-3], [-7], [-7]]).astype("float32")
for i in range(10):
    outs = exe.run(program, feed={'x': tensor_x, 'y': tensor_y}, fetch_list=[avg_cost])
print(outs[0], len(init_program.global_block().ops))
