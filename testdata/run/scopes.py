# Scopes: a second fluid.Scope() keeps its own persistable counter beside the
# global scope's (chosen with scope_guard or exe.run(scope=...)), and
# return_numpy=False gives DenseTensors that numpy.array converts.
import numpy
import paddle.fluid as fluid

counter = fluid.layers.create_global_var(shape=[1], value=10, dtype='int64',
                                         persistable=True, name='counter')
fluid.layers.increment(counter, value=1, in_place=True)
doubled = fluid.layers.scale(fluid.layers.cast(counter, 'float32'), scale=2.0)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
other = fluid.Scope()
with fluid.scope_guard(other):
    exe.run(fluid.default_startup_program())
for _ in range(3):
    exe.run(fetch_list=[counter])
with fluid.scope_guard(other):
    c, = exe.run(fetch_list=[counter])
print('global', fluid.global_scope().find_var('counter').get_tensor())
print('other', numpy.array(other.find_var('counter').get_tensor()))
t, d = exe.run(fetch_list=[counter, doubled], scope=other, return_numpy=False)
print(t)
print(t.shape(), t.lod(), numpy.array(d))
print(fluid.executor._fetch_var('counter'), fluid.executor._fetch_var('counter', scope=other))
