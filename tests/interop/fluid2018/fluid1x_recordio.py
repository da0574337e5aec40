"""The fluid2018 shim's RecordIO path of Paddle 1.0-1.2 over Paddle 3.3.1,
which has none (no core.RecordIOWriter, no open_files /
create_recordio_file_reader / create_batch_reader ops):

- `core.RecordIOWriter` and `fluid.recordio_writer` write 1.x's file
  format: chunks of a header (five little-endian uint32: magic 0x01020304,
  number of records, zlib CRC-32 of the body, compressor 0 none / 1
  Snappy, body size) and a body of uint32-length-prefixed records, each
  record a uint32 tensor count and the tensors as SerializeToStream wrote
  them -- here 3.3.1's own `core.save_dense_tensor_to_memory`, the same
  bytes. A Snappy body is snappystream 0.2.8's stream ("snappy\\0", then
  blocks of at most 32768 bytes: flag, big-endian uint16 length,
  big-endian masked CRC-32C, data); with no Snappy compressor at hand the
  blocks are written stored (flag 0), as snappystream did for blocks that
  did not compress; compressed blocks are decoded when read.
- `layers.open_files`, `layers.open_recordio_file` (also `layers.io.`)
  and `layers.random_data_generator` are 1.x py_readers (the shim's)
  whose Python thread pushes the files' records (or random batches);
  `layers.batch` over such a reader joins records on that thread, as 1.x's
  create_batch_reader joined them; `pass_num` reads the files that many
  times. The thread starts when `Executor.run` runs a program holding the
  reader (1.x's reader started when the startup program ran), and again
  after `reset()`.
"""

import atexit
import os
import struct
import sys
import types
import zlib

import numpy

from paddle.base import core

_MAGIC = 0x01020304
_NO_COMPRESS, _SNAPPY = 0, 1
_SNAPPY_MAGIC = b"snappy\x00"
_BLOCK = 32768


class _Compressor(int):
    def __repr__(self):
        return "Compressor." + self._name

    __str__ = __repr__


def _compressor(name, value):
    c = _Compressor(value)
    c._name = name
    return c


class Compressor:
    Snappy = _compressor("Snappy", _SNAPPY)
    NoCompress = _compressor("NoCompress", _NO_COMPRESS)


# ---------------------------------------------------------------- checksums


def _crc32c_table():
    table = []
    for n in range(256):
        for _ in range(8):
            n = (n >> 1) ^ 0x82F63B78 if n & 1 else n >> 1
        table.append(n)
    return table


_TABLE = _crc32c_table()


def _masked_crc32c(data):
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    crc ^= 0xFFFFFFFF
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


# ---------------------------------------------------------------- writing


class RecordIOWriter:
    """1.x's core.RecordIOWriter(filename, compressor, max_num_records)."""

    Compressor = Compressor

    def __init__(self, filename, compressor, max_num_record):
        if not isinstance(compressor, _Compressor):
            raise TypeError("RecordIOWriter: compressor must be a RecordIOWriter.Compressor")
        self.compressor = int(compressor)
        self.max_num_record = int(max_num_record)
        self.stream = open(filename, "wb")
        self.tensors = []
        self.records = []

    def append_tensor(self, tensor):
        self.tensors.append(bytes(core.save_dense_tensor_to_memory(tensor)))

    def complete_append_tensor(self):
        self.records.append(struct.pack("<I", len(self.tensors)) + b"".join(self.tensors))
        self.tensors = []
        if len(self.records) >= self.max_num_record:
            self.flush()

    def flush(self):
        if not self.records:
            return
        body = b"".join(struct.pack("<I", len(r)) + r for r in self.records)
        if self.compressor == _SNAPPY:
            blocks = [_SNAPPY_MAGIC]
            for i in range(0, len(body), _BLOCK):
                block = body[i:i + _BLOCK]
                blocks.append(struct.pack(">BHI", 0, len(block), _masked_crc32c(block)) + block)
            body = b"".join(blocks)
        self.stream.write(struct.pack("<5I", _MAGIC, len(self.records),
                                      zlib.crc32(body) & 0xFFFFFFFF, self.compressor, len(body)))
        self.stream.write(body)
        self.records = []

    def close(self):
        assert not self.tensors
        self.flush()
        self.stream.close()


