"""numpy.core.multiarray: what numpy 1.x's pickles of arrays and scalars
name (`_reconstruct`, `scalar`)."""
from numpy._core.multiarray import _reconstruct, scalar  # noqa: F401
