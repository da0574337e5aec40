# Built-in exception hierarchy: subclass relationships and catching groups with tuples.
pairs = [
    (ZeroDivisionError, ArithmeticError), (KeyError, LookupError), (IndexError, LookupError),
    (FileNotFoundError, OSError), (IOError, OSError), (StopIteration, Exception),
    (KeyboardInterrupt, Exception), (SystemExit, BaseException), (UnicodeDecodeError, ValueError),
    (NotImplementedError, RuntimeError), (RecursionError, RuntimeError), (ModuleNotFoundError, ImportError),
    (TimeoutError, OSError), (BrokenPipeError, ConnectionError), (bool, int),
]
for sub, base in pairs:
    print(sub.__name__, base.__name__, issubclass(sub, base))

for thunk in [lambda: 1 / 0, lambda: {}["k"], lambda: [][0], lambda: int("z"), lambda: open("/nonexistent/file")]:
    try:
        thunk()
    except (LookupError, ArithmeticError) as e:
        print("lookup/arith", type(e).__name__)
    except (ValueError, OSError) as e:
        print("value/os", type(e).__name__)
try:
    open("/nonexistent/file")
except OSError as e:
    print(e.errno, e.filename, type(e).__name__)
