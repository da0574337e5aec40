# Op attributes given as numpy arrays, as 1.x's op tests built them
# (test_affine_grid_op: `output_shape=np.array([...]).astype('int32')`;
# prior-box tests: variances as float arrays): 1.x took any sequence.
import numpy as np
import paddle.fluid as fluid

theta = fluid.layers.data(name='theta', shape=[2, 3], dtype='float32')
block = fluid.default_main_program().global_block()
grid = block.create_var(name='grid', dtype='float32')
block.append_op(type='affine_grid', inputs={'Theta': theta}, outputs={'Output': grid},
                attrs={'output_shape': np.array([1, 1, 2, 3]).astype('int32')})
scaled = block.create_var(name='scaled', dtype='float32')
block.append_op(type='scale', inputs={'X': theta}, outputs={'Out': scaled},
                attrs={'scale': np.float32(0.5), 'bias': np.array(1.0)})
print(block.ops[0].attr('output_shape'), block.ops[1].attr('scale'), block.ops[1].attr('bias'))
exe = fluid.Executor(fluid.CPUPlace())
t = np.array([[[1, 0, 0], [0, 1, 0]]], dtype='float32')
g, s = exe.run(feed={'theta': t}, fetch_list=[grid, scaled])
print(g.shape, np.round(g.reshape(-1), 4).tolist(), s.reshape(-1).tolist())
# Each attribute's type, as 1.x's Operator.attr_type gave it (test_operator_desc).
print([str(block.ops[0].attr_type('output_shape')), str(block.ops[1].attr_type('scale'))],
      block.ops[1].attr_type('bias') == fluid.core.AttrType.FLOAT)
