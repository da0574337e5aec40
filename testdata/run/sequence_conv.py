# The book's convolutional sentiment model (understand_sentiment's
# convolution_net), on a few fixed sentences: an embedding, two
# sequence_conv_pool branches (window 3 and 4, max-pooled), a softmax
# classifier trained with Adagrad; then a sequence_conv of every window
# size on its own.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
fluid.default_main_program().random_seed = 5

data = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
emb = fluid.layers.embedding(input=data, size=[30, 8])
conv_3 = fluid.nets.sequence_conv_pool(
    input=emb, num_filters=6, filter_size=3, act='tanh', pool_type='sqrt')
conv_4 = fluid.nets.sequence_conv_pool(
    input=emb, num_filters=6, filter_size=4, act='tanh', pool_type='sqrt')
prediction = fluid.layers.fc(input=[conv_3, conv_4], size=2, act='softmax')
cost = fluid.layers.mean(fluid.layers.cross_entropy(input=prediction, label=label))
acc = fluid.layers.accuracy(input=prediction, label=label)
fluid.optimizer.Adagrad(learning_rate=0.1).minimize(cost)
plain = [fluid.layers.sequence_conv(input=emb, num_filters=2, filter_size=k, bias_attr=False)
         for k in (1, 2, 5)]

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
samples = [([1, 2, 3, 4], 1), ([5, 6], 0), ([7], 1), ([8, 9, 10, 11, 12, 13], 0),
           ([14, 15, 16], 1)]
feeder = fluid.DataFeeder(feed_list=[data, label], place=place)
for out in exe.run(feed=feeder.feed(samples), fetch_list=plain, return_numpy=False):
    print(out.lod())
    print(np.round(np.array(out), 4))
for step in range(8):
    c, a = exe.run(feed=feeder.feed(samples), fetch_list=[cost, acc])
    print(step, '%.4f' % np.array(c)[0], '%.2f' % np.array(a)[0])

# Inference on random sentences, as the book's infer() built them.
np.random.seed(1)
words = fluid.create_random_int_lodtensor([[3, 4, 2]], [1], place, low=0, high=29)
print(words.lod(), np.array(words).ravel().tolist())
probs, = exe.run(feed={'words': words, 'label': np.zeros((3, 1), dtype='int64')},
                 fetch_list=[prediction])
print(np.round(probs, 4))
