"""The fluid2018 shim's RNN cell API of Paddle 1.6 (its layers/rnn.py):
RNNCell, GRUCell, LSTMCell, rnn, Decoder, BeamSearchDecoder,
dynamic_decode and gather_tree. Paddle 3.3.1's paddle.nn cells and
decoders name and lay out their parameters otherwise (weight_ih/hh),
so 1.6's Python is ported here over the shim's 1.x layers: the cells
wrap the shim's contrib BasicGRUUnit/BasicLSTMUnit, `rnn` is a
StaticRNN and `dynamic_decode` a While loop writing tensor arrays, as
in 1.6. Nested structures go through 3.3.1's paddle.utils (dicts by
sorted key, as 1.6's layers/utils)."""
import collections
import sys
import types
from functools import partial

import numpy as np
import paddle
from paddle.utils import (assert_same_structure, flatten, map_structure, pack_sequence_as)

__all__ = ['RNNCell', 'GRUCell', 'LSTMCell', 'Decoder', 'BeamSearchDecoder', 'rnn',
           'dynamic_decode', 'gather_tree']


def _L():
    return paddle.fluid.layers


def _expand(x, times):
    """1.6's expand, whose counts may be Variables (expand_times_tensor);
    the shim's expand takes ints, so Variable counts go through 3.3.1's
    tile (the same copies)."""
    if any(isinstance(t, paddle.static.Variable) for t in times):
        return paddle.tile(x, [paddle.cast(t, 'int32') if isinstance(t, paddle.static.Variable)
                               else t for t in times])
    return _L().expand(x, times)


def gather_tree(ids, parents):
    return paddle.nn.functional.gather_tree(ids, parents)


def _shape_leaves(s):
    """A structure of shapes with each shape ([ints]) one leaf, -1 first."""
    if isinstance(s, (list, tuple)) and all(isinstance(d, int) for d in s):
        return types.SimpleNamespace(shape=list(s) if s[0] == -1 else [-1] + list(s))
    if isinstance(s, dict):
        return {k: _shape_leaves(v) for k, v in s.items()}
    items = [_shape_leaves(v) for v in s]
    return type(s)(*items) if hasattr(s, '_fields') else type(s)(items)


class RNNCell(object):
    def call(self, inputs, states, **kwargs):
        raise NotImplementedError("RNNCell must implent the call function.")

    def __call__(self, inputs, states, **kwargs):
        return self.call(inputs, states, **kwargs)

    def get_initial_states(self, batch_ref, shape=None, dtype=None, init_value=0):
        batch_ref = flatten(batch_ref)[0]
        shapes = _shape_leaves(self.state_shape if shape is None else shape)
        try:
            dtypes = self.state_dtype if dtype is None else dtype
        except NotImplementedError:
            dtypes = 'float32'
        if len(flatten(dtypes)) == 1:
            one = flatten(dtypes)[0]
            dtypes = map_structure(lambda _: one, shapes)
        return map_structure(lambda s, d: _L().fill_constant_batch_size_like(
            input=batch_ref, shape=s.shape, dtype=d, value=init_value), shapes, dtypes)

    @property
    def state_shape(self):
        raise NotImplementedError

    @property
    def state_dtype(self):
        raise NotImplementedError


class GRUCell(RNNCell):
    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, dtype='float32', name='GRUCell'):
        self.hidden_size = hidden_size
        self.gru_unit = paddle.fluid.contrib.layers.rnn_impl.BasicGRUUnit(
            name, hidden_size, param_attr, bias_attr, gate_activation, activation, dtype)

    def call(self, inputs, states):
        h = self.gru_unit(inputs, states)
        return h, h

    @property
    def state_shape(self):
        return [self.hidden_size]


class LSTMCell(RNNCell):
    def __init__(self, hidden_size, param_attr=None, bias_attr=None, gate_activation=None,
                 activation=None, forget_bias=1.0, dtype='float32', name='LSTMCell'):
        self.hidden_size = hidden_size
        self.lstm_unit = paddle.fluid.contrib.layers.rnn_impl.BasicLSTMUnit(
            name, hidden_size, param_attr, bias_attr, gate_activation, activation,
            forget_bias, dtype)

    def call(self, inputs, states):
        h, c = self.lstm_unit(inputs, states[0], states[1])
        return h, [h, c]

    @property
    def state_shape(self):
        return [[self.hidden_size], [self.hidden_size]]


