# Layers built with 0.x's main_program= / startup_program= keywords (the early-2018 unittests' style:
# `layers.data(..., **self.p_info)`, `layers.StaticRNN(main_program=...)`), trained with the gradient of the input.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.backward import append_backward
from paddle.fluid.framework import Program

main_program = Program()
startup_program = Program()
startup_program.random_seed = 3
p_info = {"main_program": main_program, "startup_program": startup_program}

x = layers.data(shape=[3, 2, 4], dtype='float32', name='x', append_batch_size=False, **p_info)
x.stop_gradient = False
h_boot = layers.data(shape=[4], dtype='float32', name='h_boot', **p_info)
rnn = layers.StaticRNN(main_program=main_program)
with rnn.step():
    h_pre = rnn.memory(init=h_boot)
    x_t = rnn.step_input(x)
    h = layers.scale(x=layers.elementwise_add(x=h_pre, y=x_t, **p_info), scale=0.5, **p_info)
    rnn.update_memory(h_pre, h)
    rnn.output(h)
hidden = layers.fc(input=layers.reshape(rnn(), shape=[-1, 4], **p_info), size=3, **p_info)
loss = layers.mean(hidden, **p_info)
append_backward(loss)

print(len(fluid.default_main_program().global_block().ops),
      [op.type for op in main_program.global_block().ops][:6])
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup_program)
xs = (np.arange(24).reshape(3, 2, 4) / 24.0).astype('float32')
boot = np.ones((2, 4), dtype='float32')
out, grad = exe.run(main_program, feed={'x': xs, 'h_boot': boot},
                    fetch_list=[loss, main_program.global_block().var('x@GRAD')])
print(out.shape, np.round(out, 5), grad.shape, np.round(grad[0], 5))
