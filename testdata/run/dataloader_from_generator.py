# 1.6's fluid.io.DataLoader.from_generator (iterable, set_sample_generator)
# beside 1.5's fluid.io.PyReader (decorate_sample_list_generator), on 1.6's
# fluid.data, as late-2019 training scripts fed their programs.
import numpy as np
import paddle
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 18
image = fluid.data(name='image', shape=[None, 4], dtype='float32')
label = fluid.data(name='label', shape=[None, 1], dtype='int64')
print(image.shape, label.shape)
loader = fluid.io.DataLoader.from_generator(feed_list=[image, label], capacity=4, iterable=True)
pred = fluid.layers.fc(image, 3, act='softmax')
loss = fluid.layers.mean(fluid.layers.cross_entropy(pred, label))
fluid.optimizer.SGD(0.5).minimize(loss)

def sample_gen():
    rng = np.random.RandomState(3)
    for i in range(10):
        yield rng.rand(4).astype('float32'), np.array([i % 3], dtype='int64')

loader.set_sample_generator(sample_gen, batch_size=4, drop_last=False, places=fluid.cpu_places(1))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for epoch in range(2):
    for data in loader():
        l, = exe.run(feed=data, fetch_list=[loss])
        print(epoch, np.round(l, 5))
reader = fluid.io.PyReader(feed_list=[image, label], capacity=4, iterable=True)
reader.decorate_sample_list_generator(paddle.batch(sample_gen, 5), fluid.cpu_places(1))
for data in reader():
    print(np.round(exe.run(feed=data, fetch_list=[loss])[0], 5))
