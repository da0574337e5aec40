"""paddle.fluid.dygraph.learning_rate_scheduler: 1.x's dygraph learning
rate decays (dygraph/base.py); static programs use
`fluid.layers.*_decay`."""
from .base import _refused_class

__all__ = [
    'NoamDecay', 'PiecewiseDecay', 'NaturalExpDecay', 'ExponentialDecay',
    'InverseTimeDecay', 'PolynomialDecay', 'CosineDecay'
]

LearningRateDecay = _refused_class('learning_rate_scheduler', 'LearningRateDecay')
for _name in __all__:
    globals()[_name] = _refused_class('learning_rate_scheduler', _name, (LearningRateDecay,))
del _name
