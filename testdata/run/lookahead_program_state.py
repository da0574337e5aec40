# A 2019 (Paddle 1.6) training script: a small regression trained with the
# Lookahead optimizer around SGD, checkpoints written with save_persistables
# and save_params(filename=...), and read back as numpy dicts with
# fluid.io.load_program_state, then set with fluid.io.set_program_state.
# Also 1.6's fluid.executor.as_numpy on fetched LoDTensors, a tensor's
# _place(), and a dataset's set_fea_eval.
import os
import tempfile
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.executor import as_numpy

ALPHA, K, LR = 0.5, 3, 0.1
x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
pred = fluid.layers.fc(x, size=1,
                       param_attr=fluid.ParamAttr(name='w', initializer=fluid.initializer.Constant(0.5)),
                       bias_attr=fluid.ParamAttr(name='b', initializer=fluid.initializer.Constant(0.1)))
loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
optimizer = fluid.optimizer.LookaheadOptimizer(fluid.optimizer.SGD(learning_rate=LR),
                                               alpha=ALPHA, k=K)
optimizer.minimize(loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
xs = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]], 'float32')
ys = np.array([[1.0], [0.5], [-0.2]], 'float32')

# The same training in numpy: SGD steps on (w, b); every K-th step both the
# slow weights and the parameters become ALPHA * fast + (1 - ALPHA) * slow.
w, b = np.full((2, 1), 0.5, 'float32'), np.full((1,), 0.1, 'float32')
slow_w, slow_b = w.copy(), b.copy()
for step in range(1, 8):
    l, fw, fs = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[loss, 'w', 'w@SLOW'])
    err = xs.dot(w) + b - ys
    w = w - LR * 2 * xs.T.dot(err) / len(xs)
    b = b - LR * 2 * err.sum(axis=0) / len(xs)
    if step % K == 0:
        w = slow_w = ALPHA * w + (1 - ALPHA) * slow_w
        b = slow_b = ALPHA * b + (1 - ALPHA) * slow_b
    print("step %d loss %.5f w %s slow %s numpy agrees %s" % (
        step, float(l.ravel()[0]), np.round(fw.ravel(), 4).tolist(), np.round(fs.ravel(), 4).tolist(),
        np.allclose(fw, w, atol=1e-5) and np.allclose(fs, slow_w, atol=1e-5)))

ckpt = tempfile.mkdtemp()
fluid.io.save_persistables(exe, os.path.join(ckpt, "persist"))
fluid.io.save_params(exe, ckpt, filename="params")
trained_w = np.array(fluid.global_scope().find_var('w').get_tensor())

state = fluid.io.load_program_state(os.path.join(ckpt, "persist"))
print(sorted(state), state['lookahead_step'], state['w'].dtype, state['w'].shape)
params = fluid.default_main_program().global_block().all_parameters()
only_w = fluid.io.load_program_state(os.path.join(ckpt, "persist"), var_list=[params[0]])
print(sorted(only_w))
combined = fluid.io.load_program_state(os.path.join(ckpt, "params"), var_list=params)
print(sorted(combined), np.allclose(combined['w'], trained_w))
try:
    fluid.io.load_program_state(os.path.join(ckpt, "params"))
except ValueError as e:
    print("ValueError:", e)

# A new run starts from the startup values, then takes the checkpoint's.
exe.run(fluid.default_startup_program())
print("after startup", np.array(fluid.global_scope().find_var('w').get_tensor()).ravel().tolist())
fluid.io.set_program_state(fluid.default_main_program(), state)
restored = np.array(fluid.global_scope().find_var('w').get_tensor())
print("restored", np.allclose(restored, trained_w),
      np.array(fluid.global_scope().find_var('lookahead_step').get_tensor()).tolist())
bad = dict(state, w=np.zeros((3, 1), 'float32'))
try:
    fluid.io.set_program_state(fluid.default_main_program(), bad)
except AssertionError as e:
    print("AssertionError", "namely [ w ]" in str(e))

# Fetched LoDTensors as numpy arrays (1.6's executor.as_numpy).
t, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[pred], return_numpy=False)
print(type(as_numpy(t)).__name__, as_numpy(t).shape, [a.shape for a in as_numpy([t, t])])
print(as_numpy(fluid.LoDTensor()))
seq = fluid.create_lod_tensor(np.ones((3, 1), 'float32'), [[1, 2]], place)
try:
    as_numpy(seq)
except RuntimeError as e:
    print("RuntimeError for a tensor with LoD")
p = t._place()
print(p.is_cpu_place(), p.is_gpu_place(), p._equals(fluid.CPUPlace()), p._equals(place))

dataset = fluid.DatasetFactory().create_dataset("InMemoryDataset")
dataset.set_use_var([x, y])
dataset.set_fea_eval(10000, True)
print("fea_eval set")
