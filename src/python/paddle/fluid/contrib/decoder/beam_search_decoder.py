"""paddle.fluid.contrib.decoder.beam_search_decoder (Paddle 1.0-1.5).

A decoder API over the fluid layers: a `StateCell` names the hidden states
(each started from an `InitState`) and step inputs of an RNN cell, and a
user function (`StateCell.state_updater`) computes the new states from
them. The same cell is then used by a `TrainingDecoder` (a DynamicRNN over
the target sequence, each state a DynamicRNN memory) and by a
`BeamSearchDecoder` (a While loop whose ids, scores and states live in
tensor arrays indexed by the step counter, each step choosing candidates
with topk + beam_search and the sentences put back together with
beam_search_decode). Written after 1.x's module of the same name.
"""

import contextlib

from ... import core
from ... import framework
from ... import layers
from ... import unique_name
from ...framework import Variable
from ...layer_helper import LayerHelper

__all__ = ['InitState', 'StateCell', 'TrainingDecoder', 'BeamSearchDecoder']


class _DecoderType:
    TRAINING = 1
    BEAM_SEARCH = 2


class InitState(object):
    """The start value of one hidden state: `init`, or (when `init` is
    None) a tensor of `shape` filled with `value`, its batch size taken from
    `init_boot`. `need_reorder` asks the training decoder to sort the start
    value as DynamicRNN sorts the sequences (batch size > 1)."""

    def __init__(self, init=None, shape=None, value=0.0, init_boot=None,
                 need_reorder=False, dtype='float32'):
        if init is not None:
            self._init = init
        elif init_boot is None:
            raise ValueError(
                'init_boot must be provided to infer the shape of InitState .\n')
        else:
            self._init = layers.fill_constant_batch_size_like(
                input=init_boot, value=value, shape=shape, dtype=dtype)
        self._shape = shape
        self._value = value
        self._need_reorder = need_reorder
        self._dtype = dtype

    @property
    def value(self):
        return self._init

    @property
    def need_reorder(self):
        return self._need_reorder


class _MemoryState(object):
    """A state kept as a DynamicRNN memory (training decoder)."""

    def __init__(self, state_name, rnn_obj, init_state):
        self._state_name = state_name
        self._rnn_obj = rnn_obj
        self._state_mem = rnn_obj.memory(init=init_state.value,
                                         need_reorder=init_state.need_reorder)

    def get_state(self):
        return self._state_mem

    def update_state(self, state):
        self._rnn_obj.update_memory(self._state_mem, state)


class _ArrayState(object):
    """A state kept in a tensor array with its own step counter (beam
    search decoder): read at the counter, written one slot further."""

    def __init__(self, state_name, block, init_state):
        self._state_name = state_name
        self._block = block
        self._state_array = block.create_var(
            name=unique_name.generate('array_state_array'),
            type=core.VarDesc.VarType.LOD_TENSOR_ARRAY,
            dtype=init_state.value.dtype)
        self._counter = block.create_var(
            name=unique_name.generate('array_state_counter'),
            type=core.VarDesc.VarType.LOD_TENSOR,
            dtype='int64')
        block.append_op(type='fill_constant', inputs={},
                        outputs={'Out': [self._counter]},
                        attrs={'shape': [1], 'dtype': self._counter.dtype,
                               'value': 0.0, 'force_cpu': True})
        self._counter.stop_gradient = True
        block.append_op(type='write_to_array',
                        inputs={'X': init_state.value, 'I': self._counter},
                        outputs={'Out': self._state_array})

    def get_state(self):
        return layers.array_read(array=self._state_array, i=self._counter)

    def update_state(self, state):
        layers.increment(x=self._counter, value=1, in_place=True)
        layers.array_write(state, array=self._state_array, i=self._counter)


