"""Recurrent layers of 1.x's `layers/nn.py`: one step of a cell
(`gru_unit`, `lstm_unit`) and whole LoD sequences (`dynamic_lstm`,
`dynamic_gru`, the `lstm` and `gru` ops). The input of each is already
projected to the gates (an `fc` before it), as in 1.x.

And 1.6's RNN cell API (its `layers/rnn.py`): cells (`RNNCell`,
`GRUCell`, `LSTMCell`) unrolled over padded batches by `rnn` (a
StaticRNN), and decoders (`Decoder`, `BeamSearchDecoder`) run by
`dynamic_decode` (a While loop writing each step's outputs to arrays),
with `gather_tree` tracing the beams back."""
import collections
from functools import partial

import numpy as np

from ... import _stack
from ..framework import Variable, convert_dtype
from ..layer_helper import LayerHelper
from ..param_attr import ParamAttr
from .nn import fc
from .tensor import concat
from .utils import assert_same_structure, flatten, map_structure, pack_sequence_as

__all__ = ["dynamic_lstm", "dynamic_gru", "gru_unit", "lstm_unit", "dynamic_lstmp",
           "RNNCell", "GRUCell", "LSTMCell", "Decoder", "BeamSearchDecoder", "rnn",
           "dynamic_decode", "gather_tree"]

# The activations the sequence RNN ops take, by name (`lstm`, `gru`) and
# by number (`gru_unit`).
_ACTIVATIONS = {"identity": 0, "sigmoid": 1, "tanh": 2, "relu": 3}


def _check_var(x, name, layer):
    if not isinstance(x, Variable):
        raise TypeError("The type of '%s' in %s must be Variable, but received %s"
                        % (name, layer, type(x).__name__))


def _check_activation(layer, arg, act):
    if act not in _ACTIVATIONS:
        raise ValueError("%s of %s is `%s`, not one of sigmoid, tanh, relu, identity"
                         % (arg, layer, act))


def _check_state(layer, state, arg, batch_size, size):
    """An initial state is `[batch_size, size]`, as the input's batch."""
    _check_var(state, arg, layer)
    if tuple(state.shape) != (batch_size, size):
        raise AssertionError("The shape of %s should be (batch_size, %d)"
                             % (arg.replace("_", ""), size))


def dynamic_lstm(input, size, h_0=None, c_0=None, param_attr=None, bias_attr=None,
                 use_peepholes=True, is_reverse=False, gate_activation="sigmoid",
                 cell_activation="tanh", candidate_activation="tanh", dtype="float32",
                 name=None):
    """An LSTM over each sequence of `input` (`[T, 4D]`, `size` = 4D):
    returns the hidden states and the cells, both `[T, D]` with the
    input's LoD. The weight is `[D, 4D]`; the bias `[1, 7D]` holds the
    peephole weights after the gates' biases (`[1, 4D]` without them),
    so 1.x asserted it is not turned off."""
    _check_var(input, "input", "dynamic_lstm")
    if bias_attr is False:
        raise AssertionError("bias_attr should not be False in dynamic_lstm.")
    if size <= 0 or size % 4 != 0:
        raise ValueError("size %d of dynamic_lstm must be four times the hidden size" % size)
    for arg, act in (("gate_activation", gate_activation), ("cell_activation", cell_activation),
                     ("candidate_activation", candidate_activation)):
        _check_activation("dynamic_lstm", arg, act)
    helper = LayerHelper("lstm", **locals())
    if helper.param_attr is False:
        raise ValueError("dynamic_lstm needs a weight; param_attr cannot be False")
    size = size // 4
    weight = helper.create_parameter(attr=helper.param_attr, shape=[size, 4 * size], dtype=dtype)
    bias_size = [1, 7 * size] if use_peepholes else [1, 4 * size]
    bias = helper.create_parameter(attr=helper.bias_attr, shape=bias_size, dtype=dtype,
                                   is_bias=True)
    hidden = helper.create_variable_for_type_inference(dtype)
    cell = helper.create_variable_for_type_inference(dtype)
    batch_gate = helper.create_variable_for_type_inference(dtype)
    batch_cell_pre_act = helper.create_variable_for_type_inference(dtype)
    inputs = {"Input": input, "Weight": weight, "Bias": bias}
    batch_size = input.shape[0]
    if h_0 is not None:
        _check_state("dynamic_lstm", h_0, "h_0", batch_size, size)
        inputs["H0"] = h_0
    if c_0 is not None:
        _check_state("dynamic_lstm", c_0, "c_0", batch_size, size)
        inputs["C0"] = c_0
    helper.append_op(type="lstm", inputs=inputs,
                     outputs={"Hidden": hidden, "Cell": cell, "BatchGate": batch_gate,
                              "BatchCellPreAct": batch_cell_pre_act},
                     attrs={"use_peepholes": use_peepholes, "is_reverse": is_reverse,
                            "gate_activation": gate_activation,
                            "cell_activation": cell_activation,
                            "candidate_activation": candidate_activation})
    return hidden, cell


