# Generators: return inside generators, finally when exhausted or closed explicitly, while/else inside generators.
def numbers():
    try:
        yield 1
        yield 2
        return
        yield 3
    finally:
        print("numbers finally")


print(list(numbers()))
g = numbers()
for n in g:
    print("first", n)
    break
g.close()
print("after close")


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    else:
        print("loop else")


print(list(countdown(3)))
g = countdown(2)
print(next(g), next(g), next(g, "exhausted"))
