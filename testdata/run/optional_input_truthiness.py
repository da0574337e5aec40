# An attention helper that takes an optional bias, as 2019's transformer
# wrote it: `if attn_bias:` adds it when given. A 1.x Variable was always
# true under Python's `if` (its class had no __bool__), None false.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid


def attention(q, k, v, attn_bias=None):
    product = fluid.layers.matmul(x=q, y=k, transpose_y=True, alpha=0.5)
    if attn_bias:
        product += attn_bias
    weights = fluid.layers.softmax(product)
    return fluid.layers.matmul(weights, v)


q = fluid.layers.data(name="q", shape=[2, 4], dtype="float32", append_batch_size=False)
bias = fluid.layers.data(name="bias", shape=[2, 2], dtype="float32", append_batch_size=False)
plain = attention(q, q, q)
biased = attention(q, q, q, attn_bias=bias)
print("with bias:", bool(bias), "without:", bool(None))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {"q": np.arange(8, dtype="float32").reshape(2, 4) / 8.0,
        "bias": np.array([[0.0, -1e9], [0.0, 0.0]], dtype="float32")}
a, b = exe.run(feed=feed, fetch_list=[plain, biased])
print(np.round(a, 4))
print(np.round(b, 4))
