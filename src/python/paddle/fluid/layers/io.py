"""Input layers (1.x's `layers/io.py`): `data`, and the readers a
program reads its data through: `py_reader`, `create_py_reader_by_data`,
`double_buffer`, `batch`, `shuffle`, `read_file`, and the file readers
`open_files`, `open_recordio_file`, `random_data_generator` (their ops and
variables are 1.x's; what the readers do is `reader_core`'s)."""
import os

from .. import core
from .. import reader_core
from .. import unique_name
from ..framework import (Program, convert_np_dtype_to_dtype_, default_main_program,
                         default_startup_program, program_guard)
from ..layer_helper import LayerHelper

__all__ = ["data", "read_file", "shuffle", "batch", "double_buffer", "py_reader",
           "create_py_reader_by_data", "open_files", "open_recordio_file",
           "random_data_generator"]


def data(name, shape, append_batch_size=True, dtype="float32", lod_level=0,
         type=core.VarDesc.VarType.LOD_TENSOR, stop_gradient=True):
    """A variable of the global block the executor feeds. As in 1.x, the
    batch dim -1 is put first unless a dim is already negative (or
    `append_batch_size=False`)."""
    helper = LayerHelper("data", **locals())
    if not isinstance(shape, (list, tuple)):
        raise TypeError("The type of 'shape' in data must be list or tuple, but received %s"
                        % type(shape).__name__)
    # 1.6: a None dim is unknown (-1), and like a negative one it means
    # the shape already has its batch dim.
    shape = [-1 if d is None else int(d) for d in shape]
    if append_batch_size and all(d >= 0 for d in shape):
        shape = [-1] + shape
    var = default_main_program().global_block().create_var(
        name=name, shape=shape, dtype=convert_np_dtype_to_dtype_(dtype), type=type,
        stop_gradient=stop_gradient, lod_level=lod_level if lod_level > 0 else None,
        is_data=True)
    del helper
    return var


_READER = core.VarDesc.VarType.READER


def monkey_patch_reader_methods(reader):
    """A reader variable as 1.x returned it: `reset()` resets the reader
    the variable names, and it is persistable and stops gradients."""
    def reset():
        r = reader_core.reader_of(reader.name)
        if r is not None:
            r.reset()

    reader.reset = reset
    reader.stop_gradient = True
    reader.persistable = True
    return reader


def _copy_reader_var_(block, var):
    new_var = block.create_var(name=var.name, type=_READER, persistable=True)
    new_var._reader_meta = var._reader_meta
    return new_var


def _create_unshared_decorated_reader(op_type, reader, attrs, make, name=None):
    """A reader over `reader` in the main program (`op_type`'s op; `make`
    builds what it does over the underlying reader)."""
    meta = _reader_meta(reader, op_type)
    new_name = name if name is not None else unique_name.generate(op_type)
    main_blk = default_main_program().current_block()
    new_reader = main_blk.create_var(name=new_name, type=_READER)
    new_reader._reader_meta = meta
    main_blk.append_op(type=op_type, inputs={"UnderlyingReader": reader},
                       outputs={"Out": [new_reader]}, attrs=attrs)
    underlying = reader_core.reader_of(reader.name)
    if underlying is not None:
        reader_core.register(new_name, make(underlying))
    return monkey_patch_reader_methods(new_reader)


def _reader_meta(reader, what):
    meta = getattr(reader, "_reader_meta", None)
    if meta is None:
        raise TypeError("%s takes a reader variable (made by fluid.layers.py_reader, "
                        "double_buffer, batch, ...), not %s" % (what, getattr(reader, "name", reader)))
    return meta


