"""paddle.fluid.contrib.trainer: 1.x's high-level training loop.

`Trainer(train_func, optimizer_func, param_path=None, place=None,
parallel=False, checkpoint_config=None)` builds a train program and its
startup program from `train_func` (which returns the loss first, then any
metrics), a test clone of it, and the optimizer's ops, then runs the
startup program in a scope of its own (and loads `param_path`'s
persistables if that directory exists). `train(num_epochs, event_handler,
reader, feed_order)` runs the train program on each minibatch of `reader`,
calling `event_handler` with `BeginEpochEvent`, `BeginStepEvent`,
`EndStepEvent` (the fetched `metrics`, in `train_func`'s order) and
`EndEpochEvent`; `test(reader, feed_order)` averages the test program's
outputs over a reader; `stop()` ends training at the next step;
`save_params` and `save_inference_model` write the scope's variables.

`parallel=True` trains with a ParallelExecutor over the CPU places
(`CPU_NUM`), as 1.x did: each step takes one minibatch of `reader` per
place, and the metrics are concatenated over the places. What 1.x did
beyond one process raises instead of being left out: the distributed
set-ups 1.x read from the environment (`PADDLE_TRAINING_ROLE`,
`PADDLE_TRAINER_IPS`), and checkpointing (`checkpoint_config`), which the
2018 programs do not use.
"""
import contextlib
import os

from .. import core
from .. import data_feeder
from .. import executor
from .. import framework
from .. import io
from .. import optimizer as opt_module
from .. import parallel_executor

__all__ = [
    "Trainer", "BeginEpochEvent", "EndEpochEvent", "BeginStepEvent", "EndStepEvent",
    "CheckpointConfig",
]


class BeginEpochEvent(object):
    """Sent before an epoch's first step."""

    def __init__(self, epoch_id):
        self.epoch = epoch_id


class EndEpochEvent(object):
    """Sent after an epoch's last step."""

    def __init__(self, epoch_id):
        self.epoch = epoch_id


class BeginStepEvent(object):
    """Sent before a step; the handler may set `fetch_metrics` to False to
    run the step without fetching (its EndStepEvent's `metrics` is then
    empty)."""

    def __init__(self, epoch_id, step_id):
        self.epoch = epoch_id
        self.step = step_id
        self.fetch_metrics = True


class EndStepEvent(object):
    """Sent after a step, with the values `train_func` returned, fetched."""

    def __init__(self, epoch_id, step_id, metrics):
        self.epoch = epoch_id
        self.step = step_id
        self.metrics = metrics


class CheckpointConfig(object):
    """Where and how often 1.x's Trainer saved checkpoints. fluidc's
    Trainer does not checkpoint: passing one to `Trainer` raises."""

    def __init__(self, checkpoint_dir=None, max_num_checkpoints=3, epoch_interval=1,
                 step_interval=10):
        assert epoch_interval >= 1
        assert step_interval >= 1
        self.checkpoint_dir = checkpoint_dir if checkpoint_dir is not None else os.getcwd()
        self.max_num_checkpoints = max_num_checkpoints
        self.epoch_interval = epoch_interval
        self.step_interval = step_interval
        self.epoch_id = 0
        self.step_id = 0
        self.load_serial = None
        self.pserver_id = None
        self.lookup_table_name = None


def check_and_get_place(place):
    """`place`, which must be a CPUPlace or CUDAPlace; by default the CPU
    (fluidc is not built with CUDA)."""
    if place is None:
        if core.is_compiled_with_cuda():
            return core.CUDAPlace(0)
        return core.CPUPlace()
    if not isinstance(place, (core.CUDAPlace, core.CPUPlace)):
        raise TypeError("Place should be either CUDAPlace or CPUPlace")
    return place


def _refuse_distributed():
    for name in ("PADDLE_TRAINING_ROLE", "PADDLE_TRAINER_IPS"):
        if name in os.environ:
            raise NotImplementedError(
                "Trainer: %s is set, which asks for 1.x's distributed training (a "
                "DistributeTranspiler or NCCL2 job); fluidc trains in one process on one "
                "CPU place. Unset it to train locally" % name)


