# Setting parameters through the scope, as 2018 scripts load pretrained
# embeddings: `global_scope().find_var(name).get_tensor()` is the variable
# itself, so `set` changes what the next run uses, and a tensor held across
# runs shows the values training gave it.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = fluid.layers.fc(input=x, size=2,
                    param_attr=fluid.ParamAttr(name='fc_w'),
                    bias_attr=fluid.ParamAttr(name='fc_b'))
loss = fluid.layers.reduce_mean(fluid.layers.square(y))
fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())

scope = fluid.global_scope()
w = scope.find_var('fc_w').get_tensor()
w.set(np.arange(6).reshape(3, 2).astype('float32') / 10, place)
scope.find_var('fc_b').get_tensor().set(np.zeros([2], dtype='float32'), place)
print(np.array(w))

data = np.array([[1, 2, 3], [0.5, -1, 2]], dtype='float32')
for step in range(3):
    out, = exe.run(feed={'x': data}, fetch_list=[loss])
    print(step, out, np.array(w)[0], w.shape())

# Another view of the same variable: setting it changes the first one too.
w2 = scope.find_var('fc_w').get_tensor()
w2.set(np.full([3, 2], 0.25, dtype='float32'), place)
print(np.array(w))
out, = exe.run(feed={'x': data}, fetch_list=[loss])
print('after set', out, np.array(fluid.global_scope().find_var('fc_b').get_tensor()))

# A tensor the script makes is nobody's variable.
t = fluid.LoDTensor()
t.set(np.ones([2, 2], dtype='float32'), place)
print(np.array(t).sum(), np.array(w).sum())

# A LoD that does not fit the rows is refused (1.x: EnforceNotMet; Paddle
# 3.3.1: ValueError).
try:
    w.set_lod([[0, 5]])
except Exception as e:
    print('refused', w.lod())
w.set_lod([[0, 1, 3]])
print(w.lod(), scope.find_var('fc_w').get_tensor().lod())