def _py_reader(capacity, shapes, dtypes, lod_levels=None, name=None, use_double_buffer=True,
               feed_list=None):
    if feed_list is not None:
        if not isinstance(feed_list, list):
            raise TypeError("feed_list should be a list of Variable instead of " +
                            str(type(feed_list)))
        dtypes = [v.dtype for v in feed_list]
        shapes = [list(v.shape) for v in feed_list]
        lod_levels = [v.lod_level for v in feed_list]
    else:
        dtypes = [convert_np_dtype_to_dtype_(dt) for dt in dtypes]
        shapes = [list(s) for s in shapes]
        if lod_levels is None:
            lod_levels = [0] * len(shapes)
    shape_concat, ranks = [], []
    for shape in shapes:
        shape_concat.extend(shape)
        ranks.append(len(shape))

    if name is None:
        queue_name = unique_name.generate("lod_tensor_blocking_queue")
        reader_name = unique_name.generate("create_py_reader")
        double_buffer_name = unique_name.generate("double_buffer")
    else:
        queue_name = "_".join([name, "queue"])
        reader_name = "_".join([name, "reader"])
        double_buffer_name = "_".join([name, "double_buffer"])

    feed_queue = core.init_lod_tensor_blocking_queue(queue_name, capacity)
    feeder = reader_core.Feeder(feed_queue)
    reader_core.register(reader_name, reader_core._PyReader(feed_queue, feeder))

    startup_blk = default_startup_program().current_block()
    startup_var = startup_blk.create_var(name=reader_name, type=_READER, persistable=True)
    startup_var._reader_meta = (shapes, dtypes, list(lod_levels))
    startup_blk.append_op(
        type="create_py_reader", inputs={"blocking_queue": [queue_name]},
        outputs={"Out": [startup_var]},
        attrs={"shape_concat": shape_concat, "lod_levels": list(lod_levels), "ranks": ranks})

    main_prog_var = _copy_reader_var_(default_main_program().current_block(), startup_var)
    reader = monkey_patch_reader_methods(main_prog_var)
    if use_double_buffer:
        double_buffer_reader = double_buffer(reader, name=double_buffer_name)
        # 1.x: the double buffer reader is returned, with the py_reader's reset.
        double_buffer_reader.reset = reader.reset
        reader = double_buffer_reader

    # The py_reader's own methods, as 1.x monkey-patched them.
    reader.queue = feed_queue
    current_reset_method = reader.reset
    reader.thread = None
    reader.tensor_provider = None
    reader.exited = False

    def __set_tensor_provider__(func):
        reader.tensor_provider = func
        feeder.provider = func

    def __set_paddle_reader__(paddle_reader):
        with program_guard(Program(), Program()):
            actual_feed_list = feed_list
            if actual_feed_list is None:
                actual_feed_list = []
                for counter, (dtype, shape, lod_level) in enumerate(
                        zip(dtypes, shapes, lod_levels)):
                    actual_feed_list.append(data(name=str(counter), dtype=dtype, shape=shape,
                                                 lod_level=lod_level))
            data_names = [feed_data.name for feed_data in actual_feed_list]
            from ..data_feeder import DataFeeder
            feeder_ = DataFeeder(feed_list=actual_feed_list, place=core.CPUPlace())
            paddle_reader = feeder_.decorate_reader(paddle_reader, multi_devices=False)

        def __tensor_provider__():
            for slots in paddle_reader():
                yield [slots[data_name] for data_name in data_names]

        __set_tensor_provider__(__tensor_provider__)

    def __reset__():
        current_reset_method()
        feeder.reset()
        reader.thread = None

    def __start__():
        feeder.start()
        reader.thread = feeder.thread

    reader.reset = __reset__
    reader.decorate_tensor_provider = __set_tensor_provider__
    reader.decorate_paddle_reader = __set_paddle_reader__
    reader.decorate_batch_generator = __set_tensor_provider__
    reader.decorate_sample_list_generator = __set_paddle_reader__
    reader.start = __start__
    return reader


def py_reader(capacity, shapes, dtypes, lod_levels=None, name=None, use_double_buffer=True):
    """A reader variable fed from Python (1.x): decorate it with a
    generator (`decorate_paddle_reader(batched_reader)` of samples, or
    `decorate_tensor_provider(generator)` of batches), `start()` it before
    each pass, read it with `read_file`; `Executor.run` raises
    `fluid.core.EOFException` at the end of the pass, then `reset()` it."""
    return _py_reader(capacity=capacity, shapes=shapes, dtypes=dtypes, lod_levels=lod_levels,
                      name=name, use_double_buffer=use_double_buffer)


def create_py_reader_by_data(capacity, feed_list, name=None, use_double_buffer=True):
    """`py_reader` with the shapes, dtypes and LoD levels of `feed_list`'s
    variables (1.5)."""
    return _py_reader(capacity=capacity, shapes=None, dtypes=None, lod_levels=None, name=name,
                      use_double_buffer=use_double_buffer, feed_list=feed_list)


def double_buffer(reader, place=None, name=None):
    """A reader that reads `reader` ahead (1.x: into a second buffer, on
    the device `place`)."""
    attrs = dict()
    if place is not None:
        attrs["place"] = str(place).upper()
    return _create_unshared_decorated_reader(
        "create_double_buffer_reader", reader, attrs, reader_core._DoubleBufferReader, name=name)


def batch(reader, batch_size):
    """A reader whose batches join `batch_size` reads of `reader` (the
    last one may be shorter)."""
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError("batch_size must be greater than 0")
    return _create_unshared_decorated_reader(
        "create_batch_reader", reader, {"batch_size": batch_size},
        lambda r: reader_core._BatchReader(r, batch_size))


def shuffle(reader, buffer_size):
    """A reader giving `reader`'s batches shuffled within windows of
    `buffer_size`."""
    buffer_size = int(buffer_size)
    if buffer_size <= 0:
        raise ValueError("buffer_size must be greater than 0")
    return _create_unshared_decorated_reader(
        "create_shuffle_reader", reader, {"buffer_size": buffer_size},
        lambda r: reader_core._ShuffleReader(r, buffer_size))


