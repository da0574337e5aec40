"""paddle.fluid.parallel_executor: 1.x's `ParallelExecutor`, on fluidc's one
CPU place.

1.x's ParallelExecutor copied the program to every device (each GPU, or
`CPU_NUM` CPU places, `multiprocessing.cpu_count()` of them by default),
split each fed batch between them, averaged the gradients, and returned
each fetch concatenated over the devices. fluidc has one CPU place, so a
ParallelExecutor here is an `Executor` running `main_program` in `scope`
with the whole batch: `device_count` is 1 and each fetch is that one
device's value, as 1.x returned with `CPU_NUM=1`.

What would need more devices raises instead of being ignored:
`use_cuda=True` (fluidc is not built with CUDA; a CPU-only 1.x build
failed there too), a `CPU_NUM` other than 1, `num_trainers` above 1
(NCCL2 training over several nodes), and a feed list of more than one
per-device dict. `exec_strategy` and `build_strategy` keep their
settings, which decide how 1.x scheduled and fused the graph on several
devices and change nothing on one (see compiler.py).
"""
import os
import sys

from . import core
from . import framework
from .compiler import BuildStrategy, ExecutionStrategy
from .executor import Executor, global_scope
from .lod_tensor_core import Scope

__all__ = ["ParallelExecutor", "ExecutionStrategy", "BuildStrategy"]


def _one_cpu():
    cpu_num = os.environ.get("CPU_NUM")
    if cpu_num is not None and cpu_num.strip() != "1":
        raise NotImplementedError(
            "ParallelExecutor: CPU_NUM=%s asks for %s CPU places, each running part of every "
            "batch; fluidc runs the program on one CPU place (set CPU_NUM=1, or leave it "
            "unset)" % (cpu_num, cpu_num))


class ParallelExecutor(object):
    """`ParallelExecutor(use_cuda, loss_name=None, main_program=None,
    share_vars_from=None, exec_strategy=None, build_strategy=None,
    num_trainers=1, trainer_id=0, scope=None)` (see the module's note)."""

    def __init__(self, use_cuda, loss_name=None, main_program=None, share_vars_from=None,
                 exec_strategy=None, build_strategy=None, num_trainers=1, trainer_id=0,
                 scope=None):
        if use_cuda:
            raise AttributeError(
                "ParallelExecutor(use_cuda=True) needs CUDA devices, and fluidc is not compiled "
                "with CUDA (a CPU-only Paddle 1.x failed here too, with \"module "
                "'paddle.fluid.core' has no attribute 'get_cuda_device_count'\"); pass "
                "use_cuda=False")
        _one_cpu()
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
        self._places = [core.CPUPlace()]
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

    def run(self, fetch_list, feed=None, feed_dict=None, return_numpy=True):
        """Runs the program once on `feed` (a dict, or a list of one dict
        per device: here one) and returns the fetched values, as
        `Executor.run` does."""
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
            feed = feed[0]
        elif feed is not None and not isinstance(feed, dict):
            raise TypeError("feed must be a dict, or a list of one dict per device, not %s"
                            % type(feed).__name__)
        return self._exe.run(self._program, feed=feed, fetch_list=fetch_list,
                             scope=self._run_scope, return_numpy=return_numpy)

    @property
    def device_count(self):
        return len(self._act_places)

    def drop_local_exe_scopes(self):
        """1.5: dropped the devices' temporary scopes; fluidc's runs keep
        none between runs."""

