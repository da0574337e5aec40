"""paddle.fluid.data (1.6+): a fed variable whose shape and dtype the
executor checks (`need_check_feed`); None is any size."""
from .framework import convert_np_dtype_to_dtype_, default_main_program
from .layer_helper import LayerHelper

__all__ = ["data"]


def data(name, shape, dtype="float32", lod_level=0):
    helper = LayerHelper("data", **locals())
    shape = [-1 if d is None else int(d) for d in shape]
    var = default_main_program().global_block().create_var(
        name=name, shape=shape, dtype=convert_np_dtype_to_dtype_(dtype),
        stop_gradient=True, lod_level=lod_level if lod_level > 0 else None,
        is_data=True, need_check_feed=True)
    del helper
    return var
