"""paddle.fluid.dygraph.parallel: 1.x's dygraph data parallelism
(dygraph/base.py)."""
from .base import _refused_class, _refused_function
from .layers import Layer

__all__ = ['prepare_context']

prepare_context = _refused_function('parallel', 'prepare_context')
ParallelStrategy = _refused_class('parallel', 'ParallelStrategy')
Env = _refused_class('parallel', 'Env')
DataParallel = _refused_class('parallel', 'DataParallel', (Layer,))
