"""paddle: fluidc's Paddle 1.x package (`paddle.fluid`, `paddle.dataset`,
`paddle.reader`, `paddle.batch`)."""
__version__ = "1.8.0"


def __getattr__(name):
    # `import paddle` then `paddle.fluid.X`: load submodules on first use.
    if name in ("fluid", "dataset", "reader", "v2", "static", "distributed"):
        import importlib
        return importlib.import_module("paddle." + name)
    raise AttributeError("module 'paddle' has no attribute '%s'" % name)