def dynamic_lstmp(input, size, proj_size, param_attr=None, bias_attr=None,
                  use_peepholes=True, is_reverse=False, gate_activation='sigmoid',
                  cell_activation='tanh', candidate_activation='tanh',
                  proj_activation='tanh', dtype='float32', name=None, h_0=None,
                  c_0=None, cell_clip=None, proj_clip=None):
    """1.6's LSTM with a recurrent projection (Sak et al. 2014) over each
    sequence of `input` (`[T, 4D]`, `size` = 4D): returns the projections
    `[T, proj_size]` and the cells `[T, D]`. The weight is `[proj_size,
    4D]`, the projection weight `[D, proj_size]` (both from param_attr),
    the bias as dynamic_lstm's; h_0 is `[N, proj_size]`, c_0 `[N, D]`.
    The cell and projection are clipped to cell_clip and proj_clip when
    given."""
    helper = LayerHelper('lstmp', **locals())
    size = size // 4
    weight = helper.create_parameter(attr=helper.param_attr, shape=[proj_size, 4 * size],
                                     dtype=dtype)
    proj_weight = helper.create_parameter(attr=helper.param_attr, shape=[size, proj_size],
                                          dtype=dtype)
    bias_size = [1, 7 * size]
    if not use_peepholes:
        bias_size[1] = 4 * size
    bias = helper.create_parameter(attr=helper.bias_attr, shape=bias_size, dtype=dtype,
                                   is_bias=True)

    projection = helper.create_variable_for_type_inference(dtype)
    cell = helper.create_variable_for_type_inference(dtype)
    ordered_proj0 = helper.create_variable_for_type_inference(dtype)  # noqa: F841 (1.6's)
    batch_hidden = helper.create_variable_for_type_inference(dtype)
    batch_gate = helper.create_variable_for_type_inference(dtype)
    batch_cell_pre_act = helper.create_variable_for_type_inference(dtype)
    inputs = {'Input': input, 'Weight': weight, 'ProjWeight': proj_weight, 'Bias': bias}
    batch_size = input.shape[0]
    if h_0 is not None:
        assert h_0.shape == (batch_size, proj_size), \
            'The shape of h0 should be (batch_size, %d)' % proj_size
        inputs['H0'] = h_0
    if c_0 is not None:
        assert c_0.shape == (batch_size, size), \
            'The shape of c0 should be (batch_size, %d)' % size
        inputs['C0'] = c_0
    if cell_clip:
        assert cell_clip >= 0, "cell_clip should not be negtive."
    if proj_clip:
        assert proj_clip >= 0, "proj_clip should not be negtive."
    attrs = {'use_peepholes': use_peepholes, 'cell_clip': cell_clip, 'proj_clip': proj_clip,
             'is_reverse': is_reverse, 'gate_activation': gate_activation,
             'cell_activation': cell_activation, 'candidate_activation': candidate_activation,
             'proj_activation': proj_activation}
    # 1.x's Operator left out an attribute given as None (its default).
    helper.append_op(type='lstmp', inputs=inputs,
                     outputs={'Projection': projection, 'Cell': cell,
                              'BatchHidden': batch_hidden, 'BatchGate': batch_gate,
                              'BatchCellPreAct': batch_cell_pre_act},
                     attrs={k: v for k, v in attrs.items() if v is not None})
    return projection, cell


