# Reading trained weights back with fluid.io.get_parameter_value(_by_name),
# as 2018 scripts did after a few SGD steps.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name="x", shape=[3], dtype="float32")
    y = fluid.layers.data(name="y", shape=[1], dtype="float32")
    pred = fluid.layers.fc(input=x, size=1,
                           param_attr=fluid.ParamAttr(
                               name="fc_w", initializer=fluid.initializer.Constant(0.5)),
                           bias_attr=fluid.ParamAttr(
                               name="fc_b", initializer=fluid.initializer.Constant(0.25)))
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
w0 = fluid.io.get_parameter_value_by_name("fc_w", exe, main)
print("initial w:", w0.shape, w0.dtype, w0.ravel().tolist())
xs = np.array([[1, 2, 3], [0, 1, 0]], dtype="float32")
ys = np.array([[1], [2]], dtype="float32")
for step in range(2):
    exe.run(main, feed={"x": xs, "y": ys}, fetch_list=[loss])
w = fluid.io.get_parameter_value(main.global_block().var("fc_w"), exe)
b = fluid.io.get_parameter_value_by_name("fc_b", exe, main)
print("trained w:", [round(float(v), 5) for v in w.ravel()])
print("trained b:", [round(float(v), 5) for v in b.ravel()])

# By name in the default main program.
with fluid.program_guard(main, startup):
    print("default program:", fluid.io.get_parameter_value_by_name("fc_b", exe).shape)

# Only parameters: 1.x asserted.
try:
    fluid.io.get_parameter_value(loss, exe)
except AssertionError:
    print("AssertionError for a non-parameter")
try:
    fluid.io.get_parameter_value_by_name("no_such_w", exe, main)
except ValueError as e:
    print("ValueError:", e)
