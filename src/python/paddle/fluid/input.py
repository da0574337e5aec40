"""paddle.fluid.input (1.6's `fluid.embedding` and `fluid.one_hot`): the
ids keep their last dim, the result appends the embedding or depth axis
(`lookup_table_v2`, `one_hot_v2`), where `fluid.layers`' versions replace
a last dim of 1."""
from .framework import Variable, convert_np_dtype_to_dtype_
from .layer_helper import LayerHelper
from .layers.nn import _check_var

__all__ = ["embedding", "one_hot"]


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """The rows of a `size` table (`embedding_N.w_0`) the int64 ids pick."""
    _check_var(input, "input", "fluid.embedding")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError("fluid.embedding's size must be [vocabulary size, embedding size], "
                         "not %r" % (size,))
    helper = LayerHelper("embedding", **locals())
    if helper.param_attr is False:
        raise ValueError("fluid.embedding needs its table; param_attr cannot be False")
    dtype = convert_np_dtype_to_dtype_(dtype)
    w = helper.create_parameter(attr=helper.param_attr, shape=size, dtype=dtype, is_bias=False)
    tmp = helper.create_variable_for_type_inference(dtype)
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += size[0]
    helper.append_op(type="lookup_table_v2", inputs={"Ids": input, "W": w},
                     outputs={"Out": tmp},
                     attrs={"is_sparse": is_sparse, "is_distributed": is_distributed,
                            "remote_prefetch": bool(is_sparse and not is_distributed),
                            "padding_idx": padding_idx})
    return tmp


def one_hot(input, depth, allow_out_of_range=False):
    """Int ids to float32 one-hot rows of `depth` (an int, or a Variable
    read when the program runs)."""
    _check_var(input, "input", "fluid.one_hot")
    helper = LayerHelper("one_hot_v2", **locals())
    one_hot_out = helper.create_variable_for_type_inference(dtype="float32")
    inputs = {"X": input}
    attrs = {"allow_out_of_range": allow_out_of_range}
    if isinstance(depth, Variable):
        depth.stop_gradient = True
        inputs["depth_tensor"] = depth
    else:
        attrs["depth"] = depth
    helper.append_op(type="one_hot_v2", inputs=inputs, outputs={"Out": one_hot_out},
                     attrs=attrs)
    one_hot_out.stop_gradient = True
    return one_hot_out
