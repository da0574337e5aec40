"""paddle.fluid.dygraph.checkpoint: 1.6's `save_dygraph`/`load_dygraph`
and 1.5's `save_persistables`/`load_persistables` (dygraph/base.py)."""
from .base import _refused_function

__all__ = ['save_dygraph', 'load_dygraph', 'save_persistables', 'load_persistables']

for _name in __all__:
    globals()[_name] = _refused_function('checkpoint', _name)
del _name
