# Python that 2018 scripts lean on around their programs: objects used
# as context managers (`__enter__`/`__exit__`, an `__exit__` that swallows
# the body's exception), `copy.copy`/`copy.deepcopy` of configs, arrays and
# objects (shared parts and cycles kept), and `is` on containers.
from __future__ import print_function

import copy

import numpy as np
import paddle.fluid as fluid


class ProgramScope(object):
    """Builds into its own programs, like the book's helper classes."""

    def __init__(self, name):
        self.name = name
        self.main = fluid.Program()
        self.startup = fluid.Program()

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        print("exit", self.name, exc_type is None)
        return False


class Ignore(object):
    def __enter__(self):
        return 7

    def __exit__(self, exc_type, exc_value, traceback):
        print("ignoring", exc_type.__name__, exc_value)
        return True


with ProgramScope("net") as scope, fluid.program_guard(scope.main, scope.startup):
    x = fluid.layers.data(name='x', shape=[2], dtype='float32')
    y = fluid.layers.scale(x, scale=3.0)
exe = fluid.Executor(fluid.CPUPlace())
out, = exe.run(scope.main, feed={'x': np.ones((1, 2), dtype='float32')}, fetch_list=[y])
print(out, len(scope.main.global_block().ops))

with Ignore() as n:
    print("n =", n)
    raise ValueError("bad batch")
print("after the ignored error")

try:
    with ProgramScope("failing"):
        raise KeyError("k")
except KeyError as e:
    print("caught", repr(e))

config = {'lr': 0.1, 'decay': [1, 2], 'nested': {'k': [4]}}
shallow = copy.copy(config)
deep = copy.deepcopy(config)
shallow['decay'].append(3)
deep['nested']['k'].append(5)
print(config, shallow, deep)
print(shallow is config, shallow['decay'] is config['decay'], deep['decay'] is config['decay'])
weights = np.zeros(3)
saved = copy.copy(weights)
saved[0] = 1
print(weights, saved)
shared = [0]
pair = copy.deepcopy([shared, shared])
print(pair[0] is pair[1], pair[0] is shared)
loop = [1]
loop.append(loop)
again = copy.deepcopy(loop)
print(again[1] is again, again[0])
scope_copy = copy.copy(scope)
print(scope_copy.name, scope_copy is scope, scope_copy.main is scope.main)
