# One error, at once, for a loop that only carries failed values (found by
# fuzzing): the counter's layer call fails, so every fetch in the loop
# gives a failed value and nothing in the body reports anything new. The
# loop stops after the first iteration that used a failed value instead of
# running to the compile-time iteration limit and reporting that too.
import paddle.fluid as fluid

counter = fluid.layers.create_global_var(
    shape=[1], vzero=10, dtype='int64', persistable=True, name='counter')
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
seen = []
while True:
    c = exe.run(fetch_list=[counter])
    seen.append(int(c[0]))
