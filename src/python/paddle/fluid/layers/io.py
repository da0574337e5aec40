"""Input layers (1.x's `layers/io.py`): `data`."""
from .. import core
from ..framework import convert_np_dtype_to_dtype_, default_main_program
from ..layer_helper import LayerHelper

__all__ = ["data"]


def data(name, shape, append_batch_size=True, dtype="float32", lod_level=0,
         type=core.VarDesc.VarType.LOD_TENSOR, stop_gradient=True):
    """A variable of the global block the executor feeds. As in 1.x, the
    batch dim -1 is put first unless a dim is already negative (or
    `append_batch_size=False`)."""
    helper = LayerHelper("data", **locals())
    if not isinstance(shape, (list, tuple)):
        raise TypeError("The type of 'shape' in data must be list or tuple, but received %s"
                        % type(shape).__name__)
    shape = [int(d) for d in shape]
    if append_batch_size and all(d >= 0 for d in shape):
        shape = [-1] + shape
    var = default_main_program().global_block().create_var(
        name=name, shape=shape, dtype=convert_np_dtype_to_dtype_(dtype), type=type,
        stop_gradient=stop_gradient, lod_level=lod_level if lod_level > 0 else None,
        is_data=True)
    del helper
    return var
