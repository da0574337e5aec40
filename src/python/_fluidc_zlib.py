"""zlib.decompressobj on fluidc's inflater (src/zlib.rs) for zlib and raw
deflate streams: RustPython's own loses the output of a stream that
expands past its buffer (zipfile's "Bad CRC-32" on members over ~48 KB).
The boot module installs `decompressobj` as `zlib.decompressobj` when a
script first imports zlib; gzip and automatic headers, and a `zdict`, stay
with RustPython's."""
import zlib as _zlib

import _fluidc_zlib_native as _native

_original = _zlib.decompressobj


class Decompress(object):
    """CPython's `zlib.Decompress`: `decompress`, `flush`, `eof`,
    `unused_data` and `unconsumed_tail`."""

    def __init__(self, wbits):
        self._h = _native.new(wbits)
        self.eof = False
        self.unused_data = b""
        self.unconsumed_tail = b""

    def _inflate(self, data, max_length, finish):
        out, used, ended = _native.decompress(self._h, data, max_length, finish)
        rest = data[used:]
        if ended:
            self.eof = True
            self.unused_data += rest
            self.unconsumed_tail = b""
        else:
            self.unconsumed_tail = rest
        return out

    def decompress(self, data, max_length=0):
        if max_length < 0:
            raise ValueError("max_length must be non-negative")
        data = bytes(data)
        if self.eof:
            self.unused_data += data
            return b""
        return self._inflate(data, max_length, False)

    def flush(self, length=16384):
        if length <= 0:
            raise ValueError("length must be greater than zero")
        if self.eof:
            return b""
        out = self._inflate(self.unconsumed_tail, 0, True)
        self.unconsumed_tail = b""
        return out

    def __del__(self):
        _native.close(self._h)


def decompressobj(wbits=_zlib.MAX_WBITS, zdict=None):
    if zdict is None and (wbits == 0 or 9 <= wbits <= 15 or -15 <= wbits <= -9):
        return Decompress(wbits)
    if zdict is None:
        return _original(wbits)
    return _original(wbits, zdict)


def install(module):
    module.decompressobj = decompressobj
