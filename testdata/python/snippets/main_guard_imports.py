# The __name__ == "__main__" guard, conditional imports with ImportError fallback, module attributes, importlib of stdlib modules.
import importlib
import sys

try:
    import cPickle as pickle
except ImportError:
    import pickle
try:
    from itertools import izip
except ImportError:
    izip = zip
try:
    import module_that_does_not_exist
except ModuleNotFoundError as e:
    print("ModuleNotFoundError", e.name)
print(pickle.__name__, izip is zip, __name__)
json = importlib.import_module("json")
print(json.dumps([1]), importlib.import_module("os.path").join("a", "b"), "json" in sys.modules)
print(type(sys).__name__, hasattr(json, "loads"), json.__name__)


def main():
    print("main called")


if __name__ == "__main__":
    main()