class StateCell(object):
    """The hidden states and step inputs of an RNN cell.

    `inputs` maps each step input's name to a Variable (or None, to be
    given later through `compute_state`); `states` maps each state's name
    to an `InitState`; `out_state` names the state the beam search decoder
    scores candidates from. The states become decoder variables the first
    time they are used inside a decoder's block."""

    def __init__(self, inputs, states, out_state, name=None):
        self._helper = LayerHelper('state_cell', name=name)
        self._cur_states = {}
        self._state_names = []
        for state_name, state in states.items():
            if not isinstance(state, InitState):
                raise ValueError('state must be an InitState object.')
            self._cur_states[state_name] = state
            self._state_names.append(state_name)
        self._inputs = inputs
        self._cur_decoder_obj = None
        self._in_decoder = False
        self._states_holder = {}
        self._switched_decoder = False
        self._state_updater = None
        self._out_state = out_state
        if self._out_state not in self._cur_states:
            raise ValueError('out_state must be one state in states')

    def _enter_decoder(self, decoder_obj):
        if self._in_decoder or self._cur_decoder_obj is not None:
            raise ValueError('StateCell has already entered a decoder.')
        self._in_decoder = True
        self._cur_decoder_obj = decoder_obj
        self._switched_decoder = False

    def _leave_decoder(self, decoder_obj):
        if not self._in_decoder:
            raise ValueError('StateCell not in decoder, '
                             'invalid leaving operation.')
        if self._cur_decoder_obj != decoder_obj:
            raise ValueError('Inconsistent decoder object in StateCell.')
        self._in_decoder = False
        self._cur_decoder_obj = None
        self._switched_decoder = False

    def _switch_decoder(self):
        # Lazily turn each InitState into the current decoder's state
        # holder, then read the state back as a variable of this step.
        if not self._in_decoder:
            raise ValueError('StateCell must be enter a decoder.')
        if self._switched_decoder:
            raise ValueError('StateCell already done switching.')
        decoder = self._cur_decoder_obj
        for state_name in self._state_names:
            if state_name not in self._states_holder:
                state = self._cur_states[state_name]
                if not isinstance(state, InitState):
                    raise ValueError('Current type of state is %s, should be '
                                     'an InitState object.' % type(state))
                self._states_holder[state_name] = {}
                if decoder.type == _DecoderType.TRAINING:
                    holder = _MemoryState(state_name, decoder.dynamic_rnn, state)
                elif decoder.type == _DecoderType.BEAM_SEARCH:
                    holder = _ArrayState(state_name, decoder._parent_block(), state)
                else:
                    raise ValueError('Unknown decoder type, only support '
                                     '[TRAINING, BEAM_SEARCH]')
                self._states_holder[state_name][id(decoder)] = holder
            self._cur_states[state_name] = \
                self._states_holder[state_name][id(decoder)].get_state()
        self._switched_decoder = True

    def get_state(self, state_name):
        """The variable of the state `state_name` in the current step."""
        if self._in_decoder and not self._switched_decoder:
            self._switch_decoder()
        if state_name not in self._cur_states:
            raise ValueError('Unknown state %s. Please make sure '
                             '_switch_decoder() invoked.' % state_name)
        return self._cur_states[state_name]

    def get_input(self, input_name):
        """The variable given for the step input `input_name`."""
        if input_name not in self._inputs or self._inputs[input_name] is None:
            raise ValueError('Invalid input %s.' % input_name)
        return self._inputs[input_name]

    def set_state(self, state_name, state_value):
        """Make `state_value` the current variable of `state_name`."""
        self._cur_states[state_name] = state_value

    def state_updater(self, updater):
        """Decorator: `updater(state_cell)` computes the new states of one
        step (through get_input/get_state/set_state)."""
        self._state_updater = updater

        def _decorator(state_cell):
            if state_cell == self:
                raise TypeError('Updater should only accept a StateCell object '
                                'as argument.')
            updater(state_cell)

        return _decorator

    def compute_state(self, inputs):
        """Give the step inputs (`{name: Variable}`) and run the updater."""
        if self._in_decoder and not self._switched_decoder:
            self._switch_decoder()
        for input_name, input_value in inputs.items():
            if input_name not in self._inputs:
                raise ValueError('Unknown input %s. Please make sure %s in '
                                 'input place holder.' % (input_name, input_name))
            self._inputs[input_name] = input_value
        self._state_updater(self)

    def update_states(self):
        """Store this step's states in the decoder (memories or arrays)."""
        if self._in_decoder and not self._switched_decoder:
            self._switch_decoder()
        for state_name, decoder_state in self._states_holder.items():
            if id(self._cur_decoder_obj) not in decoder_state:
                raise ValueError('Unknown decoder object, please make sure '
                                 'switch_decoder been invoked.')
            decoder_state[id(self._cur_decoder_obj)].update_state(
                self._cur_states[state_name])

    def out_state(self):
        """The variable of the output state (after update_states)."""
        return self._cur_states[self._out_state]


