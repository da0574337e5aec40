"""paddle.fluid.contrib.layers (1.6): `rnn_impl`'s GRU and LSTM built
from plain layers (`BasicGRUUnit`, `basic_gru`, `BasicLSTMUnit`,
`basic_lstm`), the layers of 1.6's `nn` that fluidc's ops give
(fused_elemwise_activation, fused_embedding_seq_pool, multiclass_nms2)
and `metric_op`'s ctr_metric_bundle. 1.6's var_conv_2d,
match_matrix_tensor, sequence_topk_avg_pooling, tree_conv and
search_pyramid_hash need ops fluidc does not have."""
from __future__ import print_function

from . import nn
from .nn import *
from . import rnn_impl
from .rnn_impl import *
from . import metric_op
from .metric_op import *

__all__ = []
__all__ += nn.__all__
__all__ += rnn_impl.__all__
__all__ += metric_op.__all__
