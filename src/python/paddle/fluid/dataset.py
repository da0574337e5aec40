"""paddle.fluid.dataset: 1.5-1.6's Dataset API (`fluid.DatasetFactory`),
the data source of `Executor.train_from_dataset` and
`DataLoader.from_dataset`.

In 1.x a Dataset was a C++ data feed: each reader thread piped a file of
its filelist through `pipe_command` (a shell command, usually `python
my_generator.py`, a `fluid.incubate.data_generator` script) and parsed the
"MultiSlot" text it printed: per line, for each slot of `set_use_var` in
order, `<n> v1 ... vn`. fluidc has no shell and no CPython, so:

- `cat` passes the file's text through; `python FILE [ARGS...]` runs FILE
  in this VM as a fresh `__main__` (`runpy.run_path`) with `sys.argv` set,
  the file's text on `sys.stdin` and `sys.stdout` captured; any other
  command is refused (`_pipe_output`).
- Files are read in filelist order and batches run in order, one after
  the other, whatever the thread count (1.x ran `thread` Hogwild threads,
  each with its own files and its own order); `local_shuffle` and
  `global_shuffle` shuffle the loaded instances with Python's `random`,
  as `slots_shuffle` draws its candidate records.
- A `fetch_handler` runs between batches, not in a timer thread
  (`trainer_factory.FetchHandlerMonitor`).
"""
import io
import os
import random
import struct
import sys

import numpy as np

from . import core
from .executor import _HOST, _names, _program_of, global_scope
from .lod_tensor_core import _cpp_float
from .trainer_factory import FetchHandlerMonitor

__all__ = ["DatasetFactory", "InMemoryDataset", "QueueDataset"]

# 1.x's PADDLE_ENFORCE text when a slot's count is 0 or not a number
# (MultiSlotDataFeed::ParseOneInstanceFromPipe).
_ZERO_IDS = ("The number of ids can not be zero, you need padding it in data generator; "
             "or if there is something wrong with the data, please check if the data "
             "contains unresolvable characters.\nplease check this error line: %s")


class DatasetFactory(object):
    """`DatasetFactory().create_dataset(name)`: a dataset by class name
    ("QueueDataset" by default, "InMemoryDataset" or "FileInstantDataset")."""

    def __init__(self):
        pass

    def create_dataset(self, datafeed_class="QueueDataset"):
        cls = _DATASETS.get(datafeed_class)
        if cls is None:
            raise ValueError("datafeed class %s does not exist" % datafeed_class)
        return cls()


class _Slot(object):
    """One variable of `set_use_var`: 1.x's `Slot` of the DataFeedDesc."""

    def __init__(self, var):
        self.name = var.name
        self.is_dense = var.lod_level == 0
        self.shape = list(var.shape) if self.is_dense else []
        if var.dtype == core.VarDesc.VarType.FP32:
            self.type = "float"
        elif var.dtype == core.VarDesc.VarType.INT64:
            self.type = "uint64"
        else:
            raise ValueError("Currently, fluid.dataset only supports dtype=float32 and dtype=int64")


