"""numpy.lib: the `.npy` file format (`np.save`, `np.load`) and `.npz`
archives of them (`np.savez`, `np.savez_compressed`), numpy's zip files
of `<name>.npy` entries, which `np.load` opens as an `NpzFile`."""
import ast as _ast
import struct as _struct
from collections.abc import Mapping as _Mapping

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


def _npy(arr):
    a = _np.asanyarray(arr)
    return _header(a) + a.tobytes()


def _save(file, arr):
    data = _npy(arr)
    if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
        import os
        path = os.fspath(file)
        if isinstance(path, str) and not path.endswith(".npy"):
            path = path + ".npy"
        with open(path, "wb") as f:
            f.write(data)
    else:
        file.write(data)


def _savez(file, args, kwds, compress):
    """numpy's `_savez`: positional arrays are `arr_0`, `arr_1`, ...; each
    array is the zip entry `<name>.npy`."""
    import os
    import zipfile
    if not hasattr(file, "write"):
        file = os.fspath(file)
        if not file.endswith(".npz"):
            file = file + ".npz"
    namedict = kwds
    for i, val in enumerate(args):
        key = "arr_%d" % i
        if key in namedict.keys():
            raise ValueError("Cannot use un-named variables and keyword %s" % key)
        namedict[key] = val
    compression = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    zipf = zipfile.ZipFile(file, mode="w", compression=compression, allowZip64=True)
    try:
        for key, val in namedict.items():
            with zipf.open(key + ".npy", "w", force_zip64=True) as fid:
                fid.write(_npy(val))
    finally:
        zipf.close()


class NpzFile(_Mapping):
    """What `np.load` gives for an `.npz`: a mapping from the names in
    `files` to their arrays, each read from the archive when asked for."""
    _MAX_REPR_ARRAY_COUNT = 5
    fid = None
    zip = None

    def __init__(self, fid, own_fid=False):
        import zipfile
        _zip = zipfile.ZipFile(fid)
        _files = _zip.namelist()
        self.files = [name[:-4] if name.endswith(".npy") else name for name in _files]
        self._files = dict(zip(self.files, _files))
        self._files.update(zip(_files, _files))
        self.zip = _zip
        if own_fid:
            self.fid = fid

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def close(self):
        if self.zip is not None:
            self.zip.close()
            self.zip = None
        if self.fid is not None:
            self.fid.close()
            self.fid = None

    def __del__(self):
        self.close()

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __getitem__(self, key):
        try:
            key = self._files[key]
        except KeyError:
            raise KeyError("%s is not a file in the archive" % (key,)) from None
        raw = self.zip.read(key)
        return _from_npy(raw) if raw.startswith(_MAGIC) else raw

    def __contains__(self, key):
        return key in self._files

    def __repr__(self):
        filename = self.fid if isinstance(self.fid, str) else getattr(self.fid, "name", "object")
        array_names = ", ".join(self.files[:self._MAX_REPR_ARRAY_COUNT])
        if len(self.files) > self._MAX_REPR_ARRAY_COUNT:
            array_names += "..."
        return "NpzFile %r with keys: %s" % (filename, array_names)


def _load(file):
    own_fid = isinstance(file, (str, bytes)) or hasattr(file, "__fspath__")
    if own_fid:
        import os
        fid = open(os.fspath(file), "rb")
    else:
        fid = file
    magic = fid.read(len(_MAGIC))
    if not magic:
        if own_fid:
            fid.close()
        raise EOFError("No data left in file")
    fid.seek(-len(magic), 1)
    # numpy's test: a zip's local header, or an empty zip's end record.
    if magic.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return NpzFile(fid, own_fid=own_fid)
    raw = fid.read()
    if own_fid:
        fid.close()
    return _from_npy(raw)


def _from_npy(raw):
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