def read_file(reader):
    """The data variables `reader` gives, one per slot (a single variable
    for one slot): its next batch each time the program runs."""
    shapes, dtypes, lod_levels = _reader_meta(reader, "read_file")
    helper = LayerHelper("read_file")
    out = []
    for shape, dtype, lod_level in zip(shapes, dtypes, lod_levels):
        v = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
        v.shape = shape
        if lod_level:
            v.lod_level = lod_level
        out.append(v)
    helper.append_op(type="read", inputs={"Reader": [reader]}, outputs={"Out": out})
    if len(out) == 1:
        return out[0]
    return out


def _startup_reader(op_type, name_prefix, attrs, shapes, dtypes, lod_levels, reader,
                    pass_num=1):
    """A reader variable made in the startup program by `op_type` (1.x's
    file readers), copied into the main program; `reader` is what it
    reads."""
    dtypes = [convert_np_dtype_to_dtype_(dt) for dt in dtypes]
    shapes = [list(s) for s in shapes]
    shape_concat, ranks = [], []
    for shape in shapes:
        shape_concat.extend(shape)
        ranks.append(len(shape))
    attrs = dict(attrs, shape_concat=shape_concat, lod_levels=list(lod_levels), ranks=ranks)
    var_name = unique_name.generate(name_prefix)
    startup_blk = default_startup_program().current_block()
    startup_var = startup_blk.create_var(name=var_name, type=_READER, persistable=True)
    startup_var._reader_meta = (shapes, dtypes, list(lod_levels))
    startup_blk.append_op(type=op_type, outputs={"Out": [startup_var]}, attrs=attrs)
    reader_core.register(var_name, reader)
    main_var = _copy_reader_var_(default_main_program().current_block(), startup_var)
    if pass_num > 1:
        main_var = _multi_pass(main_var, pass_num)
    return monkey_patch_reader_methods(main_var)


def _multi_pass(reader, pass_num):
    """1.x's `multi_pass`: `reader` `pass_num` times over before EOF (its
    create_multi_pass_reader op in the startup program and, copied, in the
    main one)."""
    meta = _reader_meta(reader, "multi_pass")
    attrs = {"pass_num": int(pass_num)}
    var_name = unique_name.generate("create_multi_pass_reader")
    startup_blk = default_startup_program().current_block()
    startup_var = startup_blk.create_var(name=var_name, type=_READER, persistable=True)
    startup_var._reader_meta = meta
    startup_blk.append_op(type="create_multi_pass_reader",
                          inputs={"UnderlyingReader": [startup_blk.var(reader.name)]},
                          outputs={"Out": [startup_var]}, attrs=attrs)
    main_blk = default_main_program().current_block()
    main_var = _copy_reader_var_(main_blk, startup_var)
    main_blk.append_op(type="create_multi_pass_reader", inputs={"UnderlyingReader": [reader]},
                       outputs={"Out": [main_var]}, attrs=attrs)
    reader_core.register(var_name, reader_core._MultiPassReader(
        reader_core.reader_of(reader.name), int(pass_num)))
    return monkey_patch_reader_methods(main_var)


def open_recordio_file(filename, shapes, lod_levels, dtypes, pass_num=1, for_parallel=True):
    """A reader of the RecordIO file `filename` (written by
    `fluid.recordio_writer`): each read gives one record's tensors, the
    batch one DataFeeder.feed made; EOF at the end of the file (after
    `pass_num` passes), then `reset()` starts it again."""
    return _startup_reader(
        "create_recordio_file_reader", "open_recordio_file", {"filename": filename}, shapes,
        dtypes, lod_levels, reader_core._RecordIOFileReader([filename]), pass_num)


def open_files(filenames, shapes, lod_levels, dtypes, thread_num=None, buffer_size=None,
               pass_num=1, is_test=None):
    """A reader of the RecordIO files `filenames` (names ending in
    `.recordio`): their records, file after file (1.x read them on
    `thread_num` threads, in no set order unless `is_test`; fluidc reads
    them in the order given, on the thread that runs the program)."""
    if thread_num is None:
        thread_num = min(len(filenames), os.cpu_count() or 1)
    else:
        thread_num = int(thread_num)
    if buffer_size is None:
        buffer_size = 3 * thread_num
    else:
        buffer_size = int(buffer_size)
    if isinstance(filenames, str):
        filenames = [filenames]
    attrs = {"file_names": list(filenames), "thread_num": thread_num,
             "buffer_size": buffer_size}
    if is_test is not None:
        attrs["is_test"] = is_test
    return _startup_reader(
        "open_files", "multi_file_reader", attrs, shapes, dtypes, lod_levels,
        reader_core._RecordIOFileReader(filenames, by_suffix=True), pass_num)


def random_data_generator(low, high, shapes, lod_levels, for_parallel=True):
    """A reader of float32 data uniform in [low, high), of the given
    (complete, rank 2 at least) shapes, that never ends: for trying a
    network without data."""
    reader = reader_core._RandomDataGenerator(low, high, shapes)
    return _startup_reader(
        "create_random_data_generator", "random_data_generator", {"low": low, "high": high},
        shapes, [core.VarDesc.VarType.FP32] * len(shapes), lod_levels, reader)
