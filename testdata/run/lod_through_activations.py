# LoD through activations (issue 38): a lod_level=1 feed of three
# sequences goes through each 1.x activation layer (and layer_norm), then
# sequence_pool(sum) pools each sequence; the activation's output keeps
# the feed's LoD. Each activation has its own program, so a refusal names
# the activation that lost the LoD. (abs is left out: 1.x's abs kept the
# LoD, as every activation did, but Paddle 3.3.1's drops it; see
# testdata/fluidc_only/abs_keeps_lod.py.)
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

acts = [
    ('softplus', lambda v: layers.softplus(v)),
    ('elu', lambda v: layers.elu(v, alpha=0.5)),
    ('softsign', lambda v: layers.softsign(v)),
    ('relu6', lambda v: layers.relu6(v)),
    ('hard_sigmoid', lambda v: layers.hard_sigmoid(v)),
    ('swish', lambda v: layers.swish(v)),
    ('logsigmoid', lambda v: layers.logsigmoid(v)),
    ('sin', lambda v: layers.sin(v)),
    ('cos', lambda v: layers.cos(v)),
    ('atan', lambda v: layers.atan(v)),
    ('pow', lambda v: layers.pow(v, factor=2.0)),
    ('stanh', lambda v: layers.stanh(v)),
    ('brelu', lambda v: layers.brelu(v, t_min=-1.0, t_max=1.0)),
    ('softshrink', lambda v: layers.softshrink(v)),
    ('hard_shrink', lambda v: layers.hard_shrink(v)),
    ('thresholded_relu', lambda v: layers.thresholded_relu(v)),
    ('selu', lambda v: layers.selu(v)),
    ('tanh_shrink', lambda v: layers.tanh_shrink(v)),
    ('floor', lambda v: layers.floor(v)),
    ('ceil', lambda v: layers.ceil(v)),
    ('round', lambda v: layers.round(v)),
    ('sign', lambda v: layers.sign(v)),
    ('reciprocal', lambda v: layers.reciprocal(v)),
    ('rsqrt', lambda v: layers.rsqrt(layers.square(v))),
    ('layer_norm', lambda v: layers.layer_norm(v)),
    # The ones that kept their LoD before issue 38, for comparison.
    ('relu', lambda v: layers.relu(v)),
    ('sigmoid', lambda v: layers.sigmoid(v)),
    ('exp', lambda v: layers.exp(v)),
    ('square', lambda v: layers.square(v)),
]

data = np.array([[0.3, -1.2, 2.6], [1.7, 0.45, -0.8], [-2.2, 0.9, 1.1],
                 [0.6, -0.35, 3.4], [1.25, 2.0, -0.55], [-0.7, 1.6, 0.25]],
                dtype='float32')
place = fluid.CPUPlace()
exe = fluid.Executor(place)
for name, act in acts:
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = layers.data(name='x', shape=[3], dtype='float32', lod_level=1)
        y = act(x)
        pooled = layers.sequence_pool(input=y, pool_type='sum')
    exe.run(startup)
    feed = {'x': fluid.create_lod_tensor(data, [[2, 3, 1]], place)}
    try:
        got_y, got_pooled = exe.run(main, feed=feed, fetch_list=[y, pooled],
                                    return_numpy=False)
    except Exception as e:
        print(name, 'refused:', type(e).__name__)
        continue
    print(name, 'lod', got_y.lod(), 'pooled shape', np.array(got_pooled).shape)
    print(np.round(np.array(got_pooled), 3))
