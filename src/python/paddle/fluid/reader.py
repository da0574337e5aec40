"""paddle.fluid.reader: `PyReader` (`fluid.io.PyReader`), 1.5-1.6's reader
fed from Python.

Not iterable, it builds 1.x's reader ops into the program and reads the
feed variables from them (`start()` each pass, `fluid.core.EOFException`
from `Executor.run` at its end, then `reset()`), as `layers.py_reader`.
Iterable, the program is left alone and `for data in reader(): exe.run(
feed=data)` feeds each batch: a list with one item per place (fluidc has
one CPU place), a dict `{name: LoDTensor}`, or with `return_list` a list
of LoDTensors in `feed_list`'s order.
"""
from . import core
from . import reader_core
from .framework import Program, default_main_program, default_startup_program, program_guard
from .layers.io import _copy_reader_var_, double_buffer, monkey_patch_reader_methods
from .lod_tensor_core import LoDTensor
from .unique_name import UniqueNameGenerator

__all__ = ["PyReader", "DataLoader"]

# 1.5-1.6 named PyReader's variables with a generator of their own.
_unique_name_generator = UniqueNameGenerator()


def _convert_places(places):
    if not isinstance(places, (list, tuple)):
        places = [places]
    return list(places)


class DataLoaderBase(object):
    """1.6's base of its loaders: callable (returning itself) and an
    iterator whose `__iter__`/`__next__` the loaders define."""

    def __init__(self):
        self._places = None

    def __call__(self):
        return self

    def next(self):
        return self.__next__()

    def __iter__(self):
        raise NotImplementedError()

    def __next__(self):
        raise NotImplementedError()


class PyReader(DataLoaderBase):
    """`PyReader(feed_list=None, capacity=None, use_double_buffer=True,
    iterable=True, return_list=False)` (1.6's defaults; 1.5's `iterable`
    was False by default and it had no `return_list`)."""

    def __init__(self, feed_list=None, capacity=None, use_double_buffer=True, iterable=True,
                 return_list=False):
        self._tensor_reader = None
        self._places = None
        self._thread = None
        self._feed_list = feed_list
        if not capacity:
            raise ValueError("Please give value to capacity.")
        if not self._feed_list:
            raise Exception("Feed list must be given under static mode.")
        self._iterable = iterable
        self._return_list = return_list
        self._use_double_buffer = use_double_buffer
        self._capacity = capacity
        self._queue = core.init_lod_tensor_blocking_queue(None, capacity)
        self._feeder = reader_core.Feeder(self._queue)
        if not self._iterable:
            self._init_non_iterable()

    def _init_non_iterable(self):
        shapes = [list(v.shape) for v in self._feed_list]
        dtypes = [v.dtype for v in self._feed_list]
        lod_levels = [v.lod_level for v in self._feed_list]
        shape_concat, ranks = [], []
        for shape in shapes:
            shape_concat.extend(shape)
            ranks.append(len(shape))
        queue_name = _unique_name_generator("lod_tensor_blocking_queue")
        reader_name = _unique_name_generator("create_py_reader")
        double_buffer_name = _unique_name_generator("double_buffer")
        reader_core.register(reader_name, reader_core._PyReader(self._queue, self._feeder))

        startup_blk = default_startup_program().current_block()
        startup_var = startup_blk.create_var(name=reader_name, type=core.VarDesc.VarType.READER,
                                             persistable=True)
        startup_var._reader_meta = (shapes, dtypes, lod_levels)
        startup_blk.append_op(
            type="create_py_reader", inputs={"blocking_queue": [queue_name]},
            outputs={"Out": [startup_var]},
            attrs={"shape_concat": shape_concat, "lod_levels": lod_levels, "ranks": ranks})

        main_prog_var = _copy_reader_var_(default_main_program().current_block(), startup_var)
        main_prog_var.stop_gradient = True
        main_prog_var.persistable = True
        reader = monkey_patch_reader_methods(main_prog_var)
        if self._use_double_buffer:
            double_buffer_reader = double_buffer(reader, name=double_buffer_name)
            double_buffer_reader.reset = reader.reset
            reader = double_buffer_reader
        self._reader = reader
        default_main_program().current_block().append_op(
            type="read", inputs={"Reader": [self._reader]}, outputs={"Out": self._feed_list})

    @property
    def queue(self):
        return self._queue

    @property
    def iterable(self):
        return self._iterable

    def __call__(self):
        assert self.iterable, "PyReader is not iterable"
        assert self._tensor_reader is not None, "Data source of PyReader has not set yet"
        return self

    def __iter__(self):
        assert self.iterable, "PyReader is not iterable"
        assert self._tensor_reader is not None, "Data source of PyReader has not set yet"
        self._feeder.reset()
        self._start()
        return self

    def __next__(self):
        """One batch for each place (1.x's `read_next`: a list of one feed
        dict, or with `return_list` one list, per place); a pass whose
        batches run out before every place has one ends there, the batches
        read for the others dropped, as 1.x's multi-device reader did."""
        per_place = []
        for _ in self._places or [None]:
            batch = self._queue._pop()
            if batch is None:
                self._reset()
                raise StopIteration
            tensors = [LoDTensor._make(array, lod) for array, lod in batch]
            per_place.append(tensors if self._return_list else
                             dict((v.name, t) for v, t in zip(self._feed_list, tensors)))
        return per_place

    next = __next__

    def start(self):
        """Starts the thread that feeds the pass (not iterable only)."""
        assert not self._iterable, "start() cannot be called when PyReader is iterable"
        self._start()

    def reset(self):
        """After the pass's `EOFException`: stops the feeding (not iterable
        only)."""
        assert not self._iterable, "reset() cannot be called when PyReader is iterable"
        self._reset()

    def _start(self):
        self._feeder.start()
        self._thread = self._feeder.thread

    def _reset(self):
        self._feeder.reset()
        self._thread = None

    def decorate_sample_generator(self, sample_generator, batch_size, drop_last=True,
                                  places=None):
        """The data source: a generator of samples (one array per feed
        variable), batched by `batch_size`."""
        assert batch_size > 0, "batch_size must be larger than 0"
        has_lod = any(f.lod_level != 0 for f in self._feed_list)
        if has_lod:
            import paddle
            self.decorate_sample_list_generator(
                paddle.batch(sample_generator, batch_size=batch_size, drop_last=drop_last),
                places=places)
        else:
            reader = _BatchedTensorProvider(self._feed_list, batch_size, sample_generator,
                                            drop_last)
            self.decorate_batch_generator(reader, places=places)

    def decorate_sample_list_generator(self, reader, places=None):
        """The data source: a generator of minibatches (lists of samples),
        converted as `DataFeeder` converts them."""
        from .data_feeder import DataFeeder
        with program_guard(Program(), Program()):
            feeder = DataFeeder(feed_list=self._feed_list, place=core.CPUPlace())
            paddle_reader = feeder.decorate_reader(reader, multi_devices=False)

        def __tensor_reader_impl__():
            for slots in paddle_reader():
                yield [slots[var.name] for var in self._feed_list]

        self.decorate_batch_generator(__tensor_reader_impl__, places)

    def decorate_batch_generator(self, reader, places=None):
        """The data source: a generator of batches (one array or LoDTensor
        per feed variable)."""
        self._tensor_reader = reader
        self._feeder.provider = reader
        if self._iterable:
            assert places is not None, "Places cannot be None when py_reader is iterable"
            self._places = _convert_places(places)


