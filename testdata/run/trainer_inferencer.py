# The high-level API of the 2018 book chapters (Paddle 1.0-1.2):
# fluid.contrib.trainer's Trainer with its events, test() and save_params(),
# then fluid.contrib.inferencer's Inferencer on the saved parameters, in the
# chapters' shape (train_program / optimizer_program / event_handler).
# Losses print with 4 decimals: fluidc's and Paddle's GEMMs may round the
# last bit differently after a few steps.
from __future__ import print_function

import os
import shutil
import sys
import tempfile

import numpy
import paddle
import paddle.fluid as fluid

try:
    from paddle.fluid.contrib.trainer import *
    from paddle.fluid.contrib.inferencer import *
except ImportError:
    print("In the fluid 1.0, the trainer and inferencer are moving to paddle.fluid.contrib",
          file=sys.stderr)
    from paddle.fluid.trainer import *
    from paddle.fluid.inferencer import *

print(fluid.trainer.__all__, fluid.inferencer.__all__)


def samples(n, offset):
    def reader():
        for i in range(n):
            x = [((i * 7 + j * 3 + offset) % 11) / 11.0 - 0.5 for j in range(4)]
            y = [2.0 * x[0] - x[1] + 0.5 * x[3] + 0.25]
            yield numpy.array(x, dtype='float32'), numpy.array(y, dtype='float32')
    return reader


def inference_program():
    x = fluid.layers.data(name='x', shape=[4], dtype='float32')
    hidden = fluid.layers.fc(input=x, size=3, act='tanh',
                             param_attr=fluid.initializer.Constant(0.1))
    return fluid.layers.fc(input=hidden, size=1,
                           param_attr=fluid.initializer.Constant(-0.2))


def train_program():
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    y_predict = inference_program()
    loss = fluid.layers.square_error_cost(input=y_predict, label=y)
    avg_loss = fluid.layers.mean(loss)
    return [avg_loss, y_predict]


def optimizer_program():
    return fluid.optimizer.SGD(learning_rate=0.1)


train_reader = paddle.batch(samples(24, 0), batch_size=6)
test_reader = paddle.batch(samples(12, 5), batch_size=6)
params_dirname = tempfile.mkdtemp()

trainer = Trainer(train_func=train_program, place=fluid.CPUPlace(),
                  optimizer_func=optimizer_program)
events = []


def event_handler(event):
    events.append(type(event).__name__)
    if isinstance(event, BeginStepEvent):
        # The last step of each epoch runs without fetching.
        event.fetch_metrics = event.step != 3
    if isinstance(event, EndStepEvent):
        if event.metrics:
            loss, predict = event.metrics
            print("epoch %d step %d loss %.4f predict %s" % (
                event.epoch, event.step, float(loss[0]), predict.shape))
        else:
            print("epoch %d step %d metrics %s" % (event.epoch, event.step, event.metrics))
    if isinstance(event, EndEpochEvent):
        avg_cost, predict_mean = trainer.test(reader=test_reader, feed_order=['x', 'y'])
        print("test epoch %d: avg_cost %.4f, predict %.4f" % (
            event.epoch, float(avg_cost), float(predict_mean[0])))
        trainer.save_params(params_dirname)
        if event.epoch == 1:
            trainer.stop()


trainer.train(num_epochs=5, event_handler=event_handler, reader=train_reader,
              feed_order=['x', 'y'])
print(events[:6], len(events))
print(sorted(os.listdir(params_dirname)))

inferencer = Inferencer(infer_func=inference_program, param_path=params_dirname,
                        place=fluid.CPUPlace())
batch = numpy.array([[0.5, -0.25, 0.0, 0.25], [0.0, 0.0, 0.0, 0.0]], dtype='float32')
results = inferencer.infer({'x': batch})
print(len(results), results[0].shape, [round(float(v), 4) for v in results[0][:, 0]])

# What 1.x refused, and what fluidc does not do.
for bad in ({'feed_order': None}, {'feed_order': {'x': 0, 'y': 2}}):
    try:
        trainer.train(num_epochs=1, event_handler=event_handler, reader=train_reader, **bad)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
try:
    inferencer.infer([batch])
except ValueError as e:
    print('ValueError', e)
try:
    Trainer(train_func=train_program, optimizer_func=lambda: 'sgd', place=fluid.CPUPlace())
except TypeError as e:
    print('TypeError', e)
try:
    Trainer(train_func=train_program, optimizer_func=optimizer_program, place='cpu')
except TypeError as e:
    print('TypeError', e)
config = CheckpointConfig(checkpoint_dir=params_dirname, step_interval=2)
print(config.max_num_checkpoints, config.epoch_interval, config.step_interval, config.load_serial)
try:
    Trainer(train_func=train_program, optimizer_func=optimizer_program,
            place=fluid.CPUPlace(), checkpoint_config=config)
except NotImplementedError:
    print('NotImplementedError checkpoint_config')

# parallel=True on one CPU place (CPU_NUM=1): the ParallelExecutor feeds one
# minibatch per place each step and gives the losses of the plain Trainer.
os.environ['CPU_NUM'] = '1'
parallel = Trainer(train_func=train_program, optimizer_func=optimizer_program,
                   place=fluid.CPUPlace(), parallel=True)


def parallel_handler(event):
    if isinstance(event, EndStepEvent):
        print('parallel step', event.step, [m.shape for m in event.metrics],
              '%.4f' % float(event.metrics[0][0]))


parallel.train(num_epochs=1, event_handler=parallel_handler, reader=train_reader,
               feed_order=['x', 'y'])
shutil.rmtree(params_dirname)
