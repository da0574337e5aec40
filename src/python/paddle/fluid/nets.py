"""paddle.fluid.nets: 1.x's composite layers, built from the layers they
call (so the names and ops are those layers' own)."""
from . import framework
from . import layers

__all__ = ["simple_img_conv_pool", "sequence_conv_pool", "img_conv_group", "glu",
           "scaled_dot_product_attention"]


def _use_mkldnn(first, types):
    """Sets `use_mkldnn` on the ops of `types` appended to the current
    block from op `first` on."""
    block = framework.default_main_program().current_block()
    for op in block.ops[first:]:
        if op.type in types:
            op._set_attr("use_mkldnn", True)


def simple_img_conv_pool(input, num_filters, filter_size, pool_size, pool_stride,
                         pool_padding=0, pool_type="max", global_pooling=False, conv_stride=1,
                         conv_padding=0, conv_dilation=1, conv_groups=1, param_attr=None,
                         bias_attr=None, act=None, use_cudnn=True, use_mkldnn=False):
    """conv2d then pool2d. `use_cudnn` (and early 2018's `use_mkldnn`)
    pick Paddle's GPU and MKL-DNN kernels, which compute the same values:
    on the CPU they change nothing but the ops' attributes, which are
    1.x's (`use_mkldnn` on the conv2d, its activation and the pool2d)."""
    first = len(framework.default_main_program().current_block().ops)
    conv_out = layers.conv2d(input=input, num_filters=num_filters, filter_size=filter_size,
                             stride=conv_stride, padding=conv_padding, dilation=conv_dilation,
                             groups=conv_groups, param_attr=param_attr, bias_attr=bias_attr,
                             act=act, use_cudnn=use_cudnn)
    if use_mkldnn:
        _use_mkldnn(first, ("conv2d", act))
        first = len(framework.default_main_program().current_block().ops)
    pool_out = layers.pool2d(input=conv_out, pool_size=pool_size, pool_type=pool_type,
                             pool_stride=pool_stride, pool_padding=pool_padding,
                             global_pooling=global_pooling, use_cudnn=use_cudnn)
    if use_mkldnn:
        _use_mkldnn(first, ("pool2d",))
    return pool_out


def sequence_conv_pool(input, num_filters, filter_size, param_attr=None, act="sigmoid",
                       pool_type="max", bias_attr=None):
    """sequence_conv then sequence_pool: one row per sequence."""
    conv_out = layers.sequence_conv(input=input, num_filters=num_filters,
                                    filter_size=filter_size, param_attr=param_attr,
                                    bias_attr=bias_attr, act=act)
    return layers.sequence_pool(input=conv_out, pool_type=pool_type)


def img_conv_group(input, conv_num_filter, pool_size, conv_padding=1, conv_filter_size=3,
                   conv_act=None, param_attr=None, conv_with_batchnorm=False,
                   conv_batchnorm_drop_rate=0.0, pool_stride=1, pool_type="max",
                   use_cudnn=True):
    """A VGG block: one conv2d per entry of `conv_num_filter`, each
    followed, where `conv_with_batchnorm` says, by a batch_norm carrying
    the activation (and a dropout where its drop rate is above 1e-5), then
    one pool2d. The per-conv arguments take a value for every conv or a
    list of one per conv.

    1.x's batch_norm here wrote over the conv's output (`in_place=True`),
    which fluidc cannot build; it writes a new variable instead, with the
    same values (only a script fetching the conv's own output by name
    would see the difference: 1.x gave it normalized)."""
    tmp = input
    assert isinstance(conv_num_filter, (list, tuple))

    def per_conv(obj):
        if not hasattr(obj, "__len__"):
            return [obj] * len(conv_num_filter)
        assert len(obj) == len(conv_num_filter)
        return obj

    conv_padding = per_conv(conv_padding)
    conv_filter_size = per_conv(conv_filter_size)
    param_attr = per_conv(param_attr)
    conv_with_batchnorm = per_conv(conv_with_batchnorm)
    conv_batchnorm_drop_rate = per_conv(conv_batchnorm_drop_rate)
    for i in range(len(conv_num_filter)):
        act = None if conv_with_batchnorm[i] else conv_act
        tmp = layers.conv2d(input=tmp, num_filters=conv_num_filter[i],
                            filter_size=conv_filter_size[i], padding=conv_padding[i],
                            param_attr=param_attr[i], act=act, use_cudnn=use_cudnn)
        if conv_with_batchnorm[i]:
            tmp = layers.batch_norm(input=tmp, act=conv_act)
            drop_rate = conv_batchnorm_drop_rate[i]
            if abs(drop_rate) > 1e-5:
                tmp = layers.dropout(x=tmp, dropout_prob=drop_rate)
    return layers.pool2d(input=tmp, pool_size=pool_size, pool_type=pool_type,
                         pool_stride=pool_stride, use_cudnn=use_cudnn)


