# Gradient clipping the 2018 way, fluid.clip.set_gradient_clip, with each
# of the three clips in its own program pair, together with L2 weight decay
# (clipping comes first, then the decay is added to the clipped gradient).
import numpy as np
import paddle.fluid as fluid

clips = [
    ('by global norm', lambda: fluid.clip.GradientClipByGlobalNorm(clip_norm=1.0)),
    ('by value', lambda: fluid.clip.GradientClipByValue(max=0.05)),
    ('by norm', lambda: fluid.clip.GradientClipByNorm(clip_norm=0.1)),
]

rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 3.0).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
for name, make_clip in clips:
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = 3
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data(name='x', shape=[4], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=8, act='tanh')
        pred = fluid.layers.fc(input=hidden, size=1)
        avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        fluid.clip.set_gradient_clip(make_clip())
        sgd = fluid.optimizer.SGD(learning_rate=0.1,
                                  regularization=fluid.regularizer.L2Decay(1e-3))
        sgd.minimize(avg_cost)
    exe.run(startup)
    for step in range(8):
        loss, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(name, loss)
