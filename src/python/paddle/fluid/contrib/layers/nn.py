"""1.6's `contrib.layers.nn`: the layers of it that fluidc's ops give.
`multiclass_nms2` is 1.6's op; `fused_elemwise_activation` and
`fused_embedding_seq_pool` were fused ops, built here from the ops they
fused (the same values: a fused op only saved passes over memory).
1.6's var_conv_2d, match_matrix_tensor, sequence_topk_avg_pooling,
tree_conv and search_pyramid_hash need ops fluidc does not have."""
from __future__ import print_function

from ... import layers
from ...framework import Variable
from ...layer_helper import LayerHelper

__all__ = ["fused_elemwise_activation", "fused_embedding_seq_pool", "multiclass_nms2"]

# 1.6's fused_elemwise_activation kernels: each `functor_list` it
# implemented, as "binary, unary" (binary(x, unary(y))) or "unary, binary"
# (unary(binary(x, y))).
_FUSED_PAIRS = (
    "elementwise_add,scale", "scale,elementwise_add", "elementwise_add,relu",
    "relu,elementwise_add", "elementwise_mul,scale", "tanh,elementwise_add",
    "elementwise_mul,tanh", "elementwise_mul,sigmoid",
)


def fused_elemwise_activation(x, y, functor_list, axis=-1, scale=0.0,
                              save_intermediate_out=True):
    """1.6's fused op as the two ops it fused: with `functor_list`
    `[binary, unary]`, `binary(x, unary(y))`; with `[unary, binary]`,
    `unary(binary(x, y))`; `y` broadcast at `axis` as elementwise ops do,
    and `scale` the factor of a `scale` functor. `save_intermediate_out`
    only chose what the fused op kept for its gradient. The values are the
    fused kernels' (whose relu gave -0.0 for a negative input)."""
    if not isinstance(functor_list, list) or len(functor_list) != 2:
        raise ValueError('functor_list should be a list of str, and the length should be 2.')
    if ",".join(functor_list) not in _FUSED_PAIRS:
        raise ValueError("fused_elemwise_activation has no kernel for %s; 1.6 had %s"
                         % (functor_list, ", ".join("[%s]" % p for p in _FUSED_PAIRS)))

    def unary(name, v):
        if name == "scale":
            return layers.scale(v, scale=float(scale))
        if name == "relu":
            # 1.6's fused relu was `v * (v > 0)`: -0.0 for a negative v.
            positive = layers.greater_than(v, layers.zeros_like(v))
            return layers.elementwise_mul(v, layers.cast(positive, v.dtype))
        return getattr(layers, name)(v)

    def binary(name, a, b):
        return getattr(layers, name)(a, b, axis=axis)

    first, second = functor_list
    if first.startswith("elementwise_"):
        return binary(first, x, unary(second, y))
    return unary(first, binary(second, x, y))


def fused_embedding_seq_pool(input, size, is_sparse=False, padding_idx=None, combiner='sum',
                             param_attr=None, dtype='float32'):
    """1.6's fused lookup and sum pooling: each sequence of `input` (int64
    ids `[N, 1]` with one LoD level) becomes the sum of its ids' rows of
    the `size` table (`fused_embedding_seq_pool_N.w_0`); a `padding_idx`
    id adds nothing. Built as the `lookup_table` and `sequence_pool` ops
    it fused."""
    if combiner != 'sum':
        raise ValueError("fused_embedding_seq_pool's combiner can only be 'sum' (1.6's "
                         "kernel had no other), not %r" % (combiner,))
    if not isinstance(input, Variable):
        raise TypeError("The type of 'input' in fused_embedding_seq_pool must be Variable, "
                        "but received %s" % type(input).__name__)
    if len(input.shape) < 1 or input.shape[-1] != 1:
        raise ValueError("fused_embedding_seq_pool takes ids of shape [N, 1] (one id a "
                         "row), not %s" % (list(input.shape),))
    helper = LayerHelper('fused_embedding_seq_pool', **locals())
    w = helper.create_parameter(attr=helper.param_attr, shape=size, dtype=dtype, is_bias=False)
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += size[0]
    rows = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="lookup_table", inputs={"Ids": input, "W": w}, outputs={"Out": rows},
                     attrs={"is_sparse": is_sparse, "is_distributed": False,
                            "remote_prefetch": False, "padding_idx": padding_idx})
    return layers.sequence_pool(rows, "sum")


def multiclass_nms2(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                    normalized=True, nms_eta=1., background_label=0, return_index=False,
                    name=None):
    """1.6's multiclass_nms with each detection's box index: the
    `multiclass_nms2` op, `(out, index)` with `return_index`."""
    helper = LayerHelper('multiclass_nms2', **locals())
    output = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
    index = helper.create_variable_for_type_inference(dtype='int')
    helper.append_op(
        type="multiclass_nms2", inputs={'BBoxes': bboxes, 'Scores': scores},
        attrs={'background_label': background_label, 'score_threshold': score_threshold,
               'nms_top_k': nms_top_k, 'nms_threshold': nms_threshold, 'nms_eta': nms_eta,
               'keep_top_k': keep_top_k, 'normalized': normalized},
        outputs={'Out': output, 'Index': index})
    output.stop_gradient = True
    index.stop_gradient = True
    if return_index:
        return output, index
    return output