class DatasetBase(object):
    """What both datasets configure: the pipe command, the batch size, the
    thread count, the filelist and the slots."""

    # 1.x's data feed class (the DataFeedDesc's `name`).
    _feed_name = None
    # Whether a sparse slot's zero values are dropped on parsing, as 1.x's
    # MultiSlotInMemoryDataFeed dropped them (an instance left with none
    # gets one 0 in its batch); MultiSlotDataFeed kept them.
    _drop_zeros = False

    def __init__(self):
        self.pipe_command = "cat"
        self.batch_size = None  # unset: the DataFeedDesc's default, 32
        self.thread_num = 1
        self.filelist = []
        self.slots = []
        self.fs_name = None
        self.fs_ugi = None
        self.parse_ins_id = False
        self.parse_content = False
        # No `fea_eval` until `set_fea_eval`: 1.6's `slots_shuffle` before
        # it was an AttributeError.
        self._candidate_size = None

    def set_fea_eval(self, record_candidate_size, fea_eval=True):
        """1.6's feature-evaluation mode, which `slots_shuffle` needs:
        `record_candidate_size` records are the candidates a shuffled
        slot's values are drawn from (kept only when `fea_eval` is on, as
        1.6 passed both to its C++ dataset only then)."""
        if fea_eval:
            if record_candidate_size <= 0:
                # 1.6: CHECK(_capacity > 0) aborted the process.
                raise core.EnforceNotMet("record_candidate_size must be a positive number of "
                                         "records, got %r" % (record_candidate_size,))
            self._candidate_size = record_candidate_size
        self.fea_eval = fea_eval

    def slots_shuffle(self, slots):
        """1.6's feature evaluation: the values of the `slots` (names) of
        each loaded record replaced by those of a random record, so that
        training or inference without what those slots told apart shows
        how much they mattered. Nothing without `set_fea_eval(n, True)`;
        nothing for a dataset that holds no records (a QueueDataset or
        FileInstantDataset reads its files at each pass)."""
        if self.fea_eval:
            self._shuffle_slots(set(slots))

    def _shuffle_slots(self, names):
        pass

    def set_pipe_command(self, pipe_command):
        self.pipe_command = pipe_command

    def set_batch_size(self, batch_size):
        self.batch_size = batch_size

    def set_thread(self, thread_num):
        """The number of reader threads 1.x ran; fluidc reads and runs in
        one (see the module's docstring)."""
        self.thread_num = thread_num

    def set_filelist(self, filelist):
        self.filelist = filelist

    def set_use_var(self, var_list):
        for var in var_list:
            self.slots.append(_Slot(var))

    def set_hdfs_config(self, fs_name, fs_ugi):
        """Kept: fluidc reads local files only, so an `hdfs:` or `afs:`
        file in the filelist is refused when it is read."""
        self.fs_name = fs_name
        self.fs_ugi = fs_ugi

    def desc(self):
        """The DataFeedDesc in protobuf text format."""
        lines = ['name: "%s"' % self._feed_name]
        if self.batch_size is not None:
            lines.append("batch_size: %d" % self.batch_size)
        if self.slots:
            lines.append("multi_slot_desc {")
            for slot in self.slots:
                lines += ["  slots {", '    name: "%s"' % _escape(slot.name),
                          '    type: "%s"' % slot.type]
                if slot.is_dense:
                    lines.append("    is_dense: true")
                lines.append("    is_used: true")
                lines += ["    shape: %d" % d for d in slot.shape]
                lines.append("  }")
            lines.append("}")
        lines.append('pipe_command: "%s"' % _escape(self.pipe_command))
        return "\n".join(lines) + "\n"

    def _batch_size(self):
        size = 32 if self.batch_size is None else self.batch_size
        if size <= 0:
            raise core.EnforceNotMet("Illegal batch size: %d." % size)
        return size

    def _read_files(self):
        """Each file's instances, in filelist order."""
        for filename in self.filelist:
            for line in _lines(_pipe_output(self.pipe_command, filename)):
                yield self._parse(line)

    def _parse(self, line):
        """One line of MultiSlot text: a list of each slot's values."""
        tokens = line.split()
        pos = 0
        for flag in (self.parse_ins_id, self.parse_content):
            if flag:
                # "1 <ins_id>" or "1 <content>" before the slots.
                if tokens[pos:pos + 1] != ["1"] or len(tokens) < pos + 2:
                    raise core.EnforceNotMet("Check failed: num == 1 (line: %s)" % line)
                pos += 2
        instance = []
        for slot in self.slots:
            try:
                num = int(tokens[pos])
            except (IndexError, ValueError):
                num = 0
            if num == 0:
                raise core.EnforceNotMet(_ZERO_IDS % line)
            if num < 0:
                raise core.EnforceNotMet("the number of ids is a negative number: %d; please "
                                         "check this line: %s" % (num, line))
            texts = tokens[pos + 1:pos + 1 + num]
            if len(texts) < num:
                raise core.EnforceNotMet("slot %s: the line has %d of its %d values: %s"
                                         % (slot.name, len(texts), num, line))
            pos += 1 + num
            values = [_value(slot, t, line) for t in texts]
            if self._drop_zeros and not slot.is_dense:
                values = [v for v in values if (abs(v) >= 1e-6 if slot.type == "float" else v)]
            instance.append(values)
        return instance

    def _instances(self):
        """The instances a pass reads, in order."""
        raise NotImplementedError

    def _batches(self, drop_last=False):
        """Each batch a pass reads: a `{name: LoDTensor}` feed."""
        size = self._batch_size()
        batch = []
        for instance in self._instances():
            batch.append(instance)
            if len(batch) == size:
                yield self._feed(batch)
                batch = []
        if batch and not drop_last:
            yield self._feed(batch)

    def _feed(self, batch, shapes=None):
        """A batch's feed, as 1.x's PutToFeedVec made it: a slot's values
        in a `[total, 1]` tensor with the instances' offsets as its LoD; a
        dense slot (lod_level 0) reshaped to its variable's shape, its
        `-1` being what the values leave (or its shape in `shapes`, by
        slot index), and fed without LoD (1.x set the offsets on it as
        well, which no op of a dense input reads)."""
        feed = {}
        for i, slot in enumerate(self.slots):
            values, offsets = [], [0]
            for instance in batch:
                got = instance[i]
                if not got:  # all zeros dropped: 1.x's default value
                    got = [0]
                values.extend(got)
                offsets.append(len(values))
            dtype = "float32" if slot.type == "float" else "int64"
            array = np.array(values, dtype=dtype).reshape(len(values), 1)
            tensor = core.LoDTensor()
            if slot.is_dense:
                if shapes is not None and i in shapes:
                    shape = shapes[i]
                else:
                    shape = _dense_shape(slot, len(values))
                tensor.set(array.reshape(shape), core.CPUPlace())
            else:
                tensor.set(array, core.CPUPlace())
                tensor.set_lod([offsets])
            feed[slot.name] = tensor
        return feed

    def _prepare_to_run(self):
        pass

    def _finish_to_run(self):
        pass


