"""The fluid2018 shim's `paddle.fluid.contrib.layers` (Paddle 1.6's
contrib/layers/rnn_impl.py): BasicGRUUnit, BasicLSTMUnit, basic_gru and
basic_lstm over the shim's fluid layers and StaticRNN (the While
lowering fluidc shares). 1.6's units were dygraph Layers used in a
static program: a full name `unique_name(scope + "/" + class name)`,
parameters `<full name>.w_N`/`.b_N` made at the first call (a named
ParamAttr gets the full name prefixed, in place). As in fluidc, each
layer's initial states are sliced before the loop, and a known step
count is used for the length mask."""

import paddle
from paddle.base import unique_name
from paddle.base.layer_helper import LayerHelper

__all__ = ['BasicGRUUnit', 'basic_gru', 'BasicLSTMUnit', 'basic_lstm']


def _L():
    return paddle.fluid.layers


class _Unit(object):
    def __init__(self, name_scope, dtype):
        self._full_name = unique_name.generate("%s/%s" % (name_scope, type(self).__name__))
        self._dtype = dtype
        self._params = None

    def full_name(self):
        return self._full_name

    def _param(self, attr, shape, is_bias=False):
        ParamAttr = paddle.fluid.ParamAttr
        if isinstance(attr, ParamAttr) and attr.name is not None:
            attr.name = self._full_name + "." + attr.name
        elif isinstance(attr, str):
            attr = self._full_name + "." + attr
        import paddle_fluid_shim
        return paddle_fluid_shim._create_parameter(
            LayerHelper(self._full_name, name=self._full_name), attr, shape, self._dtype,
            is_bias)

    def __call__(self, x, *states):
        if self._params is None:
            width = x.shape[-1]
            assert width > 0
            self._params = self._make(width + self._hidden)
        return self._step(x, *states)


class BasicGRUUnit(_Unit):
    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None,
                 gate_activation=None, activation=None, dtype='float32'):
        _Unit.__init__(self, name_scope, dtype)
        self._hidden, self._pa, self._ba = hidden_size, param_attr, bias_attr
        self._gate_act = gate_activation or _L().sigmoid
        self._act = activation or _L().tanh

    def _make(self, rows):
        h = self._hidden
        return (self._param(self._pa, [rows, 2 * h]), self._param(self._pa, [rows, h]),
                self._param(self._ba, [2 * h], True), self._param(self._ba, [h], True))

    def _step(self, x, h):
        L = _L()
        w_gate, w_cand, b_gate, b_cand = self._params
        g = self._gate_act(L.elementwise_add(L.matmul(x=L.concat([x, h], 1), y=w_gate), b_gate))
        r, u = L.split(g, num_or_sections=2, dim=1)
        c = self._act(L.elementwise_add(L.matmul(L.concat([x, r * h], 1), w_cand), b_cand))
        return u * h + (1 - u) * c


class BasicLSTMUnit(_Unit):
    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None,
                 gate_activation=None, activation=None, forget_bias=1.0, dtype='float32'):
        _Unit.__init__(self, name_scope, dtype)
        self._hidden, self._pa, self._ba = hidden_size, param_attr, bias_attr
        self._forget = _L().fill_constant([1], dtype=dtype, value=forget_bias)
        self._forget.stop_gradient = False

    def _make(self, rows):
        return (self._param(self._pa, [rows, 4 * self._hidden]),
                self._param(self._ba, [4 * self._hidden], True))

    def _step(self, x, h, c):
        L = _L()
        w, b = self._params
        i, j, f, o = L.split(L.elementwise_add(L.matmul(x=L.concat([x, h], 1), y=w), b),
                             num_or_sections=4, dim=-1)
        c_new = L.elementwise_add(
            L.elementwise_mul(c, L.sigmoid(L.elementwise_add(f, self._forget))),
            L.elementwise_mul(L.sigmoid(i), L.tanh(j)))
        return L.tanh(c_new) * L.sigmoid(o), c_new


