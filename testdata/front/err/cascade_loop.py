# One error, at once, for a failed value in a loop (`fluidc check`): the fetch
# names an undefined variable, so the `break` that tests its result never
# comes. The loop stops after the iteration that reported the error instead
# of running to the compile-time iteration limit and reporting that too.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1.0)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
steps = 0
while True:
    out = exe.run(fluid.default_main_program(), fetch_list=[totl])
    steps += 1
    if out[0][0] > 5:
        break
