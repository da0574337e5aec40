# `use_cudnn` of softmax and sequence_softmax picks Paddle's GPU kernel:
# the CPU values are the same, and the op keeps it as its attribute, as
# 1.x's layers wrote it.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name="x", shape=[1], dtype="float32", lod_level=1)
a = fluid.layers.softmax(x, use_cudnn=True)
b = fluid.layers.softmax(x)
c = fluid.layers.sequence_softmax(x, use_cudnn=True)
d = fluid.layers.sequence_softmax(x)
for op in fluid.default_main_program().global_block().ops:
    if op.type in ("softmax", "sequence_softmax"):
        print(op.type, op.attr("use_cudnn"))
exe = fluid.Executor(fluid.CPUPlace())
t = fluid.create_lod_tensor(np.arange(4, dtype="float32").reshape(4, 1) / 10, [[1, 3]],
                            fluid.CPUPlace())
r = exe.run(feed={"x": t}, fetch_list=[c, d], return_numpy=False)
print(np.array(r[0]).round(5).reshape(-1).tolist(), np.array(r[1]).round(5).reshape(-1).tolist())
