"""paddle.fluid.contrib.extend_optimizer (1.6): optimizers extended with
decoupled weight decay (AdamW and the like)."""
from __future__ import print_function

from . import extend_optimizer_with_weight_decay
from .extend_optimizer_with_weight_decay import *

__all__ = []
__all__ += extend_optimizer_with_weight_decay.__all__
