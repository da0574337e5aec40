# numpy reads any object with __len__ and __getitem__ as a sequence: the
# running statistics of training loops kept losses in a collections.deque
# (PaddleCV's rcnn: np.median(deque), np.mean(deque)).
import collections
import numpy as np

window = collections.deque(maxlen=3)
for loss in [4.0, 2.5, 3.0, 1.0]:
    window.append(loss)
print(np.median(window), np.mean(window), np.array(window).dtype)
print(np.array(collections.deque([[1, 2], [3, 4]])).shape)


class Losses(object):
    def __init__(self, values):
        self.values = values

    def __len__(self):
        return len(self.values)

    def __getitem__(self, i):
        return self.values[i]


print(np.asarray(Losses([1.5, 2.5])).sum())
print(np.array(range(3)) + 1)
