# fluid.io.DataLoader.from_generator over two CPU places, iterable, as
# 1.6's test_generator_dataloader drove it: each step yields one feed dict
# per place (each place gets a batch of its own; which batch goes to
# which place was up to 1.x's reader threads, and so was which of the five
# batches is left over: Paddle 3.3.1 sometimes drops the fifth, sometimes
# the fourth; so only how many distinct whole batches came is printed), and
# a step that cannot give every place a batch ends the pass. A tensor inside a list or dict
# prints as an object (1.x defined only LoDTensor.__str__).
import numpy as np
import paddle
import paddle.fluid as fluid

BATCH = 4


def samples():
    for i in range(5 * BATCH):
        yield np.full([3], i, dtype='float32'), i % 2


image = fluid.layers.data(name='image', shape=[3], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
loader = fluid.io.DataLoader.from_generator(feed_list=[image, label], capacity=4,
                                            iterable=True)
places = fluid.cpu_places(2)
loader.set_sample_list_generator(paddle.batch(samples, batch_size=BATCH), places=places)

for epoch in range(2):
    steps, firsts = 0, []
    for d in loader():
        assert len(d) == len(places), (len(d), len(places))
        firsts += [float(np.array(item['image'])[0][0]) for item in d]
        shapes = [item['image'].shape() for item in d]
        print(epoch, steps, shapes, sorted(d[0].keys()))
        steps += 1
    whole = all(f % BATCH == 0 and f < 5 * BATCH for f in firsts)
    print('epoch', epoch, 'steps', steps, len(set(firsts)), whole)

t = fluid.LoDTensor()
t.set(np.arange(4, dtype='float32').reshape(2, 2), fluid.CPUPlace())
print(t)
text = repr({'x': t})
print(text.startswith("{'x': <") and 'LoDTensor' in text or 'DenseTensor' in text, '0x' in text)
