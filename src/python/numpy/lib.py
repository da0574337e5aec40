"""numpy.lib: the `.npy` file format (`np.save`, `np.load`)."""
import ast as _ast
import struct as _struct

import numpy as _np

_MAGIC = b"\x93NUMPY"


def _header(a):
    d = {"descr": a.dtype.str, "fortran_order": False, "shape": tuple(a.shape)}
    text = "{'descr': %r, 'fortran_order': False, 'shape': %r, }" % (d["descr"], d["shape"])
    # numpy pads the header with spaces so the data starts at a multiple of
    # 64 bytes, and ends it with a newline.
    total = len(_MAGIC) + 2 + 2 + len(text) + 1
    text += " " * ((64 - total % 64) % 64) + "\n"
    return _MAGIC + b"\x01\x00" + _struct.pack("<H", len(text)) + text.encode("latin1")


def _save(file, arr):
    a = _np.asanyarray(arr)
    data = _header(a) + a.tobytes()
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        path = file if hasattr(file, "__fspath__") else file
        import os
        path = os.fspath(path)
        if isinstance(path, str) and not path.endswith(".npy"):
            path = path + ".npy"
        with open(path, "wb") as f:
            f.write(data)
    else:
        file.write(data)


def _load(file):
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        import os
        with open(os.fspath(file), "rb") as f:
            raw = f.read()
    else:
        raw = file.read()
    if not raw.startswith(_MAGIC):
        raise ValueError("fluidc's numpy.load reads .npy files only")
    major = raw[6]
    if major == 1:
        (hlen,) = _struct.unpack("<H", raw[8:10])
        start = 10
    else:
        (hlen,) = _struct.unpack("<I", raw[8:12])
        start = 12
    header = _ast.literal_eval(raw[start:start + hlen].decode("latin1"))
    descr = header["descr"]
    if header.get("fortran_order"):
        raise ValueError("fluidc's numpy.load reads C-order arrays only")
    if descr.startswith(">") and descr[1:] not in ("i1", "u1", "b1"):
        raise ValueError("fluidc's numpy.load reads little-endian arrays only")
    dt = _np.dtype(descr.lstrip("<|="))
    shape = tuple(header["shape"])
    a = _np.frombuffer(raw[start + hlen:], dt)
    return a.reshape(shape)
