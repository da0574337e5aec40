# np.argpartition / np.partition as 2019 programs used them: the top-k
# classes of a prediction row (PaddleCV/video's youtube8m eval_util, the
# word2vec infer's nearest words), summed or sorted afterwards, so only the
# set on each side of kth matters; and numpy's argument errors.
import numpy as np

predictions = np.array([0.1, 0.7, 0.05, 0.3, 0.9, 0.2], dtype=np.float32)
actuals = np.array([0, 1, 0, 1, 1, 0], dtype=np.float32)
num_labels = int(np.sum(actuals))
top = np.argpartition(predictions, -num_labels)[-num_labels:]
print(sorted(top.tolist()), top.dtype, top.shape)
precision = 0.0
for i in top:
    if predictions[i] > 0:
        precision += actuals[i]
print(precision / top.size)

sims = np.array([0.2, 0.95, -0.1, 0.5, 0.8])
k = 3
result = [[sims[i], i] for i in np.argpartition(sims, -k)[-k:]]
result.sort(reverse=True)
print([(round(float(v), 2), int(i)) for v, i in result])

p = np.partition(np.array([7, 2, 9, 4, 1]), 2)
print(p[2], sorted(p[:2].tolist()), sorted(p[3:].tolist()))
m = np.array([[3, 1, 2], [0, 5, 4]])
print(np.sort(np.argpartition(m, 1, axis=1)[:, 1:], axis=1).tolist(),
      np.argpartition(m, 0, axis=None)[0], np.argpartition(m, [0, 1], axis=0).shape)
b = np.array([5.0, 3.0, 4.0, 1.0])
print(b.partition(1), b[1], b.argpartition(-1)[-1])

for args, kw in [((5,), {}), ((-6,), {}), ((1,), {"kind": "quick"}),
                 ((1.5,), {}), ((True,), {}), (([1, 2.0],), {}), ((1,), {"order": "x"})]:
    try:
        np.argpartition(np.arange(5), *args, **kw)
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
