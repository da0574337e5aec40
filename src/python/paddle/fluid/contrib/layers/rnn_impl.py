"""1.6's contrib GRU and LSTM made of plain layers over a StaticRNN:
`basic_gru` and `basic_lstm` (stacked, optionally bidirectional, with
optional per-sequence lengths) and the one-step units they call,
`BasicGRUUnit` and `BasicLSTMUnit`.

In 1.6 the units were dygraph `Layer`s, which also worked in static mode:
`Layer(name_scope)` named itself `unique_name(name_scope + "/" + class
name)`, `create_parameter` named its parameters after that
(`<full_name>.w_N`, `.b_N`) and the first call ran `_build_once` (which
makes the parameters) before `forward`. fluidc's dygraph `Layer` is a
refusing stub (fluidc has no imperative mode), so the units here derive
from `_StaticLayer`, which does just those static-mode parts."""
from __future__ import print_function

from ... import layers
from ... import unique_name
from ...layer_helper import LayerHelper
from ...param_attr import ParamAttr

__all__ = ['BasicGRUUnit', 'basic_gru', 'BasicLSTMUnit', 'basic_lstm']


class _StaticLayer(object):
    """What 1.6's dygraph Layer did in a static program."""

    def __init__(self, name_scope, dtype='float32'):
        self._full_name = unique_name.generate(name_scope + "/" + self.__class__.__name__)
        self._built = False
        self._dtype = dtype
        self._helper = LayerHelper(self._full_name, name=self._full_name)

    def full_name(self):
        return self._full_name

    def create_parameter(self, attr, shape, dtype, is_bias=False, default_initializer=None):
        # 1.6 prefixed a given name with the layer's full name, in the
        # caller's ParamAttr itself.
        if isinstance(attr, ParamAttr) and attr.name is not None:
            attr.name = ".".join([self._full_name, attr.name])
        elif isinstance(attr, str):
            attr = ".".join([self._full_name, attr])
        return self._helper.create_parameter(ParamAttr._to_attr(attr), shape, dtype, is_bias,
                                             default_initializer)

    def _build_once(self, *args, **kwargs):
        pass

    def forward(self, *args, **kwargs):
        raise NotImplementedError

    def __call__(self, *inputs, **kwargs):
        if not self._built:
            self._build_once(*inputs, **kwargs)
            self._built = True
        return self.forward(*inputs, **kwargs)


class BasicGRUUnit(_StaticLayer):
    """One GRU step: with `[x, h]` the input and previous hidden state side
    by side, gates `r, u = gate_activation([x, h] W_g + b_g)`, candidate
    `c = activation([x, r * h] W_c + b_c)` and the new state
    `u * h + (1 - u) * c`. Parameters (made at the first call, from the
    input's width): `W_g` [in + hidden, 2 hidden], `W_c` [in + hidden,
    hidden] (both from `param_attr`), `b_g` [2 hidden], `b_c` [hidden]
    (both from `bias_attr`)."""

    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None,
                 gate_activation=None, activation=None, dtype='float32'):
        super(BasicGRUUnit, self).__init__(name_scope, dtype)
        self._name = name_scope
        self._hiden_size = hidden_size
        self._param_attr = param_attr
        self._bias_attr = bias_attr
        self._gate_activation = gate_activation or layers.sigmoid
        self._activation = activation or layers.tanh
        self._dtype = dtype

    def _build_once(self, input, pre_hidden):
        self._input_size = input.shape[-1]
        assert self._input_size > 0
        rows = self._input_size + self._hiden_size
        self._gate_weight = self.create_parameter(
            attr=self._param_attr, shape=[rows, 2 * self._hiden_size], dtype=self._dtype)
        self._candidate_weight = self.create_parameter(
            attr=self._param_attr, shape=[rows, self._hiden_size], dtype=self._dtype)
        self._gate_bias = self.create_parameter(
            self._bias_attr, shape=[2 * self._hiden_size], dtype=self._dtype, is_bias=True)
        self._candidate_bias = self.create_parameter(
            self._bias_attr, shape=[self._hiden_size], dtype=self._dtype, is_bias=True)

    def forward(self, input, pre_hidden):
        gates = layers.matmul(x=layers.concat([input, pre_hidden], 1), y=self._gate_weight)
        gates = self._gate_activation(layers.elementwise_add(gates, self._gate_bias))
        reset, update = layers.split(gates, num_or_sections=2, dim=1)
        candidate = layers.matmul(layers.concat([input, reset * pre_hidden], 1),
                                  self._candidate_weight)
        candidate = self._activation(layers.elementwise_add(candidate, self._candidate_bias))
        return update * pre_hidden + (1 - update) * candidate


