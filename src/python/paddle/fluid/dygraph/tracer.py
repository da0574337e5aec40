"""paddle.fluid.dygraph.tracer: 1.x's `Tracer` (dygraph/base.py)."""
from .base import _refused_class

__all__ = ['Tracer']

Tracer = _refused_class('tracer', 'Tracer')
