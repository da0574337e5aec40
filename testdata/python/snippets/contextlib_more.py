# contextlib extras: ExitStack.pop_all to transfer cleanup, callbacks with arguments, AbstractContextManager subclass, chdir-like manager.
import contextlib
import os
import tempfile


class Res(contextlib.AbstractContextManager):
    def __init__(self, n):
        self.n = n

    def __exit__(self, *exc):
        print("release", self.n)


def acquire_all():
    with contextlib.ExitStack() as stack:
        res = [stack.enter_context(Res(i)) for i in range(2)]
        stack.callback(print, "callback with", "args")
        return res, stack.pop_all()


res, stack = acquire_all()
print("acquired", [r.n for r in res])
stack.close()


@contextlib.contextmanager
def working_dir(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


d = tempfile.mkdtemp()
with working_dir(d):
    print(os.getcwd() == os.path.realpath(d))
print(os.getcwd() != os.path.realpath(d))
os.rmdir(d)
with Res(9) as r:
    print("inside", r.n)
