# Assignment forms: chained, augmented on attributes/items/slices, multiple targets from one call, annotated assignments, del of names and items.
a = b = c = []
a.append(1)
print(a, b, c, a is c)
x = y = 5
x += 1
print(x, y)


class Box:
    n = 0


box = Box()
box.n += 2
box.n *= 5
items = [1, 2, 3]
items[0] += 10
items[1:] *= 1
items[-1] **= 2
d = {"k": 1}
d["k"] -= 3
d.setdefault("z", 0)
d["z"] |= 6
print(box.n, Box.n, items, d)
q, r = divmod(17, 5)
first, second = "ab"
count: int = 0
count += 1
print(q, r, first, second, count)
s = "abc"
s += "d"
t = (1,)
t += (2,)
print(s, t)
del items[0], d["z"]
print(items, d)
