"""paddle.fluid.contrib (1.x): the APIs 1.0-1.2 kept apart from the core
one. `contrib.trainer` and `contrib.inferencer` (the high-level `Trainer`
and `Inferencer` the 2018 book chapters use) are submodules that scripts
import by name (`from paddle.fluid.contrib.trainer import *`), as in 1.x,
where this package's own namespace did not list them."""

__all__ = []
