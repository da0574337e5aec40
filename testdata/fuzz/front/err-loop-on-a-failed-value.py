# Found by the front campaign (timeout, session 5): after a failed import,
# every value in the loop is a failed one, which reports nothing more, and
# the `if` that would break tests one. The loop ran to the compile-time
# limit (1,000,000 iterations, 9 s in a debug build) and added a second,
# follow-on error. A condition on a failed value now counts as an error for
# the enclosing loop, which stops: one error, at once.
import paddelui.fld as fluid

exe = fluid.Executor(fluid.CPUPlace())
while True:
    c, = exe.run(fetch_list=['counter'])
    if c[0] >= 30:
        break
