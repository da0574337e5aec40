# Smaller standard-library gaps, each tried on its own: writing gzip (zlib.compressobj's positional arguments), time.strptime
# with a date-only format, pickle errors on corrupt data, array repr and typecodes, unicodedata digit/decimal/
# numeric, shutil.disk_usage, TextIOWrapper.newlines, bin() of an __index__ object, repr(NotImplemented), type(...).__name__,
# inspect.getgeneratorstate, time.localtime's tm_isdst (TZ=UTC), multiprocessing.Pool, the 4300-digit limit of int/str
# conversions (new in 3.11), shutil.unpack_archive of a tar (passes filter= to tarfile),
# struct.pack('<f') of a value too large for float32, ast.dump of a constant, and the modules bz2, lzma, ssl, ctypes, cProfile, tracemalloc, wave and readline.
import array
import gzip
import inspect
import io
import pickle
import shutil
import time
import unicodedata


class Idx:
    def __index__(self):
        return 5


def gen():
    yield 1


def attempt(label, thunk):
    try:
        print(label, thunk())
    except Exception as e:
        print(label, type(e).__name__)


def pool_map():
    import multiprocessing
    with multiprocessing.Pool(2) as p:
        return p.map(abs, [-1, -2, 3])


def gzip_write():
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb") as g:
        g.write(b"data")
    return gzip.decompress(buf.getvalue())


attempt("gzip write", gzip_write)
attempt("strptime", lambda: time.strptime("2019-01-02", "%Y-%m-%d")[:3])
attempt("corrupt pickle", lambda: pickle.loads(b"garbage"))
attempt("truncated pickle", lambda: pickle.loads(b"\x80\x04\x95"))
attempt("array repr", lambda: array.array("f", [1.0, 2.5]))
attempt("typecodes", lambda: sorted(array.typecodes))
attempt("digit", lambda: unicodedata.digit("7"))
attempt("decimal", lambda: unicodedata.decimal("7"))
attempt("numeric", lambda: unicodedata.numeric("½"))
attempt("disk_usage", lambda: type(shutil.disk_usage(".").total).__name__)
attempt("newlines", lambda: open(__file__).newlines)
attempt("bin", lambda: bin(Idx()))
attempt("NotImplemented", lambda: repr(NotImplemented))
attempt("ellipsis type", lambda: type(...).__name__)
attempt("generator state", lambda: inspect.getgeneratorstate(gen()))
attempt("tm_isdst", lambda: time.localtime(0).tm_isdst)
attempt("multiprocessing.Pool", pool_map)
attempt("int digits limit", lambda: len(str(10 ** 5000)))
def unpack_tar():
    import os
    import shutil
    import tempfile
    d = tempfile.mkdtemp()
    open(os.path.join(d, "f.txt"), "w").close()
    archive = shutil.make_archive(os.path.join(d, "a"), "tar", root_dir=d, base_dir="f.txt")
    shutil.unpack_archive(archive, os.path.join(d, "out"))
    found = os.listdir(os.path.join(d, "out"))
    shutil.rmtree(d)
    return found


attempt("unpack tar", unpack_tar)
attempt("float32 overflow", lambda: __import__("struct").pack("<f", 1e39))
for module in ["bz2", "lzma", "ssl", "ctypes", "cProfile", "tracemalloc", "wave", "readline"]:
    attempt("import " + module, lambda: __import__(module).__name__)
attempt("ast.dump", lambda: __import__("ast").dump(__import__("ast").parse("1", mode="eval")))
