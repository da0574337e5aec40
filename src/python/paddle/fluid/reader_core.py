"""Readers as 1.x's core had them (C++ `operators/reader/`, the
`LoDTensorBlockingQueue` and `EOFException` of its pybind module).

A 1.x program that reads its data itself holds reader variables (type
READER) and the ops that make and read them: `create_py_reader` in the
startup program, `create_double_buffer_reader` / `create_batch_reader` /
`create_shuffle_reader` and `read` in the main program. The readers live
here, by variable name (1.x kept them in the scope under that name): a
py_reader pops the batches a Python thread pushed into its queue, a
RecordIO file reader (`open_files`, `create_recordio_file_reader`) gives
the records of its files, a decorated reader reads its underlying
reader. fluidc's runtime has no reader ops, so `Executor.run` runs the
program without them
(`runnable`): each `read` op's outputs are fed the next batch of its
reader (`read_next`), and a reader with no more data raises
`EOFException`, as 1.x's read op did.
"""
import collections
import random
import threading

import numpy as np

import _fluidc

EnforceNotMet = _fluidc.EnforceNotMet


class EOFException(Exception):
    """1.x's `core.EOFException`: `Executor.run` raises it when a `read`
    op's reader has no more data (the end of a pass)."""


# 1.x's PADDLE_THROW_EOF() message.
_EOF_MESSAGE = "There is no next data."


class LoDTensorBlockingQueue(object):
    """1.x's `core.LoDTensorBlockingQueue`: at most `capacity` batches
    (lists of tensors) between the thread that pushes them and the read op
    that pops them. `push` waits while the queue is full and returns False
    once it is closed; a closed queue still gives what it holds, then
    nothing."""

    def __init__(self, capacity):
        capacity = int(capacity)
        if capacity <= 0:
            raise ValueError("The capacity must be greater than 0.")
        self._capacity = capacity
        self._items = collections.deque()
        self._closed = False
        self._cond = threading.Condition()

    def push(self, lod_tensor_vec):
        batch = [_tensor_of(t) for t in lod_tensor_vec]
        with self._cond:
            while len(self._items) >= self._capacity and not self._closed:
                self._cond.wait()
            if self._closed:
                return False
            self._items.append(batch)
            self._cond.notify_all()
            return True

    def _pop(self):
        """The next batch, waiting for one; None once closed and empty."""
        with self._cond:
            while not self._items and not self._closed:
                self._cond.wait()
            if not self._items:
                return None
            batch = self._items.popleft()
            self._cond.notify_all()
            return batch

    def _empty_and_open(self):
        with self._cond:
            return not self._items and not self._closed

    def close(self):
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _reopen(self):
        """1.x's ReOpen: open again, and empty."""
        with self._cond:
            self._closed = False
            self._items.clear()
            self._cond.notify_all()

    def is_closed(self):
        return self._closed

    def size(self):
        return len(self._items)

    def capacity(self):
        return self._capacity


def init_lod_tensor_blocking_queue(var, capacity, *args):
    """1.x's `core.init_lod_tensor_blocking_queue(var, capacity)`: a new
    queue (1.x also put it in the scope variable `var`; fluidc's readers
    find it through their reader variable)."""
    return LoDTensorBlockingQueue(capacity)


def _tensor_of(item):
    """(array, lod) of a pushed LoDTensor or array."""
    from .lod_tensor_core import LoDTensor
    if isinstance(item, LoDTensor):
        array = np.array(item)
        return array, item.lod()
    array = np.asarray(item)
    if array.dtype == np.object_:
        raise TypeError(
            "Failed to convert input data to a regular ndarray: usually this means the "
            "input data contains nested lists with different lengths; use "
            "fluid.create_lod_tensor for sequences")
    return array, []


# ---------------------------------------------------------------- readers


class _PyReader(object):
    """`create_py_reader`: reads the batches of its queue. `feeder` is the
    Python side that pushes them (start/reset, the decorated generator)."""

    def __init__(self, queue, feeder=None):
        self.queue = queue
        self.feeder = feeder

    def read_next(self):
        feeder = self.feeder
        if (feeder is not None and feeder.provider is not None and not feeder.running()
                and self.queue._empty_and_open() and threading.active_count() == 1):
            # Decorated but not started, and no thread of the script's left
            # to push into the queue itself: 1.x's read op waited here for
            # ever. (With one, the read waits for its push, as 1.x's did.)
            raise EnforceNotMet(
                "the reader is not started: call its start() before each pass "
                "(and reset() after the pass's EOFException)")
        return self.queue._pop()

    def reset(self):
        """1.x's Shutdown then Start: the queue closed, then opened empty."""
        self.queue.close()
        self.queue._reopen()


