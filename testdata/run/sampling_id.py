# 1.x's layers.sampling_id: class ids drawn from each row's probabilities
# (as 2018 text generators sampled the next word). The draws are random,
# so this prints what any correct sampler prints: the frequencies of many
# draws near the probabilities, rows of a single class always giving it,
# a fixed seed giving the same ids run after run, and the ids' dtype.
import numpy as np
import paddle.fluid as fluid

probs = fluid.layers.data(name='probs', shape=[4], dtype='float32')
ids = fluid.layers.sampling_id(probs)
fixed = fluid.layers.sampling_id(probs, seed=7)
shifted = fluid.layers.sampling_id(probs, min=0.5, max=1.0, seed=3)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

p = np.array([0.1, 0.2, 0.3, 0.4], dtype='float32')
many = np.tile(p, (4000, 1))
a, f1, s1 = exe.run(feed={'probs': many}, fetch_list=[ids, fixed, shifted])
_, f2, s2 = exe.run(feed={'probs': many}, fetch_list=[ids, fixed, shifted])
print(a.shape, a.dtype, f1.dtype)
for got in (a, f1):
    freq = np.bincount(got, minlength=4) / float(len(got))
    print([bool(abs(q - w) < 0.03) for q, w in zip(freq, p)])
print(bool((f1 == f2).all()), bool((s1 == s2).all()))
# Draws in [0.5, 1) never land on the first two classes (their mass is 0.3).
print(sorted(set(s1.tolist())))
onehot = np.eye(4, dtype='float32')[[2, 0, 3, 1, 2]]
print(exe.run(feed={'probs': onehot}, fetch_list=[ids])[0].tolist())
