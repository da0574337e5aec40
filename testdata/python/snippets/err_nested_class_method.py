# Uncaught AttributeError from a bad call in a nested class's method, called via a classmethod: qualified frame names.
class Outer:
    class Inner:
        def compute(self, x):
            return x.append("1")

    @classmethod
    def build(cls):
        return cls.Inner().compute(1)


Outer.build()
