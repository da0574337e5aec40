# Capturing output of functions with redirect_stdout into StringIO, nesting redirections, and restoring sys.stdout afterwards.
import contextlib
import io
import sys


def noisy(n):
    for i in range(n):
        print("line", i)
    return n


outer = io.StringIO()
inner = io.StringIO()
with contextlib.redirect_stdout(outer):
    noisy(1)
    with contextlib.redirect_stdout(inner):
        noisy(2)
    print("back in outer")
print(repr(outer.getvalue()))
print(repr(inner.getvalue()))
print(sys.stdout is sys.__stdout__ or hasattr(sys.stdout, "write"))
