# A training loop whose fetch_list line was commented out while debugging:
# the call it closed stays open, and Python points at the bracket.
import sys

def train(exe, feeder):
    cost = exe.run(program=None,
                   feed=feeder,
    #              fetch_list=[avg_cost])
    print(cost)

train(None, None)
