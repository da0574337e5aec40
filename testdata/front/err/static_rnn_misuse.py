# StaticRNN used wrongly: a step input without a known number of steps
# (dim 0 is the batch here). What follows (a memory that is never updated,
# rnn() without outputs) is not reported again: one error.
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data(name='x', shape=[8], dtype='float32')
rnn = layers.StaticRNN()
with rnn.step():
    word = rnn.step_input(x)
    prev = rnn.memory(shape=[-1, 4], batch_ref=word)
    rnn.step_output(prev)
out = rnn()
