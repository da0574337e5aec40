# Class-level registries and factories: registering subclasses by name with a decorator classmethod, creating by name, listing sorted keys.
class Optimizer:
    _registry = {}

    @classmethod
    def register(cls, name):
        def deco(sub):
            cls._registry[name] = sub
            sub.kind = name
            return sub
        return deco

    @classmethod
    def create(cls, name, **kw):
        try:
            return cls._registry[name](**kw)
        except KeyError:
            raise ValueError("unknown optimizer %r; known: %s" % (name, ", ".join(sorted(cls._registry))))

    def __init__(self, lr=0.01):
        self.lr = lr

    def __repr__(self):
        return "%s(lr=%g)" % (type(self).__name__, self.lr)


@Optimizer.register("sgd")
class SGD(Optimizer):
    pass


@Optimizer.register("adam")
class Adam(Optimizer):
    def __init__(self, lr=0.001, beta1=0.9):
        super().__init__(lr)
        self.beta1 = beta1


print(Optimizer.create("sgd"), Optimizer.create("adam", lr=0.1), SGD.kind, sorted(Optimizer._registry))
try:
    Optimizer.create("rmsprop")
except ValueError as e:
    print(e)
