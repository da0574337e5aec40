# Issue 12 item 2: dict assignment is a hash lookup, not a scan.
d = {}
for i in range(20000):
    d[i] = i
assert len(d) == 20000
