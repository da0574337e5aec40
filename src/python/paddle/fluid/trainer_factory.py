"""paddle.fluid.trainer_factory: 1.6's FetchHandlerMonitor, which hands a
`fluid.executor.FetchHandler` the values of its variables.

1.6's monitor was a thread: `start()` began it, and every `period_secs`
(counted in one-second sleeps) it looked the handler's `var_dict`
variables up in the scope, took their tensors as numpy arrays (None for
one the scope lacked or held no data for) and called `handler`, until
`stop()`. `start()`/`stop()` here do the same. `train_from_dataset` does
not start the thread: fluidc runs the batches in the script's thread and
its scope keeps only the persistable variables between runs, so it calls
the handler between batches instead (`_start_between_batches`, `_due`,
`_call`; docs/training.md, Dataset).
"""
import threading
import time
import traceback

import numpy as np

from . import framework

__all__ = ["FetchHandlerMonitor"]

_LOGGER = []


def _logger():
    """1.6's trainer_factory logger: INFO and up on stderr, with the time."""
    if not _LOGGER:
        import logging
        logger = logging.getLogger("paddle.fluid.trainer_factory")
        logger.setLevel(logging.INFO)
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter(fmt="%(asctime)s-%(levelname)s: %(message)s"))
        logger.addHandler(handler)
        _LOGGER.append(logger)
    return _LOGGER[0]


class FetchHandlerMonitor(object):
    """Calls `handler.handler` with `{key: value}` for the `var_dict` of
    `handler`, the values taken from `scope`. `program` (fluidc's, for
    `train_from_dataset`): the program the batches run, whose variables
    the scope does not keep are fetched with the batch the handler
    follows, and whose variables the scope lacks are None without a
    warning (1.6's worker scope held every variable of the program from
    the start, without data until a batch set it)."""

    def __init__(self, scope, handler, program=None):
        self.fetch_instance = handler
        self._scope = scope
        self._block = program.global_block() if program is not None else None
        self._period = None
        self._keys = {}  # variable name -> the var_dict's key
        self._fetched = []
        self._since = time.monotonic()
        self._running = False
        self._lock = threading.Lock()

    def _prepare(self, fed=()):
        """Reads the handler's period and `var_dict`, as 1.6's thread did
        first (so an error in them ended that thread). With a program: its
        variables to fetch with a batch, those an op of it writes or `fed`
        names, and that the scope does not keep (not persistable)."""
        handler = self.fetch_instance
        self._period = handler.period_secs
        for key in handler.var_dict:
            if isinstance(handler.var_dict[key], framework.Variable):
                self._keys[handler.var_dict[key].name] = key
            else:
                _logger().warning("the value of {} is not a Variable".format(key))
                self._keys["None.var"] = key
        if self._block is not None:
            written = set(fed)
            for op in self._block.ops:
                written.update(op.output_arg_names)
            self._fetched = [name for name in self._keys if name in written
                             and not self._block.var(name).persistable]

    def _start_between_batches(self, fed):
        """`train_from_dataset`'s start, the batches feeding `fed` (names):
        False when the handler's period or `var_dict` cannot be read. 1.6's
        thread died on that, its traceback on stderr, and the pass ran
        without the handler: so here."""
        try:
            self._prepare(fed)
        except Exception:
            traceback.print_exc()
            return False
        self._since = time.monotonic()
        return True

    def start(self):
        """Starts the thread that calls the handler each `period_secs`."""
        with self._lock:
            self._running = True
        thread = threading.Thread(target=self._run)
        thread.daemon = True
        thread.start()

    def stop(self):
        """Stops the thread once its current sleep or call is over (no
        call at the stop)."""
        with self._lock:
            self._running = False

    def _run(self):
        self._prepare()
        elapsed = 0
        while True:
            with self._lock:
                if not self._running:
                    return
                if elapsed < self._period:
                    time.sleep(1)
                    elapsed += 1
                else:
                    elapsed = 0
                    self._call({})

    def _due(self):
        """Whether `period_secs` have passed since the pass began or the
        handler last returned."""
        return time.monotonic() - self._since >= self._period

    def _call(self, fetched):
        """The handler, given the values of `fetched` (name: LoDTensor)
        and the scope's for the other variables. A tensor with LoD is
        refused, as 1.6 refused it."""
        results = {}
        for name, key in self._keys.items():
            if name in fetched:
                tensor = fetched[name]
            else:
                var = self._scope.find_var(name)
                if var is None:
                    if self._block is None or not self._block.has_var(name):
                        _logger().warning("{} value currently not available".format(key))
                    results[key] = None
                    continue
                tensor = var.get_tensor()
            if len(tensor.lod()) > 0:
                raise RuntimeError("Some of your fetched tensors hold LoD information. They "
                                   "can not be completely cast to Python ndarray. We can not "
                                   "return LoDTensor itself directly, please choose another "
                                   "targets")
            results[key] = np.array(tensor) if tensor._is_initialized() else None
        self.fetch_instance.handler(results)
        self._since = time.monotonic()