def _maybe_copy(state, new_state, step_mask):
    L = _L()
    return (L.elementwise_mul(new_state, step_mask, axis=0)
            - L.elementwise_mul(state, (step_mask - 1), axis=0))


def _transpose_batch_time(x):
    return _L().transpose(x, [1, 0] + list(range(2, len(x.shape))))


def _rnn_loop():
    """The shim's StaticRNN for `rnn`, whose inputs may have a length
    known only when the program runs (1.6's recurrent op took any): then
    the loop runs `shape(x)[0]` steps and the outputs are stacked with
    tensor_array_to_tensor (as fluidc's StaticRNN does for `rnn`)."""
    import paddle_fluid_shim as shim

    class Loop(shim.StaticRNN):
        def step_input(self, x):
            if self.seq_len is None and x.shape[0] < 0:
                self.seq_len, self.stacked = -1, []

                def limit():
                    self.limit = _L().cast(_L().shape(x)[0], "int64")
                    _L().less_than(x=self.counter, y=self.limit, cond=self.cond)

                self._in_parent(limit)
                helper = shim.LayerHelper("gather")
                row = helper.create_variable_for_type_inference(dtype=x.dtype)
                helper.append_op(type="gather", inputs={"X": [x], "Index": [self.counter]},
                                 outputs={"Out": [row]}, attrs={"axis": 0})
                step = _L().reshape(row, shape=list(x.shape[1:]))
                self.inputs[step.name] = x
                return step
            return shim.StaticRNN.step_input(self, x)

        def step_output(self, o):
            if self.seq_len != -1:
                return shim.StaticRNN.step_output(self, o)
            # kept out of self.outputs, which the base reads back by a
            # known step count
            array = self._in_parent(lambda: paddle.tensor.create_array(o.dtype))
            paddle.tensor.array_write(o, self.counter, array=array)
            self.stacked.append(array)

        def __call__(self):
            if self.seq_len != -1:
                return shim.StaticRNN.__call__(self)
            return [_L().tensor_array_to_tensor(a, axis=0, use_stack=True)[0]
                    for a in self.stacked]

    return Loop()


def rnn(cell, inputs, initial_states=None, sequence_length=None, time_major=False,
        is_reverse=False, **kwargs):
    L = _L()
    if initial_states is None:
        initial_states = cell.get_initial_states(batch_ref=inputs)
    for s in flatten(initial_states):
        s.stop_gradient = False
    if not time_major:
        inputs = map_structure(_transpose_batch_time, inputs)
    mask = None
    if sequence_length is not None:
        mask = L.sequence_mask(sequence_length, maxlen=L.shape(flatten(inputs)[0])[0],
                               dtype=flatten(initial_states)[0].dtype)
        mask = L.transpose(mask, [1, 0])
    if is_reverse:
        inputs = map_structure(lambda x: L.reverse(x, axis=[0]), inputs)
        mask = L.reverse(mask, axis=[0]) if mask is not None else None
    static_rnn = _rnn_loop()
    with static_rnn.step():
        inputs = map_structure(static_rnn.step_input, inputs)
        states = map_structure(static_rnn.memory, initial_states)
        outputs, new_states = cell.call(inputs, map_structure(lambda x: x, states), **kwargs)
        assert_same_structure(states, new_states)
        if mask is not None:
            step_mask = static_rnn.step_input(mask)
            new_states = map_structure(partial(_maybe_copy, step_mask=step_mask), states,
                                       new_states)
        map_structure(static_rnn.update_memory, states, new_states)
        n_out = len(flatten(outputs))
        map_structure(static_rnn.step_output, outputs)
        map_structure(static_rnn.step_output, new_states)
    out = static_rnn()
    final_outputs = pack_sequence_as(outputs, out[:n_out])
    final_states = pack_sequence_as(new_states, [x[-1] for x in out[n_out:]])
    if is_reverse:
        final_outputs = map_structure(lambda x: L.reverse(x, axis=[0]), final_outputs)
    if not time_major:
        final_outputs = map_structure(_transpose_batch_time, final_outputs)
    return final_outputs, final_states


