# Paddle 1.6's seq2seq inference as its attention model decoded: a GRU
# encoder unrolled by fluid.layers.rnn, then a BeamSearchDecoder over an
# attention cell of the program's own, run by dynamic_decode (a While
# loop) with the encoder output tiled to the beams and passed to the
# cell as keyword arguments. The parameters are set from numpy, so the
# decoded ids are the same everywhere.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.layers import GRUCell, BeamSearchDecoder, dynamic_decode

src_vocab, trg_vocab, emb_dim, hidden = 9, 8, 5, 6
beam_size, max_len, start_id, end_id = 3, 7, 0, 7


class AttentionCell(layers.RNNCell):
    """A GRU step whose input is the word and the attention context."""

    def __init__(self, size):
        self.gru = GRUCell(hidden_size=size, name='dec_gru')

    def call(self, step_input, states, encoder_output, encoder_padding_mask=None):
        query = layers.fc(states, size=hidden, bias_attr=False,
                          param_attr=fluid.ParamAttr(name='attn_query_w'))
        attn = layers.matmul(layers.unsqueeze(query, [1]), encoder_output, transpose_y=True)
        if encoder_padding_mask is not None:
            attn = layers.elementwise_add(attn, encoder_padding_mask)
        attn = layers.softmax(attn)
        context = layers.reduce_sum(layers.matmul(attn, encoder_output), dim=1)
        out, new_states = self.gru(layers.concat([step_input, context], axis=-1), states)
        return out, new_states

    @property
    def state_shape(self):
        return [hidden]


main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    src = fluid.data(name='src', shape=[None, 4], dtype='int64')
    src_len = fluid.data(name='src_len', shape=[None], dtype='int64')
    src_emb = fluid.embedding(src, size=[src_vocab, emb_dim],
                              param_attr=fluid.ParamAttr(name='src_emb'))
    enc_out, enc_last = layers.rnn(GRUCell(hidden_size=hidden, name='enc_gru'), src_emb,
                                   sequence_length=src_len)
    mask = layers.sequence_mask(src_len, maxlen=4, dtype='float32')
    padding_mask = layers.unsqueeze((mask - 1.0) * 1e9, [1])

    trg_embeder = lambda x: fluid.embedding(x, size=[trg_vocab, emb_dim],
                                            param_attr=fluid.ParamAttr(name='trg_emb'))
    output_layer = lambda x: layers.fc(x, size=trg_vocab, num_flatten_dims=len(x.shape) - 1,
                                       param_attr=fluid.ParamAttr(name='output_w'),
                                       bias_attr=False)
    decoder = BeamSearchDecoder(AttentionCell(hidden), start_token=start_id, end_token=end_id,
                                beam_size=beam_size, embedding_fn=trg_embeder,
                                output_fn=output_layer)
    enc_out_tiled = BeamSearchDecoder.tile_beam_merge_with_batch(enc_out, beam_size)
    mask_tiled = BeamSearchDecoder.tile_beam_merge_with_batch(padding_mask, beam_size)
    outputs, final_states = dynamic_decode(decoder, inits=enc_last, max_step_num=max_len,
                                           encoder_output=enc_out_tiled,
                                           encoder_padding_mask=mask_tiled)

    # A second decoder: an LSTM cell (states [h, c]) started from the
    # encoder's last state, finished entries' states kept
    # (impute_finished), time-major ids and the lengths returned.
    lstm_cell = layers.LSTMCell(hidden_size=hidden, name='dec_lstm')
    decoder2 = BeamSearchDecoder(lstm_cell, start_token=start_id, end_token=2, beam_size=2,
                                 embedding_fn=trg_embeder, output_fn=output_layer)
    ids2, states2, lengths2 = dynamic_decode(decoder2, inits=[enc_last, enc_last * 0.5],
                                             max_step_num=4, output_time_major=True,
                                             impute_finished=True, return_length=True)

print(enc_out.shape, enc_last.shape, enc_out_tiled.shape, outputs.shape)
print(type(final_states).__name__, final_states._fields)
for p in main.global_block().all_parameters():
    print(p.name, p.shape)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(startup)
scope = fluid.global_scope()
for k, p in enumerate(sorted(main.global_block().all_parameters(), key=lambda p: p.name)):
    n = int(np.prod(p.shape))
    value = (np.sin(np.arange(n) * 0.77 + 2 * k) * 0.9).reshape(p.shape).astype('float32')
    scope.find_var(p.name).get_tensor().set(value, place)

feed = {'src': np.array([[2, 5, 7, 3], [4, 4, 8, 0], [6, 2, 0, 0]], dtype='int64'),
        'src_len': np.array([4, 3, 2], dtype='int64')}
ids, log_probs, finished, lengths = exe.run(
    main, feed=feed, fetch_list=[outputs, final_states.log_probs, final_states.finished,
                                 final_states.lengths])
print(np.array(ids).shape)
for sentence in np.array(ids):
    print(sentence.T.tolist())
print(np.round(np.array(log_probs).astype('float64'), 4).tolist())
print(np.array(finished).tolist())
print(np.array(lengths).tolist())

ids2, h2, c2, lengths2 = exe.run(main, feed=feed, fetch_list=[ids2, states2.cell_states[0],
                                                               states2.cell_states[1], lengths2])
print(np.array(ids2).shape, np.array(ids2).tolist())
print(np.round(np.array(h2).astype('float64').sum(axis=-1), 4).tolist())
print(np.round(np.array(c2).astype('float64').sum(axis=-1), 4).tolist())
print(np.array(lengths2).tolist())