class Trainer(object):
    """The training loop of 1.x's high-level API (see the module's note)."""

    def __init__(self, train_func, optimizer_func, param_path=None, place=None,
                 parallel=False, checkpoint_config=None):
        self.__stop = False
        self.parallel = parallel
        self.trainer_id = 0
        self.checkpoint_cfg = checkpoint_config
        if checkpoint_config:
            assert isinstance(checkpoint_config, CheckpointConfig)
            raise NotImplementedError(
                "Trainer(checkpoint_config=...): fluidc's Trainer does not save or restore "
                "checkpoints; leave checkpoint_config out and call save_params() from the "
                "event handler")
        self.scope = core.Scope()
        self.startup_program = framework.Program()
        self.train_program = framework.Program()
        with framework.program_guard(self.train_program, self.startup_program):
            outs = train_func()
            self.train_func_outputs = outs if isinstance(outs, list) else [outs]
            self.test_program = self.train_program.clone(for_test=True)
            loss = self.train_func_outputs[0]
            optimizer = optimizer_func()
            if not isinstance(optimizer, opt_module.Optimizer):
                raise TypeError("The optimizer should be an instance of Optimizer")
            optimizer.minimize(loss)
        self.place = check_and_get_place(place)
        _refuse_distributed()
        with self._prog_and_scope_guard():
            exe = executor.Executor(place)
            exe.run(self.startup_program)
        if param_path and os.path.isdir(param_path):
            with self._prog_and_scope_guard():
                io.load_persistables(executor=exe, dirname=param_path,
                                     main_program=self.startup_program)

    def stop(self):
        """Ends training before the next step."""
        self.__stop = True

    def train(self, num_epochs, event_handler, reader=None, feed_order=None):
        """Runs `num_epochs` epochs over `reader`, feeding each minibatch's
        fields to the variables `feed_order` names, in order."""
        with self._prog_and_scope_guard():
            feed_var_list = build_feed_var_list(self.train_program, feed_order)
            feeder = data_feeder.DataFeeder(feed_list=feed_var_list, place=self.place)
            if self.parallel:
                # Made once and kept, as 1.x's `_get_or_create_parallel_executor`.
                if getattr(self, "parallel_executor", None) is None:
                    self.parallel_executor = parallel_executor.ParallelExecutor(
                        use_cuda=isinstance(self.place, core.CUDAPlace),
                        loss_name=self.train_func_outputs[0].name)
                exe = self.parallel_executor
            else:
                exe = executor.Executor(self.place)
            reader = feeder.decorate_reader(reader, multi_devices=self.parallel)
            self._train_by_any_executor(event_handler, exe, num_epochs, reader)

    def _train_by_any_executor(self, event_handler, exe, num_epochs, reader):
        fetch_names = [var.name for var in self.train_func_outputs]
        for epoch_id in range(num_epochs):
            event_handler(BeginEpochEvent(epoch_id))
            for step_id, data in enumerate(reader()):
                if self.__stop:
                    return
                begin_event = BeginStepEvent(epoch_id, step_id)
                event_handler(begin_event)
                if begin_event.fetch_metrics:
                    metrics = exe.run(feed=data, fetch_list=fetch_names)
                else:
                    metrics = exe.run(feed=data, fetch_list=[])
                event_handler(EndStepEvent(epoch_id, step_id, metrics))
            event_handler(EndEpochEvent(epoch_id))

    def test(self, reader, feed_order):
        """The test program's outputs (`train_func`'s), each averaged over
        the minibatches of `reader`: the first element of each fetch,
        summed, over the number of minibatches."""
        fetch_list = self.train_func_outputs
        with executor.scope_guard(self.scope):
            feed_var_list = build_feed_var_list(self.test_program, feed_order)
            feeder = data_feeder.DataFeeder(feed_list=feed_var_list, place=self.place)
            exe = executor.Executor(self.place)
            accumulated = len(fetch_list) * [0]
            count = 0
            for data in reader():
                outs = exe.run(program=self.test_program, feed=feeder.feed(data),
                               fetch_list=fetch_list)
                accumulated = [x[0] + x[1][0] for x in zip(accumulated, outs)]
                count += 1
            return [x / count for x in accumulated]

    def save_params(self, param_path):
        """Saves the train program's persistables (parameters and
        optimizer state) to `param_path`, one file each."""
        with self._prog_and_scope_guard():
            exe = executor.Executor(self.place)
            io.save_persistables(exe, dirname=param_path)

    def save_inference_model(self, param_path, feeded_var_names, target_var_indexes):
        """Saves an inference model of the train program to `param_path`:
        fed by `feeded_var_names`, computing the outputs of `train_func`
        at `target_var_indexes`."""
        with self._prog_and_scope_guard():
            exe = executor.Executor(self.place)
            target_vars = [self.train_func_outputs[index] for index in target_var_indexes]
            io.save_inference_model(param_path, feeded_var_names, target_vars, exe)

    @contextlib.contextmanager
    def _prog_and_scope_guard(self):
        with framework.program_guard(main_program=self.train_program,
                                     startup_program=self.startup_program):
            with executor.scope_guard(self.scope):
                yield


def build_feed_var_list(program, feed_order):
    """The variables of `program` that a minibatch's fields feed: those
    `feed_order` names (a list in order, or a dict of name to position)."""
    if not isinstance(program, framework.Program):
        raise TypeError("The 'program' should be an object of Program")
    if isinstance(feed_order, list):
        return [program.global_block().var(var_name) for var_name in feed_order]
    if not isinstance(feed_order, dict):
        raise TypeError("The 'feed_order' should be either None, list or dict.")
    if not sorted(feed_order.values()) == list(range(len(feed_order))):
        raise ValueError(
            "The values of 'feed_order' should be a permutation of [0, len(feed_order))")
    pairs = sorted(feed_order.items(), key=lambda item: item[1])
    return [program.global_block().var(name) for name, _ in pairs]
