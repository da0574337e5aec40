# Exception handling inside context managers built with contextlib: re-raising after cleanup, translating exceptions, suppressing selectively.
import contextlib


@contextlib.contextmanager
def translate(src, dst):
    try:
        yield
    except src as e:
        raise dst("translated: %s" % e) from e


@contextlib.contextmanager
def cleanup(name):
    try:
        yield
    finally:
        print("cleanup", name)


try:
    with translate(KeyError, LookupError), cleanup("inner"):
        {}["missing"]
except LookupError as e:
    print(type(e).__name__, e, type(e.__cause__).__name__)
with contextlib.suppress(FileNotFoundError):
    with cleanup("files"):
        open("/nonexistent/path/x")
print("suppressed")


@contextlib.contextmanager
def never_yields():
    if False:
        yield


try:
    with never_yields():
        pass
except RuntimeError as e:
    print("RuntimeError:", e)
