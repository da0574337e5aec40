# list methods: append/extend/insert/remove/pop/index/count/sort/reverse/copy/clear, +=, *, comparisons, nested copies.
a = [3, 1, 4, 1, 5]
a.append(9)
a.extend([2, 6])
a.insert(0, 0)
a.insert(-1, 7)
a.insert(100, 8)
print(a)
a.remove(1)
print(a, a.pop(), a.pop(0), a.index(5), a.count(1), a.index(1, 2))
try:
    a.remove(42)
except ValueError as e:
    print("ValueError")
b = a.copy()
b.sort()
a.reverse()
print(a, b, a == b, sorted(a) == b)
c = [[0]] * 3
c[0].append(1)
print(c, [[0] for _ in range(2)])
d = [1, 2]
d += (3, 4)
d *= 2
print(d, d[1:3] + [9], [1, 2] < [1, 3], [1, 2] < [1, 2, 0], [] == [], 3 * [0])
d.clear()
print(d, list(), list("ab"), list({"k": 1}), list((1, 2)))
try:
    [].pop()
except IndexError as e:
    print("IndexError:", e)
