# Late binding of closure variables in loops, and the default-argument fix.
fs = [lambda: i for i in range(3)]
print([f() for f in fs])
gs = [lambda i=i: i for i in range(3)]
print([g() for g in gs])
hs = []
for j in range(3):
    def h():
        return j * 10
    hs.append(h)
j = 7
print([h() for h in hs])


def outer():
    x = "before"

    def show():
        return x

    x = "after"
    return show


print(outer()())
