# Private name mangling (__attr becomes _Class__attr), single underscore conventions, mangling in subclasses.
class Base:
    def __init__(self):
        self.__secret = "base"
        self._protected = "p"

    def reveal(self):
        return self.__secret


class Child(Base):
    def __init__(self):
        super().__init__()
        self.__secret = "child"

    def child_reveal(self):
        return self.__secret


c = Child()
print(c.reveal(), c.child_reveal(), c._protected)
print(sorted(k for k in vars(c)))
try:
    c.__secret
except AttributeError:
    print("AttributeError")
print(c._Base__secret, c._Child__secret)
