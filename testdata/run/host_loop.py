# A host program: numpy feeds, exe.run in a loop, printing and deciding on
# what comes back, and a value fed back into the next run.
import numpy
import paddle.fluid as fluid

x = fluid.data(name='x', shape=[None, 3], dtype='float32')
y = fluid.data(name='y', shape=[None, 3], dtype='float32')
total = fluid.layers.elementwise_add(x, y)
scaled = fluid.layers.scale(total, scale=0.5)
biggest = fluid.layers.mean(scaled)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

a = numpy.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5]]).astype('float32')
b = numpy.ones((2, 3), dtype='float32')
for step in range(4):
    out, big = exe.run(feed={'x': a, 'y': b}, fetch_list=[scaled, biggest])
    print(step, out.shape, out.dtype)
    print(out)
    if big > 8:
        print("big enough at step", step, big)
        break
    a = out * 3
print([out, big])
print(out.sum(), out.mean(axis=0), out.tolist())
