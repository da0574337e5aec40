# A gradient of a gradient (1.5's double-grad checks, a gradient penalty):
# Paddle has second-order grad ops for some ops, fluidc has none, and says
# so rather than that Paddle lacks them. fluidc only.
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32', stop_gradient=False)
y = fluid.layers.reduce_sum(fluid.layers.square(x))
dx, = fluid.gradients(y, x)
penalty = fluid.layers.reduce_sum(fluid.layers.square(dx))
try:
    fluid.gradients(penalty, x)
except NotImplementedError as e:
    message = str(e)
    assert 'fluidc has no second-order gradient' in message, message
    assert 'square_grad' in message, message
    print('second-order gradient refused')