class _DoubleBufferReader(object):
    """`create_double_buffer_reader`: 1.x read ahead into a second buffer
    on another thread; the batches and their order are the underlying
    reader's."""

    def __init__(self, underlying):
        self.underlying = underlying

    def read_next(self):
        return self.underlying.read_next()

    def reset(self):
        self.underlying.reset()


class _BatchReader(object):
    """`create_batch_reader`: `batch_size` reads of the underlying reader
    joined along the first dimension (their LoDs joined too); a shorter
    batch at the end."""

    def __init__(self, underlying, batch_size):
        self.underlying = underlying
        self.batch_size = batch_size

    def read_next(self):
        items = []
        for _ in range(self.batch_size):
            got = self.underlying.read_next()
            if got is None:
                break
            items.append(got)
        if not items:
            return None
        out = []
        for j in range(len(items[0])):
            arrays = [it[j][0] for it in items]
            first = arrays[0]
            for a in arrays[1:]:
                if a.dtype != first.dtype or a.shape[1:] != first.shape[1:]:
                    raise EnforceNotMet(
                        "create_batch_reader: the instances of slot %d differ in type or shape "
                        "(%s %s, %s %s)" % (j, first.dtype, list(first.shape), a.dtype,
                                             list(a.shape)))
            lod = [list(level) for level in items[0][j][1]]
            for it in items[1:]:
                ins_lod = it[j][1]
                if len(ins_lod) != len(lod):
                    raise EnforceNotMet("create_batch_reader: the instances of slot %d have "
                                        "different LoD levels" % j)
                for level, ins_level in zip(lod, ins_lod):
                    base = level[-1]
                    level.extend(o + base for o in ins_level[1:])
            out.append((np.concatenate(arrays, axis=0), lod))
        return out

    def reset(self):
        self.underlying.reset()


class _ShuffleReader(object):
    """`create_shuffle_reader`: the underlying reader's batches in random
    order within windows of `buffer_size`."""

    def __init__(self, underlying, buffer_size):
        self.underlying = underlying
        self.buffer_size = buffer_size
        self._buffer = []

    def read_next(self):
        if not self._buffer:
            for _ in range(self.buffer_size):
                got = self.underlying.read_next()
                if got is None:
                    break
                self._buffer.append(got)
            random.shuffle(self._buffer)
        if not self._buffer:
            return None
        return self._buffer.pop()

    def reset(self):
        self._buffer = []
        self.underlying.reset()


class _RecordIOFileReader(object):
    """`open_files` / `create_recordio_file_reader`: the records of
    RecordIO files, each a batch (the tensors one
    `complete_append_tensor` wrote), file after file. 1.x's open_files
    read its files on `thread_num` threads, in no set order unless
    `is_test`; this reads them in the order given. A reset starts again
    at the first record of the first file."""

    def __init__(self, filenames, by_suffix=False):
        self.filenames = list(filenames)
        self.by_suffix = by_suffix
        self._records = None

    def _all_records(self):
        from . import recordio_core
        for filename in self.filenames:
            if self.by_suffix:
                # open_files picked the file's reader by its suffix.
                if "." not in filename:
                    raise EnforceNotMet(
                        "File name illegal! A legal file name should be like: "
                        "[file_name].[file_format] (e.g., 'data_file.recordio').")
                suffix = filename.rsplit(".", 1)[1]
                if suffix != "recordio":
                    raise EnforceNotMet("No file reader registered for '%s' format." % suffix)
            for record in recordio_core.read_records(filename):
                yield recordio_core.deserialize_lod_tensors(record)

    def read_next(self):
        if self._records is None:
            self._records = self._all_records()
        return next(self._records, None)

    def reset(self):
        self._records = None


class _MultiPassReader(object):
    """`create_multi_pass_reader`: the underlying reader `pass_num` times
    over (reset at each end), then EOF."""

    def __init__(self, underlying, pass_num):
        self.underlying = underlying
        self.pass_num = pass_num
        self._pass = 0

    def read_next(self):
        got = self.underlying.read_next()
        if got is None and self._pass < self.pass_num - 1:
            self.underlying.reset()
            self._pass += 1
            got = self.underlying.read_next()
        return got

    def reset(self):
        self._pass = 0
        self.underlying.reset()


