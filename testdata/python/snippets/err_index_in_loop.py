# Uncaught KeyError from a dict lookup inside a loop in a function called from a method: frames of all levels in order.
class Trainer:
    def __init__(self, batches):
        self.batches = batches

    def run(self, steps):
        for i in range(steps):
            print("step", i, self.batch(i))

    def batch(self, i):
        return self.batches[i]


Trainer({0: [1, 2], 1: [3, 4]}).run(3)
