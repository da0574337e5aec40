# What Paddle 1.x printed for lod_arrays_two_levels.py, computed in numpy
# after 1.x's kernels (run with CPython; tests/lod_rnn.rs compares).
import numpy as np

lengths = [[2, 3, 1], [3, 6, 2, 6, 3, 2]]
rows = sum(lengths[1])
values = (np.arange(rows).reshape(rows, 1) * 0.5 - 3.0).astype('float32')

# Sequence k of level 0 holds sub-sequences; each sub-sequence is rows.
subs, at = [], 0
for n in lengths[0]:
    subs.append(list(range(at, at + n)))
    at += n
starts = np.cumsum([0] + lengths[1])
rows_of = [list(range(starts[j], starts[j + 1])) for j in range(len(lengths[1]))]
# The rank table: longest first, ties in order (a stable sort).
order = sorted(range(len(subs)), key=lambda k: -len(subs[k]))

for step in range(len(subs[order[0]])):
    running = [k for k in order if len(subs[k]) > step]
    elems = [subs[k][step] for k in running]
    item = [values[r, 0] for j in elems for r in rows_of[j]]
    print('item', step, [[lengths[1][j] for j in elems]], [float(v) for v in item])

restored = values.ravel()
print('restored', lengths, np.round(restored, 5).tolist())
reordered = [values[r, 0] for k in order for j in subs[k] for r in rows_of[j]]
lod = [[len(subs[k]) for k in order], [lengths[1][j] for k in order for j in subs[k]]]
print('reordered', lod, np.round(np.array(reordered, dtype='float32'), 5).tolist())
grad = (np.float32(3.0) / np.float32(rows) + 2 * values).astype('float32')
print('x@GRAD', lengths, np.round(grad.ravel(), 5).tolist())
