# A tiny semantic-role labeller in the style of the book's
# label_semantic_roles chapter (2018): word, predicate and mark
# embeddings, an fc and a dynamic_lstm, emission scores summed from two
# fcs, a linear-chain CRF cost trained with SGD on an exponentially
# decayed rate, Viterbi decoding with the CRF's transitions ('crfw') and
# chunk_eval over IOB tags (B-A0 0, I-A0 1, B-A1 2, I-A1 3, O 4). Paddle
# 3.3.1 dropped the linear_chain_crf op: under Paddle the fluid2018 shim
# computes its cost and gradient in numpy, fluidc runs 1.x's op, so costs
# print rounded (to 3 decimals: one cost, 1.37855, sits on the 4th's
# rounding boundary, where float32 sums in another order round apart).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

WORDS, PREDICATES, LABELS = 12, 4, 5
fluid.default_startup_program().random_seed = 5
fluid.default_main_program().random_seed = 5


def fmt(values, digits=3):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


def seq(name):
    return fluid.layers.data(name=name, shape=[1], dtype='int64', lod_level=1)


word, predicate, mark, target = seq('word'), seq('predicate'), seq('mark'), seq('target')
word_emb = fluid.layers.embedding(input=word, size=[WORDS, 6],
                                  param_attr=fluid.ParamAttr(name='emb'))
predicate_emb = fluid.layers.embedding(input=predicate, size=[PREDICATES, 4],
                                       param_attr='vemb')
mark_emb = fluid.layers.embedding(input=mark, size=[2, 2])
hidden_0 = fluid.layers.fc(input=[word_emb, predicate_emb, mark_emb], size=16, act='tanh')
lstm_0, _ = fluid.layers.dynamic_lstm(input=hidden_0, size=16, candidate_activation='relu',
                                      gate_activation='sigmoid', cell_activation='sigmoid')
feature_out = fluid.layers.sums(input=[
    fluid.layers.fc(input=hidden_0, size=LABELS, act='tanh'),
    fluid.layers.fc(input=lstm_0, size=LABELS, act='tanh'),
])
crf_cost = fluid.layers.linear_chain_crf(
    input=feature_out, label=target,
    param_attr=fluid.ParamAttr(name='crfw', learning_rate=2.0))
avg_cost = fluid.layers.mean(crf_cost)
print(crf_cost.shape, avg_cost.shape)

sgd = fluid.optimizer.SGD(learning_rate=fluid.layers.exponential_decay(
    learning_rate=0.5, decay_steps=6, decay_rate=0.5, staircase=True))
sgd.minimize(avg_cost)

crf_decode = fluid.layers.crf_decoding(input=feature_out,
                                       param_attr=fluid.ParamAttr(name='crfw'))
marks = fluid.layers.crf_decoding(input=feature_out, param_attr=fluid.ParamAttr(name='crfw'),
                                  label=target)
(precision, recall, f1_score, num_infer_chunks, num_label_chunks,
 num_correct_chunks) = fluid.layers.chunk_eval(
     input=crf_decode, label=target, chunk_scheme='IOB',
     num_chunk_types=int(np.ceil((LABELS - 1) / 2.0)))
print(crf_decode.shape, precision.shape, num_infer_chunks.shape)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())


def batch(sentences):
    """(words, predicate, tags) triples to a feed: the predicate repeated
    over its sentence, the mark 1 on the predicate's own word."""
    lens = [[len(s[0]) for s in sentences]]
    fields = {'word': [], 'predicate': [], 'mark': [], 'target': []}
    for words, verb, tags in sentences:
        fields['word'].append(words)
        fields['predicate'].append([verb] * len(words))
        fields['mark'].append([1 if w == verb + 8 else 0 for w in words])
        fields['target'].append(tags)
    return {k: fluid.create_lod_tensor([np.array(s, 'int64').reshape(-1, 1) for s in v],
                                       lens, place) for k, v in fields.items()}


batches = [
    batch([([1, 9, 2, 3], 1, [0, 4, 2, 3]),
           ([4, 5, 10], 2, [0, 1, 4]),
           ([6, 11, 7, 2, 5], 3, [4, 4, 0, 1, 1])]),
    batch([([3, 9], 1, [2, 4]),
           ([7, 6, 10, 1, 2, 3], 2, [0, 1, 4, 2, 3, 3])]),
]
fetch = [avg_cost, crf_cost, precision, recall, f1_score, num_infer_chunks,
         num_label_chunks, num_correct_chunks]
for step in range(12):
    out = exe.run(feed=batches[step % 2], fetch_list=fetch)
    print(step, fmt(out[0]), '|', fmt(out[1]), '|', fmt(out[2:5], 3),
          [int(np.array(v)[0]) for v in out[5:]])

for feed in batches:
    path, hits = exe.run(feed=feed, fetch_list=[crf_decode, marks], return_numpy=False)
    print(path.lod(), np.array(path).flatten().tolist(), np.array(hits).flatten().tolist())
print(fmt(np.array(fluid.global_scope().find_var('crfw').get_tensor())[:2], 3))
