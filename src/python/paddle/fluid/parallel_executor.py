"""paddle.fluid.parallel_executor: 1.x's `ParallelExecutor`.

1.x's ParallelExecutor on the CPU made `CPU_NUM` places
(`multiprocessing.cpu_count()` of them when `CPU_NUM` is unset), each with
a local scope holding a copy of the program's persistable variables (the
first place's is the executor's scope). A run split each fed batch along
dim 0 between the places (`batch // k` rows or LoD sequences each, the
remainder to the last; fewer samples than places was an error), or took
one feed dict per place, and each place's `read` ops took a batch of their
own. Every place ran the program on its part, the loss gradient scaled by
1/k and each parameter's gradient summed over the places before the
optimizer ran (AllReduce), so the places stay equal. Each fetched
variable came back concatenated over the places along dim 0 (a mean loss
is k values), with its LoD merged.

fluidc does the same: the places are sessions run on threads, joined by
the `all_reduce` ops `fluidc distribute` also inserts (`_HOST.run_places`,
`ProgramDesc.data_parallel`). With one place a ParallelExecutor is an
`Executor` running `main_program` in `scope`.

What would need more than CPU places raises instead of being ignored:
`use_cuda=True` (fluidc is not built with CUDA; a CPU-only 1.x build
failed there too), `num_trainers` above 1 (NCCL2 training over several
nodes). `exec_strategy` and `build_strategy` keep their settings, which
decide how 1.x scheduled and fused the graph and change no values (see
compiler.py); sparse gradients (`is_sparse=True`) on several places are
refused with the reason.
"""
import sys

import _fluidc
import numpy as np

from . import core
from . import framework
from . import reader_core
from .compiler import BuildStrategy, ExecutionStrategy
from .executor import (Executor, _fed_values, _fetched, _names, _read_batches, _runnable_desc,
                       global_scope)
from .lod_tensor_core import LoDTensor, Scope

__all__ = ["ParallelExecutor", "ExecutionStrategy", "BuildStrategy"]

_HOST = _fluidc.HOST


def _split(name, value, lod, k):
    """1.x's `SplitLoDTensor`: `k` parts of `value` along dim 0 (by
    top-level sequences when it has LoD), `batch // k` each and the
    remainder to the last, as `(ndarray, lod)`."""
    batch = len(lod[0]) - 1 if lod else (value.shape[0] if value.ndim else 1)
    if batch < k:
        raise core.EnforceNotMet(
            "The number(%d) of samples[%s] of current batch is less than the count(%d) of "
            "devices(CPU), currently, it is not allowed. You should set the environment "
            "variable CPU_NUM in the system to determine the number of devices you need."
            % (batch, name, k))
    step = batch // k
    parts = []
    for i in range(k):
        begin, end = i * step, (i + 1) * step
        if i == k - 1:
            end = batch
        if not lod:
            parts.append((value[begin:end], []))
            continue
        sub = []
        for level in lod:
            offsets = level[begin:end + 1]
            sub.append([o - offsets[0] for o in offsets])
            begin, end = offsets[0], offsets[-1]
        parts.append((value[begin:end], sub))
    return parts


def _merge(parts):
    """1.x's `MergeLoDTensor`: the places' `(ndarray, lod)` of one fetched
    variable concatenated along dim 0, LoD offsets carried on."""
    arrays = [a for a, _ in parts]
    merged = np.concatenate(arrays, axis=0) if arrays[0].ndim else np.stack(arrays)
    lod = [list(level) for level in parts[0][1]]
    for _, more in parts[1:]:
        for level, extra in zip(lod, more):
            base = level[-1]
            level.extend(base + o for o in extra[1:])
    return merged, lod


class _Places(object):
    """The places of a ParallelExecutor with more than one: their scopes
    and the program each runs."""

    def __init__(self, program, k, scope, shared=None):
        self.program = program
        self.k = k
        self.scopes = shared.scopes if shared is not None else (
            [scope] + [Scope() for _ in range(k - 1)])
        self.persistables = [
            v.name for v in program.list_vars()
            if v.persistable and v.type != core.VarDesc.VarType.RAW]
        self._cached = None
        self.copy_persistables(only_missing=False)

    def copy_persistables(self, only_missing):
        """1.x's `BCastParamsToDevices`: every place starts from the first
        place's persistable variables (and gets any made since)."""
        first = self.scopes[0]._session
        for name in self.persistables:
            others = [s._session for s in self.scopes[1:]
                      if not (only_missing and s._session.holds(name))]
            if not others:
                continue
            t = first.tensor(name)
            if t is None:
                continue
            for session in others:
                session.set_tensor(name, t[0], t[1])

    def desc(self):
        """The program each place runs, and its reads (readers planned
        first, then made data-parallel); kept until the package edits a
        program."""
        if self._cached is not None and self._cached[0] == framework._edits:
            return self._cached[1]
        plan = reader_core.plan(self.program) if reader_core._READERS else None
        desc, reads = plan if plan is not None else (_runnable_desc(self.program), [])
        result = (desc.data_parallel(self.k), reads)
        self._cached = (framework._edits, result)
        return result

    def run(self, feed, fetch_list, return_numpy):
        desc, reads = self.desc()
        fetch = _names(fetch_list, "fetch_list")
        if isinstance(feed, (list, tuple)):
            fed = [_fed_values(self.program, f) for f in feed]
        else:
            whole = _fed_values(self.program, feed or {})
            fed = [[] for _ in range(self.k)]
            for name, value, lod, keep in whole:
                var = self.program.global_block().vars.get(name)
                parts = ([(value, lod)] * self.k if var is not None and var.persistable
                         else _split(name, value, lod, self.k))
                for place, (part, part_lod) in zip(fed, parts):
                    place.append((name, part, part_lod, keep))
        feeds = [[(n, v._h, l, k) for n, v, l, k in place] for place in fed]
        if reads:
            feeds = [_read_batches(reads, f) for f in feeds]
        self.copy_persistables(only_missing=True)
        results = _HOST.run_places([s._session for s in self.scopes], desc, feeds, fetch)
        per_var = zip(*[[(np.ndarray._wrap(h), lod) for (h, lod) in place]
                        for place in results])
        return _fetched([_merge(list(parts)) for parts in per_var], return_numpy)


