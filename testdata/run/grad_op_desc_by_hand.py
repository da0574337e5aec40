# A grad op built by hand, as 1.x's op tests checked a kernel's gradient:
# core.get_grad_op_desc gives the grad op of an appended op, which is
# copied into the block (block.desc.append_op().copy_from), its outputs
# declared, typed and shaped (infer_var_type, infer_shape), then run on fed
# values. A tensor array made in the scope from Python is read by the run.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core

shapes = {'x': (2, 3, 4), 'scale': (12,), 'bias': (12,), 'mean': (2,), 'variance': (2,),
          'y': (2, 3, 4), 'y@GRAD': (2, 3, 4)}
program = fluid.Program()
with fluid.program_guard(program):
    block = program.global_block()
    for name, shape in shapes.items():
        block.create_var(name=name, dtype='float32', shape=shape)
    op = block.append_op(type='layer_norm',
                         inputs={'X': block.var('x'), 'Scale': block.var('scale'),
                                 'Bias': block.var('bias')},
                         outputs={'Y': block.var('y'), 'Mean': block.var('mean'),
                                  'Variance': block.var('variance')},
                         attrs={'epsilon': 1e-5, 'begin_norm_axis': 1})
    grad_ops, grad_to_var = core.get_grad_op_desc(op.desc, set(), [])
    grad_op = grad_ops[0]
    new_op = block.desc.append_op()
    new_op.copy_from(grad_op)
    for name in grad_op.output_arg_names():
        block.desc.var(name.encode('ascii'))
    grad_op.infer_var_type(block.desc)
    grad_op.infer_shape(block.desc)
    for name in grad_op.output_arg_names():
        block.desc.find_var(name.encode('ascii')).set_dtype(core.VarDesc.VarType.FP32)
    print(len(grad_ops), grad_op.type(), sorted(grad_to_var.items()))
    print(sorted(grad_op.input_names()), sorted(grad_op.output_names()))
    print([(n, block.desc.find_var(n.encode()).shape()) for n in ['x@GRAD', 'scale@GRAD', 'bias@GRAD']])
    print(block.desc.op_size(), block.desc.op(1).type())

exe = fluid.Executor(fluid.CPUPlace())
np.random.seed(3)
feed = {n: np.random.rand(*shapes[n]).astype('float32') for n in ['x', 'scale', 'bias', 'y@GRAD']}
outs = exe.run(program, feed=feed,
               fetch_list=['y', 'mean', 'variance', 'x@GRAD', 'scale@GRAD', 'bias@GRAD'])
for o in outs:
    print(o.shape, round(float(np.abs(o).sum()), 3))

# No gradient for x: the grad op does not bind x@GRAD.
with fluid.program_guard(program):
    grad_ops, grad_to_var = core.get_grad_op_desc(op.desc, set(['x@GRAD']), [])
    print(sorted(grad_to_var), grad_ops[0].output('X@GRAD'))

scope = core.Scope()
prog = fluid.Program()
block = prog.global_block()
arr = block.create_var(name='parts', type=core.VarDesc.VarType.LOD_TENSOR_ARRAY)
arr.persistable = True
parts = scope.var('parts').get_lod_tensor_array()
for i in range(4):
    t = core.LoDTensor()
    t.set(np.full((i + 1, 2), i, dtype='float32'), core.CPUPlace())
    parts.append(t)
out = block.create_var(name='joined')
index = block.create_var(name='joined_index')
block.append_op(type='tensor_array_to_tensor', inputs={'X': arr},
                outputs={'Out': out, 'OutIndex': index}, attrs={'axis': 0})
joined, = exe.run(prog, fetch_list=[out], scope=scope)
print(joined.shape, joined[:, 0].tolist())