class InMemoryDataset(DatasetBase):
    """`load_into_memory()` reads every file once into memory (1.x's
    input channel); the first pass moves what is held to the trainer's
    channel, which each pass then reads in the same order.

    The sizes follow 1.x's channels: `get_memory_data_size()` counts the
    instances loaded and not yet handed to a pass (0 after a pass or a
    `global_shuffle`), `get_shuffle_data_size()` those a pass reads;
    `local_shuffle` shuffles the former, `global_shuffle` shuffles them
    and hands them over (1.x sent them to the trainers of `fleet`: with
    one trainer, to itself)."""

    _feed_name = "MultiSlotInMemoryDataFeed"
    _drop_zeros = True

    def __init__(self):
        super(InMemoryDataset, self).__init__()
        self.queue_num = None
        self.fleet_send_batch_size = None
        self.fleet_send_sleep_seconds = None
        self.merge_by_lineid = False
        self._memory = []
        self._channel = []
        # The records as loaded, kept by the first `slots_shuffle`: each
        # later one shuffles them again (not the last one's records), and
        # `release_memory` keeps them, as 1.6's dataset did.
        self._unshuffled = None

    def set_queue_num(self, queue_num):
        self.queue_num = queue_num

    def set_parse_ins_id(self, parse_ins_id):
        self.parse_ins_id = parse_ins_id

    def set_parse_content(self, parse_content):
        self.parse_content = parse_content

    def set_fleet_send_batch_size(self, fleet_send_batch_size=1024):
        self.fleet_send_batch_size = fleet_send_batch_size

    def set_fleet_send_sleep_seconds(self, fleet_send_sleep_seconds=0):
        self.fleet_send_sleep_seconds = fleet_send_sleep_seconds

    def set_merge_by_lineid(self, var_list, erase_duplicate_feas=True, min_merge_size=2,
                            keep_unmerged_ins=True):
        raise NotImplementedError("InMemoryDataset.set_merge_by_lineid (merging instances "
                                  "by line id in global_shuffle) is not in fluidc")

    def load_into_memory(self):
        self._memory.extend(self._read_files())

    def preload_into_memory(self, thread_num=None):
        """1.x loaded in the background until `wait_preload_done()`;
        fluidc loads now."""
        self.load_into_memory()

    def wait_preload_done(self):
        pass

    def local_shuffle(self):
        random.shuffle(self._memory)

    def global_shuffle(self, fleet=None, thread_num=12):
        if fleet is not None:
            raise NotImplementedError("InMemoryDataset.global_shuffle(fleet): fleet "
                                      "(distributed training) is not in fluidc")
        random.shuffle(self._memory)
        self._channel.extend(self._memory)
        self._memory = []

    def release_memory(self):
        self._memory = []
        self._channel = []

    def get_memory_data_size(self, fleet=None):
        if fleet is not None:
            raise NotImplementedError("get_memory_data_size(fleet): fleet is not in fluidc")
        return np.array([len(self._memory)])[0]

    def get_shuffle_data_size(self, fleet=None):
        if fleet is not None:
            raise NotImplementedError("get_shuffle_data_size(fleet): fleet is not in fluidc")
        return np.array([len(self._channel)])[0]

    def _prepare_to_run(self):
        if self.thread_num <= 0:
            self.thread_num = 1

    def _shuffle_slots(self, names):
        """1.6's MultiSlotDataset::SlotsShuffle: each record, in order,
        joins a reservoir of `record_candidate_size` candidates (kept as
        reservoir sampling keeps a uniform sample of the records so far)
        and takes the named slots' values of a random candidate, all from
        the same one. Only id (int64) slots are replaced: 1.6 kept a float
        slot's values whatever its name. The records become the memory
        the next pass reads."""
        if self._unshuffled is None:
            if self._memory:
                self._unshuffled, self._memory = self._memory, []
            elif self._channel:
                self._unshuffled, self._channel = self._channel, []
            else:
                return  # nothing loaded
        else:
            self._memory, self._channel = [], []
        replaced = [i for i, slot in enumerate(self.slots)
                    if slot.name in names and slot.type == "uint64"]
        capacity = self._candidate_size
        candidates = []
        seen = 0
        shuffled = []
        for record in self._unshuffled:
            seen += 1
            if len(candidates) < capacity:
                candidates.append(record)
            else:
                index = random.randrange(seen)
                if index < capacity:
                    candidates[index] = record
            candidate = candidates[random.randrange(len(candidates))]
            record = list(record)
            for i in replaced:
                record[i] = candidate[i]
            shuffled.append(record)
        self._memory = shuffled

    def _instances(self):
        if not self._channel:
            self._channel, self._memory = self._memory, []
        return list(self._channel)