class Decoder(object):
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
    OutputWrapper = collections.namedtuple("OutputWrapper",
                                           ("scores", "predicted_ids", "parent_ids"))
    StateWrapper = collections.namedtuple("StateWrapper",
                                          ("cell_states", "log_probs", "finished", "lengths"))

    def __init__(self, cell, start_token, end_token, beam_size, embedding_fn=None,
                 output_fn=None):
        self.cell, self.embedding_fn, self.output_fn = cell, embedding_fn, output_fn
        self.start_token, self.end_token, self.beam_size = start_token, end_token, beam_size

    @staticmethod
    def tile_beam_merge_with_batch(x, beam_size):
        L = _L()
        x = L.unsqueeze(x, [1])
        times = [1] * len(x.shape)
        times[1] = beam_size
        x = L.expand(x, times)
        x = L.transpose(x, list(range(2, len(x.shape))) + [0, 1])
        x = L.reshape(x, shape=[0] * (len(x.shape) - 2) + [-1])
        return L.transpose(x, [len(x.shape) - 1] + list(range(0, len(x.shape) - 1)))

    def _split_batch_beams(self, x):
        return _L().reshape(x, shape=[-1, self.beam_size] + list(x.shape[1:]))

    def _merge_batch_beams(self, x):
        return _L().reshape(x, shape=[-1] + list(x.shape[2:]))

    def _expand_to_beam_size(self, x):
        x = _L().unsqueeze(x, [1])
        times = [1] * len(x.shape)
        times[1] = self.beam_size
        return _L().expand(x, times)

    def _mask_probs(self, probs, finished):
        L = _L()
        finished = L.cast(finished, dtype=probs.dtype)
        return (L.elementwise_mul(L.expand(L.unsqueeze(finished, [2]), [1, 1, self.vocab_size]),
                                  self.noend_mask_tensor, axis=-1)
                - L.elementwise_mul(probs, (finished - 1), axis=0))

    def _gather(self, x, indices, batch_size):
        L = _L()
        if batch_size.dtype != indices.dtype:
            batch_size = L.cast(batch_size, indices.dtype)
        pos = L.expand(L.unsqueeze(L.range(0, batch_size, 1, dtype=indices.dtype), [1]),
                       [1, self.beam_size])
        return L.gather_nd(x, L.stack([pos, indices], axis=2))

    def initialize(self, initial_cell_states):
        L = _L()
        self.kinf = 1e9
        state = flatten(initial_cell_states)[0]
        self.batch_size = L.shape(state)[0]
        self.start_token_tensor = L.fill_constant([1], "int64", self.start_token)
        self.end_token_tensor = L.fill_constant([1], "int64", self.end_token)
        cell_states = map_structure(self._expand_to_beam_size, initial_cell_states)
        inputs = L.expand(L.unsqueeze(_expand(self.start_token_tensor, [self.batch_size]), [1]),
                          [1, self.beam_size])
        log_probs = _expand(L.assign(np.array([[0.] + [-self.kinf] * (self.beam_size - 1)],
                                              dtype="float32")), [self.batch_size, 1])
        finished = L.fill_constant_batch_size_like(input=state, shape=[-1, self.beam_size],
                                                   dtype="bool", value=False, force_cpu=True)
        lengths = L.zeros_like(inputs)
        inputs = self.embedding_fn(inputs) if self.embedding_fn else inputs
        return inputs, self.StateWrapper(cell_states, log_probs, finished, lengths), finished

    def _beam_search_step(self, time, logits, next_cell_states, beam_state):
        L = _L()
        self.vocab_size = logits.shape[-1]
        self.vocab_size_tensor = L.fill_constant([1], "int64", self.vocab_size)
        noend = [-self.kinf] * self.vocab_size
        noend[self.end_token] = 0
        self.noend_mask_tensor = L.assign(np.array(noend, "float32"))
        step_log_probs = self._mask_probs(L.log(L.softmax(logits)), beam_state.finished)
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
        out, state = self._beam_search_step(time, cell_outputs, next_cell_states, states)
        ids = out.predicted_ids
        return out, state, (self.embedding_fn(ids) if self.embedding_fn else ids), state.finished

    def finalize(self, outputs, final_states, sequence_lengths):
        return gather_tree(outputs.predicted_ids, outputs.parent_ids), final_states

    @property
    def output_dtype(self):
        return self.OutputWrapper(scores="float32", predicted_ids="int64", parent_ids="int64")


