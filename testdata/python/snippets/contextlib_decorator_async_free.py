# contextlib.ContextDecorator: one object used as a decorator and a with-block, counting entries, and contextmanager-based decorators.
import contextlib


class traced(contextlib.ContextDecorator):
    depth = 0

    def __init__(self, label):
        self.label = label

    def __enter__(self):
        traced.depth += 1
        print("  " * traced.depth + "enter " + self.label)
        return self

    def __exit__(self, *exc):
        print("  " * traced.depth + "exit " + self.label)
        traced.depth -= 1
        return False


@traced("train")
def train():
    with traced("epoch"):
        print("    working")
    return "trained"


print(train())


@contextlib.contextmanager
def tag(name):
    print("<%s>" % name)
    yield
    print("</%s>" % name)


@tag("section")
def body():
    print("content")


body()
