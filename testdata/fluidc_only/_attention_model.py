# What dynamic_rnn_attention.py and its peer static_attention_unrolled.py
# share: the decoder's step, the sequences, and the weights, every
# parameter a fixed array (a NumpyArrayInitializer) so that both start
# alike however they create them.
import numpy as np
import paddle.fluid as fluid

V, E, H = 8, 4, 5
SHAPES = [('src_emb', [V, E]), ('trg_emb', [V, E]), ('enc_w', [E, H]), ('enc_proj', [H, H]),
          ('boot', [H, H]), ('state_proj', [H, H]), ('att', [2 * H, 1]), ('h_c', [H, H]),
          ('h_w', [E, H]), ('h_h', [H, H]), ('out', [H, V])]


def _values(k, shape):
    n = int(np.prod(shape))
    return (((np.arange(n) * 37 + k * 11) % 29 - 14) / 20.0).astype('float32').reshape(shape)


VALUES = dict((name, _values(k, shape)) for k, (name, shape) in enumerate(SHAPES))


def attr(name):
    return fluid.ParamAttr(
        name=name, initializer=fluid.initializer.NumpyArrayInitializer(VALUES[name]))


# Source sentences, target inputs and the next target words to predict:
# the targets are longest in another order than the sources.
SRC = [[1, 2, 3], [4, 5], [6, 7, 2, 1]]
TRG = [[1, 3], [2, 4, 6], [5]]
NXT = [[3, 7], [4, 6, 7], [7]]


def encoder(src):
    """The source words' encoding, its projection for the attention and
    the decoder's first state (from each sentence's last encoding)."""
    src_emb = fluid.layers.embedding(input=src, size=[V, E], param_attr=attr('src_emb'))
    enc = fluid.layers.fc(input=src_emb, size=H, act='tanh', bias_attr=False,
                          param_attr=attr('enc_w'))
    enc_proj = fluid.layers.fc(input=enc, size=H, bias_attr=False, param_attr=attr('enc_proj'))
    boot = fluid.layers.fc(input=fluid.layers.sequence_last_step(enc), size=H, act='tanh',
                           bias_attr=False, param_attr=attr('boot'))
    return enc, enc_proj, boot


def decoder_step(word, enc_vec, enc_p, h):
    """The book's attention step: the state projected and expanded over
    each sentence's encoder rows (by enc_p's LoD), a softmax of scores
    within each sentence, the weighted sum of the encoder rows, then the
    new state from it, the word and the state, and the word
    probabilities: (new state, probabilities)."""
    state_proj = fluid.layers.fc(input=h, size=H, bias_attr=False,
                                 param_attr=attr('state_proj'))
    state_expand = fluid.layers.sequence_expand(x=state_proj, y=enc_p)
    weights = fluid.layers.fc(input=fluid.layers.concat([enc_p, state_expand], axis=1),
                              size=1, act='tanh', bias_attr=False, param_attr=attr('att'))
    weights = fluid.layers.sequence_softmax(input=weights)
    scaled = fluid.layers.elementwise_mul(
        x=enc_vec, y=fluid.layers.reshape(x=weights, shape=[-1]), axis=0)
    context = fluid.layers.sequence_pool(input=scaled, pool_type='sum')
    new_h = fluid.layers.fc(input=[context, word, h], size=H, act='tanh', bias_attr=False,
                            param_attr=[attr('h_c'), attr('h_w'), attr('h_h')])
    prob = fluid.layers.fc(input=new_h, size=V, act='softmax', bias_attr=False,
                           param_attr=attr('out'))
    return new_h, prob
