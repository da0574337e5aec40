# Closures: counters with nonlocal, independent closure instances, __closure__ cells.
def make_counter(start=0):
    count = start

    def inc(step=1):
        nonlocal count
        count += step
        return count

    return inc


c1, c2 = make_counter(), make_counter(100)
print(c1(), c1(), c1(5), c2(), c1())
print(len(c1.__closure__), c1.__closure__[0].cell_contents)
print(c1.__code__.co_freevars, make_counter.__code__.co_cellvars)


def make_acc():
    items = []

    def add(x):
        items.append(x)
        return list(items)

    return add


add = make_acc()
add(1)
print(add(2))
