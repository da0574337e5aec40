# Slice assignment and deletion: growing, shrinking, extended-slice assignment, del with steps, bytearray slices.
a = list(range(8))
a[2:4] = ["x", "y", "z"]
print(a)
a[:0] = [-1]
print(a)
a[len(a):] = [100, 101]
print(a)
a[1:6] = []
print(a)
b = list(range(10))
b[::2] = "ABCDE"
print(b)
try:
    b[::2] = [1, 2]
except ValueError as e:
    print("ValueError:", e)
del b[1::3]
print(b)
del b[:2]
print(b)
c = [1, 2, 3]
c[1:2] = (7, 8, 9)
c[-1:] = range(2)
print(c)
ba = bytearray(b"hello world")
ba[0:5] = b"HELLO"
ba[6:] = b"there!"
del ba[5]
print(ba)
m = [[0] * 3 for _ in range(2)]
m[0][1:] = [5, 5]
print(m)