class TrainingDecoder(object):
    """A decoder for training: a DynamicRNN over the target sequence whose
    step computation is written inside `block()`; calling the decoder after
    the block gives the RNN's outputs."""

    BEFORE_DECODER = 0
    IN_DECODER = 1
    AFTER_DECODER = 2

    def __init__(self, state_cell, name=None):
        self._helper = LayerHelper('training_decoder', name=name)
        self._status = TrainingDecoder.BEFORE_DECODER
        self._dynamic_rnn = layers.DynamicRNN()
        self._type = _DecoderType.TRAINING
        self._state_cell = state_cell
        self._state_cell._enter_decoder(self)

    @contextlib.contextmanager
    def block(self):
        """The body of one RNN step."""
        if self._status != TrainingDecoder.BEFORE_DECODER:
            raise ValueError('decoder.block() can only be invoked once')
        self._status = TrainingDecoder.IN_DECODER
        with self._dynamic_rnn.block():
            yield
        self._status = TrainingDecoder.AFTER_DECODER
        self._state_cell._leave_decoder(self)

    @property
    def state_cell(self):
        self._assert_in_decoder_block('state_cell')
        return self._state_cell

    @property
    def dynamic_rnn(self):
        return self._dynamic_rnn

    @property
    def type(self):
        return self._type

    def step_input(self, x):
        """`x` (a LoD sequence) read one time step at a time."""
        self._assert_in_decoder_block('step_input')
        return self._dynamic_rnn.step_input(x)

    def static_input(self, x):
        """`x` used whole in every step."""
        self._assert_in_decoder_block('static_input')
        return self._dynamic_rnn.static_input(x)

    def __call__(self, *args, **kwargs):
        """The RNN's outputs (after the block)."""
        if self._status != TrainingDecoder.AFTER_DECODER:
            raise ValueError('Output of training decoder can only be visited '
                             'outside the block.')
        return self._dynamic_rnn(*args, **kwargs)

    def output(self, *outputs):
        """Mark variables of the step as the RNN's outputs."""
        self._assert_in_decoder_block('output')
        self._dynamic_rnn.output(*outputs)

    def _assert_in_decoder_block(self, method):
        if self._status != TrainingDecoder.IN_DECODER:
            raise ValueError('%s should be invoked inside block of '
                             'TrainingDecoder object.' % method)