def _writer_module():
    import contextlib

    @contextlib.contextmanager
    def create_recordio_writer(filename, compressor=Compressor.Snappy, max_num_records=1000):
        writer = RecordIOWriter(filename, compressor, max_num_records)
        yield writer
        writer.close()

    def write_batches(filename, batches, feeder, feed_order, compressor, max_num_records):
        order = feeder.feed_names if feed_order is None else feed_order
        written = 0
        with create_recordio_writer(filename, compressor, max_num_records) as writer:
            for batch in batches:
                converted = feeder.feed(batch)
                for name in order:
                    writer.append_tensor(converted[name])
                writer.complete_append_tensor()
                written += 1
        return written

    def convert_reader_to_recordio_file(filename, reader_creator, feeder,
                                        compressor=Compressor.Snappy, max_num_records=1000,
                                        feed_order=None):
        return write_batches(filename, reader_creator(), feeder, feed_order, compressor,
                             max_num_records)

    def convert_reader_to_recordio_files(filename, batch_per_file, reader_creator, feeder,
                                         compressor=Compressor.Snappy, max_num_records=1000,
                                         feed_order=None):
        # 1.x: a file at each batch index k * batch_per_file (k >= 1) with
        # the batches since the previous one; the rest is dropped.
        base, ext = os.path.splitext(filename)
        assert ext == ".recordio"
        held, total, files = [], 0, 0
        for index, batch in enumerate(reader_creator()):
            held.append(batch)
            if index >= batch_per_file and index % batch_per_file == 0:
                name = "%s-%05d%s" % (base, files, ext)
                total += write_batches(name, held, feeder, feed_order, compressor,
                                       max_num_records)
                held = []
                files += 1
        return total

    module = types.ModuleType("paddle.fluid.recordio_writer")
    module.create_recordio_writer = create_recordio_writer
    module.convert_reader_to_recordio_file = convert_reader_to_recordio_file
    module.convert_reader_to_recordio_files = convert_reader_to_recordio_files
    sys.modules[module.__name__] = module
    return module


# ---------------------------------------------------------------- reading


def _read_varint(data, pos):
    value, shift = 0, 0
    while True:
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, pos


def _snappy_raw(block):
    size, pos = _read_varint(block, 0)
    out = bytearray()
    while pos < len(block):
        tag = block[pos]
        pos += 1
        if tag & 3 == 0:
            n = tag >> 2
            if n >= 60:
                k = n - 59
                n = int.from_bytes(block[pos:pos + k], "little")
                pos += k
            out += block[pos:pos + n + 1]
            pos += n + 1
            continue
        if tag & 3 == 1:
            n = ((tag >> 2) & 7) + 4
            off = ((tag >> 5) << 8) | block[pos]
            pos += 1
        elif tag & 3 == 2:
            n = (tag >> 2) + 1
            off = int.from_bytes(block[pos:pos + 2], "little")
            pos += 2
        else:
            n = (tag >> 2) + 1
            off = int.from_bytes(block[pos:pos + 4], "little")
            pos += 4
        for _ in range(n):
            out.append(out[-off])
    assert len(out) == size
    return bytes(out)


def _unsnappy(body):
    assert body[:7] == _SNAPPY_MAGIC, "iSnappyStreambuf - bad magic number"
    out, pos = [], 7
    while pos + 7 <= len(body):
        if body[pos:pos + 7] == _SNAPPY_MAGIC:
            pos += 7
            continue
        flag, length, _ = struct.unpack_from(">BHI", body, pos)
        pos += 7
        block = body[pos:pos + length]
        pos += length
        out.append(_snappy_raw(block) if flag else block)
    return b"".join(out)


def _records(filename):
    with open(filename, "rb") as stream:
        data = stream.read()
    pos = 0
    while pos + 20 <= len(data):
        magic, num, crc, compressor, size = struct.unpack_from("<5I", data, pos)
        assert magic == _MAGIC, "not a RecordIO file: %s" % filename
        body = data[pos + 20:pos + 20 + size]
        assert zlib.crc32(body) & 0xFFFFFFFF == crc, "bad chunk checksum in %s" % filename
        pos += 20 + size
        if compressor == _SNAPPY:
            body = _unsnappy(body)
        at = 0
        for _ in range(num):
            (length,) = struct.unpack_from("<I", body, at)
            yield body[at + 4:at + 4 + length]
            at += 4 + length


_ITEMSIZE = {0: 1, 1: 2, 2: 4, 3: 8, 4: 2, 5: 4, 6: 8, 20: 1, 21: 1}


def _tensor_size(record, pos):
    """The byte length of the serialized LoDTensor at `pos`."""
    start = pos
    pos += 4
    (levels,) = struct.unpack_from("<Q", record, pos)
    pos += 8
    for _ in range(levels):
        (size,) = struct.unpack_from("<Q", record, pos)
        pos += 8 + size
    pos += 4
    (desc_size,) = struct.unpack_from("<i", record, pos)
    pos += 4
    desc = record[pos:pos + desc_size]
    pos += desc_size
    dtype, numel, at = None, 1, 0
    while at < len(desc):
        key, at = _read_varint(desc, at)
        value, at = _read_varint(desc, at)
        if key == 0x08:
            dtype = value
        elif key == 0x10:
            numel *= value
    return pos + numel * _ITEMSIZE[dtype] - start


def _record_arrays(record):
    """[(array, lod)] of one record, each tensor loaded by 3.3.1's
    DeserializeFromStream."""
    (count,) = struct.unpack_from("<I", record, 0)
    pos, out = 4, []
    for _ in range(count):
        size = _tensor_size(record, pos)
        tensor = core.DenseTensor()
        core.load_dense_tensor_from_memory(tensor, record[pos:pos + size])
        out.append((numpy.array(tensor), [list(level) for level in tensor.lod()]))
        pos += size
    return out


