# The layer modules as 1.x scripts imported them: `from paddle.fluid.layers
# import nn`, `import paddle.fluid.layers.nn as nn`, `from
# paddle.fluid.layers.tensor import fill_constant`, ...; each name there is
# the very function fluid.layers has.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.layers import nn, control_flow, tensor, io, ops, learning_rate_scheduler
import paddle.fluid.layers.nn as nn2
import paddle.fluid.layers.control_flow as cf
from paddle.fluid.layers.tensor import fill_constant, concat
from paddle.fluid.layers.io import data
from paddle.fluid.layers.nn import fc, dynamic_lstm, sequence_pool, relu, logical_and
from paddle.fluid.layers.learning_rate_scheduler import noam_decay

print(nn2 is nn, cf is control_flow, fluid.layers.nn is nn)
homes = [
    (nn, ['fc', 'embedding', 'mean', 'elementwise_add', 'reduce_sum', 'relu', 'log', 'sign',
          'softmax', 'cross_entropy', 'dropout', 'reshape', 'transpose', 'scale', 'split',
          'logical_and', 'logical_not', 'dynamic_lstm', 'dynamic_gru', 'gru_unit',
          'sequence_conv', 'sequence_pool', 'sequence_first_step', 'autoincreased_step_counter', 'clip', 'topk', 'one_hot', 'leaky_relu']),
    (tensor, ['fill_constant', 'cast', 'concat', 'sums', 'assign', 'zeros', 'ones',
              'create_tensor', 'create_global_var', 'argmax', 'zeros_like']),
    (control_flow, ['While', 'Switch', 'less_than', 'equal', 'increment', 'array_write',
                    'array_read', 'array_length', 'create_array', 'StaticRNN']),
    (io, ['data']),
    (ops, ['sigmoid', 'exp', 'tanh', 'sqrt', 'abs', 'square', 'softplus', 'floor']),
    (learning_rate_scheduler, ['noam_decay', 'exponential_decay', 'piecewise_decay',
                               'natural_exp_decay', 'inverse_time_decay']),
]
for module, names in homes:
    print(module.__name__, all(getattr(module, n) is getattr(fluid.layers, n) for n in names))
print(fc is fluid.layers.fc, dynamic_lstm is fluid.layers.dynamic_lstm,
      sequence_pool is fluid.layers.sequence_pool, relu is fluid.layers.relu,
      logical_and is fluid.layers.logical_and, data is fluid.layers.data,
      fill_constant is fluid.layers.fill_constant, noam_decay is fluid.layers.noam_decay)

# A small program written through the submodules.
x = io.data(name='x', shape=[2], dtype='float32')
doubled = nn.scale(x, scale=2.0)
both = tensor.concat([x, doubled], axis=1)
total = nn.reduce_sum(ops.square(both), dim=1)
one = fill_constant(shape=[1], dtype='int64', value=1)
three = tensor.fill_constant(shape=[1], dtype='int64', value=3)
smaller = control_flow.less_than(one, three)
lr = fluid.layers.learning_rate_scheduler.noam_decay(d_model=4, warmup_steps=2)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.array([[1, 2], [3, -1]], dtype='float32')}
for step in range(3):
    t, s, r = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[total, smaller, lr])
    # noam: 4 ** -0.5 * min(step ** -0.5, step * 2 ** -1.5), step = 1, 2, 3
    print(step, t.tolist(), s.tolist(), '%.6f' % float(r.reshape(-1)[0]))
