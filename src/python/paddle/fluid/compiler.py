"""paddle.fluid.compiler: `CompiledProgram`, `BuildStrategy`,
`ExecutionStrategy`.

fluidc compiles every program it runs itself, so a CompiledProgram runs
as the program it wraps (`Executor.run` takes either). `with_data_parallel`
runs it as 1.x did, through a ParallelExecutor over the CPU places
(`CPU_NUM`, or `places`), made on the first run in that run's scope. The
strategies keep their settings, which change no values.
"""

from . import framework

__all__ = ["CompiledProgram", "BuildStrategy", "ExecutionStrategy"]


class _Enum(object):
    """A pybind11 enum value, as 1.x's strategies' enums were."""

    def __init__(self, owner, name, value):
        self._owner, self.name, self.value = owner, name, value

    def __int__(self):
        return self.value

    def __eq__(self, other):
        return isinstance(other, _Enum) and (self._owner, self.value) == (other._owner, other.value)

    def __hash__(self):
        return hash((self._owner, self.value))

    def __repr__(self):
        return "%s.%s" % (self._owner, self.name)


class _ReduceStrategy(object):
    AllReduce = _Enum("ReduceStrategy", "AllReduce", 0)
    Reduce = _Enum("ReduceStrategy", "Reduce", 1)


class _GradientScaleStrategy(object):
    CoeffNumDevice = _Enum("GradientScaleStrategy", "CoeffNumDevice", 0)
    One = _Enum("GradientScaleStrategy", "One", 1)
    Customized = _Enum("GradientScaleStrategy", "Customized", 2)


class BuildStrategy(object):
    """How 1.x's ParallelExecutor built its graph (its settings only)."""

    ReduceStrategy = _ReduceStrategy
    GradientScaleStrategy = _GradientScaleStrategy

    __slots__ = (
        "reduce_strategy", "gradient_scale_strategy", "debug_graphviz_path",
        "enable_sequential_execution", "remove_unnecessary_lock", "num_trainers",
        "trainer_id", "trainers_endpoints", "nccl_comm_num", "use_hierarchical_allreduce",
        "hierarchical_allreduce_inter_nranks", "fuse_elewise_add_act_ops", "fuse_bn_act_ops",
        "fuse_relu_depthwise_conv", "fuse_broadcast_ops", "fuse_all_optimizer_ops",
        "sync_batch_norm", "memory_optimize", "enable_inplace", "fuse_all_reduce_ops",
        "enable_backward_optimizer_op_deps", "cache_runtime_context", "enable_auto_fusion",
        "is_distribution", "async_mode", "mkldnn_enabled_op_types",
    )

    def __init__(self):
        self.reduce_strategy = _ReduceStrategy.AllReduce
        self.gradient_scale_strategy = _GradientScaleStrategy.CoeffNumDevice
        self.debug_graphviz_path = ""
        self.enable_sequential_execution = False
        self.remove_unnecessary_lock = True
        self.num_trainers = 1
        self.trainer_id = 0
        self.trainers_endpoints = []
        self.nccl_comm_num = 1
        self.use_hierarchical_allreduce = False
        self.hierarchical_allreduce_inter_nranks = 0
        self.fuse_elewise_add_act_ops = False
        self.fuse_bn_act_ops = False
        self.fuse_relu_depthwise_conv = False
        self.fuse_broadcast_ops = False
        self.fuse_all_optimizer_ops = False
        self.sync_batch_norm = False
        self.memory_optimize = None
        self.enable_inplace = None
        self.fuse_all_reduce_ops = None
        self.enable_backward_optimizer_op_deps = True
        self.cache_runtime_context = False
        self.enable_auto_fusion = False
        self.is_distribution = False
        self.async_mode = False
        self.mkldnn_enabled_op_types = set()


class ExecutionStrategy(object):
    """How 1.x's ParallelExecutor ran its graph (its settings only)."""

    __slots__ = ("num_threads", "use_cuda", "allow_op_delay", "num_iteration_per_drop_scope",
                 "num_iteration_per_run", "use_thread_barrier", "dry_run")

    def __init__(self):
        self.num_threads = 0
        self.use_cuda = True
        self.allow_op_delay = False
        self.num_iteration_per_drop_scope = 100
        self.num_iteration_per_run = 1
        self.use_thread_barrier = False
        self.dry_run = False


def _check_type(value, name, cls):
    if value is not None and not isinstance(value, cls):
        raise TypeError("%s must be a fluid.%s, not %s"
                        % (name, cls.__name__, type(value).__name__))


class CompiledProgram(object):
    """A program as `Executor.run` runs it (`_program`)."""

    def __init__(self, program_or_graph, build_strategy=None):
        if not isinstance(program_or_graph, framework.Program):
            raise TypeError(
                "The type of program_to_graph parameter is wrong, expected Graph or Program, "
                "but received %s" % type(program_or_graph))
        _check_type(build_strategy, "build_strategy", BuildStrategy)
        self._program = program_or_graph
        self._build_strategy = build_strategy
        self._exec_strategy = None
        self._loss_name = None
        self._share_vars_from = None
        self._places = None
        self._is_data_parallel = False
        self._executor = None

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None,
                           share_vars_from=None, places=None):
        """Runs the program on fluidc's one CPU place, with a note (the
        batch is not split; a one-device run gives the same results)."""
        if self._is_data_parallel:
            raise AssertionError("Already compiled with parallel.")
        _check_type(build_strategy, "build_strategy", BuildStrategy)
        _check_type(exec_strategy, "exec_strategy", ExecutionStrategy)
        if share_vars_from is not None and not isinstance(share_vars_from, CompiledProgram):
            raise TypeError("share_vars_from must be a CompiledProgram, not %s"
                            % type(share_vars_from).__name__)
        self._is_data_parallel = True
        self._loss_name = loss_name
        if build_strategy is not None:
            self._build_strategy = build_strategy
        self._exec_strategy = exec_strategy
        self._share_vars_from = share_vars_from
        if places is not None and not isinstance(places, (list, tuple)):
            places = [places]  # one place, as 1.6's with_data_parallel took it
        self._places = places
        return self

    def _run_data_parallel(self, scope, feed, fetch_list, return_numpy):
        """`Executor.run` of a data-parallel program: its ParallelExecutor
        (made on the first run, as 1.x's `_compile`) runs it."""
        if self._executor is None:
            from .parallel_executor import ParallelExecutor
            share = None
            if self._share_vars_from is not None:
                share = self._share_vars_from._executor
                if share is None:
                    raise ValueError("The shared Program is not compiled and executed, so there "
                                     "is no variables to share.")
            self._executor = ParallelExecutor(
                False, loss_name=self._loss_name, main_program=self._program,
                share_vars_from=share, exec_strategy=self._exec_strategy,
                build_strategy=self._build_strategy, scope=scope,
                _place_count=None if self._places is None else len(self._places))
        return self._executor.run(fetch_list, feed=feed, return_numpy=return_numpy)
