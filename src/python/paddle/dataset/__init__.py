"""paddle.dataset: 1.x's datasets (`uci_housing`, `mnist`, `cifar`, `imdb`,
`imikolov`, `movielens`, `conll05`, `wmt14`, `wmt16`), read
from the files Paddle 1.x downloaded into `~/.cache/paddle/dataset/`
(see `common`). Each submodule loads on first use."""

__all__ = ["common", "uci_housing", "mnist", "cifar", "imdb", "imikolov", "movielens",
           "conll05", "wmt14", "wmt16"]


def __getattr__(name):
    if name in __all__:
        import importlib
        return importlib.import_module(__name__ + "." + name)
    raise AttributeError("module 'paddle.dataset' has no attribute '%s'" % name)
