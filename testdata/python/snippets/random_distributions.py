# random distributions with a seed: gauss, normalvariate, expovariate, betavariate, triangular; Random instances and getstate/setstate.
import random

r = random.Random(2019)
print(r.triangular(0, 10, 3), r.betavariate(2, 3))
print(r.lognormvariate(0, 1), r.vonmisesvariate(1, 2), r.gammavariate(2, 1), r.paretovariate(3), r.weibullvariate(1, 2))
r1, r2 = random.Random(7), random.Random(7)
print(r1.sample(["x", "y", "z", "w"], 2), r2.sample(["x", "y", "z", "w"], 2))
random.seed(0)
print([round(random.gauss(0, 0.01), 6) for _ in range(4)], [round(random.normalvariate(1, 2), 6) for _ in range(3)])