def glu(input, dim=-1):
    """Gated linear unit: `input` split in two halves a, b along `dim`
    (counted from the end where negative), then a * sigmoid(b)."""
    a, b = layers.split(input, num_or_sections=2, dim=dim)
    act_b = layers.sigmoid(x=b)
    return layers.elementwise_mul(x=a, y=act_b)


def scaled_dot_product_attention(queries, keys, values, num_heads=1, dropout_rate=0.):
    """Multi-head dot-product attention over 3-D inputs [batch, length,
    hidden], as Paddle 1.0-1.4 built it: with more than one head, `fc`
    projections (num_flatten_dims=2) of the queries, keys and values, each
    split into heads ([batch, heads, length, hidden / heads]); the
    attention weights softmax(K (Q / sqrt(d))^T) over the last axis, where
    d is the keys' hidden size per head; dropout of the weights if
    `dropout_rate`; the weights times V, the heads joined again.

    1.0-1.4 multiplied the keys by the scaled queries (`matmul(k, q,
    transpose_y=True)`), so queries and keys must have the same length;
    Paddle 1.5 changed it to Q K^T (docs/choices.md)."""
    if not (len(queries.shape) == len(keys.shape) == len(values.shape) == 3):
        raise ValueError("Inputs quries, keys and values should all be 3-D tensors.")
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError("The hidden size of queries and keys should be the same.")
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError("The max sequence length in query batch and in key batch "
                         "should be the same.")
    if keys.shape[-1] % num_heads != 0:
        raise ValueError("The hidden size of keys (%d) must be divisible by the number of "
                         "attention heads (%d)." % (keys.shape[-1], num_heads))
    if values.shape[-1] % num_heads != 0:
        raise ValueError("The hidden size of values (%d) must be divisible by the number of "
                         "attention heads (%d)." % (values.shape[-1], num_heads))

    def project(x):
        if num_heads == 1:
            return x
        return layers.fc(input=x, size=x.shape[-1], num_flatten_dims=2)

    def split_heads(x):
        # [batch, length, hidden] -> [batch, heads, length, hidden / heads]
        if num_heads == 1:
            return x
        hidden_size = x.shape[-1]
        reshaped = layers.reshape(
            x=x, shape=list(x.shape[:-1]) + [num_heads, hidden_size // num_heads])
        return layers.transpose(x=reshaped, perm=[0, 2, 1, 3])

    def combine_heads(x):
        # [batch, heads, length, d] -> [batch, length, heads * d]
        if len(x.shape) == 3:
            return x
        if len(x.shape) != 4:
            raise ValueError("Input(x) should be a 4-D Tensor.")
        trans_x = layers.transpose(x, perm=[0, 2, 1, 3])
        return layers.reshape(x=trans_x, shape=[int(trans_x.shape[0]), int(trans_x.shape[1]),
                                                int(trans_x.shape[2] * trans_x.shape[3])])

    q, k, v = project(queries), project(keys), project(values)
    q, k, v = split_heads(q), split_heads(k), split_heads(v)

    key_dim_per_head = keys.shape[-1] // num_heads
    scaled_q = layers.scale(x=q, scale=key_dim_per_head ** -0.5)
    product = layers.matmul(x=k, y=scaled_q, transpose_y=True)

    weights = layers.reshape(
        x=layers.reshape(x=product, shape=[-1, product.shape[-1]], act="softmax"),
        shape=product.shape)
    if dropout_rate:
        weights = layers.dropout(weights, dropout_prob=dropout_rate, is_test=False)
    ctx_multiheads = layers.matmul(weights, v)
    return combine_heads(ctx_multiheads)
