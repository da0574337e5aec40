"""1.x's `paddle.utils`: the notebooks' loss curves (`Ploter`)."""
from .plot import Ploter

__all__ = ['Ploter']
