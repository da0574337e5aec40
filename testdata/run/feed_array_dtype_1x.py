# A 2019 beginner's first program: two numbers typed in, fed as numpy int
# arrays to float32 data layers and added. Fluid 1.x fed an array as it
# was, so the sum is computed and fetched in int64; a fed float32 array
# stays float32.
import numpy
import paddle.fluid as fluid

a = fluid.layers.data(name="a", shape=[1], dtype='float32')
b = fluid.layers.data(name="b", shape=[1], dtype='float32')
result = fluid.layers.elementwise_add(a, b)
twice = fluid.layers.elementwise_mul(result, result)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = numpy.array([[3]])
y = numpy.array([[4]])
outs = exe.run(feed={'a': x, 'b': y}, fetch_list=[result.name, twice])
print("%d+%d=%d" % (3, 4, outs[0][0]))
print(outs)
print([o.dtype for o in outs])
outs = exe.run(feed={'a': numpy.array([[1.5]], dtype='float32'),
                     'b': numpy.array([[2.25]], dtype='float32')}, fetch_list=[result])
print(outs, outs[0].dtype)

# fluid.data (1.6) checks what is fed: an array of another dtype is refused,
# a list becomes the declared dtype.
checked = fluid.Program()
with fluid.program_guard(checked, fluid.Program()):
    z = fluid.data(name='z', shape=[None, 3], dtype='float32')
    doubled = z * 2
try:
    exe.run(checked, feed={'z': numpy.ones((2, 3))}, fetch_list=[doubled])
except ValueError as e:
    print('ValueError:', e)
print(exe.run(checked, feed={'z': [[1, 2, 3]]}, fetch_list=[doubled]))
