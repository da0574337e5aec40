# print(): sep, end, file=sys.stderr/stdout, flush, printing multiple types, empty print, print to a StringIO.
import io
import sys

print("a", "b", "c")
print("a", "b", sep="")
print("a", "b", sep=", ", end="!\n")
print()
print(1, 2.5, None, True, [1, "x"], (1,), {"k": 1}, {1}, b"b", 3j)
print("no newline", end="")
print(" continued")
print("to stderr", file=sys.stderr)
print("flushed", flush=True)
buf = io.StringIO()
print("into", "buffer", file=buf, sep="_")
print(repr(buf.getvalue()))
print(*range(5))
print(*[], sep="x")
print("multi\nline")
sys.stdout.write("written directly\n")
n = sys.stdout.write("abc\n")
print(n)
print("tab\tsep", "unicode: é ü 日本")
print(None, sep=None, end=None)
