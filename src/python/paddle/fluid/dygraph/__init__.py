"""paddle.fluid.dygraph: the names of Paddle 1.5-1.6's imperative mode.
fluidc runs static Fluid programs (Program and Executor) only: scripts
may import these and subclass the classes, but using any of them raises
NotImplementedError (dygraph/base.py, docs/choices.md)."""
from . import base
from .base import *
from . import layers
from .layers import *
from . import nn
from .nn import *
from . import tracer
from .tracer import *
from . import profiler
from .profiler import *
from . import parallel
from .parallel import *
from . import checkpoint
from .checkpoint import *
from . import learning_rate_scheduler
from .learning_rate_scheduler import *
from . import backward_strategy
from .backward_strategy import *

__all__ = (base.__all__ + layers.__all__ + nn.__all__ + tracer.__all__ + profiler.__all__
           + parallel.__all__ + checkpoint.__all__ + learning_rate_scheduler.__all__
           + backward_strategy.__all__)
