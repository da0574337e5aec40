# LoD offsets built the way 2018 readers built them: a running total
# extended from a generator that reads the list's last item, which must
# see each item as it is appended (CPython's list.extend and += append an
# iterator's items one at a time; a list or tuple is copied first).
lengths = [2, 1, 3]
offsets = [0]
offsets.extend(n + offsets[-1] for n in lengths)
print(offsets)

more = [0]
more += (n + more[-1] for n in lengths)
print(more)

twice = [1, 2]
twice.extend(twice)
twice += tuple(twice)
print(twice)


class Row(list):
    pass


row = Row([1, 2])
row.extend(x * 10 for x in range(row[-1]))
row.extend(Row([7]))
print(row, type(row).__name__)

try:
    offsets.extend(5)
except TypeError as e:
    print("TypeError:", e)
try:
    offsets += 5
except TypeError as e:
    print("TypeError:", e)
