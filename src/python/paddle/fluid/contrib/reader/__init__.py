"""paddle.fluid.contrib.reader (1.6): `distributed_batch_reader`."""
from __future__ import print_function

from .distributed_reader import *  # noqa: F401,F403
from . import distributed_reader

__all__ = []
__all__ += distributed_reader.__all__
