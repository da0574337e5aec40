# Classes as context managers: __enter__/__exit__, exception info, suppression, nesting order.
class Tracker:
    def __init__(self, name, suppress=False):
        self.name = name
        self.suppress = suppress

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, exc_type, exc, tb):
        print("exit", self.name, exc_type.__name__ if exc_type else None, exc)
        return self.suppress


with Tracker("a") as t:
    print("inside", t.name)

with Tracker("outer", suppress=True), Tracker("inner"):
    raise KeyError("k")
print("after suppressed")

try:
    with Tracker("noisy"):
        1 / 0
except ZeroDivisionError as e:
    print("caught", e)


def early():
    with Tracker("in function"):
        return "returned"


print(early())
for i in range(3):
    with Tracker("loop %d" % i):
        if i == 1:
            continue
        if i == 2:
            break
        print("body", i)
