# fluid.io.get_inference_program as 2018's models/fluid/mnist used it
# (before 1.0 replaced it with clone(for_test=True)): the test program is
# the main program pruned to the accuracy and its batch size, made before
# the optimizer is added, with dropout switched to its test behaviour.
import numpy as np
import paddle.fluid as fluid

np.random.seed(3)
images_np = np.random.random((8, 1, 4, 4)).astype("float32")
labels_np = (np.arange(8) % 3).reshape(8, 1).astype("int64")


def init(shape, k):
    n = int(np.prod(shape))
    return fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
        (((np.arange(n) * k) % 9 - 4) / 10.0).reshape(shape).astype("float32")))


images = fluid.layers.data(name="pixel", shape=[1, 4, 4], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")
hidden = fluid.layers.fc(input=images, size=8, act="relu", param_attr=init([16, 8], 5))
hidden = fluid.layers.dropout(hidden, dropout_prob=0.5, seed=1)
predict = fluid.layers.fc(input=hidden, size=3, act="softmax", param_attr=init([8, 3], 7))
cost = fluid.layers.cross_entropy(input=predict, label=label)
avg_cost = fluid.layers.mean(x=cost)

batch_size_tensor = fluid.layers.create_tensor(dtype="int64")
batch_acc = fluid.layers.accuracy(input=predict, label=label, total=batch_size_tensor)

inference_program = fluid.default_main_program().clone()
with fluid.program_guard(inference_program):
    inference_program = fluid.io.get_inference_program(
        target_vars=[batch_acc, batch_size_tensor])

types = [op.type for op in inference_program.global_block().ops]
print(types)
print([op.attr("is_test") for op in inference_program.global_block().ops
       if op.type == "dropout"])
print("cross_entropy" in types, "mean" in types)

opt = fluid.optimizer.SGD(learning_rate=3.0)
opt.minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {"pixel": images_np, "label": labels_np}
for step in range(6):
    acc, n = exe.run(inference_program, feed=feed, fetch_list=[batch_acc, batch_size_tensor])
    print(step, "test acc %.4f" % acc[0], n)
    loss, = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[avg_cost])
    print("train cost %.4f" % loss[0])

# With a single target, and with the default main program.
prob_program = fluid.io.get_inference_program(predict)
probs, = exe.run(prob_program, feed={"pixel": images_np}, fetch_list=[predict])
print(np.round(probs, 4))
