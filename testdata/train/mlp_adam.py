# The recognize_digits MLP of the 2018 book (784-64-10), on a fixed batch
# of 32 random images: relu, softmax, cross_entropy, mean, accuracy, Adam
# at 0.01, seeded initial weights. Prints the loss and accuracy of 20 steps.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 90
fluid.default_main_program().random_seed = 90

rng = np.random.RandomState(0)
images = rng.rand(32, 784).astype('float32')
labels = rng.randint(0, 10, size=(32, 1)).astype('int64')

img = fluid.layers.data(name='img', shape=[784], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
hidden = fluid.layers.fc(input=img, size=64, act='relu')
prediction = fluid.layers.fc(input=hidden, size=10, act='softmax')
loss = fluid.layers.cross_entropy(input=prediction, label=label)
avg_loss = fluid.layers.mean(loss)
acc = fluid.layers.accuracy(input=prediction, label=label)

optimizer = fluid.optimizer.Adam(learning_rate=0.01)
optimizer.minimize(avg_loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
for step in range(20):
    loss_v, acc_v = exe.run(fluid.default_main_program(),
                            feed={'img': images, 'label': labels},
                            fetch_list=[avg_loss, acc])
    print("step %d, loss %f, acc %f" % (step, float(loss_v), float(acc_v)))
