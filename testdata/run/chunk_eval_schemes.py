# chunk_eval over fed tag sequences in each tagging scheme 1.x knew
# (IOB, IOE, IOBES, plain), with excluded chunk types and with sequences
# a chunk runs to the end of; 1.6's padded mode (seq_length); and
# crf_decoding of fixed emissions and transitions (a NumpyArrayInitializer
# parameter), plain, with labels, and padded with lengths.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

place = fluid.CPUPlace()
exe = fluid.Executor(place)


def lod(seqs):
    return fluid.create_lod_tensor([np.array(s, 'int64').reshape(-1, 1) for s in seqs],
                                   [[len(s) for s in seqs]], place)


cases = [
    # (scheme, chunk types, excluded, inferred tags, labelled tags)
    ('IOB', 3, None,
     [[2, 3, 6, 6, 0, 1, 1, 1, 6, 4], [0, 0, 1, 6], [5, 4, 5]],
     [[2, 3, 6, 6, 0, 1, 1, 1, 6, 4], [0, 1, 1, 6], [4, 4, 5]]),
    ('IOB', 3, [1],
     [[2, 3, 6, 6, 0, 1, 1, 1, 6, 4], [0, 0, 1, 6], [5, 4, 5]],
     [[2, 3, 6, 6, 0, 1, 1, 1, 6, 4], [0, 1, 1, 6], [4, 4, 5]]),
    ('IOE', 2, None,
     [[0, 1, 4, 2, 3], [1, 4, 0, 0, 1]],
     [[0, 1, 4, 3, 3], [1, 4, 0, 1, 4]]),
    ('IOBES', 2, None,
     [[0, 2, 3, 7, 8, 0, 1, 2], [3, 3, 8, 4, 6]],
     [[0, 2, 3, 7, 8, 0, 1, 1], [3, 8, 8, 4, 6]]),
    ('plain', 3, [2],
     [[0, 0, 1, 3, 2, 2], [1, 1, 1], [0, 3, 1]],
     [[0, 0, 1, 3, 2, 3], [1, 1, 0], [0, 3, 1]]),
]
programs = []
for scheme, types, excluded, inferred, labelled in cases:
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        i = fluid.layers.data(name='infer', shape=[1], dtype='int64', lod_level=1)
        l = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
        outs = fluid.layers.chunk_eval(input=i, label=l, chunk_scheme=scheme,
                                       num_chunk_types=types, excluded_chunk_types=excluded)
    got = exe.run(main, feed={'infer': lod(inferred), 'label': lod(labelled)},
                  fetch_list=list(outs))
    print(scheme, excluded, ['%.4f' % np.array(v)[0] for v in got[:3]],
          [int(np.array(v)[0]) for v in got[3:]])

# 1.6's padded tags: [batch, max length] with each sequence's length.
main = fluid.Program()
with fluid.program_guard(main, fluid.Program()):
    i = fluid.layers.data(name='i', shape=[5], dtype='int64')
    l = fluid.layers.data(name='l', shape=[5], dtype='int64')
    n = fluid.layers.data(name='n', shape=[1], dtype='int64', append_batch_size=False)
    outs = fluid.layers.chunk_eval(input=i, label=l, chunk_scheme='IOB', num_chunk_types=2,
                                   seq_length=n)
got = exe.run(main, feed={
    'i': np.array([[0, 1, 4, 2, 3], [2, 4, 0, 0, 0]], 'int64'),
    'l': np.array([[0, 1, 4, 4, 2], [2, 4, 0, 4, 4]], 'int64'),
    'n': np.array([4, 2], 'int64')}, fetch_list=list(outs))
print('padded', ['%.4f' % np.array(v)[0] for v in got[:3]], [int(np.array(v)[0]) for v in got[3:]])

# Viterbi decoding with transitions where the start, the end and each
# pair of tags matter.
transition = np.array([[0.5, -1.0, 0.2],
                       [-0.3, 0.8, 0.1],
                       [0.2, 1.5, -2.0],
                       [-1.0, 0.3, 0.9],
                       [1.2, -0.5, 0.0]], 'float32')
emission = np.array([[0.1, 0.9, 0.3], [1.0, 0.2, 0.5], [0.3, 0.3, 0.3], [0.0, 2.0, 1.0],
                     [0.7, 0.1, 0.6], [0.2, 0.4, 0.9], [1.1, 0.0, 0.2]], 'float32')
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    e = fluid.layers.data(name='e', shape=[3], dtype='float32', lod_level=1)
    t = fluid.layers.data(name='t', shape=[1], dtype='int64', lod_level=1)
    fluid.layers.create_parameter(
        shape=[5, 3], dtype='float32', name='trans',
        default_initializer=fluid.initializer.NumpyArrayInitializer(transition))
    path = fluid.layers.crf_decoding(input=e, param_attr=fluid.ParamAttr(name='trans'))
    hits = fluid.layers.crf_decoding(input=e, param_attr=fluid.ParamAttr(name='trans'),
                                     label=t)
    pe = fluid.layers.data(name='pe', shape=[4, 3], dtype='float32')
    pn = fluid.layers.data(name='pn', shape=[1], dtype='int64', append_batch_size=False)
    padded = fluid.layers.crf_decoding(input=pe, param_attr=fluid.ParamAttr(name='trans'),
                                       length=pn)
exe.run(startup)
e_feed = fluid.create_lod_tensor(emission, [[3, 1, 3]], place)
t_feed = lod([[1, 0, 2], [1], [0, 2, 1]])
pe_feed = np.zeros((2, 4, 3), 'float32')
pe_feed[0, :3], pe_feed[1, :4] = emission[:3], emission[3:]
got = exe.run(main, feed={'e': e_feed, 't': t_feed, 'pe': pe_feed,
                          'pn': np.array([3, 4], 'int64')},
              fetch_list=[path, hits, padded], return_numpy=False)
print(got[0].lod(), np.array(got[0]).flatten().tolist(), np.array(got[1]).flatten().tolist())
print(np.array(got[2]).tolist())
