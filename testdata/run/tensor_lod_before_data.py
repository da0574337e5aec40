# 1.0's OpTest fed its inputs so (testsuite.set_input): the sequence
# lengths first, then the dims, then the data; the tensor keeps the LoD
# set before its data (the gradient checks of 1.0's sequence op tests
# need it).
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core

scope = core.Scope()
t = scope.var('emission').get_tensor()
t.set_recursive_sequence_lengths([[2, 1]])
before = t.recursive_sequence_lengths()
t._set_dims([3, 2])
t.set(np.arange(6, dtype='float32').reshape(3, 2), core.CPUPlace())
print(before, t.recursive_sequence_lengths(), t.lod(), np.array(t).tolist())
