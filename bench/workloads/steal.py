# Work stealing: main starts two goroutines, each running @ITERS@ row
# softmaxes of a 1000x1000 float32 tensor (milliseconds each, on one thread:
# fluidc splits element-wise kernels over two threads, not softmax), and
# waits for both. Both start in main's worker; on two workers the idle
# one must take one of them for the two to run at once.
import paddle.fluid as fluid
from paddle.fluid import layers

done = fluid.make_channel(dtype='int64')
n = layers.fill_constant(shape=[1], dtype='int64', value=@ITERS@)


def worker():
    with fluid.Go():
        x = layers.fill_constant(shape=[1000, 1000], dtype='float32', value=0.001)
        i = layers.fill_constant(shape=[1], dtype='int64', value=0)
        more = layers.less_than(i, n)
        loop = layers.While(cond=more)
        with loop.block():
            layers.assign(layers.softmax(x), output=x)
            layers.increment(i)
            layers.less_than(i, n, cond=more)
        fluid.channel_send(done, i)


worker()
worker()
a = layers.fill_constant(shape=[1], dtype='int64', value=0)
b = layers.fill_constant(shape=[1], dtype='int64', value=0)
a, _ = fluid.channel_recv(done, a)
b, _ = fluid.channel_recv(done, b)
total = layers.elementwise_add(a, b)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[total])