class BasicLSTMUnit(_StaticLayer):
    """One LSTM step: `i, j, f, o = split([x, h] W + b, 4)`, the new cell
    `c * sigmoid(f + forget_bias) + sigmoid(i) * tanh(j)` and the new
    hidden state `tanh(new_cell) * sigmoid(o)`. Parameters (made at the
    first call): `W` [in + hidden, 4 hidden] (`param_attr`) and `b`
    [4 hidden] (`bias_attr`); `forget_bias` is a constant [1] made when
    the unit is. `gate_activation` and `activation` are kept but, as in
    1.6, the step uses sigmoid and tanh."""

    def __init__(self, name_scope, hidden_size, param_attr=None, bias_attr=None,
                 gate_activation=None, activation=None, forget_bias=1.0, dtype='float32'):
        super(BasicLSTMUnit, self).__init__(name_scope, dtype)
        self._name = name_scope
        self._hiden_size = hidden_size
        self._param_attr = param_attr
        self._bias_attr = bias_attr
        self._gate_activation = gate_activation or layers.sigmoid
        self._activation = activation or layers.tanh
        self._forget_bias = layers.fill_constant([1], dtype=dtype, value=forget_bias)
        self._forget_bias.stop_gradient = False
        self._dtype = dtype

    def _build_once(self, input, pre_hidden, pre_cell):
        self._input_size = input.shape[-1]
        assert self._input_size > 0
        self._weight = self.create_parameter(
            attr=self._param_attr,
            shape=[self._input_size + self._hiden_size, 4 * self._hiden_size], dtype=self._dtype)
        self._bias = self.create_parameter(
            attr=self._bias_attr, shape=[4 * self._hiden_size], dtype=self._dtype, is_bias=True)

    def forward(self, input, pre_hidden, pre_cell):
        gates = layers.matmul(x=layers.concat([input, pre_hidden], 1), y=self._weight)
        gates = layers.elementwise_add(gates, self._bias)
        i, j, f, o = layers.split(gates, num_or_sections=4, dim=-1)
        forget = layers.sigmoid(layers.elementwise_add(f, self._forget_bias))
        new_cell = layers.elementwise_add(
            layers.elementwise_mul(pre_cell, forget),
            layers.elementwise_mul(layers.sigmoid(i), layers.tanh(j)))
        new_hidden = layers.tanh(new_cell) * layers.sigmoid(o)
        return new_hidden, new_cell


def _units(make, name, num_layers, bidirectional):
    forward = [make(name + "_layers_" + str(i)) for i in range(num_layers)]
    backward = None
    if bidirectional:
        backward = [make(name + "_reverse_layers_" + str(i)) for i in range(num_layers)]
    return forward, backward


def _time_major_mask(input, sequence_length):
    """`input` made time-major by the caller; a [steps, batch] float mask
    of the steps within each sequence's length."""
    if sequence_length is None:
        return None
    # 1.6 took the step count from `shape(input)[0]` at run time; its
    # recurrent op did not need it known. fluidc's StaticRNN (a While over
    # a known number of steps) needs every step input's first dimension
    # known, so a known step count is used as is: the same mask.
    max_seq_len = input.shape[0]
    if max_seq_len < 0:
        max_seq_len = layers.shape(input)[0]
    mask = layers.sequence_mask(sequence_length, maxlen=max_seq_len, dtype='float32')
    return layers.transpose(mask, [1, 0])


def _keep_past_end(new, pre, step_mask):
    # past a sequence's end the state stays what it was:
    # new * m - pre * (m - 1) == new * m + pre * (1 - m)
    return layers.elementwise_mul(new, step_mask, axis=0) - \
        layers.elementwise_mul(pre, (step_mask - 1), axis=0)


def _run_stack(rnn_input, units, mask, num_layers, hidden_size, dropout_prob, inits,
               direc_index, states_per_layer, dropout_implementation):
    """One direction: a StaticRNN over the time-major `rnn_input`
    stacking `units`; returns the top layer's outputs [steps, batch,
    hidden] and, for each kind of state, the last step's [num_layers,
    batch, hidden]."""
    # 1.6 sliced each layer's initial states inside the step block; the
    # While fluidc lowers a StaticRNN onto writes them before the loop, so
    # they are sliced here, before it.
    boots = None
    if inits is not None:
        boots = [[init[i, direc_index] for init in inits] for i in range(num_layers)]
    rnn = layers.StaticRNN()
    # 1.6's recurrent op took inputs whose steps are known only when it
    # runs (its unittests feed [None, None, hidden]): the loop then runs
    # shape(x)[0] steps, as `layers.rnn`'s does.
    rnn._unknown_steps = True
    with rnn.step():
        step_input = rnn.step_input(rnn_input)
        step_mask = rnn.step_input(mask) if mask is not None else None
        for i in range(num_layers):
            if inits is not None:
                pre = [rnn.memory(init=boot) for boot in boots[i]]
            else:
                pre = [rnn.memory(batch_ref=rnn_input, shape=[-1, hidden_size],
                                  ref_batch_dim_idx=1) for _ in range(states_per_layer)]
            new = units[i](step_input, *pre)
            if states_per_layer == 1:
                new = [new]
            new = list(new)
            if step_mask is not None:
                new = [_keep_past_end(n, p, step_mask) for n, p in zip(new, pre)]
            for p, n in zip(pre, new):
                rnn.update_memory(p, n)
            for n in new:
                rnn.step_output(n)
            step_input = new[0]
            if dropout_prob is not None and dropout_prob > 0.0:
                if dropout_implementation is None:
                    step_input = layers.dropout(step_input, dropout_prob=dropout_prob)
                else:
                    step_input = layers.dropout(step_input, dropout_prob=dropout_prob,
                                                dropout_implementation=dropout_implementation)
        rnn.step_output(step_input)
    outs = rnn()
    # each layer's states at the last step (layer by layer), then each
    # kind stacked to [num_layers, batch, hidden]
    final = [outs[i][-1] for i in range(num_layers * states_per_layer)]
    lasts = [layers.reshape(layers.concat(final[k::states_per_layer], axis=0),
                            shape=[num_layers, -1, hidden_size])
             for k in range(states_per_layer)]
    return outs[-1], lasts


