# Class introspection dunders: __doc__, __dict__ as mappingproxy, __module__, __class__, __bases__, __subclasses__, __class_getitem__.
class Base:
    """Base doc."""


class Child(Base):
    pass


class Box:
    def __class_getitem__(cls, item):
        return "Box[%s]" % item.__name__


print(Base.__doc__, Child.__doc__, type(Base.__dict__).__name__, "__doc__" in Base.__dict__, Child.__module__)
print(Child().__class__.__name__, Child.__bases__, [c.__name__ for c in Base.__subclasses__()], Box[int])
print(issubclass(Child, object), Child.__base__ is Base, type(Child()).__mro__[-1].__name__, object.__bases__)
print(isinstance(Child, type), type(Child).__name__, Child.__qualname__, Base.__name__)
