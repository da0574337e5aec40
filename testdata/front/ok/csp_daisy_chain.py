# Paddle's test_daisy_chain (Go's "daisy chain"): 100 goroutines, each adds
# one to what it receives from its right and passes it left.
import paddle.fluid as fluid
import paddle.fluid.core as core

n = 100
leftmost = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
left = leftmost

for i in range(n):
    right = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
    with fluid.Go():
        one_tensor = fluid.layers.ones(shape=[1], dtype='int64')
        result = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
        result, status = fluid.channel_recv(right, result)
        one_added = fluid.layers.elementwise_add(x=one_tensor, y=result)
        fluid.channel_send(left, one_added)
    left = right

with fluid.Go():
    one_tensor = fluid.layers.ones(shape=[1], dtype='int64')
    fluid.channel_send(right, one_tensor)

leftmost_result = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
leftmost_result, status = fluid.channel_recv(leftmost, leftmost_result)

exe = fluid.Executor(fluid.CPUPlace())
result = exe.run(fetch_list=[leftmost_result])
assert n == 100
