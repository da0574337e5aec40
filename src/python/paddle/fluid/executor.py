"""paddle.fluid.executor: Executor, the global scope, scope_guard.

`Executor.run` is where build mode and run mode part (README, "Run mode"): the
command line's host either records the run and stops the script
(compile, dump, graph, check) or runs the program now in the scope's
session and returns the fetched values.
"""
import contextlib
import sys

import _fluidc
import numpy as np

from . import core
from . import framework
from . import reader_core
from .lod_tensor_core import LoDTensor, Scope

__all__ = ["Executor", "global_scope", "scope_guard"]

_HOST = _fluidc.HOST
_global_scope = None


def global_scope():
    """The scope runs use (inside `scope_guard(s)`, `s`)."""
    global _global_scope
    if _global_scope is None:
        _global_scope = Scope(_HOST.session(True))
    return _global_scope


def _switch_scope(scope):
    global _global_scope
    old = global_scope()
    _global_scope = scope
    return old


@contextlib.contextmanager
def scope_guard(scope):
    if not isinstance(scope, Scope):
        raise TypeError("scope_guard takes a fluid.Scope(), not %s" % type(scope).__name__)
    old = _switch_scope(scope)
    try:
        yield
    finally:
        _switch_scope(old)


def _as_lodtensor(data, place):
    """1.0-1.6's: a LoDTensor holding a copy of the numpy array `data` on
    `place` (no LoD: a list, data with LoD, is refused)."""
    if isinstance(data, list):
        raise RuntimeError("Some of your feed data hold LoD information. "
                           "                They can not be completely cast from a list of Python "
                           "                ndarray to LoDTensor. Please convert data to LoDTensor "
                           "                directly before feeding the data."
                           "                ")
    tensor = core.LoDTensor()
    tensor.set(data, place)
    return tensor


def as_numpy(tensor):
    """1.x's: a LoDTensor's data as a numpy array (None when it has none;
    one per tensor of a list or LoDTensorArray); a tensor with LoD is
    refused, as `run` refuses to return it as an array."""
    if isinstance(tensor, list):  # a LoDTensorArray is a list
        return [as_numpy(t) for t in tensor]
    assert isinstance(tensor, LoDTensor)
    if len(tensor.lod()) > 0:
        raise RuntimeError(_LOD_FETCH)
    if tensor._is_initialized():
        return np.array(tensor)
    return None


def _fetch_var(name, scope=None, return_numpy=True):
    """The value the scope holds for variable `name`."""
    if isinstance(name, framework.Variable):
        name = name.name
    if scope is None:
        scope = global_scope()
    var = scope.find_var(name)
    if var is None:
        raise ValueError(
            "Cannot find %s in scope. Perhaps you need to make the variable persistable "
            "by using var.persistable = True in your program." % name)
    tensor = var.get_tensor()
    if return_numpy:
        return np.array(tensor)
    return tensor


def _names(items, what):
    """The names of `items`: 1.0-1.5 took any sized iterable of Variables
    and names (a list, a tuple, a set: `fetch_list={g_img}`), in its
    iteration order; a lone Variable or name is one, as 1.6 made it."""
    if items is None:
        return []
    if isinstance(items, (framework.Variable, str)):
        items = [items]
    if not (hasattr(items, "__iter__") and hasattr(items, "__len__")):
        raise TypeError("%s must be a list of Variables or names, not %s" % (what, type(items).__name__))
    out = []
    for it in items:
        if isinstance(it, framework.Variable):
            out.append(it.name)
        elif isinstance(it, str):
            out.append(it)
        else:
            raise TypeError("%s must hold Variables or names, not %s" % (what, type(it).__name__))
    return out


def _program_of(program):
    if program is None:
        return framework.default_main_program()
    inner = getattr(program, "_program", None)
    if inner is not None:  # a CompiledProgram
        return inner
    if not isinstance(program, framework.Program):
        raise TypeError("Executor requires Program as its Parameter. But you passed in %s"
                        % type(program))
    return program


class FetchHandler(object):
    """1.6's `fetch_handler` of `train_from_dataset` / `infer_from_dataset`:
    every `period_secs` seconds while the dataset trains, `handler` gets
    `{key: numpy array}` for the variables of `var_dict` (`{key:
    Variable}`), None for one the scope does not hold or holds no data
    for yet. Subclass it and override `handler`; 1.6's own printed each
    array's first element. When fluidc calls it:
    `trainer_factory.FetchHandlerMonitor`."""

    def __init__(self, var_dict=None, period_secs=60):
        assert var_dict is not None
        self.var_dict = var_dict
        self.period_secs = period_secs

    def handler(self, res_dict):
        for key in res_dict:
            if type(res_dict[key]) is np.ndarray:
                sys.stdout.write("{}[0]: {} ".format(key, res_dict[key][0]))
        sys.stdout.write("\n")

    @staticmethod
    def help():
        print("""
class FetchHandlerExample(FetchHandler):
    def handler(self, res_dict):
        print(res_dict["auc"])
        print("auc: {}, {}".format(res_dict["auc"], time.ctime()))

auc = Variable()
var_dict = {"auc": auc}
handler = FetchHandlerExample(var_dict=var_dict)
""")


_LOD_FETCH = ("Some of your fetched tensors hold LoD information. \
            They can not be completely cast to Python ndarray. \
            Please set the parameter 'return_numpy' as 'False' to \
            return DenseTensor itself directly.")


