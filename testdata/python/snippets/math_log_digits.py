# Logarithms as 2018 scripts used them: tf-idf weights, BLEU's log
# precisions, a perplexity, and learning-rate decay steps; printed with
# every digit. Then their errors, and random's draws built on them.
import math
import random
from math import log, log10

docs = 1000
print([log(docs / float(df)) for df in (1, 3, 10, 37, 999)])
precisions = [0.71, 0.42, 0.25, 0.16]
print(math.exp(sum(log(p) for p in precisions) / 4))
print([math.log(v, 2) for v in (3, 10, 1e-3, 2 ** 60 + 1)], math.log(1000, 10))
print([log10(v) for v in (3.7, 7, 0.9999, 1e-300)], [math.log2(v) for v in (10, 1e6, 3)])
print(log(True), log(10 ** 400), log10(10 ** 500), math.log2(2 ** 2000 + 12345), log(10 ** 400, 10 ** 200))
print(log(float("inf")), log(float("nan")))
for bad in ((0,), (-1.5,), (0.0,), (-(10 ** 400),), ("a",), (10, 1), (10, 0), (None,)):
    try:
        print(log(*bad))
    except (ValueError, TypeError, ZeroDivisionError) as e:
        print(type(e).__name__, e)
random.seed(3)
print([random.gauss(0, 1) for _ in range(3)], random.expovariate(2.0), random.lognormvariate(0, 1))
print([math.log1p(v) for v in (1e-7, 0.1, 1.3, -0.3)], [math.expm1(v) for v in (1e-9, 0.5, -2.0)])
for name, bad in (("acosh", 0.5), ("atanh", 1.0), ("log1p", -1.0), ("expm1", 1000.0), ("gamma", 0.0),
                  ("gamma", -3.0), ("lgamma", -2.0), ("gamma", 200.0), ("erf", "x")):
    try:
        print(name, getattr(math, name)(bad))
    except (ValueError, TypeError, OverflowError) as e:
        print(name, type(e).__name__, e)
print(round(math.gamma(4.5), 12), round(math.lgamma(-0.3), 12), round(math.erf(0.5), 12))
