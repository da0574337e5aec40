# An id outside [0, depth) is a row of zeros with allow_out_of_range=True
# (1.x's functor) and a runtime error naming the op and the line without.
import numpy as np
import paddle.fluid as fluid

exe = fluid.Executor(fluid.CPUPlace())
ids = np.array([[1], [5], [-1], [2]], dtype='int64')
lenient_program = fluid.Program()
with fluid.program_guard(lenient_program, fluid.Program()):
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    lenient = fluid.layers.one_hot(label, 3, allow_out_of_range=True)
r, = exe.run(lenient_program, feed={'label': ids}, fetch_list=[lenient])
print(r.tolist())
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
strict = fluid.layers.one_hot(label, 3)
r, = exe.run(feed={'label': ids}, fetch_list=[strict])
