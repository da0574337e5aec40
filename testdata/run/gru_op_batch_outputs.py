# The gru op run alone on a scope, as Paddle 1.x's test_gru_op checked it:
# besides Hidden, its BatchGate, BatchResetHiddenPrev and BatchHidden hold
# the rows in the op's batch order (time step by time step, the longest
# sequences first), which a reference written in numpy reproduces; then the
# same with is_reverse.
import numpy as np
import paddle.fluid.core as core
from paddle.fluid.op import Operator

place = core.CPUPlace()
D = 3
lod = [[2, 4, 3]]
rng = np.random.RandomState(7)
T = sum(lod[0])
x = rng.uniform(-0.5, 0.5, (T, 3 * D)).astype('float32')
w = rng.uniform(-0.5, 0.5, (D, 3 * D)).astype('float32')
b = rng.uniform(-0.2, 0.2, (1, 3 * D)).astype('float32')
h0 = rng.uniform(-0.5, 0.5, (len(lod[0]), D)).astype('float32')


def sigmoid(v):
    return 1.0 / (1.0 + np.exp(-v))


def reference(reverse):
    """Hidden in sequence order; the gates, reset states and hiddens in
    batch order."""
    starts = np.cumsum([0] + lod[0])
    seqs = sorted(range(len(lod[0])), key=lambda s: -lod[0][s])
    hidden = np.zeros((T, D))
    gates, resets, hiddens = [], [], []
    prev = {s: h0[s].astype('float64') for s in seqs}
    # The weight holds [D, 2D] of update and reset gate weights, then
    # [D, D] of candidate weights, one after the other.
    w_ur = w.flatten()[:2 * D * D].reshape(D, 2 * D)
    w_c = w.flatten()[2 * D * D:].reshape(D, D)
    for t in range(max(lod[0])):
        for s in seqs:
            if lod[0][s] <= t:
                break
            row = starts[s + 1] - 1 - t if reverse else starts[s] + t
            g = x[row] + b[0]
            ur = sigmoid(prev[s].dot(w_ur) + g[:2 * D])
            u, r = ur[:D], ur[D:]
            c = np.tanh((r * prev[s]).dot(w_c) + g[2 * D:])
            h = u * c + (1 - u) * prev[s]
            gates.append(np.concatenate([ur, c]))
            resets.append(r * prev[s])
            hiddens.append(h)
            hidden[row] = h
            prev[s] = h
    return hidden, np.array(gates), np.array(resets), np.array(hiddens)


for reverse in [False, True]:
    scope = core.Scope()
    for name, value in [('Input', x), ('Weight', w), ('Bias', b), ('H0', h0)]:
        t = scope.var(name).get_tensor()
        t.set(value, place)
    scope.find_var('Input').get_tensor().set_lod([[0, 2, 6, 9]])
    outs = ['Hidden', 'BatchGate', 'BatchResetHiddenPrev', 'BatchHidden']
    for name in outs:
        scope.var(name).get_tensor()
    Operator('gru', Input='Input', Weight='Weight', Bias='Bias', H0='H0', Hidden='Hidden',
             BatchGate='BatchGate', BatchResetHiddenPrev='BatchResetHiddenPrev',
             BatchHidden='BatchHidden', activation='tanh', gate_activation='sigmoid',
             is_reverse=reverse).run(scope, place)
    got = [np.array(scope.find_var(n).get_tensor()) for n in outs]
    for name, g, want in zip(outs, got, reference(reverse)):
        print(reverse, name, g.shape, np.allclose(g, want, atol=1e-5))
    print(np.round(got[1][:3, :2], 4).tolist(), np.round(got[3][-2:], 4).tolist())
