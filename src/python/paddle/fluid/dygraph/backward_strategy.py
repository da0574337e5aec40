"""paddle.fluid.dygraph.backward_strategy: 1.x's `BackwardStrategy`
(dygraph/base.py)."""
from .base import _refused_class

__all__ = ['BackwardStrategy']

BackwardStrategy = _refused_class('backward_strategy', 'BackwardStrategy')
