"""RecordIO files as 1.x's core wrote and read them (C++ `recordio/`,
`framework/lod_tensor.cc`'s WriteToRecordIO / ReadFromRecordIO, the
`core.RecordIOWriter` of its pybind module), so that a file 1.0-1.2 wrote
reads here and a file written here reads in 1.0-1.2.

A file is a sequence of chunks. A chunk is a header of five
little-endian uint32 -- the magic 0x01020304, its number of records, the
zlib CRC-32 of its body, the compressor (0 none, 1 Snappy; 1.x threw "Not
implemented" for 2, gzip) and the body's size -- then the body: each
record as a uint32 length and its bytes, compressed as a whole. A record
is one `complete_append_tensor()`: a uint32 count and that many LoDTensors
as SerializeToStream wrote them (what `save_vars` writes per variable).

A Snappy body is the stream snappystream 0.2.8 (1.x's dependency) wrote:
the 7 bytes "snappy\\0", then blocks of at most 32768 input bytes, each a
flag byte (1 compressed, 0 stored), the block's length as a big-endian
uint16, the masked CRC-32C of its input as a big-endian uint32, and the
block. fluidc has no Snappy compressor: it writes every block stored,
which is what snappystream itself wrote when compressing saved less than
an eighth, so 1.x reads these files; it reads compressed blocks too
(Snappy's raw format, decoded here), so it reads the files 1.x wrote.
"""
import struct
import zlib

import numpy as np

import _fluidc

from .core import _VarTypeValue

EnforceNotMet = _fluidc.EnforceNotMet

_MAGIC = 0x01020304
_HEADER = struct.Struct("<5I")
_U32 = struct.Struct("<I")
_U64 = struct.Struct("<Q")
_NO_COMPRESS, _SNAPPY, _GZIP = 0, 1, 2

_SNAPPY_MAGIC = b"snappy\x00"
_SNAPPY_BLOCK = 1 << 15  # snappystream's Config::defaultChunkSize
_SNAPPY_BLOCK_HEADER = struct.Struct(">BHI")


# ---------------------------------------------------------------- core.RecordIOWriter


class _CompressorValue(_VarTypeValue):
    """A value of pybind11's enum `RecordIOWriter.Compressor`."""
    __slots__ = ()

    def __repr__(self):
        return "Compressor." + self.name

    __str__ = __repr__


class Compressor(object):
    """`core.RecordIOWriter.Compressor` (1.x bound these two)."""
    Snappy = _CompressorValue("Snappy", _SNAPPY)
    NoCompress = _CompressorValue("NoCompress", _NO_COMPRESS)


class RecordIOWriter(object):
    """1.x's `core.RecordIOWriter(filename, compressor, max_num_records)`:
    `append_tensor` the LoDTensors of a record, `complete_append_tensor`
    ends the record; a chunk is written every `max_num_records` records,
    and by `close()`."""

    Compressor = Compressor

    def __init__(self, filename, compressor, max_num_record):
        if not isinstance(compressor, _CompressorValue):
            raise TypeError(
                "__init__(): incompatible constructor arguments. The following argument "
                "types are supported:\n    1. (self: paddle.fluid.core.RecordIOWriter, arg0: "
                "str, arg1: paddle.fluid.core.RecordIOWriter.Compressor, arg2: int) -> None"
                "\n\nInvoked with: %r, %r, %r" % (filename, compressor, max_num_record))
        self._compressor = compressor.value
        self._max = int(max_num_record)
        self._file = open(filename, "wb")
        self._tensors = []
        self._records = []

    def append_tensor(self, tensor):
        self._tensors.append(serialize_lod_tensor(tensor))

    def complete_append_tensor(self):
        self._records.append(_U32.pack(len(self._tensors)) + b"".join(self._tensors))
        self._tensors = []
        if len(self._records) >= self._max:
            self._flush()

    def _flush(self):
        if self._records:
            self._file.write(chunk_bytes(self._records, self._compressor))
            self._records = []

    def close(self):
        if self._tensors:
            raise EnforceNotMet("Enforce failed: tensors_.empty(): append_tensor was called "
                                "after the last complete_append_tensor")
        self._flush()
        self._file.close()


# ---------------------------------------------------------------- chunks


def chunk_bytes(records, compressor):
    """A chunk of `records` (bytes each), its header first."""
    body = b"".join(_U32.pack(len(r)) + r for r in records)
    if compressor == _SNAPPY:
        body = _snappy_stream(body)
    elif compressor != _NO_COMPRESS:
        raise EnforceNotMet("Not implemented")
    return _HEADER.pack(_MAGIC, len(records), zlib.crc32(body) & 0xFFFFFFFF, compressor,
                        len(body)) + body


