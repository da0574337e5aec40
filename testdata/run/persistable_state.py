# Persistable variables keep their values from run to run: a global counter
# the main program increments, a startup program that sets it, and fetched
# values used by the host loop.
import numpy
import paddle.fluid as fluid

counter = fluid.layers.create_global_var(
    shape=[1], value=10, dtype='int64', persistable=True, name='counter')
fluid.layers.increment(counter, value=1.0, in_place=True)
doubled = counter * 2

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
seen = []
while True:
    c, d = exe.run(fetch_list=[counter, doubled])
    seen.append(int(c[0]))
    if d[0] >= 30:
        break
print("counter went", seen, "and doubled is", d)
print(float(c[0]), int(d[0]), bool(c > 12), len(c), c.shape)
scope = fluid.global_scope()
print(numpy.array(scope.find_var('counter').get_tensor()), fluid.executor._fetch_var('counter'))
