# Gradient clipping, each clip in its own program pair, together with L2
# weight decay (clipping comes first, then the decay is added to the clipped
# gradient): the 2018 way, fluid.clip.set_gradient_clip, and the 1.6+ way,
# the optimizer's grad_clip= (or minimize's).
import numpy as np
import paddle.fluid as fluid

clips = [
    ('by global norm', 'set', lambda: fluid.clip.GradientClipByGlobalNorm(clip_norm=1.0)),
    ('by value', 'set', lambda: fluid.clip.GradientClipByValue(max=0.05)),
    ('by norm', 'set', lambda: fluid.clip.GradientClipByNorm(clip_norm=0.1)),
    ('grad_clip by global norm', 'optimizer', lambda: fluid.clip.GradientClipByGlobalNorm(clip_norm=1.0)),
    ('grad_clip by value', 'minimize', lambda: fluid.clip.GradientClipByValue(max=0.05, min=-0.02)),
]

rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 3.0).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
for name, how, make_clip in clips:
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = 3
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data(name='x', shape=[4], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=8, act='tanh')
        pred = fluid.layers.fc(input=hidden, size=1)
        avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        decay = fluid.regularizer.L2Decay(1e-3)
        if how == 'set':
            fluid.clip.set_gradient_clip(make_clip())
            fluid.optimizer.SGD(learning_rate=0.1, regularization=decay).minimize(avg_cost)
        elif how == 'optimizer':
            sgd = fluid.optimizer.SGD(learning_rate=0.1, regularization=decay,
                                      grad_clip=make_clip())
            sgd.minimize(avg_cost)
        else:
            sgd = fluid.optimizer.SGD(learning_rate=0.1, regularization=decay)
            sgd.minimize(avg_cost, grad_clip=make_clip())
    exe.run(startup)
    for step in range(8):
        loss, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(name, loss)
