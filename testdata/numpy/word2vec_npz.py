# What 2019 word2vec scripts (PaddleRec/word2vec) did with numpy around
# training: draw negative samples with the ndarray method `searchsorted` on
# the cumulative word-frequency table, and keep embeddings and checkpoints
# in .npz archives (np.savez / np.savez_compressed, read back with np.load).
import io
import os
import tempfile
import numpy as np

freq = np.array([10, 4, 3, 2, 1], dtype=np.float64)
cs = (freq ** 0.75 / (freq ** 0.75).sum()).cumsum()
np.random.seed(7)
print(cs.searchsorted(np.random.random(8)))
print(cs.searchsorted(0.5), cs.searchsorted(cs[1], side="right"), cs.searchsorted([[0.0, 1.0]]))
print(np.array([30, 10, 20]).searchsorted(25, sorter=[1, 2, 0]))
try:
    cs.searchsorted(0.5, side="middle")
except ValueError as e:
    print(e)

d = tempfile.mkdtemp()
emb = np.arange(12, dtype=np.float32).reshape(3, 4)
ids = np.array([5, 7, 9], dtype=np.int64)
np.savez(os.path.join(d, "emb"), emb, ids=ids)
np.savez_compressed(os.path.join(d, "ckpt.npz"), w=emb * 2, b=np.zeros(2))
print(sorted(os.listdir(d)))
with np.load(os.path.join(d, "emb.npz")) as data:
    print(sorted(data.files), data["arr_0"], data["ids"], data["ids"].dtype, "ids" in data, len(data))
    print(sorted(data.keys()), type(data).__name__)
z = np.load(os.path.join(d, "ckpt.npz"))
print(z.files, z["w"].sum(), z["b"], sorted(k for k, v in z.items()))
print(repr(z).replace(d, "<dir>"))
try:
    z["c"]
except KeyError as e:
    print("KeyError", e)
z.close()
buf = io.BytesIO()
np.savez(buf, a=np.ones(3, np.int32))
buf.seek(0)
print(np.load(buf)["a"])
try:
    np.savez(os.path.join(d, "x"), np.ones(1), arr_0=np.ones(1))
except ValueError as e:
    print(e)
