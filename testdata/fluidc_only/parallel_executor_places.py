# 1.x's ParallelExecutor on CPU_NUM places, checked against the same program run by one Executor (whose numbers the
# interop tests compare with Paddle): 1.x split each batch between the places, scaled the loss gradient by 1/k and
# summed the parameters' gradients, so with even parts the parameters move as one place's on the whole batch, and each
# place's fetched loss is the loss of its part. Paddle 3.3.1 has no ParallelExecutor to compare with.
import os

os.environ['CPU_NUM'] = '2'
import numpy as np
import paddle.fluid as fluid
from paddle.fluid import core


def build():
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = 7
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[13], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=8, act='tanh')
        pred = fluid.layers.fc(input=hidden, size=1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        test = main.clone(for_test=True)
        fluid.optimizer.Momentum(learning_rate=0.01, momentum=0.9).minimize(loss)
    return main, startup, test, loss


def params(scope, program):
    return [np.array(scope.find_var(p.name).get_tensor()) for p in program.global_block().all_parameters()]


main, startup, test, loss = build()
exe = fluid.Executor(fluid.CPUPlace())
one, many = fluid.Scope(), fluid.Scope()
for scope in (one, many):
    with fluid.scope_guard(scope):
        exe.run(startup)
pe = fluid.ParallelExecutor(use_cuda=False, loss_name=loss.name, main_program=main, scope=many)
assert pe.device_count == 2, pe.device_count

rng = np.random.RandomState(3)
for step, batch in enumerate([8, 8, 7, 6]):
    xs = rng.rand(batch, 13).astype('float32')
    ys = xs.sum(axis=1, keepdims=True).astype('float32')
    half = batch // 2
    parts = [(xs[:half], ys[:half]), (xs[half:], ys[half:])]
    with fluid.scope_guard(one):
        expected = [exe.run(test, feed={'x': a, 'y': b}, fetch_list=[loss])[0] for a, b in parts]
        if batch % 2 == 0:
            exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
    if step % 2 == 0:
        got, = pe.run(fetch_list=[loss.name], feed={'x': xs, 'y': ys})
    else:
        got, = pe.run(fetch_list=[loss.name], feed=[{'x': a, 'y': b} for a, b in parts])
    assert got.shape == (2,), got.shape
    assert np.allclose(got, np.concatenate(expected), rtol=1e-5), (got, expected)
    if batch % 2 == 0:
        for a, b in zip(params(one, main), params(many, main)):
            assert np.allclose(a, b, rtol=1e-5, atol=1e-6), step
    else:
        # Parts of 3 and 4 rows: the mean of the two parts' gradients is not the whole batch's, so the one-place
        # run restarts from the places' parameters and velocities.
        for v in main.list_vars():
            if v.persistable and many.find_var(v.name) is not None:
                value = np.array(many.find_var(v.name).get_tensor())
                one.var(v.name).get_tensor().set(value, fluid.CPUPlace())

# 1.5's form: Executor.run of a CompiledProgram with_data_parallel runs the same places.
compiled = fluid.CompiledProgram(main).with_data_parallel(loss_name=loss.name)
with fluid.scope_guard(many):
    first, = exe.run(compiled, feed={'x': xs[:6], 'y': ys[:6]}, fetch_list=[loss])
    again, = pe.run(fetch_list=[loss.name], feed={'x': xs[:6], 'y': ys[:6]})
assert first.shape == (2,) and not np.allclose(first, again), (first, again)

# A LoD input: the parts are whole sequences, and the fetched output's LoD is merged.
main2, startup2 = fluid.Program(), fluid.Program()
with fluid.program_guard(main2, startup2):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    emb = fluid.layers.embedding(input=words, size=[20, 4])
    out = fluid.layers.sequence_softmax(fluid.layers.fc(input=emb, size=1))
scope2 = fluid.Scope()
with fluid.scope_guard(scope2):
    exe.run(startup2)
    ids = np.arange(9).reshape(9, 1).astype('int64')
    tensor = fluid.create_lod_tensor(ids, [[2, 3, 1, 3]], fluid.CPUPlace())
    whole, = exe.run(main2, feed={'words': tensor}, fetch_list=[out], return_numpy=False)
    pe2 = fluid.ParallelExecutor(use_cuda=False, main_program=main2, scope=scope2)
    merged, = pe2.run(fetch_list=[out.name], feed={'words': tensor}, return_numpy=False)
assert merged.lod() == [[0, 2, 5, 6, 9]], merged.lod()
assert np.allclose(np.array(merged), np.array(whole), rtol=1e-6)
try:
    pe2.run(fetch_list=[out.name], feed={'words': tensor})
except RuntimeError as e:
    assert 'LoD information' in str(e), e
else:
    raise AssertionError('a LoD fetch with return_numpy=True must raise')

# Fewer samples than places was an error in 1.x.
try:
    with fluid.scope_guard(many):
        pe.run(fetch_list=[loss.name], feed={'x': xs[:1], 'y': ys[:1]})
except core.EnforceNotMet as e:
    assert 'less than the count(2) of devices' in str(e), e
else:
    raise AssertionError('one sample on two places must raise')

# CPU_NUM unset: one place, and CPU_NUM becomes "1" (Paddle 1.5's rule; 1.0-1.4 took every CPU).
del os.environ['CPU_NUM']
assert len(fluid.cpu_places()) == 1 and os.environ['CPU_NUM'] == '1'
os.environ['CPU_NUM'] = '3'
assert len(fluid.cpu_places()) == 3 and len(fluid.cpu_places(1)) == 1
print('ok')
