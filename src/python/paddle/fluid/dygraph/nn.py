"""paddle.fluid.dygraph.nn: 1.x's dygraph layers, which fluidc's scripts
may subclass but not make (dygraph/base.py)."""
from .base import _refused_class
from .layers import Layer

__all__ = [
    'Conv2D', 'Conv3D', 'Pool2D', 'FC', 'BatchNorm', 'Embedding', 'GRUUnit',
    'LayerNorm', 'NCE', 'PRelu', 'BilinearTensorProduct', 'Conv2DTranspose',
    'Conv3DTranspose', 'GroupNorm', 'SpectralNorm', 'TreeConv'
]

for _name in __all__:
    globals()[_name] = _refused_class('nn', _name, (Layer,))
del _name