class QueueDataset(DatasetBase):
    """Each pass reads the files anew."""

    _feed_name = "MultiSlotDataFeed"

    def local_shuffle(self):
        raise NotImplementedError("QueueDataset does not support local shuffle, "
                                  "please use InMemoryDataset for local_shuffle")

    def global_shuffle(self, fleet=None):
        raise NotImplementedError("QueueDataset does not support global shuffle, "
                                  "please use InMemoryDataset for global_shuffle")

    def _prepare_to_run(self):
        # 1.x: no more threads than files, and at least one.
        if self.thread_num > len(self.filelist):
            self.thread_num = len(self.filelist)
        if self.thread_num == 0:
            self.thread_num = 1

    def _instances(self):
        return self._read_files()


class FileInstantDataset(DatasetBase):
    """1.6's: each pass reads its files' binary records as they are, no
    `pipe_command` (MultiSlotFileInstantDataFeed, which 1.6 built with CUDA
    only). Per record, for each slot of `set_use_var` in order: its value
    count (uint16), then for a dense slot one uint64 per `-1` of its shape,
    the dims of the batch this record begins, then its values (float32 or
    int64), all little-endian; the count includes those dims. A batch does
    not run across files."""

    _feed_name = "MultiSlotFileInstantDataFeed"

    def local_shuffle(self):
        raise NotImplementedError("FileInstantDataset does not support local shuffle, "
                                  "please use InMemoryDataset for local_shuffle")

    def global_shuffle(self, fleet=None):
        raise NotImplementedError("FileInstantDataset does not support global shuffle, "
                                  "please use InMemoryDataset for global_shuffle")

    def _prepare_to_run(self):
        if self.thread_num > len(self.filelist):
            self.thread_num = len(self.filelist)

    def _batches(self, drop_last=False):
        size = self._batch_size()
        for filename in self.filelist:
            batch, shapes = [], {}
            for record, dims in _binary_records(self.slots, _read_bytes(filename), filename):
                if not batch:
                    shapes = dims
                batch.append(record)
                if len(batch) == size:
                    yield self._feed(batch, self._shapes(shapes, batch))
                    batch = []
            if batch and not drop_last:
                yield self._feed(batch, self._shapes(shapes, batch))

    def _shapes(self, shapes, batch):
        """Each dense slot's shape for a batch: its variable's with each
        `-1` the batch's first record's dim, which must hold the batch's
        values."""
        out = {}
        for i, slot in enumerate(self.slots):
            if not slot.is_dense:
                continue
            dims = list(shapes.get(i, []))
            shape = [dims.pop(0) if d == -1 else d for d in slot.shape]
            total = sum(len(record[i]) for record in batch)
            size = 1
            for d in shape:
                size *= d
            if size != total:
                raise core.EnforceNotMet("The actual data size of slot[%s] doesn't match its "
                                         "declaration" % slot.name)
            out[i] = shape
        return out


