# A 2019 conv-bn-relu block whose author fetched the activation by the
# name Paddle 1.x gave it ("batch_norm_0.tmp_3") and printed the names of
# the block's outputs, in a training program and in its test clone.
import numpy as np
import paddle.fluid as fluid

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    img = fluid.layers.data(name="img", shape=[2, 6, 6], dtype="float32")
    conv = fluid.layers.conv2d(img, num_filters=3, filter_size=3, bias_attr=False)
    bn = fluid.layers.batch_norm(conv, act="relu")
    bn_plain = fluid.layers.batch_norm(bn)
    loss = fluid.layers.mean(bn_plain)
    test_prog = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
print(bn.name, bn_plain.name)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
x = np.linspace(-1, 1, 2 * 2 * 6 * 6).reshape(2, 2, 6, 6).astype("float32")
act, = exe.run(main, feed={"img": x}, fetch_list=["batch_norm_0.tmp_3"])
print(act.shape, (act >= 0).all())
out, = exe.run(test_prog, feed={"img": x}, fetch_list=["batch_norm_1.tmp_2"])
print(out.shape)
