# An op test's way to build split (as 1.x's OpTest.check_grad did): the
# pieces are declared with no shape and take the op's own shapes when it is
# appended, so the gradient's concat of the pieces' gradients fits; the
# output tensor sized from the input's dims with _get_dims/_set_dims.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.backward import append_backward

prog = fluid.Program()
with fluid.program_guard(prog):
    block = prog.global_block()
    x = block.create_var(name='X', dtype='float32', shape=[4, 5, 6], lod_level=0)
    x.stop_gradient = False
    pieces = [block.create_var(name='piece%d' % i, dtype='float32') for i in range(3)]
    block.append_op(type='split', inputs={'X': x}, outputs={'Out': pieces},
                    attrs={'axis': -2, 'sections': [2, -1, 2]})
    print([p.shape for p in pieces])
    halves = [block.create_var(name='half%d' % i, dtype='float32') for i in range(2)]
    block.append_op(type='split', inputs={'X': x}, outputs={'Out': halves},
                    attrs={'axis': 2, 'num': 2})
    print([h.shape for h in halves])
    costs = []
    for i, p in enumerate(pieces + halves):
        c = block.create_var(dtype='float32', shape=[1])
        block.append_op(type='mean', inputs={'X': p}, outputs={'Out': c})
        costs.append(c)
    loss = block.create_var(dtype='float32', shape=[1])
    block.append_op(type='sum', inputs={'X': costs}, outputs={'Out': loss})
    append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
xv = np.arange(120).reshape(4, 5, 6).astype('float32')
outs = exe.run(prog, feed={'X': xv}, fetch_list=['piece1', 'half0', 'X@GRAD'])
for o in outs:
    print(o.shape, float(o.sum()))

scope = core.Scope()
src = scope.var('src').get_tensor()
src.set(xv[:2], core.CPUPlace())
dst = scope.var('dst').get_tensor()
dst._set_dims(src._get_dims())
print(src._get_dims())