class _RandomDataGenerator(object):
    """`create_random_data_generator`: float32 tensors of the given
    shapes, uniform in [low, high), for ever (1.x seeded its engine from
    std::random_device: the values differ from run to run)."""

    def __init__(self, low, high, shapes):
        if not low <= high:
            raise EnforceNotMet("'low' shouldn't be greater than 'high'.(%f vs %f)"
                                % (low, high))
        self.low, self.high, self.shapes = low, high, [list(s) for s in shapes]

    def read_next(self):
        out = []
        for shape in self.shapes:
            if len(shape) < 2:
                raise EnforceNotMet("The rank of reader's output data should be 2 at "
                                    "least.(Now it's %d)" % len(shape))
            if any(d < 0 for d in shape):
                raise EnforceNotMet("random_data_generator: the shape %s has an unknown "
                                    "dim; give every dim" % shape)
            out.append((np.random.uniform(self.low, self.high, shape).astype("float32"), []))
        return out

    def reset(self):
        pass


# The readers, by reader variable name (1.x: the scope's ReaderHolders).
_READERS = {}


def register(name, reader):
    _READERS[name] = reader


def reader_of(name):
    return _READERS.get(name)


def read_next(name):
    """The next batch of reader `name`: [(array, lod)], one per output;
    `EOFException` when it has no more."""
    reader = _READERS.get(name)
    if reader is None:
        raise EnforceNotMet("the reader variable %s holds no reader: make it with "
                            "fluid.layers.py_reader (or fluid.io.PyReader) in this script" % name)
    got = reader.read_next()
    if got is None:
        raise EOFException(_EOF_MESSAGE)
    return got


class Feeder(object):
    """The Python side of a py_reader, as 1.x's `_py_reader` and
    `PyReader` monkey-patched it: a generator of batches (`provider`)
    that `start()` runs on a daemon thread, pushing into the queue, and
    `reset()` stops."""

    def __init__(self, queue):
        self.queue = queue
        self.provider = None
        self.thread = None
        self.exited = False

    def running(self):
        return self.thread is not None

    def start(self):
        if self.provider is None:
            raise EnforceNotMet("the reader has no data source: decorate it (decorate_paddle_reader, "
                                "decorate_tensor_provider, ...) before start()")
        provider = self.provider

        def provide():
            try:
                for tensors in provider():
                    if self.exited:
                        break
                    if not self.queue.push(tensors):
                        break
                    if self.exited:
                        break
                self.queue.close()
            except Exception:
                # As 1.x's thread: the pass ends (EOFException) and the
                # thread's traceback goes to stderr.
                self.queue.close()
                raise

        self.thread = threading.Thread(target=provide)
        self.thread.daemon = True
        self.thread.start()

    def reset(self):
        """Stops the thread and empties the queue, ready for `start()`."""
        self.exited = True
        self.queue.close()
        thread, self.thread = self.thread, None
        if thread is not None:
            thread.join()
        self.exited = False
        self.queue._reopen()


# ---------------------------------------------------------------- what runs

# Ops that make or read readers: Executor.run leaves them out.
READER_OPS = frozenset([
    "create_py_reader", "create_double_buffer_reader", "create_batch_reader",
    "create_shuffle_reader", "create_multi_pass_reader", "create_custom_reader",
    "create_recordio_file_reader", "create_random_data_generator", "open_files", "read",
])
_READER_TYPE = 15  # VarType.READER


def plan(program):
    """None when `program` has no reader ops; else `(desc, reads)`: its
    desc without them (and without its READER variables), and for each
    `read` op of the global block, in order, `(reader name, [output
    names])`. Kept on the program until the package edits a program."""
    from . import framework
    cached = program.__dict__.get("_reader_plan")
    if cached is not None and cached[0] == framework._edits:
        return cached[1]
    desc = program.desc
    found, reads = [], []
    for i in range(desc.op_count(0)):
        t = desc.op_type(0, i)
        if t in READER_OPS:
            found.append(i)
            if t == "read":
                reader = desc.op_slots(0, i, False).get("Reader") or [""]
                reads.append((reader[0], list(desc.op_slots(0, i, True).get("Out", []))))
    for b in range(1, desc.num_blocks()):
        for i in range(desc.op_count(b)):
            if desc.op_type(b, i) in READER_OPS:
                raise NotImplementedError(
                    "fluidc reads data (read_file) in the global block only; op %s is in "
                    "block %d" % (desc.op_type(b, i), b))
    result = None
    if found:
        stripped = desc.clone()
        for i in reversed(found):
            stripped.op_remove(0, i, i + 1)
        for name in stripped.var_names(0):
            if stripped.var_get(0, name, "type") == _READER_TYPE:
                stripped.var_remove(0, name)
        result = (stripped, reads)
    program.__dict__["_reader_plan"] = (framework._edits, result)
    return result


def runnable_desc(program):
    """The desc of `program` the runtime can run (build mode records it)."""
    p = plan(program) if _READERS else None
    return program.desc if p is None else p[0]
