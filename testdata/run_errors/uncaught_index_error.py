# An uncaught exception stops the script where CPython stops it: what was
# printed before stays, nothing after runs, and the exit status is 1. The
# error comes from inside a function's comprehension (a fetched loss is a
# 0-d array in Paddle 3, so `loss[0]` fails, as in the 2019 book's
# train_test helper).
import numpy


def mean_of_first(values):
    return sum([v[0] for v in values]) / len(values)


print("before")
losses = [numpy.array(1.5, dtype='float32'), numpy.array(2.5, dtype='float32')]
print(mean_of_first(losses))
print("never printed")
