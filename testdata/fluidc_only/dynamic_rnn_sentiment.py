# A sentiment-style DynamicRNN (fluidc only: Paddle 3.3.1 dropped the LoD
# ops): embedding -> DynamicRNN with an fc step -> last step -> fc softmax,
# trained with Adam on a few short LoD sequences; the loss must fall.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
fluid.default_main_program().random_seed = 7
sentence = fluid.layers.data(name='word', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
emb = fluid.layers.embedding(input=sentence, size=[30, 16], dtype='float32')

rnn = fluid.layers.DynamicRNN()
with rnn.block():
    word = rnn.step_input(emb)
    prev = rnn.memory(shape=[32], value=0.0)
    hidden = fluid.layers.fc(input=[word, prev], size=32, act='tanh')
    rnn.update_memory(prev, hidden)
    rnn.output(hidden)

last = fluid.layers.sequence_last_step(input=rnn())
prediction = fluid.layers.fc(input=last, size=2, act='softmax')
cost = fluid.layers.cross_entropy(input=prediction, label=label)
avg_cost = fluid.layers.mean(cost)
acc = fluid.layers.accuracy(input=prediction, label=label)
fluid.optimizer.Adam(learning_rate=0.01).minimize(avg_cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
samples = [([3, 5, 7], 1), ([2, 9], 0), ([11, 4, 4, 8], 1), ([6], 0), ([13, 1, 2], 0)]
feeder = fluid.DataFeeder(feed_list=[sentence, label], place=place)
first = None
for epoch in range(40):
    loss, a = exe.run(fluid.default_main_program(), feed=feeder.feed(samples),
                      fetch_list=[avg_cost, acc])
    if first is None:
        first = float(loss)
print("first %.4f last %.4f acc %.2f" % (first, float(loss), float(a)))
assert float(loss) < first
