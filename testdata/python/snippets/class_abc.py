# abc.ABC and abstractmethod: instantiation errors, concrete subclasses, isinstance with register.
import abc


class Optimizer(abc.ABC):
    @abc.abstractmethod
    def step(self, grad):
        ...

    def describe(self):
        return "%s step=%s" % (type(self).__name__, self.step(1.0))


class SGD(Optimizer):
    def step(self, grad):
        return -0.1 * grad


try:
    Optimizer()
except TypeError as e:
    print("TypeError", "abstract" in str(e))
print(SGD().describe())


class Half(Optimizer):
    pass


try:
    Half()
except TypeError as e:
    print("TypeError", "abstract" in str(e))


class Foreign:
    pass


Optimizer.register(Foreign)
print(isinstance(Foreign(), Optimizer), issubclass(Foreign, Optimizer), isinstance(3, Optimizer))
print(sorted(Optimizer.__abstractmethods__))