def _join(items):
    """create_batch_reader: the records' tensors joined along dim 0, their
    LoDs joined."""
    joined = []
    for slot in range(len(items[0])):
        arrays = [item[slot][0] for item in items]
        lod = [list(level) for level in items[0][slot][1]]
        for item in items[1:]:
            for level, more in zip(lod, item[slot][1]):
                end = level[-1]
                level.extend(end + o for o in more[1:])
        joined.append((numpy.concatenate(arrays, axis=0), lod))
    return joined


class _Source:
    """The data a file (or random) reader's thread pushes."""

    def __init__(self, reader, batches):
        self.reader = reader
        self.batches = batches  # () -> iterator of [(array, lod)]
        self.batch_sizes = []
        self.started = False

    def provide(self):
        items = self.batches()
        for size in self.batch_sizes:
            items = _grouped(items, size)
        for item in items:
            tensors = []
            for array, lod in item:
                t = core.DenseTensor()
                t.set(array, core.CPUPlace())
                if lod:
                    t.set_lod(lod)
                tensors.append(t)
            yield tensors

    def start(self):
        self.started = True
        self.reader.start()
        _RUNNING.append(self)

    def stop(self):
        """Ends the thread (at exit: a thread blocked on a full queue, as
        random_data_generator's always is, aborts the process)."""
        self.reader.exited = True
        self.reader.queue.close()
        if self.reader.thread is not None:
            self.reader.thread.join()


def _grouped(items, size):
    group = []
    for item in items:
        group.append(item)
        if len(group) == size:
            yield _join(group)
            group = []
    if group:
        yield _join(group)


_PENDING = []  # sources whose thread starts when a program with their reader runs
_RUNNING = []


@atexit.register
def _stop_all():
    while _RUNNING:
        _RUNNING.pop().stop()


def install(fluid, layers, executor_class, py_reader, run):
    """`py_reader` is the shim's 1.x py_reader; `run`: run mode (threads
    start only when programs run)."""
    core.RecordIOWriter = RecordIOWriter
    fluid.core.RecordIOWriter = RecordIOWriter
    fluid.recordio_writer = _writer_module()

    def file_reader(batches, shapes, dtypes, lod_levels):
        reader = py_reader(capacity=64, shapes=[list(s) for s in shapes], dtypes=dtypes,
                           lod_levels=list(lod_levels), use_double_buffer=False)
        source = _Source(reader, batches)
        reader.decorate_tensor_provider(source.provide)
        return _with_source(reader, source)

    def open_files(filenames, shapes, lod_levels, dtypes, thread_num=None, buffer_size=None,
                   pass_num=1, is_test=None):
        if isinstance(filenames, str):
            filenames = [filenames]
        files = list(filenames)

        def batches():
            for _ in range(max(int(pass_num), 1)):
                for name in files:
                    for record in _records(name):
                        yield _record_arrays(record)

        return file_reader(batches, shapes, dtypes, lod_levels)

    def open_recordio_file(filename, shapes, lod_levels, dtypes, pass_num=1, for_parallel=True):
        return open_files([filename], shapes, lod_levels, dtypes, pass_num=pass_num)

    def random_data_generator(low, high, shapes, lod_levels, for_parallel=True):
        def batches():
            while True:
                yield [(numpy.random.uniform(low, high, s).astype("float32"), [])
                       for s in shapes]

        return file_reader(batches, shapes, ["float32"] * len(shapes), lod_levels)

    plain_double_buffer = layers.double_buffer

    def double_buffer(reader, place=None, name=None):
        out = plain_double_buffer(reader, place=place, name=name)
        source = getattr(reader, "_file_source", None)
        return out if source is None else _with_source(out, source)

    def batch(reader, batch_size):
        source = getattr(reader, "_file_source", None)
        if source is None:
            raise NotImplementedError("fluid.layers.batch: the fluid2018 shim batches only "
                                      "open_files / open_recordio_file readers")
        source.batch_sizes.append(int(batch_size))
        return reader

    names = dict(open_files=open_files, open_recordio_file=open_recordio_file,
                 random_data_generator=random_data_generator, double_buffer=double_buffer,
                 batch=batch)
    for target in (layers, sys.modules.get("paddle.fluid.layers.io"), getattr(layers, "io", None)):
        if target is not None:
            for key, value in names.items():
                setattr(target, key, value)

    plain_run = executor_class.run

    def executor_run(self, program=None, *args, **kwargs):
        if run:
            target = fluid.default_main_program() if program is None else program
            block = getattr(target, "_program", target).global_block()
            for source in [s for s in _PENDING if block.has_var(s.reader.name)]:
                _PENDING.remove(source)
                source.start()
        return plain_run(self, program, *args, **kwargs)

    executor_class.run = executor_run


def _with_source(reader, source):
    """`reader` (the file reader or a double buffer over it) as 1.x's: its
    reset() also restarts the thread for the next pass."""
    plain_reset = reader.reset

    def reset():
        plain_reset()
        thread = source.reader.thread
        if thread is not None:
            thread.join()
        source.started = False
        if source not in _PENDING:
            _PENDING.append(source)

    reader.reset = reset
    reader._file_source = source
    if source not in _PENDING and not source.started:
        _PENDING.append(source)
    return reader
