"""What the host sets up before a script runs: the stdout tap."""
import io
import sys


class _Tap(io.TextIOBase):
    """sys.stdout: writes through (or, for --format json, keeps them) and
    remembers whether the script printed anything."""

    def __init__(self, inner, capture):
        self._inner = inner
        self._capture = capture
        self._kept = []
        self.written = False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError("write() argument must be str, not %s" % type(s).__name__)
        if s:
            self.written = True
        if self._capture:
            self._kept.append(s)
            return len(s)
        return self._inner.write(s)

    def flush(self):
        if not self._capture:
            self._inner.flush()

    def getvalue(self):
        return "".join(self._kept)

    def isatty(self):
        return False if self._capture else self._inner.isatty()

    def fileno(self):
        return self._inner.fileno()

    @property
    def encoding(self):
        return self._inner.encoding

    @property
    def buffer(self):
        return self._inner.buffer


def install_stdout(capture):
    tap = _Tap(sys.stdout, capture)
    sys.stdout = tap
    return tap