def _read_bytes(filename):
    _check_local(filename)
    with open(filename, "rb") as f:
        return f.read()


def _binary_records(slots, data, filename):
    """`(values of each slot, {slot index: dims})` of each record of a
    FileInstantDataset file."""
    pos = 0
    end = len(data)

    def take(fmt, count):
        nonlocal pos
        width = struct.calcsize("<" + fmt) * count
        if pos + width > end:
            raise core.EnforceNotMet("%s: the file ends inside a record (byte %d of %d)"
                                     % (filename, pos, end))
        got = struct.unpack_from("<%d%s" % (count, fmt), data, pos)
        pos += width
        return list(got)

    while pos < end:
        record, dims = [], {}
        for i, slot in enumerate(slots):
            num = take("H", 1)[0]
            if num == 0:
                raise core.EnforceNotMet(
                    "The number of ids can not be zero, you need padding it in data generator; "
                    "or if there is something wrong with the data, please check if the data "
                    "contains unresolvable characters.")
            inductive = slot.shape.count(-1) if slot.is_dense else 0
            if num < inductive:
                raise core.EnforceNotMet("slot %s: a count of %d does not hold its %d dims"
                                         % (slot.name, num, inductive))
            if inductive:
                dims[i] = take("Q", inductive)
            record.append(take("f" if slot.type == "float" else "q", num - inductive))
        yield record, dims


_DATASETS = {"QueueDataset": QueueDataset, "InMemoryDataset": InMemoryDataset,
             "FileInstantDataset": FileInstantDataset}


def _escape(text):
    """A string as protobuf's text format quotes it."""
    for c, e in (("\\", "\\\\"), ('"', '\\"'), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r"),
                 ("\t", "\\t")):
        text = text.replace(c, e)
    return text


def _value(slot, text, line):
    try:
        if slot.type == "float":
            return float(text)
        # 1.x read uint64 ids with strtoull and kept their bits in the
        # int64 tensor: hashed ids of 2^63 and up come out negative.
        v = int(text) & 0xFFFFFFFFFFFFFFFF
        return v - (1 << 64) if v >= (1 << 63) else v
    except ValueError:
        raise core.EnforceNotMet("slot %s (%s): %r is not a value of its type; please check "
                                 "this line: %s" % (slot.name, slot.type, text, line))


