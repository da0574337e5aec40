# Ops appended by hand, as Paddle's own tests and seed 000 do: LayerHelper and Block.append_op.
import paddle.fluid as fluid
from paddle.fluid.layer_helper import LayerHelper

x = fluid.layers.fill_constant(shape=[2], dtype='float32', value=1.5)

helper = LayerHelper('scale')
scaled = helper.create_variable_for_type_inference(dtype='float32')
helper.append_op(type='scale', inputs={'X': [x]}, outputs={'Out': [scaled]},
                 attrs={'scale': 3.0, 'bias': 1.0})
activated = helper.create_variable_for_type_inference(dtype='float32')
helper.append_op(type='relu', inputs={'X': [scaled]}, outputs={'Out': [activated]})

block = fluid.default_main_program().global_block()
limit = block.create_var(name='limit', shape=[1], dtype='int64')
block.append_op(type='fill_constant', outputs={'Out': [limit]},
                attrs={'shape': [1], 'dtype': limit.dtype, 'value': 4.0})
counter = fluid.layers.zeros(shape=[1], dtype='int64')
fluid.layers.increment(counter, value=2)
reached = fluid.layers.greater_equal(counter, limit)

exe = fluid.Executor(fluid.CPUPlace())
out = exe.run(fetch_list=[activated, reached])