def _direction(seq, units, mask, n_layers, hidden, boots, n_states, dropout, dropout_kw):
    L = _L()
    rnn = L.StaticRNN()
    with rnn.step():
        inp = rnn.step_input(seq)
        m = rnn.step_input(mask) if mask is not None else None
        for layer in range(n_layers):
            if boots is None:
                pre = [rnn.memory(batch_ref=seq, shape=[-1, hidden], ref_batch_dim_idx=1)
                       for _ in range(n_states)]
            else:
                pre = [rnn.memory(init=b) for b in boots[layer]]
            new = units[layer](inp, *pre)
            new = [new] if n_states == 1 else list(new)
            if m is not None:
                new = [L.elementwise_mul(v, m, axis=0) - L.elementwise_mul(p, (m - 1), axis=0)
                       for v, p in zip(new, pre)]
            for p, v in zip(pre, new):
                rnn.update_memory(p, v)
            for v in new:
                rnn.step_output(v)
            inp = new[0]
            if dropout is not None and dropout > 0.0:
                inp = L.dropout(inp, dropout_prob=dropout, **dropout_kw)
        rnn.step_output(inp)
    res = rnn()
    ends = [res[k][-1] for k in range(n_layers * n_states)]
    return res[-1], [L.reshape(L.concat(ends[s::n_states], axis=0), shape=[n_layers, -1, hidden])
                     for s in range(n_states)]


def _stack(x, inits, hidden, n_layers, lengths, dropout, bidirectional, batch_first, make,
           name, n_states, dropout_kw):
    L = _L()
    fw = [make(name + "_layers_" + str(k)) for k in range(n_layers)]
    bw = [make(name + "_reverse_layers_" + str(k)) for k in range(n_layers)] \
        if bidirectional else None
    if batch_first:
        x = L.transpose(x, [1, 0, 2])
    mask = None
    if lengths is not None:
        steps = x.shape[0] if x.shape[0] >= 0 else L.shape(x)[0]
        mask = L.transpose(L.sequence_mask(lengths, maxlen=steps, dtype='float32'), [1, 0])
    dirs = 2 if bidirectional else 1
    if inits is not None:
        inits = [L.reshape(t, shape=[n_layers, dirs, -1, hidden]) for t in inits]

    def boots(d):
        if inits is None:
            return None
        return [[t[k, d] for t in inits] for k in range(n_layers)]
    out, lasts = _direction(x, fw, mask, n_layers, hidden, boots(0), n_states, dropout,
                            dropout_kw)
    if bidirectional:
        rx = L.reverse(x, axis=[0])
        rmask = L.reverse(mask, axis=[0]) if mask is not None else None
        rout, rlasts = _direction(rx, bw, rmask, n_layers, hidden, boots(1), n_states,
                                  dropout, dropout_kw)
        out = L.concat([out, L.reverse(rout, axis=[0])], axis=2)
        lasts = [L.reshape(L.concat([a, b], axis=1), shape=[n_layers * dirs, -1, hidden])
                 for a, b in zip(lasts, rlasts)]
    if batch_first:
        out = L.transpose(out, [1, 0, 2])
    return tuple([out] + lasts)


def basic_gru(input, init_hidden, hidden_size, num_layers=1, sequence_length=None,
              dropout_prob=0.0, bidirectional=False, batch_first=True, param_attr=None,
              bias_attr=None, gate_activation=None, activation=None, dtype='float32',
              name='basic_gru'):
    return _stack(input, None if init_hidden is None else [init_hidden], hidden_size,
                  num_layers, sequence_length, dropout_prob, bidirectional, batch_first,
                  lambda n: BasicGRUUnit(n, hidden_size, param_attr, bias_attr,
                                         gate_activation, activation, dtype),
                  name, 1, {})


def basic_lstm(input, init_hidden, init_cell, hidden_size, num_layers=1, sequence_length=None,
               dropout_prob=0.0, bidirectional=False, batch_first=True, param_attr=None,
               bias_attr=None, gate_activation=None, activation=None, forget_bias=1.0,
               dtype='float32', name='basic_lstm'):
    return _stack(input, None if init_hidden is None else [init_hidden, init_cell],
                  hidden_size, num_layers, sequence_length, dropout_prob, bidirectional,
                  batch_first,
                  lambda n: BasicLSTMUnit(n, hidden_size, param_attr, bias_attr,
                                          gate_activation, activation, forget_bias, dtype),
                  name, 2, {"dropout_implementation": "upscale_in_train"})
