"""paddle.fluid.dygraph.layers: 1.x's `Layer`, which fluidc's scripts may
subclass but not make (dygraph/base.py)."""
from .base import _refused_class

__all__ = ['Layer']

Layer = _refused_class('layers', 'Layer')
