"""paddle.fluid.layers.device (1.x): `get_places`, deprecated since 0.15 in
favour of ParallelExecutor, and not in the module's `__all__` (so not
`fluid.layers.get_places`), as in 1.0-1.5."""
import sys

from .. import core
from .. import unique_name
from ..layer_helper import LayerHelper

__all__ = []


def get_places(device_count=None, device_type=None):
    """A `get_places` op writing the list of places a ParallelDo ran on
    (`device_count` of them, 0 for every CPU or GPU; `device_type` "CPU",
    "CUDA" or "AUTO"); returns its PLACE_LIST variable. As in 1.x, the
    deprecation note goes to stderr. ParallelDo is not in fluidc (see
    control_flow.ParallelDo), and nothing else reads the list."""
    print("API get_places is deprecated since 0.15.0. Please use ParallelExecutor instead.",
          file=sys.stderr)
    helper = LayerHelper("get_places", **locals())
    out_places = helper.create_variable(name=unique_name.generate(helper.name + ".out"),
                                        type=core.VarDesc.VarType.PLACE_LIST)
    attrs = dict()
    if device_count is not None:
        attrs["device_count"] = int(device_count)
    if device_type is not None:
        attrs["device_type"] = str(device_type)
    helper.append_op(type="get_places", outputs={"Out": [out_places]}, attrs=attrs)
    return out_places
