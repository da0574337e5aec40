# Control flow: for/else and while/else with break, continue, nested loops, conditional expressions, pass, assert, del.
for n in range(2, 20):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, "is prime")
i = 0
while i < 5:
    i += 1
    if i == 2:
        continue
    if i == 4:
        break
    print("i", i)
else:
    print("while else not reached")
while False:
    pass
else:
    print("while else reached")
x = 7
kind = "big" if x > 5 else "small"
print(kind)
assert x == 7, "x should be 7"
try:
    assert x == 8, "x is %d" % x
except AssertionError as e:
    print("AssertionError:", e)
lst = [1, 2, 3]
del lst[0], x
print(lst, "x" in dir())
if not lst:
    pass
elif len(lst) == 2:
    print("two left")
else:
    print("other")
