"""paddle.fluid.inferencer: empty, as in Paddle 1.0-1.2 (`__all__ = []`).
`Inferencer` is in `paddle.fluid.contrib.inferencer` (see trainer.py)."""

__all__ = []
