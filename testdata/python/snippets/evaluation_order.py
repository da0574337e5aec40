# Evaluation order: left-to-right for operands, arguments, dict displays, assignment targets; right side evaluated before targets.
def v(label, value=None):
    print("eval", label)
    return label if value is None else value


print(v("a", 1) + v("b", 2) * v("c", 3))
print(v("f", len)(v("x", [1, 2])), {v("k1"): v("v1"), v("k2"): v("v2")})
x = [0, 0]
i = 0
i, x[i] = 1, 2
print(i, x)
d = {}
d[v("key")] = v("value")
print(d, v(1, 1) < v(2, 2) < v(3, 0))
print(v("cond", True) and v("then") or v("else"))
print([v("e%d" % n) for n in range(2)], v("t", 1) if v("c", 0) else v("f", 2))