def dynamic_gru(input, size, param_attr=None, bias_attr=None, is_reverse=False,
                gate_activation="sigmoid", candidate_activation="tanh", h_0=None,
                origin_mode=False):
    """A GRU over each sequence of `input` (`[T, 3D]`, `size` = D, the
    hidden size): returns the hidden states `[T, D]` with the input's
    LoD. The weight is `[D, 3D]`, the bias `[1, 3D]`."""
    _check_var(input, "input", "dynamic_gru")
    if size <= 0:
        raise ValueError("size %d of dynamic_gru must be the hidden size, above 0" % size)
    for arg, act in (("gate_activation", gate_activation),
                     ("candidate_activation", candidate_activation)):
        _check_activation("dynamic_gru", arg, act)
    helper = LayerHelper("gru", **locals())
    if helper.param_attr is False:
        raise ValueError("dynamic_gru needs a weight; param_attr cannot be False")
    dtype = helper.input_dtype()
    weight = helper.create_parameter(attr=helper.param_attr, shape=[size, 3 * size], dtype=dtype)
    bias = helper.create_parameter(attr=helper.bias_attr, shape=[1, 3 * size], dtype=dtype,
                                   is_bias=True)
    inputs = {"Input": input, "Weight": weight, "Bias": bias}
    if h_0 is not None:
        _check_state("dynamic_gru", h_0, "h_0", input.shape[0], size)
        inputs["H0"] = h_0
    hidden = helper.create_variable_for_type_inference(dtype)
    batch_gate = helper.create_variable_for_type_inference(dtype)
    batch_reset_hidden_prev = helper.create_variable_for_type_inference(dtype)
    batch_hidden = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="gru", inputs=inputs,
                     outputs={"Hidden": hidden, "BatchGate": batch_gate,
                              "BatchResetHiddenPrev": batch_reset_hidden_prev,
                              "BatchHidden": batch_hidden},
                     attrs={"is_reverse": is_reverse, "gate_activation": gate_activation,
                            "activation": candidate_activation, "origin_mode": origin_mode})
    return hidden


def gru_unit(input, hidden, size, param_attr=None, bias_attr=None, activation="tanh",
             gate_activation="sigmoid", origin_mode=False):
    """One GRU step: `input` is the projected `[N, 3D]` step, `hidden` the
    last `[N, D]` state, `size` = 3D; returns `(hidden, reset_hidden_prev,
    gate)`. 1.x looked the activations up (a KeyError for an unknown one)
    but always built the op with tanh and sigmoid; so does fluidc, with a
    warning when the script asked for others."""
    _check_var(input, "input", "gru_unit")
    _check_var(hidden, "hidden", "gru_unit")
    for arg, act, built in (("activation", activation, "tanh"),
                            ("gate_activation", gate_activation, "sigmoid")):
        if act not in _ACTIVATIONS:
            raise KeyError(act)
        if act != built:
            import warnings  # on first use: importing it costs start-up
            warnings.warn("gru_unit builds its op with %s `%s`, not `%s`, as Paddle 1.x did"
                          % (arg, built, act), stacklevel=_stack.user_stacklevel())
    if size <= 0 or size % 3 != 0:
        raise ValueError("size %d of gru_unit must be three times the hidden size" % size)
    helper = LayerHelper("gru_unit", **locals())
    if helper.param_attr is False:
        raise ValueError("gru_unit needs a weight; param_attr cannot be False")
    dtype = helper.input_dtype()
    size = size // 3
    weight = helper.create_parameter(attr=helper.param_attr, shape=[size, 3 * size], dtype=dtype)
    gate = helper.create_variable_for_type_inference(dtype)
    reset_hidden_pre = helper.create_variable_for_type_inference(dtype)
    updated_hidden = helper.create_variable_for_type_inference(dtype)
    inputs = {"Input": input, "HiddenPrev": hidden, "Weight": weight}
    if helper.bias_attr:
        inputs["Bias"] = helper.create_parameter(attr=helper.bias_attr, shape=[1, 3 * size],
                                                 dtype=dtype, is_bias=True)
    helper.append_op(type="gru_unit", inputs=inputs,
                     outputs={"Gate": gate, "ResetHiddenPrev": reset_hidden_pre,
                              "Hidden": updated_hidden},
                     attrs={"activation": _ACTIVATIONS["tanh"],
                            "gate_activation": _ACTIVATIONS["sigmoid"],
                            "origin_mode": origin_mode})
    return updated_hidden, reset_hidden_pre, gate