class ParallelExecutor(object):
    """`ParallelExecutor(use_cuda, loss_name=None, main_program=None,
    share_vars_from=None, exec_strategy=None, build_strategy=None,
    num_trainers=1, trainer_id=0, scope=None)` (see the module's note)."""

    def __init__(self, use_cuda, loss_name=None, main_program=None, share_vars_from=None,
                 exec_strategy=None, build_strategy=None, num_trainers=1, trainer_id=0,
                 scope=None, _place_count=None):
        if use_cuda:
            raise AttributeError(
                "ParallelExecutor(use_cuda=True) needs CUDA devices, and fluidc is not compiled "
                "with CUDA (a CPU-only Paddle 1.x failed here too, with \"module "
                "'paddle.fluid.core' has no attribute 'get_cuda_device_count'\"); pass "
                "use_cuda=False")
        if num_trainers != 1:
            raise NotImplementedError(
                "ParallelExecutor(num_trainers=%r) trained over several nodes with NCCL2; "
                "fluidc trains in one process (num_trainers=1)" % (num_trainers,))
        if exec_strategy is None:
            exec_strategy = ExecutionStrategy()
        if not isinstance(exec_strategy, ExecutionStrategy):
            raise TypeError("exec_strategy must be a fluid.ExecutionStrategy, not %s"
                            % type(exec_strategy).__name__)
        exec_strategy.use_cuda = False
        if build_strategy is None:
            build_strategy = BuildStrategy()
        if not isinstance(build_strategy, BuildStrategy):
            raise TypeError("build_strategy must be a fluid.BuildStrategy, not %s"
                            % type(build_strategy).__name__)
        build_strategy.num_trainers = num_trainers
        main = main_program if main_program else framework.default_main_program()
        if not isinstance(main, framework.Program):
            raise TypeError("main_program must be a fluid.Program, not %s"
                            % type(main).__name__)
        if scope is None:
            scope = global_scope()
        if not isinstance(scope, Scope):
            raise TypeError("scope must be a fluid.Scope, not %s" % type(scope).__name__)
        if share_vars_from and not isinstance(share_vars_from, ParallelExecutor):
            raise TypeError("share_vars_from must be ParallelExecutor.")
        # `_place_count`: CompiledProgram.with_data_parallel(places=...).
        self._places = framework.cpu_places(_place_count)
        self._act_places = self._places
        self._program = main
        self._loss_name = loss_name
        self._exec_strategy = exec_strategy
        self._build_strategy = build_strategy
        self._trainer_id = trainer_id
        self.scope = scope
        # 1.x ran on the local scopes of `share_vars_from`, which hold (or
        # see through their parent) its variables.
        self._run_scope = share_vars_from._run_scope if share_vars_from else scope
        self.persistable_vars = [
            v.name for v in main.list_vars()
            if v.persistable and v.type != core.VarDesc.VarType.RAW]
        self._exe = Executor(core.CPUPlace())
        self._parallel = None
        if len(self._places) > 1:
            shared = share_vars_from._parallel if share_vars_from else None
            self._parallel = _Places(main, len(self._places), self._run_scope, shared)

    def run(self, fetch_list, feed=None, feed_dict=None, return_numpy=True):
        """Runs the program once on `feed` (a dict, split between the
        places, or a list of one dict per place) and returns the fetched
        values, each concatenated over the places."""
        if feed is None and feed_dict is not None:
            feed = feed_dict
            print("`feed_dict` is deprecated. Please use `feed=`", file=sys.stderr)
        if isinstance(feed, (list, tuple)):
            if len(feed) != len(self._act_places):
                raise ValueError(
                    "Feed a list of tensor, the list should be the same size as places")
            for each in feed:
                if not isinstance(each, dict):
                    raise TypeError("Each element of feed list should be a dict")
            if self._parallel is None:
                feed = feed[0]
        elif feed is not None and not isinstance(feed, dict):
            raise TypeError("feed must be a dict, or a list of one dict per device, not %s"
                            % type(feed).__name__)
        if self._parallel is not None:
            return self._parallel.run(feed, fetch_list, return_numpy)
        return self._exe.run(self._program, feed=feed, fetch_list=fetch_list,
                             scope=self._run_scope, return_numpy=return_numpy)

    @property
    def device_count(self):
        return len(self._act_places)

    def drop_local_exe_scopes(self):
        """1.5: dropped the devices' temporary scopes; fluidc's runs keep
        none between runs."""

