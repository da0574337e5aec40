# __call__ makes instances callable; callable() on instances and classes.
class Scale:
    def __init__(self, factor):
        self.factor = factor
        self.calls = 0

    def __call__(self, x, *rest, offset=0):
        self.calls += 1
        return [v * self.factor + offset for v in (x,) + rest]


double = Scale(2)
print(double(3))
print(double(1, 2, 3, offset=10))
print(double.calls, callable(double), callable(Scale), callable(3))
print(list(map(Scale(3), [1, 2])))


class NoCall:
    pass


try:
    NoCall()()
except TypeError as e:
    print("TypeError:", e)
