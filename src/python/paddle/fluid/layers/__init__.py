"""paddle.fluid.layers: every layer, and the 1.x submodule paths
(`fluid.layers.nn`, `.tensor`, `.control_flow`, `.io`, `.ops`,
`.math_op_patch`, ...)."""
import functools
import sys
import types

from . import composite
from . import control_flow
from . import detection
from . import device
from . import distributions
from . import indexing
from . import io
from . import learning_rate_scheduler
from . import math_op_patch
from . import metric_op
from . import nn
from . import ops
from . import rnn
from . import sequence_lod
from . import tensor
from .composite import *  # noqa: F401,F403
from .control_flow import *  # noqa: F401,F403
from .detection import *  # noqa: F401,F403
from .distributions import *  # noqa: F401,F403
from .io import *  # noqa: F401,F403
from .learning_rate_scheduler import *  # noqa: F401,F403
from .learning_rate_scheduler import autoincreased_step_counter  # noqa: F401
from .metric_op import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .ops import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .sequence_lod import *  # noqa: F401,F403
from .tensor import *  # noqa: F401,F403
# Not in 1.x's control_flow.__all__ (1.0-1.2, before 1.3 removed it), but
# 0.x scripts used `fluid.layers.ParallelDo` (one place in fluidc).
from .control_flow import ParallelDo  # noqa: F401



def _takes_programs(layer):
    """`layer`, taking 0.x's `main_program=` / `startup_program=` keywords
    too: the layer is built in those programs (`program_guard`), as 0.x's
    LayerHelper built it in the programs its keywords named."""
    @functools.wraps(layer)
    def call(*args, **kwargs):
        if "main_program" not in kwargs and "startup_program" not in kwargs:
            return layer(*args, **kwargs)
        from .. import framework
        main = kwargs.pop("main_program", None) or framework.default_main_program()
        startup = kwargs.pop("startup_program", None)
        with framework.program_guard(main, startup):
            return layer(*args, **kwargs)
    return call


# Each layer is wrapped once and bound wherever it is found, so that
# `from paddle.fluid.layers.nn import fc` is still `fluid.layers.fc`.
_wrapped = {}
for _name, _value in list(globals().items()):
    if (not _name.startswith("_") and isinstance(_value, types.FunctionType)
            and _value.__module__.startswith(__name__ + ".")):
        _wrapped[_value] = globals()[_name] = _takes_programs(_value)
# (`layers.rnn` is 1.6's function `rnn`, over its module, as in 1.6.)
for _module in list(globals().values()) + [sys.modules[__name__ + ".rnn"]]:
    if isinstance(_module, types.ModuleType) and _module.__name__.startswith(__name__ + "."):
        for _name, _value in list(vars(_module).items()):
            if isinstance(_value, types.FunctionType) and _value in _wrapped:
                setattr(_module, _name, _wrapped[_value])
del _name, _value, _module, _wrapped

math_op_patch.monkey_patch_variable()
indexing.monkey_patch_getitem()

# 1.x's `layers/nn.py` also held layers fluidc keeps in other modules (as
# later Paddle did); 1.x scripts imported them from there
# (`from paddle.fluid.layers.nn import dynamic_lstm`, `nn.relu(x)`), so
# they are bound there too, as the same functions.
for _name in ("relu", "log", "sign", "logical_and", "logical_or", "logical_xor",
              "logical_not", "autoincreased_step_counter", "dynamic_lstm", "dynamic_gru",
              "dynamic_lstmp",
              "gru_unit", "lstm_unit", "sequence_conv", "sequence_pool", "sequence_softmax",
              "sequence_expand", "sequence_first_step", "sequence_last_step", "lod_reset",
              "lod_append",
              "square", "equal", "gather_tree") + composite._IN_NN:
    setattr(nn, _name, globals()[_name])
for _name in composite._IN_DETECTION:
    setattr(detection, _name, globals()[_name])
del _name
