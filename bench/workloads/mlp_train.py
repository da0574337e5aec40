# One training step of an MLP, 784-256-256-10, relu, softmax_with_cross_entropy,
# mean, Adam, on batches of @B@ (issue 17). bench/run.py compiles it to
# main.pb + startup.pb and runs the same two files in `fluidc run --steps`
# and in Paddle's executor (bench/paddle_train.py).
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 1
x = fluid.layers.data(name='x', shape=[784], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
h1 = fluid.layers.fc(input=x, size=256, act='relu')
h2 = fluid.layers.fc(input=h1, size=256, act='relu')
logits = fluid.layers.fc(input=h2, size=10)
loss = fluid.layers.softmax_with_cross_entropy(logits=logits, label=label)
avg_loss = fluid.layers.mean(loss)
fluid.optimizer.Adam(learning_rate=0.001).minimize(avg_loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
feed = {'x': rng.rand(@B@, 784).astype('float32'),
        'label': rng.randint(0, 10, size=(@B@, 1)).astype('int64')}
print(exe.run(feed=feed, fetch_list=[avg_loss])[0])
