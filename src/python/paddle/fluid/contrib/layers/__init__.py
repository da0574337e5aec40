"""paddle.fluid.contrib.layers (1.6): `rnn_impl`'s GRU and LSTM built
from plain layers (`BasicGRUUnit`, `basic_gru`, `BasicLSTMUnit`,
`basic_lstm`). 1.6's `contrib.layers.nn` and `metric_op` (fused and
search ops: var_conv_2d, match_matrix_tensor, tree_conv, ctr_metric_bundle,
...) are not here."""
from __future__ import print_function

from . import rnn_impl
from .rnn_impl import *

__all__ = []
__all__ += rnn_impl.__all__
