"""paddle.fluid.dygraph.profiler: 1.5's gperftools profiler of dygraph
programs (dygraph/base.py)."""
from .base import _refused_function

__all__ = ['start_gperf_profiler', 'stop_gperf_profiler']

start_gperf_profiler = _refused_function('profiler', 'start_gperf_profiler')
stop_gperf_profiler = _refused_function('profiler', 'stop_gperf_profiler')
