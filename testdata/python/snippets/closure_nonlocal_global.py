# global and nonlocal statements, nested scopes, UnboundLocalError.
total = 0


def add(n):
    global total
    total += n


add(3)
add(4)
print(total)


def outer():
    a = 1

    def middle():
        nonlocal a
        a += 1

        def inner():
            nonlocal a
            a *= 10
            return a

        return inner()

    r = middle()
    return a, r


print(outer())


def broken():
    try:
        print(total)
        total = 1
    except UnboundLocalError:
        print("UnboundLocalError")


broken()


def make_global():
    global created_later
    created_later = "made"


make_global()
print(created_later, "created_later" in globals())
x = "module"


def read_only():
    return x


def shadow():
    x = "local"
    return x, read_only()


print(shadow(), x)