def lstm_unit(x_t, hidden_t_prev, cell_t_prev, forget_bias=0.0, param_attr=None,
              bias_attr=None, name=None):
    """One LSTM step: the four gates are `fc(concat([x_t, hidden_t_prev]),
    4D)` with this layer's `param_attr` and `bias_attr`, then the
    `lstm_unit` op; returns `(h, c)`. `lstm_unit_N` is named before the
    `concat_N` and `fc_N` it builds, as in 1.x."""
    helper = LayerHelper("lstm_unit", **locals())
    for arg, v in (("x_t", x_t), ("hidden_t_prev", hidden_t_prev),
                   ("cell_t_prev", cell_t_prev)):
        _check_var(v, arg, "lstm_unit")
        if len(v.shape) != 2:
            raise ValueError("Rank of %s must be 2." % arg)
    if x_t.shape[0] != hidden_t_prev.shape[0] or x_t.shape[0] != cell_t_prev.shape[0]:
        raise ValueError("The 1st dimensions of x_t, hidden_t_prev and cell_t_prev must be "
                         "the same.")
    if hidden_t_prev.shape[1] != cell_t_prev.shape[1]:
        raise ValueError("The 2nd dimensions of hidden_t_prev and cell_t_prev must be the "
                         "same.")
    if bias_attr is None:
        bias_attr = ParamAttr()
    size = cell_t_prev.shape[1]
    concat_out = concat(input=[x_t, hidden_t_prev], axis=1)
    fc_out = fc(input=concat_out, size=4 * size, param_attr=param_attr, bias_attr=bias_attr)
    dtype = x_t.dtype
    c = helper.create_variable_for_type_inference(dtype)
    h = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="lstm_unit", inputs={"X": fc_out, "C_prev": cell_t_prev},
                     outputs={"C": c, "H": h}, attrs={"forget_bias": float(forget_bias)})
    return h, c


def _L():
    """The layers package, complete once it has been imported (this
    module is imported while it is being built)."""
    from .. import layers
    return layers


def gather_tree(ids, parents):
    """The full beams of a beam search (1.6's layer on the `gather_tree`
    op): `ids` and `parents` are `[max_time, batch, beam]` int64, the
    token chosen at each step and the beam it extends; each beam is read
    back from its last step through its parents."""
    helper = LayerHelper('gather_tree', **locals())
    out = helper.create_variable_for_type_inference(dtype=ids.dtype)
    helper.append_op(type="gather_tree", inputs={"Ids": ids, "Parents": parents},
                     outputs={"Out": out})
    return out


class _Shape(object):
    """One state's shape as a leaf of a structure of shapes (a shape is
    itself a list of ints), with the batch dim -1 put first."""

    def __init__(self, shape):
        self.shape = list(shape) if shape[0] == -1 else [-1] + list(shape)


def _shapes(structure):
    if isinstance(structure, (list, tuple)) and all(isinstance(d, int) for d in structure):
        return _Shape(structure)
    if isinstance(structure, dict):
        return type(structure)((k, _shapes(v)) for k, v in structure.items())
    items = [_shapes(v) for v in structure]
    if hasattr(structure, "_fields"):
        return type(structure)(*items)
    return type(structure)(items)


