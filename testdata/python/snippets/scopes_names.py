# Name resolution: LEGB lookup, class scopes not enclosing methods, builtins shadowing, del of names, names bound in loops after the loop.
x = "global"
len_backup = len


def outer():
    x = "enclosing"

    def inner():
        return x
    return inner()


class C:
    x = "class"

    def method(self):
        return x

    y = [x for _ in range(1)]


print(outer(), C().method(), C.x, C.y)


def shadow_builtin():
    len = lambda s: -1
    return len("abc")


print(shadow_builtin(), len("abc"))
for loop_var in range(3):
    pass
print(loop_var)
z = 1
del z
try:
    z
except NameError as e:
    print("NameError:", e)


def uses_later():
    return later_defined()


def later_defined():
    return "defined after use site"


print(uses_later())
import builtins
print(builtins.len is len_backup, "print" in dir(builtins))