class Executor(object):
    def __init__(self, place=None):
        self.place = place

    def close(self):
        pass

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=False):
        if getattr(program, "_is_data_parallel", False) and not _HOST.build:
            return program._run_data_parallel(scope if scope is not None else global_scope(),
                                              feed, fetch_list, return_numpy)
        program = _program_of(program)
        if feed is None:
            feed = {}
        elif isinstance(feed, (list, tuple)):
            # 1.5: one feed dict per device (an iterable PyReader's
            # batches); fluidc runs on one.
            assert len(feed) == 1, "Not compiled with data parallel"
            feed = feed[0]
        if not isinstance(feed, dict):
            raise TypeError("feed requires dict as its Parameter. But you passed in %s"
                            % type(feed))
        fetch = _names(fetch_list, "fetch_list")
        if _HOST.build:
            return self._record(program, feed, fetch)
        if scope is None:
            scope = global_scope()
        scope._push_arrays()
        feeds = [(name, value._h, lod, keep)
                 for name, value, lod, keep in _fed_values(program, feed)]
        desc = _runnable_desc(program)
        plan = reader_core.plan(program) if reader_core._READERS else None
        if plan is not None:
            # The runtime has no reader ops: it runs the program without
            # them, each `read` op's outputs fed its reader's next batch.
            desc, reads = plan
            feeds = _read_batches(reads, feeds)
        results = _HOST.run(scope._session, desc, feeds, fetch)
        return _fetched([(np.ndarray._wrap(h), lod) for (h, lod) in results], return_numpy)

    def _record(self, program, feed, fetch):
        """Build mode: a startup program's run does nothing; the first run
        of any other program is what the command writes, and ends the
        script."""
        if program._is_startup:
            return []
        block = program.global_block()
        for name in list(feed) + list(fetch):
            if isinstance(name, framework.Variable):
                name = name.name
            if not block.program.desc.var_has(0, name):
                raise ValueError("var %s not in this block" % name)
        startup = (reader_core.runnable_desc(program._startup)
                   if program._startup is not None else None)
        feed_names = [n.name if isinstance(n, framework.Variable) else n for n in feed]
        desc = _runnable_desc(program)
        plan = reader_core.plan(program) if reader_core._READERS else None
        if plan is not None:
            # What the program reads is fed in the program fluidc writes.
            desc, reads = plan
            for _, outs in reads:
                feed_names += [n for n in outs if n not in feed_names]
        _HOST.record(desc, startup, feed_names, fetch)
        raise _fluidc.BuildStop()

    def train_from_dataset(self, program=None, dataset=None, scope=None, thread=0, debug=False,
                           fetch_list=None, fetch_info=None, print_period=100,
                           fetch_handler=None):
        """Runs `program` on each batch of `dataset` (a `fluid.dataset`
        Dataset), printing `fetch_list` each `print_period` batches."""
        from . import dataset as dataset_module
        return dataset_module._run_from_dataset(self, program, dataset, scope, thread, debug,
                                                fetch_list, fetch_info, print_period,
                                                fetch_handler)

    # 1.x's infer_from_dataset ran the program as train_from_dataset does
    # (only distributed training told them apart: it pushed no gradients).
    infer_from_dataset = train_from_dataset


def _name_of(var):
    """A feed dict key's variable name."""
    return var.name if isinstance(var, framework.Variable) else var


def _runnable_desc(program):
    """`program`'s desc without its own feed and fetch ops (a loaded
    inference model has them, as 1.x's did): 1.x's executor ran a program's
    feed and fetch ops in place of adding its own, fluidc's runtime adds its
    own for every run. Kept on the program until the package edits one."""
    cached = program.__dict__.get("_runnable_desc")
    if cached is not None and cached[0] == framework._edits:
        return cached[1]
    desc = program.desc
    if any(desc.op_type(0, i) in ("feed", "fetch") for i in range(desc.op_count(0))):
        desc = _fluidc.split_feed_fetch(desc)[0]
    program.__dict__["_runnable_desc"] = (framework._edits, desc)
    return desc


def _fed_values(program, feed):
    """`(name, ndarray, lod, keep_dtype)` of each item of a feed dict: a
    LoDTensor or a numpy array is fed with its own dtype, as 1.x's feed op
    set it; a list or number becomes the variable's (docs/choices.md)."""
    block = program.global_block()
    fed = []
    for name, value in feed.items():
        name = _name_of(name)
        if not block.program.desc.var_has(0, name):
            # 1.x looked each fed name up with `global_block.var(name)`
            # (3.3.1 warns and ignores the feed).
            raise ValueError("var %s not in this block" % name)
        lod = []
        keep = isinstance(value, (LoDTensor, np.ndarray))
        if isinstance(value, LoDTensor):
            lod = value.lod()
            value = np.array(value)
        else:
            value = np.asarray(value)
        fed.append((name, value, lod, keep))
    return fed


def _fetched(results, return_numpy):
    """What `run` returns for its `(ndarray, lod)` results: arrays, or
    LoDTensors with `return_numpy=False` (arrays with LoD refuse, as 1.x's
    `as_numpy` did)."""
    if return_numpy:
        for (_, lod) in results:
            if lod:
                raise RuntimeError(_LOD_FETCH)
        return [a for (a, _) in results]
    return [LoDTensor._make(a, lod) for (a, lod) in results]


def _read_batches(reads, feeds):
    """`feeds` with each read op's outputs fed the next batch of its
    reader (over a feed of the same name: the read op ran after the feed
    ops); `core.EOFException` when a reader has no more."""
    fed = []
    for reader_name, outs in reads:
        batch = reader_core.read_next(reader_name)
        if len(batch) != len(outs):
            raise core.EnforceNotMet("input data number and output data number of read_op do not "
                                     "match (%d and %d)" % (len(batch), len(outs)))
        for name, (array, lod) in zip(outs, batch):
            fed.append((name, np.asarray(array)._h, lod))
    read = set(n for n, _, _ in fed)
    return [f for f in feeds if f[0] not in read] + fed


_ = core