class BeamSearchDecoder(object):
    """A decoder for inference by beam search.

    `init_ids`/`init_scores` (2-level LoD: sources x prefixes) start the
    search; each step embeds the previous ids (`target_dict_dim` x
    `word_dim`), runs the state cell, scores the dictionary with a softmax
    fc, keeps `topk_size` candidates, and beam_search keeps `beam_size`
    of them per source, ending prefixes at `end_id`; the loop stops after
    `max_len` steps or when nothing is left. `input_var_dict` gives other
    step inputs of the cell, expanded to the prefixes. `decode()` builds
    this; calling the decoder then gives (sentence ids, sentence scores)."""

    BEFORE_BEAM_SEARCH_DECODER = 0
    IN_BEAM_SEARCH_DECODER = 1
    AFTER_BEAM_SEARCH_DECODER = 2

    def __init__(self, state_cell, init_ids, init_scores, target_dict_dim,
                 word_dim, input_var_dict={}, topk_size=50, sparse_emb=True,
                 max_len=100, beam_size=1, end_id=1, name=None):
        self._helper = LayerHelper('beam_search_decoder', name=name)
        self._counter = layers.zeros(shape=[1], dtype='int64')
        self._counter.stop_gradient = True
        self._type = _DecoderType.BEAM_SEARCH
        self._max_len = layers.fill_constant(shape=[1], dtype='int64', value=max_len)
        self._cond = layers.less_than(
            x=self._counter,
            y=layers.fill_constant(shape=[1], dtype='int64', value=max_len))
        self._while_op = layers.While(self._cond)
        self._state_cell = state_cell
        self._state_cell._enter_decoder(self)
        self._status = BeamSearchDecoder.BEFORE_BEAM_SEARCH_DECODER
        self._zero_idx = layers.fill_constant(shape=[1], value=0, dtype='int64',
                                              force_cpu=True)
        self._array_dict = {}
        self._array_link = []
        self._ids_array = None
        self._scores_array = None
        self._beam_size = beam_size
        self._end_id = end_id
        self._init_ids = init_ids
        self._init_scores = init_scores
        self._target_dict_dim = target_dict_dim
        self._topk_size = topk_size
        self._sparse_emb = sparse_emb
        self._word_dim = word_dim
        self._input_var_dict = input_var_dict

    @contextlib.contextmanager
    def block(self):
        """The body of one decoding step, inside the While loop; at its
        end, while the loop goes on, the counter moves one step and the
        values given to update_array are written at the new counter."""
        if self._status != BeamSearchDecoder.BEFORE_BEAM_SEARCH_DECODER:
            raise ValueError('block() can only be invoke once.')
        self._status = BeamSearchDecoder.IN_BEAM_SEARCH_DECODER
        with self._while_op.block():
            yield
            with layers.Switch() as switch:
                with switch.case(self._cond):
                    layers.increment(x=self._counter, value=1.0, in_place=True)
                    for value, array in self._array_link:
                        layers.array_write(x=value, i=self._counter, array=array)
                    layers.less_than(x=self._counter, y=self._max_len,
                                     cond=self._cond)
        self._status = BeamSearchDecoder.AFTER_BEAM_SEARCH_DECODER
        self._state_cell._leave_decoder(self)

    @property
    def type(self):
        return self._type

    def early_stop(self):
        """End the loop after this step (the loop's "break")."""
        layers.fill_constant(shape=[1], value=0, dtype='bool', force_cpu=True,
                             out=self._cond)

    def decode(self):
        """Build the default beam search step (see the class doc)."""
        with self.block():
            prev_ids = self.read_array(init=self._init_ids, is_ids=True)
            prev_scores = self.read_array(init=self._init_scores, is_scores=True)
            prev_ids_embedding = layers.embedding(
                input=prev_ids, size=[self._target_dict_dim, self._word_dim],
                dtype='float32', is_sparse=self._sparse_emb)

            feed_dict = {}
            update_dict = {}
            for init_var_name, init_var in self._input_var_dict.items():
                if init_var_name not in self.state_cell._inputs:
                    raise ValueError('Variable ' + init_var_name +
                                     ' not found in StateCell!\n')
                read_var = self.read_array(init=init_var)
                update_dict[init_var_name] = read_var
                feed_dict[init_var_name] = layers.sequence_expand(read_var, prev_scores)

            # Each source's state, repeated for each of its prefixes.
            for state_str in self._state_cell._state_names:
                prev_state = self.state_cell.get_state(state_str)
                self.state_cell.set_state(
                    state_str, layers.sequence_expand(prev_state, prev_scores))

            for input_name in self._state_cell._inputs:
                if input_name not in feed_dict:
                    feed_dict[input_name] = prev_ids_embedding

            self.state_cell.compute_state(inputs=feed_dict)
            current_state = self.state_cell.out_state()
            current_state_with_lod = layers.lod_reset(x=current_state, y=prev_scores)
            scores = layers.fc(input=current_state_with_lod,
                               size=self._target_dict_dim, act='softmax')
            topk_scores, topk_indices = layers.topk(scores, k=self._topk_size)
            accu_scores = layers.elementwise_add(
                x=layers.log(x=topk_scores),
                y=layers.reshape(prev_scores, shape=[-1]), axis=0)
            # 1.x passed end_id=1 here whatever the decoder's end_id.
            selected_ids, selected_scores = layers.beam_search(
                prev_ids, prev_scores, topk_indices, accu_scores,
                self._beam_size, end_id=1, level=0)

            with layers.Switch() as switch:
                with switch.case(layers.is_empty(selected_ids)):
                    self.early_stop()
                with switch.default():
                    self.state_cell.update_states()
                    self.update_array(prev_ids, selected_ids)
                    self.update_array(prev_scores, selected_scores)
                    for update_name, var_to_update in update_dict.items():
                        self.update_array(var_to_update, feed_dict[update_name])

    def read_array(self, init, is_ids=False, is_scores=False):
        """A tensor array started with `init` (written before the loop) and
        the variable read from it at this step."""
        self._assert_in_decoder_block('read_array')
        if is_ids and is_scores:
            raise ValueError('Shouldn\'t mark current array be ids array and'
                             'scores array at the same time.')
        if not isinstance(init, Variable):
            raise TypeError('The input argument `init` must be a Variable.')
        parent_block = self._parent_block()
        array = parent_block.create_var(
            name=unique_name.generate('beam_search_decoder_array'),
            type=core.VarDesc.VarType.LOD_TENSOR_ARRAY,
            dtype=init.dtype)
        parent_block.append_op(type='write_to_array',
                               inputs={'X': init, 'I': self._zero_idx},
                               outputs={'Out': array})
        if is_ids:
            self._ids_array = array
        elif is_scores:
            self._scores_array = array
        read_value = layers.array_read(array=array, i=self._counter)
        self._array_dict[read_value.name] = array
        return read_value

    def update_array(self, array, value):
        """Store `value` as the next step's value of the array `array` was
        read from (by read_array)."""
        self._assert_in_decoder_block('update_array')
        if not isinstance(array, Variable):
            raise TypeError('The input argument `array` of  must be a Variable.')
        if not isinstance(value, Variable):
            raise TypeError('The input argument `value` of must be a Variable.')
        array = self._array_dict.get(array.name, None)
        if array is None:
            raise ValueError('Please invoke read_array before update_array.')
        self._array_link.append((value, array))

    def __call__(self):
        """(sentence ids, sentence scores) from beam_search_decode."""
        if self._status != BeamSearchDecoder.AFTER_BEAM_SEARCH_DECODER:
            raise ValueError('Output of BeamSearchDecoder object can '
                             'only be visited outside the block.')
        return layers.beam_search_decode(ids=self._ids_array,
                                         scores=self._scores_array,
                                         beam_size=self._beam_size,
                                         end_id=self._end_id)

    @property
    def state_cell(self):
        self._assert_in_decoder_block('state_cell')
        return self._state_cell

    def _parent_block(self):
        program = self._helper.main_program
        parent_block_idx = program.current_block().parent_idx
        if parent_block_idx < 0:
            raise ValueError('Invalid block with index %d.' % parent_block_idx)
        return program.block(parent_block_idx)

    def _assert_in_decoder_block(self, method):
        if self._status != BeamSearchDecoder.IN_BEAM_SEARCH_DECODER:
            raise ValueError('%s should be invoked inside block of '
                             'BeamSearchDecoder object.' % method)
