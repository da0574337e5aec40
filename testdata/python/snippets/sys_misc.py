# sys details scripts touch: sys.path is a list of str with the script dir first, sys.modules lookups, setrecursionlimit round trip, intern, getsizeof type.
import sys

print(isinstance(sys.path, list), all(isinstance(p, str) for p in sys.path), sys.path[0].endswith("snippets"))
old = sys.getrecursionlimit()
sys.setrecursionlimit(2000)
print(sys.getrecursionlimit())
sys.setrecursionlimit(old)
print(sys.intern("abc") == "abc", type(sys.getsizeof([])).__name__, sys.stdin is not None, callable(sys.exit))
mod = sys.modules[__name__]
mod.ADDED = 1
print(ADDED, sys.argv[0].endswith("sys_misc.py"), type(sys.version).__name__, sys.maxsize == 2 ** 63 - 1)
print(sys.stdout.isatty(), sys.stderr.isatty(), sys.stdin.isatty())