def _dense_shape(slot, total):
    """A dense slot's variable shape with its `-1` what `total` values
    leave for it."""
    known = 1
    for d in slot.shape:
        if d > 0:
            known *= d
    shape = [total // known if d == -1 else d for d in slot.shape]
    size = 1
    for d in shape:
        size *= d
    if size != total:
        raise core.EnforceNotMet("slot %s: %d values in a batch do not fill its shape %s"
                                 % (slot.name, total, list(slot.shape)))
    return shape


def _lines(text):
    """The lines a data feed reads from a pipe's output (the last one
    needs no newline)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _check_local(filename):
    if filename.startswith(("hdfs:", "afs:")):
        raise IOError("%s: fluidc reads local files only (set_hdfs_config is kept, not used)"
                      % filename)


def _read_text(filename):
    _check_local(filename)
    if filename.endswith(".gz"):
        # 1.x piped a .gz file through `zcat` first.
        import gzip
        with gzip.open(filename, "rt") as f:
            return f.read()
    with open(filename) as f:
        return f.read()


def _is_python(program):
    name = os.path.basename(program)
    return name == "python" or (name.startswith("python") and
                                name[6:].replace(".", "").isdigit())


def _pipe_output(command, filename):
    """What `command` prints with `filename`'s text on its stdin: `cat`
    passes it through; `python FILE ARGS...` runs FILE in this VM as
    `__main__`, with `sys.argv` `[FILE, ARGS...]`, FILE's directory first
    on `sys.path`, the text on `sys.stdin` and `sys.stdout` captured."""
    import shlex  # on first use, as runpy: `import paddle.fluid` need not load them
    text = _read_text(filename)
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    argv = list(lexer)
    # A pipeline, a redirection, a list of commands: shell syntax.
    shell = any(t and all(c in "();<>|&" for c in t) for t in argv)
    if argv == ["cat"]:
        return text
    if argv and _is_python(argv[0]) and not shell:
        args = [a for a in argv[1:] if a != "-u"]  # -u: unbuffered, nothing here
        if args and not args[0].startswith("-"):
            return _run_script(args, text)
    raise ValueError("pipe_command %r: fluidc runs `cat` or `python SCRIPT [ARGS...]` (the "
                     "script runs in fluidc's VM), not other commands" % command)


def _run_script(argv, text):
    import runpy
    script = argv[0]
    saved = (sys.argv, sys.stdin, sys.stdout, list(sys.path))
    out = io.StringIO()
    sys.argv = list(argv)
    sys.stdin = io.StringIO(text)
    sys.stdout = out
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            raise RuntimeError("pipe_command `python %s` exited with status %s"
                               % (" ".join(argv), e.code)) from None
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.path[:] = saved
    return out.getvalue()


def _print_fetched(info, name, tensor):
    """A fetched variable as 1.5-1.6's trainer printed it each
    `print_period` batches (platform::PrintVar: the info, the name and the
    LoDTensor's `operator<<`)."""
    array = np.array(tensor)
    lod = "{%s}" % "".join("{%s}" % ", ".join(str(o) for o in level) for level in tensor.lod())
    if array.dtype.kind == "f":
        data = [_cpp_float(float(v)) for v in array.flatten().tolist()]
    else:
        data = [str(int(v)) for v in array.flatten().tolist()]
    print("%s\t%s\t\tlod: %s\n\tdim: %s\n\tlayout: NCHW\n\tdtype: %s\n\tdata: [%s]\n\t" % (
        info, name, lod, ", ".join(str(d) for d in array.shape),
        _CPP_TYPES.get(array.dtype.name, array.dtype.name), " ".join(data)))


# The C++ type names 1.x printed as a tensor's dtype.
_CPP_TYPES = {"float32": "float", "float64": "double", "int32": "int", "int64": "int64_t",
              "bool": "bool", "uint8": "uint8_t", "int16": "int16_t", "int8": "int8_t",
              "float16": "::paddle::platform::float16"}


def _run_from_dataset(executor, program, dataset, scope, thread, debug, fetch_list, fetch_info,
                      print_period, fetch_handler):
    """`Executor.train_from_dataset` / `infer_from_dataset`: the program
    run on each batch of the dataset in order (1.x's MultiTrainer ran
    `thread` Hogwild workers over a shared scope; fluidc runs one), the
    fetched variables printed each `print_period` batches; with `debug`,
    1.6's per-op timings on stderr (`_OpTimes`)."""
    if dataset is None:
        raise RuntimeError("dataset is need and should be initialized")
    program = _program_of(program)
    dataset._prepare_to_run()
    fetch = _names(fetch_list, "fetch_list")
    if fetch and print_period <= 0:
        raise ValueError("print_period must be a positive number of batches, got %r"
                         % (print_period,))
    if fetch_info is None:
        fetch_info = []
    assert len(fetch) == len(fetch_info)
    if thread <= 0 and dataset.thread_num <= 0:
        raise RuntimeError("You should set thread num first, either in Dataset"
                           "or in Executor.train_from_dataset")
    if _HOST.build:
        return executor._record(program, dict((s.name, None) for s in dataset.slots), fetch)
    if scope is None:
        scope = global_scope()
    monitor = None
    if fetch_handler is not None:
        monitor = FetchHandlerMonitor(scope, fetch_handler, program)
        if not monitor._start_between_batches([slot.name for slot in dataset.slots]):
            monitor = None
    batch_num = 0
    times = _OpTimes() if debug else None
    batches = dataset._batches()
    while True:
        if times is not None:
            times.reading()
        feed = next(batches, None)
        if feed is None:
            break
        if times is not None:
            times.running()
        due = monitor is not None and monitor._due()
        extra = monitor._fetched if due else []
        results = executor.run(program, feed=feed, fetch_list=fetch + extra, scope=scope,
                               return_numpy=False)
        batch_num += 1
        if times is not None:
            times.ran(feed)
        if fetch and batch_num % print_period == 0:
            for info, name, tensor in zip(fetch_info, fetch, results):
                _print_fetched(info, name, tensor)
        if due:
            monitor._call(dict(zip(extra, results[len(fetch):])))
    if times is not None:
        times.close()
    dataset._finish_to_run()
    return None


class _OpTimes(object):
    """`train_from_dataset(debug=True)`: 1.6's
    `HogwildWorker::TrainFilesWithProfiler` report on stderr every 100
    batches: each op's mean time by its place in the program, the mean
    time to read a batch, the share of the time spent reading, and the
    instances run per second (seconds, as 1.6's timers). The ops' times
    are the runtime's own timings (`fluid.profiler`'s)."""

    def __init__(self):
        import time
        self._clock = time.perf_counter
        self._was_on = _HOST.profiler_enabled()
        if not self._was_on:
            _HOST.profiler_enable()
        self._ops = []      # [name, total seconds] by place in the program
        self._read = 0.0
        self._total = 0.0
        self._instances = 0
        self._batches = 0
        self._t = self._clock()

    def reading(self):
        self._t = self._clock()

    def running(self):
        spent = self._clock() - self._t
        self._read += spent
        self._total += spent
        # A script's own fluid.profiler keeps its records: this batch's
        # are those after them.
        if self._was_on:
            self._base = len(_HOST.profiler_records())
        else:
            _HOST.profiler_reset()
            self._base = 0

    def ran(self, feed):
        # 1.6's worker fed the batch itself: no feed or fetch ops.
        records = [r for r in _HOST.profiler_records()[self._base:]
                   if r[0] not in ("feed", "fetch")]
        for i, (op_type, start, end) in enumerate(records):
            if i == len(self._ops):
                self._ops.append([op_type, 0.0])
            self._ops[i][1] += (end - start) / 1e9
            self._total += (end - start) / 1e9
        self._instances += _instances_of(feed)
        self._batches += 1
        if self._batches % 100 == 0:
            n = self._batches
            for i, (name, spent) in enumerate(self._ops):
                sys.stderr.write("op_name:[%d][%s], op_mean_time:[%fs]\n" % (i, name, spent / n))
            sys.stderr.write("mean read time: %fs\n" % (self._read / n))
            sys.stderr.write("IO percent: %f\n" % (self._read / self._total * 100
                                                   if self._total else 0.0))
            sys.stderr.write("%6.2f instances/s\n" % (self._instances / self._total
                                                     if self._total else 0.0))

    def close(self):
        if not self._was_on:
            _HOST.profiler_disable()
            _HOST.profiler_reset()


def _instances_of(feed):
    """How many instances a batch's feed holds: its first slot's sequences
    (or rows, for a dense slot)."""
    for tensor in feed.values():
        lod = tensor.lod()
        return len(lod[0]) - 1 if lod else int(np.array(tensor).shape[0])
    return 0


class _DatasetLoader(object):
    """What 1.6's `DataLoader.from_dataset` returns: iterated (or called,
    then iterated), each batch of the dataset as a list of one feed dict
    (one per place; fluidc has one)."""

    def __init__(self, dataset, places, drop_last):
        assert isinstance(dataset, DatasetBase), "dataset must be type of DatasetBase"
        places = places if isinstance(places, (list, tuple)) else [places]
        assert len(dataset.filelist) >= len(places), (
            "Filelist number of dataset {} must be not less than place number {}".format(
                len(dataset.filelist), len(places)))
        dataset.set_thread(len(places))
        self._dataset = dataset
        self._drop_last = drop_last

    def __call__(self):
        return self

    def __iter__(self):
        self._dataset._prepare_to_run()
        for feed in self._dataset._batches(self._drop_last):
            yield [feed]
