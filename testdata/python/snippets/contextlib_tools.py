# contextlib: contextmanager (exceptions inside), suppress, ExitStack (callbacks, order), redirect_stdout/stderr, closing, nullcontext.
import contextlib
import io
import sys


@contextlib.contextmanager
def managed(name):
    print("open", name)
    try:
        yield name
    except KeyError as e:
        print("handled", e)
    finally:
        print("close", name)


with managed("a") as n:
    print("using", n)
with managed("b"):
    raise KeyError("missing")
print("after")
with contextlib.suppress(ZeroDivisionError, KeyError):
    1 / 0
with contextlib.ExitStack() as stack:
    for i in range(3):
        stack.enter_context(managed("stack%d" % i))
    stack.callback(print, "callback runs first")
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    print("hidden")
    help_text = "x"
print("captured:", repr(buf.getvalue()))
err = io.StringIO()
with contextlib.redirect_stderr(err):
    print("to err", file=sys.stderr)
print(repr(err.getvalue()))


class Resource:
    def close(self):
        print("Resource closed")


with contextlib.closing(Resource()):
    print("in closing")
with contextlib.nullcontext(5) as v:
    print(v)


@managed("decorator")
def decorated():
    print("inside decorated")


decorated()
