# Assignment expressions (walrus): in while loops, comprehensions, if conditions, scoping to the enclosing function.
import io

buf = io.StringIO("line1\nline2\nline3\n")
while (line := buf.readline()):
    print(line.strip())
data = [3, 8, 1, 9, 4]
if (n := len(data)) > 3:
    print("long list", n)
print([y for x in data if (y := x * 2) > 6], y)
total = 0
print([total := total + x for x in data], total)


def first_big(values):
    if any((hit := v) > 5 for v in values):
        return hit
    return None


print(first_big(data), first_big([1, 2]))
print((z := 10), z + 1)