def _basic_rnn(input, inits, hidden_size, num_layers, sequence_length, dropout_prob,
               bidirectional, batch_first, fw_units, bw_units, states_per_layer,
               dropout_implementation):
    if batch_first:
        input = layers.transpose(input, [1, 0, 2])
    mask = _time_major_mask(input, sequence_length)
    direc_num = 2 if bidirectional else 1
    if inits is not None:
        inits = [layers.reshape(init, shape=[num_layers, direc_num, -1, hidden_size])
                 for init in inits]
    args = (num_layers, hidden_size, dropout_prob, inits)
    out, lasts = _run_stack(input, fw_units, mask, *args, direc_index=0,
                            states_per_layer=states_per_layer,
                            dropout_implementation=dropout_implementation)
    if bidirectional:
        bw_input = layers.reverse(input, axis=[0])
        bw_mask = layers.reverse(mask, axis=[0]) if mask is not None else None
        bw_out, bw_lasts = _run_stack(bw_input, bw_units, bw_mask,
                                      *args, direc_index=1, states_per_layer=states_per_layer,
                                      dropout_implementation=dropout_implementation)
        out = layers.concat([out, layers.reverse(bw_out, axis=[0])], axis=2)
        lasts = [layers.reshape(layers.concat([fw, bw], axis=1),
                                shape=[num_layers * direc_num, -1, hidden_size])
                 for fw, bw in zip(lasts, bw_lasts)]
    if batch_first:
        out = layers.transpose(out, [1, 0, 2])
    return [out] + lasts


def basic_gru(input, init_hidden, hidden_size, num_layers=1, sequence_length=None,
              dropout_prob=0.0, bidirectional=False, batch_first=True, param_attr=None,
              bias_attr=None, gate_activation=None, activation=None, dtype='float32',
              name='basic_gru'):
    """A GRU of `num_layers` BasicGRUUnits (named `<name>_layers_<i>` and,
    backwards, `<name>_reverse_layers_<i>`) over `input` [batch, steps,
    in] ([steps, batch, in] when not `batch_first`); `init_hidden`
    [num_layers * directions, batch, hidden] or None for zeros;
    `sequence_length` [batch] int, past which a sequence's state is kept;
    `dropout_prob` between layers. Returns `(rnn_out, last_hidden)`:
    [batch, steps, hidden * directions] and [num_layers * directions,
    batch, hidden]."""
    fw_units, bw_units = _units(
        lambda n: BasicGRUUnit(n, hidden_size, param_attr, bias_attr, gate_activation,
                               activation, dtype),
        name, num_layers, bidirectional)
    inits = [init_hidden] if init_hidden is not None else None
    rnn_out, last_hidden = _basic_rnn(input, inits, hidden_size, num_layers, sequence_length,
                                      dropout_prob, bidirectional, batch_first, fw_units,
                                      bw_units, 1, None)
    return rnn_out, last_hidden


def basic_lstm(input, init_hidden, init_cell, hidden_size, num_layers=1, sequence_length=None,
               dropout_prob=0.0, bidirectional=False, batch_first=True, param_attr=None,
               bias_attr=None, gate_activation=None, activation=None, forget_bias=1.0,
               dtype='float32', name='basic_lstm'):
    """An LSTM of `num_layers` BasicLSTMUnits, as `basic_gru` with a cell
    state beside the hidden one (`init_cell` is used with `init_hidden`;
    zeros when `init_hidden` is None) and upscale_in_train dropout.
    Returns `(rnn_out, last_hidden, last_cell)`."""
    fw_units, bw_units = _units(
        lambda n: BasicLSTMUnit(n, hidden_size, param_attr=param_attr, bias_attr=bias_attr,
                                gate_activation=gate_activation, activation=activation,
                                forget_bias=forget_bias, dtype=dtype),
        name, num_layers, bidirectional)
    inits = [init_hidden, init_cell] if init_hidden is not None else None
    rnn_out, last_hidden, last_cell = _basic_rnn(
        input, inits, hidden_size, num_layers, sequence_length, dropout_prob, bidirectional,
        batch_first, fw_units, bw_units, 2, 'upscale_in_train')
    return rnn_out, last_hidden, last_cell
