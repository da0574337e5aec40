# numpy as 2018 Paddle scripts and OpTests use it: inputs from seeded
# random numbers, reference computations, batching, closeness checks and
# printing losses.
import math
import numpy as np

np.random.seed(90)
SEED = 90


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def softmax(x):
    shiftx = x - np.max(x, axis=1, keepdims=True)
    exps = np.exp(shiftx)
    return exps / np.sum(exps, axis=1, keepdims=True)


def cross_entropy(prob, label):
    return -np.log(prob[np.arange(len(label)), label.flatten()]).reshape(-1, 1)


x = np.random.uniform(0.1, 1, [11, 17]).astype("float32")
label = np.random.randint(0, 17, (11, 1)).astype("int64")
prob = softmax(x)
loss = cross_entropy(prob, label)
print(prob.shape, prob.dtype, loss.dtype, loss.shape)
print(np.round(loss.T, 4))
print("avg loss %.6f" % np.mean(loss), "max %.4f" % loss.max(), float(loss.sum()))
w = np.random.random((17, 4)).astype("float32")
b = np.zeros(4, dtype="float32")
h = sigmoid(np.dot(x, w) + b)
print(h[:2], h.sum(axis=0), np.argmax(h, axis=1))
mask = (np.random.rand(*h.shape) > 0.5).astype(h.dtype)
print((h * mask)[0], mask.sum(), np.count_nonzero(mask))
data = [(np.random.random(3).astype("float32"), np.random.randint(10)) for _ in range(7)]
batch = np.array([d[0] for d in data]), np.array([d[1] for d in data]).reshape(-1, 1)
print(batch[0].shape, batch[1].T, batch[1].dtype)
for i, (img, lbl) in enumerate(data[:2]):
    print(i, img, lbl, type(lbl).__name__)
images = np.array([d[0] for d in data]).reshape([-1, 1, 1, 3])
print(images.shape, images.transpose(0, 3, 1, 2).shape, images.mean(axis=(0, 2, 3)))
lod = [0, 3, 5, 7]
seqs = [np.arange(lod[i], lod[i + 1]) for i in range(len(lod) - 1)]
print(seqs, np.concatenate(seqs).reshape(-1, 1).T, [len(s) for s in seqs])
actual = np.random.random((3, 4)).astype("float32")
expect = actual + np.float32(1e-6)
abs_a = np.abs(actual)
abs_a[abs_a < 1e-3] = 1
diff = np.abs(actual - expect) / abs_a
print(np.max(diff) < 0.005, np.allclose(actual, expect, atol=1e-5), repr(np.max(diff)))
print("Output has diff at place\nExpect " + str(expect) + "\nBut Got" + str(actual))
losses = []
for step in range(5):
    l = np.float32(2.0) / (step + 1) + np.random.random() * 0.01
    losses.append(l)
    if step % 2 == 0:
        print("step %d, loss %f, %s" % (step, l, l))
print(losses, np.mean(losses), np.array(losses).std(), min(losses), sorted(losses)[0] == min(losses))
acc = np.array([0.5, 0.75, 1.0])
print("Test Acc %s %s" % (acc.mean(), np.array(acc.mean())), "pass" if acc.mean() > 0.6 else "fail", math.isnan(acc.mean()))
grads = {"w": np.ones((2, 2), np.float32) * 0.5, "b": np.zeros(2, np.float64)}
for k in sorted(grads):
    print(k, grads[k].dtype, grads[k].shape, grads[k].sum(), str(grads[k].dtype) == "float32")
one_hot = np.eye(5, dtype="float32")[np.array([1, 3, 0])]
print(one_hot, one_hot.argmax(1), np.where(one_hot == 1)[1])
img = np.random.randint(0, 256, (2, 4, 4)).astype("float32") / 255.0
print(img[0, :2], img.min(), img.max(), np.clip(img * 2 - 1, -1, 1)[1, 0])
print(np.prod([2, 3, 4]), int(np.prod((2, 3))), np.random.permutation(8), np.random.choice(range(10), 3))
