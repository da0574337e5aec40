"""paddle.fluid.layers.device (1.x): `get_places`, deprecated since 0.15 in
favour of ParallelExecutor, and not in the module's `__all__` (so not
`fluid.layers.get_places`), as in 1.0-1.5."""
import sys

from .. import core
from .. import unique_name
from ..layer_helper import LayerHelper

__all__ = []


def get_places(device_count=None, device_type=None):
    """The list of places a ParallelDo ran on (`device_count` of them, 0
    for every CPU or GPU; `device_type` "CPU", "CUDA" or "AUTO"): a
    PLACE_LIST variable. As in 1.x, the deprecation note goes to stderr.
    1.x appended a `get_places` op writing the list; fluidc's ParallelDo
    runs its block on one place and reads no list (see
    control_flow.ParallelDo), so no op writes the variable: the arguments
    are checked as 1.x's op attributes were (`int`, `str`) and not used."""
    print("API get_places is deprecated since 0.15.0. Please use ParallelExecutor instead.",
          file=sys.stderr)
    helper = LayerHelper("get_places", **locals())
    out_places = helper.create_variable(name=unique_name.generate(helper.name + ".out"),
                                        type=core.VarDesc.VarType.PLACE_LIST)
    if device_count is not None:
        int(device_count)
    if device_type is not None:
        str(device_type)
    return out_places