class DataLoader(object):
    """1.6's `fluid.io.DataLoader`: `from_generator` makes the loader that
    1.6's `PyReader` itself wrapped, so here it is a `PyReader` under
    1.6's method names."""

    @staticmethod
    def from_generator(feed_list=None, capacity=None, use_double_buffer=True, iterable=True,
                       return_list=False):
        return GeneratorLoader(feed_list, capacity, use_double_buffer, iterable, return_list)

    @staticmethod
    def from_dataset(dataset, places, drop_last=True):
        from .dataset import _DatasetLoader
        return _DatasetLoader(dataset, places, drop_last)


class GeneratorLoader(PyReader):
    """What 1.6's `DataLoader.from_generator` returns: `PyReader`'s loader
    with `set_*` names for its `decorate_*` methods."""

    def set_sample_generator(self, reader, batch_size, drop_last=True, places=None):
        self.decorate_sample_generator(reader, batch_size, drop_last, places)
        return self

    def set_sample_list_generator(self, reader, places=None):
        self.decorate_sample_list_generator(reader, places)
        return self

    def set_batch_generator(self, reader, places=None):
        self.decorate_batch_generator(reader, places)
        return self


class _BatchedTensorProvider(object):
    """1.x's `data_feeder.BatchedTensorProvider`: samples gathered into
    arrays of each feed variable's dtype (reshaped to its shape when the
    ranks differ), `batch_size` at a time."""

    def __init__(self, feed_list, batch_size, generator, drop_last):
        from .data_feeder import DataToLoDTensorConverter
        self.batch_size = batch_size
        self.generator = generator
        self.drop_last = drop_last
        self.converters = []
        for var in feed_list:
            assert var.lod_level == 0, "lod_level must be 0"
            self.converters.append(DataToLoDTensorConverter(
                place=core.CPUPlace(), lod_level=0, shape=list(var.shape), dtype=var.dtype))

    def _done(self):
        return [c.done() for c in self.converters]

    def __call__(self):
        idx = 0
        for each_sample in self.generator():
            for each_slot, each_converter in zip(each_sample, self.converters):
                each_converter.data.append(each_slot)
            idx += 1
            if idx == self.batch_size:
                idx = 0
                yield self._done()
        if not self.drop_last and idx > 0:
            yield self._done()
        else:
            # What drop_last dropped (1.5 kept it for the next pass).
            for c in self.converters:
                c._reset()
