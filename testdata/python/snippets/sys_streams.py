# sys.stdout/sys.stderr writes, interleaving with print, flush, redirecting sys.stdout to StringIO and back.
import io
import sys

sys.stdout.write("out 1\n")
print("out 2")
sys.stderr.write("err 1\n")
sys.stderr.flush()
sys.stdout.flush()
saved = sys.stdout
sys.stdout = io.StringIO()
print("captured")
captured = sys.stdout.getvalue()
sys.stdout = saved
print("got", repr(captured))
print(sys.stdout is saved, sys.__stdout__ is not None, hasattr(sys.stdout, "write"))
print("done", file=sys.stderr)