def dynamic_decode(decoder, inits=None, max_step_num=None, output_time_major=False,
                   impute_finished=False, is_test=False, return_length=False, **kwargs):
    """1.6's loop (the step's inputs and states overwritten in place) with
    1.7's impute_finished and 1.8's return_length."""
    L = _L()
    inputs, states, finished = decoder.initialize(inits)
    finished.stop_gradient = True
    step_idx = L.fill_constant([1], "int64", 0)
    cond = L.logical_not(L.reduce_all(finished))
    if max_step_num is not None:
        max_step_num = L.fill_constant([1], "int64", max_step_num)
    while_op = L.While(cond, is_test=is_test)
    arrays = map_structure(lambda dtype: L.create_array(dtype), decoder.output_dtype)
    lengths = L.cast(L.zeros_like(finished), "int64")
    lengths.stop_gradient = True

    def _impute(state, new_state):
        boolean = state.dtype == paddle.bool
        if boolean:
            state, new_state = L.cast(state, "float32"), L.cast(new_state, "float32")
        mask = L.cast(L.logical_not(finished), state.dtype)
        mask.stop_gradient = True
        out = _maybe_copy(state, new_state, mask)
        return L.cast(out, "bool") if boolean else out

    with while_op.block():
        outputs, next_states, next_inputs, next_finished = decoder.step(step_idx, inputs,
                                                                        states, **kwargs)
        next_lengths = L.elementwise_add(lengths,
                                         L.cast(L.logical_not(finished), lengths.dtype))
        if impute_finished:
            next_states = map_structure(_impute, states, next_states)
        map_structure(lambda x, a: L.array_write(x, i=step_idx, array=a), outputs, arrays)
        L.increment(x=step_idx, value=1.0, in_place=True)
        map_structure(L.assign, next_inputs, inputs)
        map_structure(L.assign, next_states, states)
        L.assign(next_finished, finished)
        L.assign(next_lengths, lengths)
        if max_step_num is not None:
            L.logical_and(L.logical_not(L.reduce_all(next_finished)),
                          L.less_equal(step_idx, max_step_num), cond)
        else:
            L.logical_not(L.reduce_all(next_finished), cond)

    final_outputs = map_structure(
        lambda a: L.tensor_array_to_tensor(a, axis=0, use_stack=True)[0], arrays)
    final_states = states
    try:
        final_outputs, final_states = decoder.finalize(final_outputs, states, lengths)
    except NotImplementedError:
        pass
    if not output_time_major:
        final_outputs = map_structure(_transpose_batch_time, final_outputs)
    if return_length:
        return final_outputs, final_states, lengths
    return final_outputs, final_states


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """1.6's fluid.embedding (fluid.input.embedding): a `lookup_table_v2`
    op, whose ids need no trailing dim of 1, as 1.6's seq2seq models fed
    it the decoder's [batch, beam] ids."""
    import paddle_fluid_shim as shim
    helper = shim.LayerHelper("embedding")
    w = shim._create_parameter(helper, param_attr, size, dtype, is_bias=False)
    out = helper.create_variable_for_type_inference(shim._dtype(dtype))
    padding_idx = -1 if padding_idx is None else (
        padding_idx if padding_idx >= 0 else size[0] + padding_idx)
    helper.append_op(type="lookup_table_v2", inputs={"Ids": input, "W": w},
                     outputs={"Out": out},
                     attrs={"is_sparse": is_sparse, "is_distributed": is_distributed,
                            "remote_prefetch": bool(is_sparse and not is_distributed),
                            "padding_idx": padding_idx})
    return out


def install(fluid):
    """Binds the API in fluid.layers (and 1.6's paddle.fluid.layers.rnn
    module path), and 1.6's fluid.embedding where the shim has none."""
    if not hasattr(fluid, "embedding"):
        fluid.embedding = embedding
    names = {n: globals()[n] for n in __all__}
    fluid.layers.__dict__.update(names)
    fluid.layers.nn.gather_tree = gather_tree  # 1.6's nn.py held it
    module = types.ModuleType("paddle.fluid.layers.rnn")
    module.__dict__.update(names, __all__=list(__all__))
    sys.modules[module.__name__] = module
    from paddle.utils import layers_utils
    utils = types.ModuleType("paddle.fluid.layers.utils")
    utils.__dict__.update({n: getattr(layers_utils, n) for n in (
        "is_sequence", "flatten", "pack_sequence_as", "map_structure",
        "assert_same_structure")})
    sys.modules[utils.__name__] = fluid.layers.utils = utils
