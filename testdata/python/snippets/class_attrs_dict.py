# Class and instance attributes: __dict__, vars(), class attribute shadowing, mutable class attributes, __name__/__qualname__/__module__.
class Counter:
    total = 0
    shared = []

    def __init__(self):
        Counter.total += 1
        self.own = Counter.total

    class Inner:
        def method(self):
            pass


a, b = Counter(), Counter()
a.shared.append("a")
b.total = 100
print(Counter.total, a.total, b.total, Counter.shared is b.shared)
print(vars(a), b.__dict__)
print(sorted(k for k in vars(Counter) if not k.startswith("__")))
print(Counter.__name__, Counter.Inner.__qualname__, Counter.Inner.method.__qualname__, Counter.__module__)
print(type(a).__name__, a.__class__ is Counter)
setattr(a, "dynamic", 1)
print(getattr(a, "dynamic"), "dynamic" in vars(a))
delattr(a, "dynamic")
print(hasattr(a, "dynamic"))
print(sorted(n for n in dir(a) if not n.startswith("_")))
