# Sizing a batch before training, as 1.2-1.6 users did with the contrib
# helpers: fluid.contrib.memory_usage over the forward program (and the
# training one) for a few batch sizes, and op_freq_statistic's counts of
# op types and producer->consumer pairs of a small image classifier.
from __future__ import print_function

import paddle.fluid as fluid

print(sorted(n for n in ['memory_usage', 'op_freq_statistic', 'InitState', 'StateCell',
                         'TrainingDecoder', 'BeamSearchDecoder',
                         'extend_with_decoupled_weight_decay']
             if n in fluid.contrib.__all__ and hasattr(fluid.contrib, n)))

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    img = fluid.layers.data(name='img', shape=[1, 28, 28], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    conv = fluid.layers.conv2d(input=img, num_filters=8, filter_size=5, act='relu')
    pool = fluid.layers.pool2d(input=conv, pool_size=2, pool_stride=2)
    hidden = fluid.layers.fc(input=pool, size=64, act='tanh')
    hidden = fluid.layers.fc(input=hidden, size=64, act='tanh')
    predict = fluid.layers.fc(input=hidden, size=10, act='softmax')
    cost = fluid.layers.cross_entropy(input=predict, label=label)
    avg_cost = fluid.layers.mean(cost)
    acc = fluid.layers.accuracy(input=predict, label=label)
    test_program = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.01).minimize(avg_cost)

for batch_size in [1, 16, 64, 512, 4096]:
    lower, upper, unit = fluid.contrib.memory_usage(program=test_program,
                                                    batch_size=batch_size)
    print("batch %d: memory usage is about %.3f - %.3f %s" % (batch_size, lower, upper, unit))
for batch_size in [8, 128]:
    lower, upper, unit = fluid.contrib.memory_usage(main, batch_size)
    print("training, batch %d: %.3f - %.3f %s" % (batch_size, lower, upper, unit))
lower, upper, unit = fluid.contrib.memory_usage(startup, batch_size=32)
print("startup: %.3f - %.3f %s" % (lower, upper, unit))

uni_op_freq, adj_2_op_freq = fluid.contrib.op_freq_statistic(test_program)
for op_type, op_num in uni_op_freq:
    print("%s  \t  %d" % (op_type, op_num))
for op_type, op_num in adj_2_op_freq:
    print("%s  \t  %d" % (op_type, op_num))
print(fluid.contrib.op_freq_statistic(startup))

for bad in [(test_program, 0), (test_program, -8), ('main', 8)]:
    try:
        fluid.contrib.memory_usage(*bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, str(e).split(' But')[0].split('But you')[0])
try:
    fluid.contrib.op_freq_statistic(None)
except TypeError as e:
    print('TypeError', str(e))
