# math usage in training code: sigmoid/softmax by hand, log-sum-exp, perplexity from loss, cosine annealing, ceil of batches.
import math


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def softmax(xs):
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [v / s for v in e]


print([round(sigmoid(x), 6) for x in (-2, 0, 2)], [round(p, 6) for p in softmax([1.0, 2.0, 3.0])])
print(round(math.exp(2.5), 6), math.ceil(1000 / 32), math.floor(-0.5), int(math.sqrt(50)))
lr = [0.5 * 0.1 * (1 + math.cos(math.pi * step / 10)) for step in range(0, 11, 5)]
print([round(v, 6) for v in lr], math.isclose(sum(softmax([0.0] * 4)), 1.0))
print(math.sqrt(16), math.pow(10, -3), math.fabs(-0.5), math.floor(7 / 2), 7 // 2, math.inf > 1e308, -math.inf < 0)
