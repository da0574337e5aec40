# Comprehension scoping: loop variable does not leak, class-scope access rules, nested comprehension closures.
x = "outer"
result = [x for x in range(3)]
print(x, result)


class Table:
    base = 10
    values = [base + 1, base + 2]
    names = [n for n in ["a", "b"]]
    try:
        bad = [base + i for i in range(2)]
    except NameError:
        bad = "NameError"


print(Table.values, Table.names, Table.bad)
funcs = [lambda: y for y in range(3)]
print([f() for f in funcs])
print([[(i, j) for j in range(i)] for i in range(4)])
data = {"a": [1, 2], "b": [3]}
print({k: [v * 10 for v in vs] for k, vs in sorted(data.items())})
