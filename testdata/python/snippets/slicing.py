# Slicing: positive/negative indices, steps, out-of-range bounds, strings and tuples, slice objects, indices().
s = list(range(10))
print(s[2:5], s[:3], s[7:], s[-3:], s[:-7], s[::3], s[::-1], s[8:2:-2], s[-1:-4:-1])
print(s[100:], s[-100:2], s[5:2], s[::-100])
t = "abcdefgh"
print(t[1:4], t[::-1], t[::2], t[-2:], (1, 2, 3, 4)[1:3], b"bytes"[1:3], bytearray(b"xyz")[::-1])
sl = slice(1, 8, 3)
print(s[sl], sl.start, sl.stop, sl.step, sl.indices(5), slice(None, None, -1).indices(4), repr(slice(2)))
print(range(10)[2:8:2], range(10)[::-1][:3], list(range(20)[5:15][::4]))
try:
    s[::0]
except ValueError as e:
    print("ValueError:", e)
print(s[True], s[-True])
