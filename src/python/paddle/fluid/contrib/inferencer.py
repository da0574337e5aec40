"""paddle.fluid.contrib.inferencer: 1.x's high-level inference.

`Inferencer(infer_func, param_path, place=None, parallel=False)` builds
the program `infer_func` returns the prediction of (its names counted
afresh, so they are those the Trainer gave the same layers), loads the
parameters `Trainer.save_params` wrote to `param_path` into a scope of its
own, and `infer(inputs, return_numpy=True)` runs the program on the feed
dict `inputs`, returning `[prediction]`.

`parallel=True` runs it with a ParallelExecutor over the CPU places
(`CPU_NUM`), as 1.x did: each input is split between the places and the
prediction comes back concatenated.
"""
import contextlib

from .. import core
from .. import executor
from .. import framework
from .. import io
from .. import parallel_executor
from .. import unique_name
from .trainer import check_and_get_place

__all__ = ["Inferencer"]


class Inferencer(object):
    """Runs `infer_func`'s program with the parameters in `param_path`."""

    def __init__(self, infer_func, param_path, place=None, parallel=False):
        self.param_path = param_path
        self.scope = core.Scope()
        self.parallel = parallel
        self.place = check_and_get_place(place)
        self.inference_program = framework.Program()
        with framework.program_guard(self.inference_program):
            with unique_name.guard():
                self.predict_var = infer_func()
        with self._prog_and_scope_guard():
            io.load_params(executor.Executor(self.place), param_path)
        if parallel:
            with self._prog_and_scope_guard():
                self.exe = parallel_executor.ParallelExecutor(
                    use_cuda=isinstance(self.place, core.CUDAPlace),
                    loss_name=self.predict_var.name)
        else:
            self.exe = executor.Executor(self.place)
        self.inference_program = self.inference_program.clone(for_test=True)

    def infer(self, inputs, return_numpy=True):
        """`[prediction]` for the feed dict `inputs` ({name: array or
        LoDTensor})."""
        if not isinstance(inputs, dict):
            raise ValueError("inputs should be a map of {'input_name': input_var}")
        with self._prog_and_scope_guard():
            results = self.exe.run(feed=inputs, fetch_list=[self.predict_var.name],
                                   return_numpy=return_numpy)
        return results

    @contextlib.contextmanager
    def _prog_and_scope_guard(self):
        with framework.program_guard(main_program=self.inference_program):
            with executor.scope_guard(self.scope):
                yield