def read_records(path):
    """The records of the RecordIO file `path`, in order (bytes each)."""
    with open(path, "rb") as f:
        while True:
            head = f.read(_HEADER.size)
            if len(head) < 4:
                return
            magic = _U32.unpack_from(head)[0]
            if magic != _MAGIC:
                raise EnforceNotMet("Enforce failed. Expected magic == kMagicNumber, but "
                                    "received magic:%d != kMagicNumber:%d. (%s is not a "
                                    "RecordIO file)" % (magic, _MAGIC, path))
            if len(head) < _HEADER.size:
                raise EnforceNotMet("%s: a chunk header is cut short" % path)
            _, num, checksum, compressor, size = _HEADER.unpack(head)
            body = f.read(size)
            if len(body) != size or zlib.crc32(body) & 0xFFFFFFFF != checksum:
                raise EnforceNotMet("Enforce failed. Expected header_.Checksum() == crc, "
                                    "but received %d != %d. (%s: a chunk is damaged)"
                                    % (checksum, zlib.crc32(body) & 0xFFFFFFFF, path))
            if compressor == _SNAPPY:
                body = _snappy_unstream(body)
            elif compressor != _NO_COMPRESS:
                raise EnforceNotMet("Not implemented")
            pos = 0
            for _ in range(num):
                if pos + 4 > len(body):
                    raise EnforceNotMet("%s: a record is cut short" % path)
                n = _U32.unpack_from(body, pos)[0]
                pos += 4
                if pos + n > len(body):
                    raise EnforceNotMet("Enforce failed. Expected rec_len == stream.gcount(), "
                                        "but received %d != %d." % (n, len(body) - pos))
                yield body[pos:pos + n]
                pos += n


# ---------------------------------------------------------------- snappystream


def _snappy_stream(data):
    """`data` as snappystream 0.2.8's oSnappyStream wrote it, every block
    stored."""
    out = [_SNAPPY_MAGIC]
    for start in range(0, len(data), _SNAPPY_BLOCK):
        block = data[start:start + _SNAPPY_BLOCK]
        out.append(_SNAPPY_BLOCK_HEADER.pack(0, len(block), _masked_crc32c(block)))
        out.append(block)
    return b"".join(out)


def _snappy_unstream(data):
    """What snappystream 0.2.8's iSnappyStream read from `data` (which,
    like it, does not check the blocks' CRC-32C)."""
    if data[:7] != _SNAPPY_MAGIC:
        raise EnforceNotMet("iSnappyStreambuf - bad magic number")
    out = []
    pos = 7
    while pos + 7 <= len(data):
        if data[pos:pos + 7] == _SNAPPY_MAGIC:  # a stream appended to another
            pos += 7
            continue
        flag, length, _ = _SNAPPY_BLOCK_HEADER.unpack_from(data, pos)
        pos += 7
        if length == 0 or length > _SNAPPY_BLOCK or pos + length > len(data):
            break
        block = data[pos:pos + length]
        pos += length
        out.append(_snappy_uncompress(block) if flag else block)
    return b"".join(out)


