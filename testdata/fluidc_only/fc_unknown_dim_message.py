# The words of Paddle 1.x's refusal of a Parameter with a -1 dim (issue
# 38): 1.x's framework.Parameter raised ValueError("Parameter shape should
# not be related with batch-size") (python/paddle/fluid/framework.py,
# v1.0 to v1.5); Paddle 3.3.1 words it "Each dimension of shape for
# Parameter must be greater than 0", so this runs in fluidc only. The
# layers reach it through an fc over a -1 dim and through
# create_parameter directly.
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data(name='x', shape=[2, -1], dtype='float32', append_batch_size=False)
for build in [lambda: layers.fc(input=x, size=4),
              lambda: layers.create_parameter(shape=[-1, 4], dtype='float32')]:
    try:
        build()
    except ValueError as e:
        assert 'Parameter shape should not be related with batch-size' in str(e), str(e)
    else:
        raise AssertionError('a [-1, 4] Parameter was created')
assert not fluid.default_main_program().global_block().all_parameters()
print('ok')
