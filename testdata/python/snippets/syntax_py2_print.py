# A 2018 training script written for Python 2, run by Python 3: it stops
# at its first print statement with CPython's hint.
import sys

def report(pass_id, cost):
    print "Pass %d, cost %f" % (pass_id, cost)

report(0, 1.5)