def _varint(data, pos):
    result = shift = 0
    while True:
        if pos >= len(data):
            raise EnforceNotMet("a varint is cut short")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _snappy_uncompress(block):
    """Snappy's raw format: the uncompressed length as a varint, then
    literals and back-references (copies) of 1, 2 or 4 offset bytes."""
    length, pos = _varint(block, 0)
    out = bytearray()
    n = len(block)
    while pos < n:
        tag = block[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:
            size = tag >> 2
            if size >= 60:
                extra = size - 59
                size = int.from_bytes(block[pos:pos + extra], "little")
                pos += extra
            size += 1
            out += block[pos:pos + size]
            pos += size
            continue
        if kind == 1:
            size = ((tag >> 2) & 7) + 4
            offset = ((tag >> 5) << 8) | block[pos]
            pos += 1
        else:
            width = 2 if kind == 2 else 4
            size = (tag >> 2) + 1
            offset = int.from_bytes(block[pos:pos + width], "little")
            pos += width
        if offset == 0 or offset > len(out):
            raise EnforceNotMet("snappy: a copy reaches before the start of the block")
        start = len(out) - offset
        if offset >= size:
            out += out[start:start + size]
        else:  # the copy overlaps what it writes: its bytes repeat
            piece = bytes(out[start:])
            out += (piece * (size // offset + 1))[:size]
    if len(out) != length:
        raise EnforceNotMet("snappy: the block gives %d bytes, its header says %d"
                            % (len(out), length))
    return bytes(out)


def _crc32c_table():
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def _masked_crc32c(data):
    """CRC-32C masked as the Snappy framing format (and snappystream) do."""
    crc = 0xFFFFFFFF
    table = _CRC32C
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


# ---------------------------------------------------------------- LoDTensors

# VarType numbers of the dtypes fluidc's numpy has.
_DTYPE_CODES = {"bool": 0, "int32": 2, "int64": 3, "float32": 5, "float64": 6, "uint8": 20,
                "int8": 21}
_CODE_DTYPES = dict((v, k) for k, v in _DTYPE_CODES.items())
_CODE_NAMES = {1: "int16", 4: "float16", 19: "size_t"}


def _encode_varint(value):
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def serialize_lod_tensor(tensor):
    """1.x's SerializeToStream: uint32 version 0, the LoD (uint64 levels,
    each a uint64 byte size and its size_t offsets), then TensorToStream:
    uint32 version 0, the int32 size of a TensorDesc proto (data_type,
    dims), the data."""
    from .lod_tensor_core import LoDTensor
    if not isinstance(tensor, LoDTensor):
        raise TypeError("append_tensor(): incompatible function arguments. The following "
                        "argument types are supported:\n    1. (self: paddle.fluid.core."
                        "RecordIOWriter, arg0: paddle.fluid.core.LoDTensor) -> None\n\n"
                        "Invoked with: %r" % (tensor,))
    array, lod = tensor._read()
    if array is None:
        raise EnforceNotMet("Tensor holds no memory. Call Tensor::mutable_data first.")
    array = np.asarray(array)
    code = _DTYPE_CODES[array.dtype.name]
    out = [_U32.pack(0), _U64.pack(len(lod))]
    for level in lod:
        out.append(_U64.pack(8 * len(level)))
        out.append(struct.pack("<%dQ" % len(level), *level))
    desc = b"\x08" + _encode_varint(code) + b"".join(
        b"\x10" + _encode_varint(d) for d in array.shape)
    out += [_U32.pack(0), struct.pack("<i", len(desc)), desc, array.tobytes()]
    return b"".join(out)


def _tensor_desc(desc):
    """(data_type, dims) of a TensorDesc proto's bytes."""
    code, dims, pos = None, [], 0
    while pos < len(desc):
        key, pos = _varint(desc, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(desc, pos)
            if field == 1:
                code = value
            elif field == 2:
                dims.append(value - (1 << 64) if value >> 63 else value)
        elif wire == 2:
            size, pos = _varint(desc, pos)
            end = pos + size
            if field == 2:  # packed dims
                while pos < end:
                    value, pos = _varint(desc, pos)
                    dims.append(value - (1 << 64) if value >> 63 else value)
            pos = end
        else:
            raise EnforceNotMet("a TensorDesc with a field of wire type %d" % wire)
    return code, dims


def deserialize_lod_tensors(record):
    """The tensors of one record: [(array, lod)] (1.x's ReadFromRecordIO)."""
    try:
        count = _U32.unpack_from(record, 0)[0]
        pos = 4
        out = []
        for _ in range(count):
            version = _U32.unpack_from(record, pos)[0]
            pos += 4
            if version != 0:
                raise EnforceNotMet("tensor version %u is not supported." % version)
            levels = _U64.unpack_from(record, pos)[0]
            pos += 8
            lod = []
            for _ in range(levels):
                size = _U64.unpack_from(record, pos)[0]
                pos += 8
                lod.append(list(struct.unpack_from("<%dQ" % (size // 8), record, pos)))
                pos += size
            version = _U32.unpack_from(record, pos)[0]
            pos += 4
            if version != 0:
                raise EnforceNotMet("tensor version %u is not supported." % version)
            desc_size = struct.unpack_from("<i", record, pos)[0]
            pos += 4
            code, dims = _tensor_desc(record[pos:pos + desc_size])
            pos += desc_size
            if code not in _CODE_DTYPES:
                raise EnforceNotMet("a RecordIO tensor of type %s, which fluidc's numpy does "
                                    "not have" % _CODE_NAMES.get(code, code))
            dtype = np.dtype(_CODE_DTYPES[code])
            numel = 1
            for d in dims:
                numel *= d
            nbytes = numel * dtype.itemsize
            if numel < 0 or pos + nbytes > len(record):
                raise EnforceNotMet("a RecordIO tensor's data is cut short")
            array = np.frombuffer(record[pos:pos + nbytes], dtype=dtype).reshape(dims)
            pos += nbytes
            out.append((array, lod))
        return out
    except struct.error:
        raise EnforceNotMet("a RecordIO record is cut short")
