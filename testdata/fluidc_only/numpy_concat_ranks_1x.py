# numpy's account of concat_ranks_1x.py, run by CPython: Paddle 1.5's
# concat declared the first input's dims with the dims at the axis summed,
# and its kernel flattened every input to [prod(dims before the axis),
# prod(dims from the axis)] and joined the rows.
import numpy as np


def declared(dims_list, axis):
    out = list(dims_list[0])
    out[axis] = sum(d[axis] for d in dims_list)
    return tuple(out)


def concat_1x(xs, axis):
    rows = int(np.prod(xs[0].shape[:axis]))
    flat = [x.reshape(rows, -1) for x in xs]
    shape = list(xs[0].shape)
    shape[axis] = sum(x.shape[axis] for x in xs)
    return np.concatenate(flat, axis=1).reshape(shape)


print(declared([(-1, 5), (-1, 1, 1, 1)], 1), declared([(-1, 2, 3), (-1, 2, 3, 1)], 1))
noise = np.arange(10, dtype='float32').reshape(2, 5) / 4
label = np.array([[1.], [3.]], dtype='float32')
feat = np.arange(12, dtype='float32').reshape(2, 2, 3)
y = label.reshape(-1, 1, 1, 1)
xy = concat_1x([noise, y], 1)
mix = concat_1x([feat, feat.reshape(-1, 2, 3, 1)], 1)
w = np.full([6], 0.5, dtype='float32')
# loss = sum(xy * w) + sum(mix): d loss / d xy is w on every row, cut back
# into each input's columns and shaped as the input.
dxy = np.broadcast_to(w, xy.shape)
dnoise = dxy[:, :5].reshape(noise.shape)
dy = dxy[:, 5:].reshape(y.shape)
print(xy.shape, xy.sum())
print(xy)
print(mix.shape)
print(mix[1])
print(dnoise.shape, dnoise.sum(), dy.shape, dy.ravel())
