# test_fetch_var style: layers.assign of numpy arrays (int32, float32,
# bool, int64) into a named persistable tensor and into new variables.
import numpy
import paddle.fluid as fluid
import paddle.fluid.layers as layers
import paddle.fluid.core as core

val = numpy.array([1, 3, 5]).astype(numpy.int32)
x = layers.create_tensor(dtype="int32", persistable=True, name="x")
layers.assign(input=val, output=x)
y = layers.assign(numpy.array([[0.5, 1.5]], dtype='float32'))
z = layers.assign(numpy.array([True, False]))
w = layers.assign(numpy.arange(4).reshape(2, 2))
exe = fluid.Executor(fluid.CPUPlace())
outs = exe.run(fluid.default_main_program(), feed={}, fetch_list=[x, y, z, w])
for o in outs:
    print(o, o.dtype, o.shape)
print(numpy.array(fluid.global_scope().find_var("x").get_tensor()))

# A doc example feeds a [2, 3] array to layers.data(shape=[2, 3]), which
# is declared [-1, 2, 3]: Paddle checks fed shapes only for fluid.data.
prog = fluid.Program()
with fluid.program_guard(prog):
    d = fluid.layers.data(name="d", shape=[2, 3], dtype="float32")
    e = fluid.layers.scale(d, scale=2.0, bias=1.0)
checked = fluid.Program()
with fluid.program_guard(checked):
    f = fluid.data(name='f', shape=[None, 3], dtype='float32')
    g = fluid.layers.scale(f, scale=3.0)
out, = exe.run(prog, feed={'d': numpy.ones((2, 3), dtype='float32')}, fetch_list=[e])
print(out, out.shape)
try:
    exe.run(checked, feed={'f': numpy.ones((2, 4), dtype='float32')}, fetch_list=[g])
except ValueError:
    print("ValueError: f is declared [-1, 3]")
