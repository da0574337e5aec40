"""paddle.reader: the reader decorators of 1.x (`paddle.reader.shuffle`,
`buffered`, `chain`, `compose`, `map_readers`, `firstn`, `xmap_readers`,
`cache`, ...). A reader is a function that returns an iterable of samples."""
from . import decorator
from .decorator import *  # noqa: F401,F403

__all__ = list(decorator.__all__)
