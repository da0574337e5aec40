"""paddle.fluid.data_feeder: `DataFeeder` turns a minibatch (a list of
samples, each a tuple with one field per fed variable) into the feed dict
of `Executor.run`, as 1.x's did.

Each variable's fields become one array of the variable's dtype; when the
array's rank is not the variable's, it is reshaped to the variable's shape
(which may hold one unknown dim). A variable with `lod_level` > 0 takes
sequences (of sequences, for 2): their items become the rows and their
lengths the LoD. Every field comes as a LoDTensor, as in 1.x (`.shape()`,
`.lod()`, `np.array(t)`), with no LoD for `lod_level` 0.
"""
import numpy

from . import core
from . import framework
from .framework import Variable, convert_dtype, default_main_program

__all__ = ["DataFeeder"]


class DataToLoDTensorConverter(object):
    """The fields of one variable, gathered over a minibatch."""

    def __init__(self, place, lod_level, shape, dtype):
        self.place = place
        self.lod_level = lod_level
        # As 1.x: a shape with more than one unknown dim is not reshaped to.
        self.shape = shape if sum(1 for s in shape if s < 0) <= 1 else None
        self.dtype = convert_dtype(dtype)
        self._reset()

    def _reset(self):
        self.data = []
        self.lod = [[] for _ in range(self.lod_level)]

    def feed(self, data):
        self._feed(data, self.lod, self.lod_level)

    def _feed(self, data, lod, lod_level):
        if lod_level == 0:
            self.data.append(data)
            return
        lod[0].append(len(data))
        for each in data:
            self._feed(each, lod[1:], lod_level - 1)

    def done(self):
        arr = numpy.array(self.data, dtype=self.dtype)
        if self.shape and len(arr.shape) != len(self.shape):
            try:
                arr = arr.reshape(self.shape)
            except ValueError:
                raise ValueError(
                    "Reshape error. What is defined in data layer is {}, but receive {}".format(
                        tuple(self.shape), arr.shape))
        t = core.LoDTensor()
        t.set(arr, self.place)
        if self.lod_level > 0:
            t.set_recursive_sequence_lengths(self.lod)
        self._reset()
        return t


class DataFeeder(object):
    """`DataFeeder(feed_list, place, program=None)`: `feed_list` holds the
    fed variables, or their names in `program`'s global block (by default
    the default main program)."""

    def __init__(self, feed_list, place, program=None):
        self.feed_dtypes = []
        self.feed_names = []
        self.feed_shapes = []
        self.feed_lod_level = []
        if program is None:
            program = default_main_program()
        for each_var in feed_list:
            if isinstance(each_var, str):
                each_var = program.block(0).var(each_var)
            if not isinstance(each_var, Variable):
                raise TypeError("Feed list should contain a list of variable")
            self.feed_dtypes.append(each_var.dtype)
            self.feed_names.append(each_var.name)
            self.feed_lod_level.append(each_var.lod_level)
            self.feed_shapes.append(each_var.shape)
        self.place = place

    def feed(self, iterable):
        """The feed dict of a minibatch: `{name: LoDTensor}`."""
        converters = [DataToLoDTensorConverter(self.place, lod_level, shape, dtype)
                      for lod_level, shape, dtype in zip(
                          self.feed_lod_level, self.feed_shapes, self.feed_dtypes)]
        for each_sample in iterable:
            assert len(each_sample) == len(converters), (
                "The number of fields in data (%d) does not match len(feed_list) (%d)"
                % (len(each_sample), len(converters)))
            for converter, each_slot in zip(converters, each_sample):
                converter.feed(each_slot)
        return {name: c.done() for name, c in zip(self.feed_names, converters)}

    def feed_parallel(self, iterable, num_places=None):
        """One feed dict per minibatch of `iterable`, one minibatch per
        place (`num_places`, default: `CPU_NUM` or the CPU count, as
        ParallelExecutor's places)."""
        num = framework._cpu_num() if num_places is None else int(num_places)
        if len(iterable) != num:
            raise ValueError("feed_parallel takes multiple mini-batches. Each "
                             "mini-batch will be feed on each device. The "
                             "number of devices and number of mini-batches "
                             "must be same.")
        for batch in iterable:
            yield self.feed(batch)

    def decorate_reader(self, reader, multi_devices, num_places=None, drop_last=True):
        """A reader of feed dicts over a reader of minibatches; with
        `multi_devices`, of lists of one feed dict per place."""
        def feed_reader():
            if not multi_devices:
                for item in reader():
                    yield self.feed(item)
                return
            num = framework._cpu_num() if num_places is None else int(num_places)
            item = []
            for batch in reader():
                item.append(batch)
                if len(item) == num:
                    yield list(self.feed_parallel(item, num))
                    item = []
            if not drop_last and item:
                raise ValueError(
                    "The data batch which cannot fit for devices will be "
                    "dropped is not implementation. Other strategies are "
                    "not implemented")

        return feed_reader
