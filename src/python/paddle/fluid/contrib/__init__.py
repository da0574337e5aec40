"""paddle.fluid.contrib (1.x): the APIs 1.0-1.6 kept apart from the core
one. Its namespace gathers those of its submodules, as 1.x's did:
`decoder` (InitState, StateCell, TrainingDecoder, BeamSearchDecoder),
`memory_usage_calc` (memory_usage), `op_frequence` (op_freq_statistic),
`extend_optimizer` (extend_with_decoupled_weight_decay), `layers`
(1.6's basic_gru, basic_lstm and their units, fused_elemwise_activation,
fused_embedding_seq_pool, multiclass_nms2, ctr_metric_bundle) and `reader`
(distributed_batch_reader), `model_stat` (summary, 1.4-1.6, whose name
1.x left out of `__all__`). `contrib.trainer` and
`contrib.inferencer` (the high-level `Trainer` and `Inferencer` the 2018
book chapters use) are submodules that scripts import by name
(`from paddle.fluid.contrib.trainer import *`), as in 1.x, where this
package's own namespace did not list them."""
from __future__ import print_function

from . import decoder
from .decoder import *
from . import memory_usage_calc
from .memory_usage_calc import *
from . import op_frequence
from .op_frequence import *
from . import extend_optimizer
from .extend_optimizer import *
from . import layers
from .layers import *
from . import reader
from .reader import *
from . import model_stat
from .model_stat import *

__all__ = []
__all__ += decoder.__all__
__all__ += memory_usage_calc.__all__
__all__ += op_frequence.__all__
__all__ += extend_optimizer.__all__
__all__ += layers.__all__
__all__ += reader.__all__
