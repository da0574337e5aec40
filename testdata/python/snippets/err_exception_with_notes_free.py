# Uncaught exception whose str() spans several lines, from a lambda called via map.
def check(v):
    if v < 0:
        raise ValueError("negative value:\n  got %d\n  expected >= 0" % v)
    return v


print(list(map(lambda v: check(v) * 2, [1, 2])))
print(list(map(lambda v: check(v) * 2, [3, -4])))
