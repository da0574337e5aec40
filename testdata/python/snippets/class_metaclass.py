# Metaclasses: __new__ on type subclass, class registry, __call__ on metaclass, type() with three args.
class Registry(type):
    classes = []

    def __new__(mcs, name, bases, ns):
        cls = super().__new__(mcs, name, bases, ns)
        mcs.classes.append(name)
        cls.upper_name = name.upper()
        return cls

    def __call__(cls, *args, **kwargs):
        print("creating", cls.__name__, args)
        return super().__call__(*args, **kwargs)


class Layer(metaclass=Registry):
    def __init__(self, n=0):
        self.n = n


class Dense(Layer):
    pass


d = Dense(4)
print(d.n, Registry.classes, Dense.upper_name, type(Dense).__name__)
Dyn = type("Dyn", (object,), {"x": 5, "double": lambda self: self.x * 2})
print(Dyn().double(), Dyn.__name__, type(Dyn) is type, isinstance(Dense, Registry))
