"""paddle.fluid.contrib.decoder (1.0-1.5): the general RNN decoder API,
`InitState`, `StateCell`, `TrainingDecoder` and `BeamSearchDecoder`, in
the submodule `beam_search_decoder`, which this package re-exports as
1.x did."""

from . import beam_search_decoder
from .beam_search_decoder import *

__all__ = beam_search_decoder.__all__
