# The book chapters' @contextlib.contextmanager guards (program_guard,
# scope_guard and unique_name.guard in one), as functions and methods;
# the with body runs at the yield, return/break/raise included.
import contextlib
import numpy as np
import paddle.fluid as fluid


@contextlib.contextmanager
def prog_scope_guard(main_prog, startup_prog):
    scope = fluid.core.Scope()
    with fluid.unique_name.guard():
        with fluid.scope_guard(scope):
            with fluid.program_guard(main_prog, startup_prog):
                yield


@contextlib.contextmanager
def tagged(name):
    print("enter", name)
    try:
        yield name.upper()
    finally:
        print("exit", name)


def train():
    main, startup = fluid.Program(), fluid.Program()
    with prog_scope_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[2], dtype='float32')
        y = fluid.layers.fc(input=x, size=1, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)))
        exe = fluid.Executor(fluid.CPUPlace())
        exe.run(startup)
        out, = exe.run(main, feed={'x': np.ones((2, 2), dtype='float32')}, fetch_list=[y])
        print(out.tolist(), len(main.global_block().ops))
        return out.shape


print(train())
print(len(fluid.default_main_program().global_block().ops))
with tagged("a") as t:
    print("body", t)
for i in range(3):
    with tagged("loop%d" % i):
        if i == 1:
            break
print("after loop", i)
try:
    with tagged("err"):
        raise ValueError("inside")
except ValueError as e:
    print("caught", e)


class Trainer(object):
    @contextlib.contextmanager
    def program_scope_guard(self):
        prog, startup = fluid.Program(), fluid.Program()
        with fluid.scope_guard(fluid.core.Scope()):
            with fluid.program_guard(prog, startup):
                yield prog


with Trainer().program_scope_guard() as prog:
    z = fluid.layers.fill_constant(shape=[1], dtype='int64', value=7)
print(len(prog.global_block().ops), prog is not fluid.default_main_program())