class RNNCell(object):
    """A step of a recurrent network: `call(inputs, states)` returns
    `(outputs, new_states)`, each a Variable or a structure of them."""

    def call(self, inputs, states, **kwargs):
        raise NotImplementedError("RNNCell must implent the call function.")

    def __call__(self, inputs, states, **kwargs):
        return self.call(inputs, states, **kwargs)

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0):
        """States filled with `init_value`, in the structure of `shape`
        (the cell's `state_shape` when None), their batch size that of
        the first Variable of `batch_ref`; `dtype` one for all or one
        for each (the cell's `state_dtype`, else float32)."""
        batch_ref = flatten(batch_ref)[0]
        shapes = _shapes(self.state_shape if shape is None else shape)
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = "float32"
        if len(flatten(dtypes)) == 1:
            one = flatten(dtypes)[0]
            dtypes = map_structure(lambda _: one, shapes)
        return map_structure(
            lambda s, d: _L().fill_constant_batch_size_like(
                input=batch_ref, shape=s.shape, dtype=d, value=init_value),
            shapes, dtypes)

    @property
    def state_shape(self):
        raise NotImplementedError

    @property
    def state_dtype(self):
        raise NotImplementedError


class GRUCell(RNNCell):
    """A GRU step (contrib's BasicGRUUnit, its parameters named after
    `name`): the output and the new state are the same hidden state."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, dtype="float32", name="GRUCell"):
        from .. import contrib
        self.hidden_size = hidden_size
        self.gru_unit = contrib.layers.rnn_impl.BasicGRUUnit(
            name, hidden_size, param_attr, bias_attr, gate_activation, activation, dtype)

    def call(self, inputs, states):
        new_hidden = self.gru_unit(inputs, states)
        return new_hidden, new_hidden

    @property
    def state_shape(self):
        return [self.hidden_size]


class LSTMCell(RNNCell):
    """An LSTM step (contrib's BasicLSTMUnit): states `[hidden, cell]`,
    the output the new hidden state."""

    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, forget_bias=1.0, dtype="float32", name="LSTMCell"):
        from .. import contrib
        self.hidden_size = hidden_size
        self.lstm_unit = contrib.layers.rnn_impl.BasicLSTMUnit(
            name, hidden_size, param_attr, bias_attr, gate_activation, activation,
            forget_bias, dtype)

    def call(self, inputs, states):
        pre_hidden, pre_cell = states
        new_hidden, new_cell = self.lstm_unit(inputs, pre_hidden, pre_cell)
        return new_hidden, [new_hidden, new_cell]

    @property
    def state_shape(self):
        return [[self.hidden_size], [self.hidden_size]]


def _maybe_copy(state, new_state, step_mask):
    """`new_state` where the step's mask is 1, `state` where it is 0."""
    L = _L()
    return (L.elementwise_mul(new_state, step_mask, axis=0)
            - L.elementwise_mul(state, (step_mask - 1), axis=0))


def _impute(state, new_state, finished):
    """`state` where the entry has finished, else `new_state` (bool
    states through float32, as 1.7)."""
    L = _L()
    boolean = convert_dtype(state.dtype) == "bool"
    if boolean:
        state, new_state = L.cast(state, "float32"), L.cast(new_state, "float32")
    mask = L.cast(L.logical_not(finished), state.dtype)
    mask.stop_gradient = True
    out = _maybe_copy(state, new_state, mask)
    return L.cast(out, "bool") if boolean else out


def _transpose_batch_time(x):
    return _L().transpose(x, [1, 0] + list(range(2, len(x.shape))))


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
        is_reverse=False, **kwargs):
    """`cell` over every step of `inputs` (`[batch, time, ...]`, or
    `[time, batch, ...]` with `time_major`) in a StaticRNN: returns the
    stacked outputs and the last states. With `sequence_length`, a
    batch entry's states stay as they were past its length."""
    L = _L()

    def _switch_grad(x, stop=False):
        x.stop_gradient = stop
        return x

    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs)
    initial_states = map_structure(_switch_grad, initial_states)
    if not time_major:
        inputs = map_structure(_transpose_batch_time, inputs)
    if sequence_length is not None:
        max_seq_len = L.shape(flatten(inputs)[0])[0]
        mask = L.sequence_mask(sequence_length, maxlen=max_seq_len,
                               dtype=flatten(initial_states)[0].dtype)
        mask = L.transpose(mask, [1, 0])
    if is_reverse:
        inputs = map_structure(lambda x: L.reverse(x, axis=[0]), inputs)
        mask = L.reverse(mask, axis=[0]) if sequence_length is not None else None

    static_rnn = L.StaticRNN()
    static_rnn._unknown_steps = True
    with static_rnn.step():
        inputs = map_structure(static_rnn.step_input, inputs)
        states = map_structure(static_rnn.memory, initial_states)
        copy_states = map_structure(lambda x: x, states)
        outputs, new_states = cell.call(inputs, copy_states, **kwargs)
        assert_same_structure(states, new_states)
        if sequence_length is not None:
            step_mask = static_rnn.step_input(mask)
            new_states = map_structure(partial(_maybe_copy, step_mask=step_mask), states,
                                       new_states)
        map_structure(static_rnn.update_memory, states, new_states)
        flat_outputs = flatten(outputs)
        map_structure(static_rnn.step_output, outputs)
        map_structure(static_rnn.step_output, new_states)

    rnn_out = static_rnn()
    final_outputs = pack_sequence_as(outputs, rnn_out[:len(flat_outputs)])
    final_states = map_structure(lambda x: x[-1], rnn_out[len(flat_outputs):])
    final_states = pack_sequence_as(new_states, final_states)
    if is_reverse:
        final_outputs = map_structure(lambda x: L.reverse(x, axis=[0]), final_outputs)
    if not time_major:
        final_outputs = map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_states


