"""Recurrent layers of 1.x's `layers/nn.py`: one step of a cell
(`gru_unit`, `lstm_unit`) and whole LoD sequences (`dynamic_lstm`,
`dynamic_gru`, the `lstm` and `gru` ops). The input of each is already
projected to the gates (an `fc` before it), as in 1.x."""

from ... import _stack
from ..framework import Variable
from ..layer_helper import LayerHelper
from ..param_attr import ParamAttr
from .nn import fc
from .tensor import concat

__all__ = ["dynamic_lstm", "dynamic_gru", "gru_unit", "lstm_unit", "dynamic_lstmp"]

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
