"""paddle: fluidc's Paddle 1.x package (`paddle.fluid`, `paddle.dataset`,
`paddle.reader`, `paddle.batch`)."""
from .version import full_version as __version__
from .version import commit as __git_commit__

import builtins as _builtins

from . import compat
from .batch import batch

# Python 2's `xrange` for the 2018 scripts that use it (README, "Python: the VM").
if not hasattr(_builtins, "xrange"):
    _builtins.xrange = compat.xrange


def enable_static():
    """fluidc builds static programs only (Paddle 1.x's mode), so this
    changes nothing."""


def __getattr__(name):
    # `import paddle` then `paddle.fluid.X`: load submodules on first use.
    if name in ("fluid", "dataset", "reader", "v2", "static", "distributed"):
        import importlib
        return importlib.import_module("paddle." + name)
    raise AttributeError("module 'paddle' has no attribute '%s'" % name)
