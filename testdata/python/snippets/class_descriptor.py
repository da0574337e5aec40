# Descriptors: __get__/__set__/__set_name__, data vs non-data descriptor precedence.
class Typed:
    def __set_name__(self, owner, name):
        self.name = "_" + name
        self.public = name

    def __init__(self, kind):
        self.kind = kind

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return getattr(obj, self.name)

    def __set__(self, obj, value):
        if not isinstance(value, self.kind):
            raise TypeError("%s must be %s" % (self.public, self.kind.__name__))
        setattr(obj, self.name, value)


class NonData:
    def __get__(self, obj, objtype=None):
        return "from descriptor"


class Model:
    size = Typed(int)
    name = Typed(str)
    tag = NonData()

    def __init__(self, size, name):
        self.size = size
        self.name = name


m = Model(3, "net")
print(m.size, m.name, m.tag, isinstance(Model.size, Typed), Model.size.public)
try:
    m.size = "big"
except TypeError as e:
    print("TypeError:", e)
m.__dict__["tag"] = "instance wins"
m.__dict__["size"] = "ignored"
print(m.tag, m.size, sorted(m.__dict__))
