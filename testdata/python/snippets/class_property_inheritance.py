# Properties in subclasses: overriding a property, extending its setter, abstract-ish properties and class-level access.
class Shape:
    def __init__(self):
        self._scale = 1

    @property
    def area(self):
        return 0

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, v):
        self._scale = v


class Square(Shape):
    def __init__(self, side):
        super().__init__()
        self.side = side

    @property
    def area(self):
        return self.side ** 2 * self.scale

    @Shape.scale.setter
    def scale(self, v):
        print("Square scale", v)
        Shape.scale.fset(self, v * 2)


s = Square(3)
print(s.area, Shape().area)
s.scale = 2
print(s.scale, s.area, isinstance(Square.area, property), Square.scale.fget is Shape.scale.fget)
