# An fc over a dimension that is -1 when the program is built (issue 38):
# its weight would be [-1, size], and Paddle refuses to create it with a
# ValueError naming the Parameter. Cases: a [-1, -1] feed, a [2, -1] one,
# and an fc(num_flatten_dims=2) over [-1, 3, -1]; each in its own
# program. An fc over known dims still builds and runs. (The message's
# words differ: 1.x said "Parameter shape should not be related with
# batch-size", Paddle 3.3.1 says "Each dimension of shape for Parameter
# must be greater than 0"; testdata/fluidc_only/fc_unknown_dim_message.py
# checks 1.x's.)
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def data(shape):
    return layers.data(name='x', shape=shape, dtype='float32', append_batch_size=False)


cases = [
    ('[-1, -1]', lambda: layers.fc(input=data([-1, -1]), size=4)),
    ('[2, -1]', lambda: layers.fc(input=data([2, -1]), size=4)),
    ('[-1, 3, -1] flattened at 2', lambda: layers.fc(input=data([-1, 3, -1]), size=2,
                                                     num_flatten_dims=2)),
    ('[-1, 3]', lambda: layers.fc(input=data([-1, 3]), size=2)),
]
exe = fluid.Executor(fluid.CPUPlace())
for name, build in cases:
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        try:
            out = build()
        except Exception as e:
            print(name, 'refused:', type(e).__name__, 'Parameter' in str(e))
            print('  parameters:', len(main.global_block().all_parameters()),
                  'startup ops:', len(startup.global_block().ops))
            continue
    print(name, 'built', out.shape)
    exe.run(startup)
    print(exe.run(main, feed={'x': np.ones([2, 3], dtype='float32')},
                  fetch_list=[out])[0].shape)
