# The rest of 1.x's activation layers (ops.py's generated ones and nn.py's
# selu, brelu, stanh, softshrink, hard_shrink, thresholded_relu), on fixed
# values that reach each one's branches (softplus's threshold, round's
# halves to even, hard_shrink's own threshold), with their defaults and
# with arguments; then each one's gradient, through its own parameter of
# the same values.
import numpy as np
import paddle.fluid as fluid

values = np.array([[-3.0, -0.6, -0.25, 0.3], [0.5, 1.5, -2.5, 3.5]], dtype='float32')
positive = np.abs(values) + 0.5
layers = fluid.layers

acts = [
    ('floor', lambda v: layers.floor(v)), ('ceil', lambda v: layers.ceil(v)),
    ('round', lambda v: layers.round(v)), ('cos', lambda v: layers.cos(v)),
    ('sin', lambda v: layers.sin(v)), ('atan', lambda v: layers.atan(v)),
    ('softplus', lambda v: layers.softplus(v)),
    ('softplus_large', lambda v: layers.softplus(layers.scale(v, scale=10.0))),
    ('softsign', lambda v: layers.softsign(v)),
    ('logsigmoid', lambda v: layers.logsigmoid(v)),
    ('tanh_shrink', lambda v: layers.tanh_shrink(v)),
    ('softshrink', lambda v: layers.softshrink(v)),
    ('softshrink_1', lambda v: layers.softshrink(v, alpha=1.0)),
    ('hard_shrink', lambda v: layers.hard_shrink(v)),
    ('hard_shrink_1', lambda v: layers.hard_shrink(v, threshold=1.0)),
    ('thresholded_relu', lambda v: layers.thresholded_relu(v)),
    ('thresholded_relu_0', lambda v: layers.thresholded_relu(v, threshold=0.0)),
    ('selu', lambda v: layers.selu(v)),
    ('selu_args', lambda v: layers.selu(v, scale=1.5, alpha=0.5)),
    ('brelu', lambda v: layers.brelu(v)),
    ('brelu_args', lambda v: layers.brelu(v, t_min=-1.0, t_max=1.0)),
    ('stanh', lambda v: layers.stanh(v)),
    ('stanh_args', lambda v: layers.stanh(v, scale_a=0.5, scale_b=2.0)),
]
on_positive = [('reciprocal', lambda v: layers.reciprocal(v)),
               ('rsqrt', lambda v: layers.rsqrt(v))]

x = layers.data(name='x', shape=[4], dtype='float32')
p = layers.data(name='p', shape=[4], dtype='float32')
outs = [f(x) for _, f in acts] + [f(p) for _, f in on_positive]

# Each activation's gradient: its own parameter, initialized to the values,
# and a loss that weights its outputs unequally.
weights = layers.assign(np.arange(1, 9, dtype='float32').reshape(2, 4) / 8.0)
params, terms = [], []
for name, f in acts + on_positive:
    init = positive if (name, f) in on_positive else values
    w = layers.create_parameter(
        shape=[2, 4], dtype='float32', name='w_' + name,
        default_initializer=fluid.initializer.NumpyArrayInitializer(init))
    params.append(w)
    terms.append(layers.reduce_sum(layers.elementwise_mul(f(w), weights)))
loss = layers.sums(terms)
fluid.backward.append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
results = exe.run(feed={'x': values, 'p': positive}, fetch_list=outs)
for (name, _), o in zip(acts + on_positive, results):
    print(name, np.round(o, 5).tolist())
grads = exe.run(feed={'x': values, 'p': positive},
                fetch_list=[w.name + '@GRAD' for w in params])
for (name, _), g in zip(acts + on_positive, grads):
    print('grad', name, np.round(g, 5).tolist())

# 1.0's generated layers took `name=` (test_layers.py passes it): the
# output is `<name>.tmp_N`.
print(layers.softshrink(x, name='shrink').name, layers.hard_shrink(x, name='hard').name,
      layers.thresholded_relu(x, threshold=0.5, name='thr').name)
