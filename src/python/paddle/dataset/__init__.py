"""paddle.dataset: 1.x's datasets (`uci_housing`, `mnist`, `cifar`, `imdb`,
`imikolov`, `movielens`, `conll05`, `wmt14`, `wmt16`, `flowers`), read
from the files Paddle 1.x downloaded into `~/.cache/paddle/dataset/`
(see `common`), and `image`, 1.x's image helpers for readers. Each
submodule loads on first use."""

__all__ = ["common", "uci_housing", "mnist", "cifar", "imdb", "imikolov", "movielens",
           "conll05", "wmt14", "wmt16", "flowers", "image"]


def __getattr__(name):
    if name in __all__:
        import importlib
        return importlib.import_module(__name__ + "." + name)
    raise AttributeError("module 'paddle.dataset' has no attribute '%s'" % name)
