# Inheritance: overriding, super().__init__, isinstance/issubclass, __mro__, diamond with super().
class Animal:
    sound = "..."

    def __init__(self, name):
        self.name = name

    def speak(self):
        return "%s says %s" % (self.name, self.sound)


class Dog(Animal):
    sound = "woof"


class Puppy(Dog):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age

    def speak(self):
        return super().speak() + " (age %d)" % self.age


for a in [Animal("generic"), Dog("rex"), Puppy("bit", 1)]:
    print(a.speak())
print(isinstance(Puppy("a", 1), Animal), issubclass(Dog, Puppy), issubclass(Puppy, (int, Dog)))
print([c.__name__ for c in Puppy.__mro__])


class A:
    def who(self):
        return ["A"]


class B(A):
    def who(self):
        return ["B"] + super().who()


class C(A):
    def who(self):
        return ["C"] + super().who()


class D(B, C):
    def who(self):
        return ["D"] + super().who()


print(D().who(), [k.__name__ for k in D.mro()])
print(D.__bases__[0].__name__, Dog.__base__.__name__)
try:
    class Bad(A, D):
        pass
except TypeError as e:
    print("TypeError")
