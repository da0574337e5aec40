# Backward through a DynamicRNN nested in a DynamicRNN (a paragraph read as
# sentences of words, as Paddle's 2018 test_dyn_rnn trained it): both loops
# keep a memory, and the inner loop's grad runs inside the outer loop's
# grad block. Paddle 3.3.1 has no DynamicRNN, so the gradients are checked
# against central finite differences (float64), then a few SGD steps must
# lower the loss. Each step input is declared one LoD level below its
# sequences, as 1.x's test_dyn_rnn asserts (2, then 1, then 0).
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
words = fluid.layers.data(name="words", shape=[4], dtype="float64", lod_level=2)
words.stop_gradient = False
paragraph = fluid.layers.DynamicRNN()
with paragraph.block():
    sentence = paragraph.step_input(words)
    context = paragraph.memory(shape=[3], value=0.0, dtype="float64")
    reader = fluid.layers.DynamicRNN()
    with reader.block():
        word = reader.step_input(sentence)
        assert (sentence.lod_level, word.lod_level) == (1, 0), (sentence.lod_level, word.lod_level)
        state = reader.memory(shape=[3], value=0.0, dtype="float64")
        new_state = fluid.layers.fc(input=[word, state], size=3, act="tanh")
        reader.update_memory(state, new_state)
        reader.output(new_state)
    summary = fluid.layers.sequence_last_step(input=reader())
    new_context = fluid.layers.fc(input=[summary, context], size=3, act="tanh")
    paragraph.update_memory(context, new_context)
    paragraph.output(new_context)
loss = fluid.layers.reduce_sum(fluid.layers.square(fluid.layers.sequence_pool(paragraph(), "sum")))
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.SGD(learning_rate=0.02).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
data = rng.uniform(-1, 1, (9, 4))
lod = [[2, 1], [2, 3, 4]]   # two paragraphs: sentences of 2 and 3 words, then one of 4


def run(program, values, fetch):
    feed = {"words": fluid.create_lod_tensor(values, lod, fluid.CPUPlace())}
    return [np.array(v) for v in exe.run(program, feed=feed, fetch_list=fetch, return_numpy=False)]


scope = fluid.global_scope()
params = [p.name for p in fluid.default_main_program().global_block().all_parameters()]
grads = run(fluid.default_main_program(), data, ["words@GRAD"] + [p + "@GRAD" for p in params])
# The step above also updated the parameters; check the gradients at the
# values they were computed at.
lr = 0.02
for p, g in zip(params, grads[1:]):
    w = np.array(scope.find_var(p).get_tensor()) + lr * g
    scope.find_var(p).get_tensor().set(w, fluid.CPUPlace())

eps = 1e-6
worst = 0.0
for i in range(data.shape[0]):
    for j in range(data.shape[1]):
        plus, minus = data.copy(), data.copy()
        plus[i, j] += eps
        minus[i, j] -= eps
        numeric = (run(test_program, plus, [loss])[0] - run(test_program, minus, [loss])[0]) / (2 * eps)
        worst = max(worst, float(abs(numeric - grads[0][i, j]).max()))
assert worst < 1e-6, ("words@GRAD", worst)
for p, g in zip(params, grads[1:]):
    w = np.array(scope.find_var(p).get_tensor())
    flat = w.reshape(-1)
    for k in range(min(flat.size, 5)):
        old = flat[k]
        values = []
        for delta in (eps, -eps):
            flat[k] = old + delta
            scope.find_var(p).get_tensor().set(w, fluid.CPUPlace())
            values.append(run(test_program, data, [loss])[0])
        flat[k] = old
        scope.find_var(p).get_tensor().set(w, fluid.CPUPlace())
        numeric = (values[0] - values[1]) / (2 * eps)
        assert abs(numeric - g.reshape(-1)[k]).max() < 1e-6, (p, k, numeric, g.reshape(-1)[k])

losses = [float(run(fluid.default_main_program(), data, [loss])[0][0]) for _ in range(5)]
assert all(b < a for a, b in zip(losses, losses[1:])), losses
print("gradients match finite differences; losses", ["%.4f" % l for l in losses])
