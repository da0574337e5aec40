"""paddle.fluid.layers: every layer, and the 1.x submodule paths
(`fluid.layers.nn`, `.tensor`, `.control_flow`, `.io`, `.ops`,
`.math_op_patch`, ...)."""
from . import control_flow
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
from .control_flow import *  # noqa: F401,F403
from .io import *  # noqa: F401,F403
from .learning_rate_scheduler import *  # noqa: F401,F403
from .learning_rate_scheduler import autoincreased_step_counter  # noqa: F401
from .metric_op import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .ops import *  # noqa: F401,F403
from .rnn import *  # noqa: F401,F403
from .sequence_lod import *  # noqa: F401,F403
from .tensor import *  # noqa: F401,F403

math_op_patch.monkey_patch_variable()
indexing.monkey_patch_getitem()
