# A CTR model's dense features through 1.x's data_norm (the statistics
# as trainable parameters, here given non-default starting values), an fc
# and a click loss; SGD steps move the statistics by the batch's own
# "gradients" as 1.x's kernel wrote them.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
dense = fluid.layers.data(name='dense', shape=[4], dtype='float32')
click = fluid.layers.data(name='click', shape=[1], dtype='float32')
normed = fluid.layers.data_norm(input=dense, name='dn', epsilon=1e-4,
                                param_attr={'batch_size': 100.0, 'batch_sum': 50.0,
                                            'batch_square': 400.0})
plain = fluid.layers.data_norm(input=dense, name='dn_plain', act='tanh')
h = fluid.layers.fc(input=[normed, plain], size=3, act='relu',
                    param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
logit = fluid.layers.fc(input=h, size=1,
                        param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(-0.3)))
loss = fluid.layers.reduce_mean(
    fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=click))
fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
params = fluid.default_main_program().global_block().all_parameters()
print(sorted(p.name for p in params if p.name.startswith('dn')), normed.shape)


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = ((np.arange(24, dtype='float32').reshape(6, 4) * 7) % 11) / 2.0 - 1.0
y = np.array([[1], [0], [0], [1], [1], [0]], dtype='float32')
for step in range(3):
    l, n, p, size, total, square, gsq = exe.run(
        feed={'dense': x, 'click': y},
        fetch_list=[loss, normed, plain, 'dn.batch_size', 'dn.batch_sum',
                    'dn.batch_square_sum', 'dn.batch_square_sum@GRAD'])
    print(step, show(l), show(n[1]), show(p[4]))
    print(show(size), show(total), show(square), show(gsq))