class Decoder(object):
    """What `dynamic_decode` runs: `initialize(inits)` gives the first
    `(inputs, states, finished)`; `step(time, inputs, states)` gives
    `(outputs, next_states, next_inputs, finished)`; `finalize`, when a
    decoder has it, revises the stacked outputs and the last states."""

    def initialize(self, inits):
        raise NotImplementedError

    def step(self, time, inputs, states):
        raise NotImplementedError

    @property
    def output_dtype(self):
        raise NotImplementedError

    def finalize(self, outputs, final_states, sequence_lengths):
        raise NotImplementedError


class BeamSearchDecoder(Decoder):
    """Beam search over `cell`: the cell's inputs and states are tiled to
    `[batch * beam, ...]`; each step keeps the `beam_size` best of the
    beams' log probabilities (a finished beam only ever extends by
    `end_token`, at no cost), and `finalize` traces the beams back with
    `gather_tree`. Anything else the cell reads per batch entry must be
    tiled with `tile_beam_merge_with_batch`."""

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        self.cell = cell
        self.embedding_fn = embedding_fn
        self.output_fn = output_fn
        self.start_token = start_token
        self.end_token = end_token
        self.beam_size = beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        """`[batch, ...]` to `[batch * beam_size, ...]`, each entry
        repeated `beam_size` times in a row."""
        L = _L()
        x = L.unsqueeze(x, [1])
        expand_times = [1] * len(x.shape)
        expand_times[1] = beam_size
        x = L.expand(x, expand_times)
        x = L.transpose(x, list(range(2, len(x.shape))) + [0, 1])
        # 0 keeps a dim as it is: the shape known when building has -1.
        x = L.reshape(x, shape=[0] * (len(x.shape) - 2) + [-1])
        return L.transpose(x, [len(x.shape) - 1] + list(range(0, len(x.shape) - 1)))

    def _split_batch_beams(self, x):
        return _L().reshape(x, shape=[-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        return _L().reshape(x, shape=[-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        L = _L()
        x = L.unsqueeze(x, [1])
        expand_times = [1] * len(x.shape)
        expand_times[1] = self.beam_size
        return L.expand(x, expand_times)

    def _mask_probs(self, probs, finished):
        """A finished beam's log probabilities: 0 for the end token,
        -1e9 for the rest; the others' unchanged."""
        L = _L()
        finished = L.cast(finished, dtype=probs.dtype)
        return (L.elementwise_mul(L.expand(L.unsqueeze(finished, [2]), [1, 1, self.vocab_size]),
                                  self.noend_mask_tensor, axis=-1)
                - L.elementwise_mul(probs, (finished - 1), axis=0))

    def _gather(self, x, indices, batch_size):
        """`x[b, indices[b, k]]` for each batch entry b and beam k."""
        L = _L()
        if batch_size.dtype != indices.dtype:
            batch_size = L.cast(batch_size, indices.dtype)
        batch_pos = L.expand(L.unsqueeze(L.range(0, batch_size, 1, dtype=indices.dtype), [1]),
                             [1, self.beam_size])
        return L.gather_nd(x, L.stack([batch_pos, indices], axis=2))

    class OutputWrapper(collections.namedtuple("OutputWrapper",
                                               ("scores", "predicted_ids", "parent_ids"))):
        pass

    class StateWrapper(collections.namedtuple(
            "StateWrapper", ("cell_states", "log_probs", "finished", "lengths"))):
        pass

    def initialize(self, initial_cell_states):
        L = _L()
        self.kinf = 1e9
        state = flatten(initial_cell_states)[0]
        self.batch_size = L.shape(state)[0]
        self.start_token_tensor = L.fill_constant(shape=[1], dtype="int64",
                                                  value=self.start_token)
        self.end_token_tensor = L.fill_constant(shape=[1], dtype="int64", value=self.end_token)
        init_cell_states = map_structure(self._expand_to_beam_size, initial_cell_states)
        # As 1.6: the start token and the first log probabilities tiled by
        # the batch size, a Variable (expand_times_tensor).
        init_inputs = L.expand(L.unsqueeze(L.expand(self.start_token_tensor, [self.batch_size]),
                                           [1]), [1, self.beam_size])
        log_probs = L.expand(
            L.assign(np.array([[0.] + [-self.kinf] * (self.beam_size - 1)], dtype="float32")),
            [self.batch_size, 1])
        init_finished = L.fill_constant_batch_size_like(
            input=state, shape=[-1, self.beam_size], dtype="bool", value=False, force_cpu=True)
        init_lengths = L.zeros_like(init_inputs)
        init_inputs = self.embedding_fn(init_inputs) if self.embedding_fn else init_inputs
        return (init_inputs, self.StateWrapper(init_cell_states, log_probs, init_finished,
                                               init_lengths), init_finished)

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        L = _L()
        self.vocab_size = logits.shape[-1]
        self.vocab_size_tensor = L.fill_constant(shape=[1], dtype="int64",
                                                 value=self.vocab_size)
        noend_array = [-self.kinf] * self.vocab_size
        noend_array[self.end_token] = 0
        self.noend_mask_tensor = L.assign(np.array(noend_array, "float32"))

        step_log_probs = L.log(L.softmax(logits))
        step_log_probs = self._mask_probs(step_log_probs, beam_state.finished)
        log_probs = L.elementwise_add(x=step_log_probs, y=beam_state.log_probs, axis=0)
        scores = L.reshape(log_probs, [-1, self.beam_size * self.vocab_size])
        topk_scores, topk_indices = L.topk(input=scores, k=self.beam_size)
        beam_indices = L.elementwise_floordiv(topk_indices, self.vocab_size_tensor)
        token_indices = L.elementwise_mod(topk_indices, self.vocab_size_tensor)
        next_log_probs = self._gather(
            L.reshape(log_probs, [-1, self.beam_size * self.vocab_size]), topk_indices,
            self.batch_size)
        next_cell_states = map_structure(
            lambda x: self._gather(x, beam_indices, self.batch_size), next_cell_states)
        next_finished = self._gather(beam_state.finished, beam_indices, self.batch_size)
        next_lengths = self._gather(beam_state.lengths, beam_indices, self.batch_size)
        next_lengths = next_lengths + L.cast(L.logical_not(next_finished),
                                             beam_state.lengths.dtype)
        next_finished = L.logical_or(next_finished,
                                     L.equal(token_indices, self.end_token_tensor))
        return (self.OutputWrapper(topk_scores, token_indices, beam_indices),
                self.StateWrapper(next_cell_states, next_log_probs, next_finished, next_lengths))

    def step(self, time, inputs, states, **kwargs):
        inputs = map_structure(self._merge_batch_beams, inputs)
        cell_states = map_structure(self._merge_batch_beams, states.cell_states)
        cell_outputs, next_cell_states = self.cell(inputs, cell_states, **kwargs)
        cell_outputs = map_structure(self._split_batch_beams, cell_outputs)
        next_cell_states = map_structure(self._split_batch_beams, next_cell_states)
        if self.output_fn is not None:
            cell_outputs = self.output_fn(cell_outputs)
        beam_search_output, beam_search_state = self._beam_search_step(
            time=time, logits=cell_outputs, next_cell_states=next_cell_states,
            beam_state=states)
        sample_ids = beam_search_output.predicted_ids
        next_inputs = self.embedding_fn(sample_ids) if self.embedding_fn else sample_ids
        return beam_search_output, beam_search_state, next_inputs, beam_search_state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def output_dtype(self):
        return self.OutputWrapper(scores="float32", predicted_ids="int64", parent_ids="int64")


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """`decoder.step` in a While loop until every entry is finished (or
    after step `max_step_num`, counting from 0): returns the stacked
    outputs (`[batch, time, ...]`, `[time, batch, ...]` with
    `output_time_major`), revised by `decoder.finalize` when it has one,
    the last states and, with `return_length`, each entry's length.

    As in 1.6, the step's inputs and states are variables the loop
    overwrites, which is 1.7's `is_test` mode: the loop is for inference
    (1.7 added a training mode that keeps every step's). `impute_finished`
    (1.7's) keeps a finished entry's states from changing."""
    L = _L()
    initial_inputs, initial_states, initial_finished = decoder.initialize(inits)
    global_inputs, global_states, global_finished = (initial_inputs, initial_states,
                                                     initial_finished)
    global_finished.stop_gradient = True
    step_idx = L.fill_constant(shape=[1], dtype="int64", value=0)
    cond = L.logical_not(L.reduce_all(initial_finished))
    if max_step_num is not None:
        max_step_num = L.fill_constant(shape=[1], dtype="int64", value=max_step_num)
    while_op = L.While(cond, is_test=is_test)

    inputs = map_structure(lambda x: x, initial_inputs)
    states = map_structure(lambda x: x, initial_states)
    outputs_arrays = map_structure(lambda dtype: L.create_array(dtype), decoder.output_dtype)
    sequence_lengths = L.cast(L.zeros_like(initial_finished), "int64")
    sequence_lengths.stop_gradient = True

    with while_op.block():
        outputs, next_states, next_inputs, next_finished = decoder.step(step_idx, inputs,
                                                                        states, **kwargs)
        next_sequence_lengths = L.elementwise_add(
            sequence_lengths, L.cast(L.logical_not(global_finished), sequence_lengths.dtype))
        if impute_finished:
            next_states = map_structure(partial(_impute, finished=global_finished), states,
                                        next_states)
        map_structure(lambda x, x_array: L.array_write(x, i=step_idx, array=x_array),
                      outputs, outputs_arrays)
        L.increment(x=step_idx, value=1.0, in_place=True)
        map_structure(L.assign, next_inputs, global_inputs)
        map_structure(L.assign, next_states, global_states)
        L.assign(next_finished, global_finished)
        L.assign(next_sequence_lengths, sequence_lengths)
        if max_step_num is not None:
            L.logical_and(L.logical_not(L.reduce_all(next_finished)),
                          L.less_equal(step_idx, max_step_num), cond)
        else:
            L.logical_not(L.reduce_all(next_finished), cond)

    final_outputs = map_structure(
        lambda array: L.tensor_array_to_tensor(array, axis=0, use_stack=True)[0],
        outputs_arrays)
    final_states = global_states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, global_states,
                                                       sequence_lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = map_structure(_transpose_batch_time, final_outputs)
    if return_length:
        return final_outputs, final_states, sequence_lengths
    return final_outputs, final_states
