# Weight normalization (fluid.WeightNormParamAttr) as Paddle 1.0's
# test_weight_normalization used it: an fc whose weight is g * v / ||v||,
# with g and v parameters named <name>_g and <name>_v; the startup program
# gives v the initializer's values and g their norm. Then dim=0 and dim=1
# (a norm per row / per column), an fc trained a few steps with SGD, and
# the values checked against numpy.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.initializer import ConstantInitializer, NumpyArrayInitializer
from paddle.fluid.param_attr import WeightNormParamAttr

np.random.seed(11)
batch_size, hidden_size = 3, 5
x_np = np.random.random((batch_size, 10)).astype("float32")
v_init = (((np.arange(50) * 7) % 11 - 5) / 8.0).reshape(10, 5).astype("float32")
np.set_printoptions(precision=4, suppress=True)

for dim, init in ((None, ConstantInitializer(1.0)), (None, NumpyArrayInitializer(v_init)),
                  (0, NumpyArrayInitializer(v_init)), (1, NumpyArrayInitializer(v_init))):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        data = fluid.layers.data(name="x", shape=[10])
        out = fluid.layers.fc(input=data, size=hidden_size,
                              param_attr=WeightNormParamAttr(dim=dim, name="weight_norm_param",
                                                             initializer=init),
                              bias_attr=False, act=None)
        loss = fluid.layers.reduce_sum(out)
        fluid.backward.append_backward(loss=loss)
    print("dim", dim, sorted(p.name for p in main.global_block().all_parameters()))
    print([op.type for op in startup.global_block().ops])
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        g, v, g_grad, v_grad, o = exe.run(
            main, feed={"x": x_np},
            fetch_list=["weight_norm_param_g", "weight_norm_param_v",
                        "weight_norm_param_g@GRAD", "weight_norm_param_v@GRAD", out])
    print(g.size, g.ravel())
    print(v_grad)
    print(g_grad.ravel())
    # numpy: the norm over every axis but dim
    vv = np.ones((10, 5)) if isinstance(init, ConstantInitializer) else v_init.astype("float64")
    axis = None if dim is None else 1 - dim
    norm = np.sqrt((vv ** 2).sum(axis=axis, keepdims=True))
    w = norm * vv / norm
    print(np.allclose(v, vv), np.allclose(g.reshape(norm.shape), norm, atol=1e-5),
          np.allclose(o, x_np.dot(w), atol=1e-4))
    expected_g_grad = (x_np.T.dot(np.ones((batch_size, hidden_size))) * (vv / norm)).sum(
        axis=axis, keepdims=True)
    print(np.allclose(g_grad.reshape(expected_g_grad.shape), expected_g_grad, atol=1e-3))

# Training moves g and v (the weight the fc uses is made from them).
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    data = fluid.layers.data(name="x", shape=[10])
    label = fluid.layers.data(name="y", shape=[1])
    pred = fluid.layers.fc(input=data, size=1,
                           param_attr=WeightNormParamAttr(
                               dim=1, initializer=NumpyArrayInitializer(v_init[:, :1])))
    cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=label))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(cost)
names = sorted(p.name for p in main.global_block().all_parameters())
print([n.split(".", 1)[1] for n in names])
g_name = [n for n in names if n.endswith("_g")][0]
print(len(WeightNormParamAttr.params_with_weight_norm))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
y_np = x_np.sum(axis=1, keepdims=True).astype("float32")
for step in range(4):
    c, g = exe.run(main, feed={"x": x_np, "y": y_np}, fetch_list=[cost, g_name])
    print(step, c, g.ravel())
