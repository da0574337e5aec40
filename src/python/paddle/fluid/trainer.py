"""paddle.fluid.trainer: empty, as in Paddle 1.0-1.2 (`__all__ = []`).

0.14/0.15 defined `Trainer` here; 1.0 moved it to
`paddle.fluid.contrib.trainer`, which is why the 2018 book chapters try
`from paddle.fluid.contrib.trainer import *` first and fall back to this
module."""

__all__ = []
