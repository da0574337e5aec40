"""paddle.fluid.transpiler (1.x): program rewrites. fluidc has the memory
ones, `memory_optimize` and `release_memory`, and `InferenceTranspiler`,
as no-ops that change no result (see memory_optimization_transpiler.py and
inference_transpiler.py); `DistributeTranspiler` refuses to transpile and
says how fluidc trains data-parallel (distribute_transpiler.py). As in 1.x, `InferenceTranspiler` is importable from here but not
in `__all__`."""
from .distribute_transpiler import DistributeTranspiler, DistributeTranspilerConfig
from .inference_transpiler import InferenceTranspiler  # noqa: F401
from .memory_optimization_transpiler import memory_optimize, release_memory

__all__ = ["DistributeTranspiler", "DistributeTranspilerConfig", "memory_optimize",
           "release_memory"]
