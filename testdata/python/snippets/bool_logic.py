# Boolean logic: and/or return operands, short circuit, not, chained comparisons, any/all with generators, None checks.
def noisy(v):
    print("eval", v)
    return v


print(0 or "default", "" or None, [] or {} or "last", 1 and 2, 0 and noisy(1), None and 1)
print(noisy(0) or noisy(2), noisy(1) and noisy(0))
x = 5
print(1 < x < 10, 1 < x > 3, x == 5 != 6, not x, not not x, (x > 3) + (x > 4), True is True, (not None) == True)
print(any([]), all([]), any(v > 3 for v in [1, 5]), all(v > 0 for v in [1, 0]), any([None, 0, ""]), all(["a", 1]))
val = None
print(val is None, val == None, val or "fallback", isinstance(val, type(None)), bool(val))
print(True & False, True | False, True ^ True, ~True, -False, True == 1, hash(True) == hash(1), {1: "a", True: "b"})
