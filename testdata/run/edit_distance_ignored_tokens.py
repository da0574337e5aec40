# The OCR attention model's evaluation: edit_distance with ignored_tokens
# (its start and end ids erased from the decoded and the true sequences
# before they are compared, 1.x's sequence_erase), both raw and
# normalized, and the fluid.evaluator.EditDistance that passes them on.
from __future__ import print_function

import warnings

import numpy as np
import paddle.fluid as fluid

warnings.simplefilter("ignore")
SOS, EOS = 0, 1
place = fluid.CPUPlace()
exe = fluid.Executor(place)


def lod(seqs, dtype='int64'):
    return fluid.create_lod_tensor([np.array(s, dtype).reshape(-1, 1) for s in seqs],
                                   [[len(s) for s in seqs]], place)


decoded = fluid.layers.data(name='decoded', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
raw, num = fluid.layers.edit_distance(input=decoded, label=label, normalized=False,
                                      ignored_tokens=[SOS, EOS])
norm, _ = fluid.layers.edit_distance(input=decoded, label=label, ignored_tokens=[EOS])
plain, _ = fluid.layers.edit_distance(input=decoded, label=label, normalized=False)
print(raw.shape, num.shape)

batches = [
    ([[0, 5, 6, 7, 1], [0, 3, 1], [9, 9, 1, 1]], [[5, 6, 7], [3, 4, 1], [0, 9, 8]]),
    ([[0, 1], [2, 3, 4, 5, 6, 1]], [[7, 1], [0, 2, 3, 5, 6]]),
    ([[1, 1, 2], [0, 0, 0, 4]], [[2, 1], [4, 4, 0]]),
]
exe.run(fluid.default_startup_program())
for hyps, refs in batches:
    r, n, z, p = exe.run(feed={'decoded': lod(hyps), 'label': lod(refs)},
                         fetch_list=[raw, num, norm, plain])
    print(r.reshape(-1).tolist(), n.tolist(), ['%.5f' % v for v in z.reshape(-1)],
          p.reshape(-1).tolist())

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    decoded = fluid.layers.data(name='decoded', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
    evaluator = fluid.evaluator.EditDistance(input=decoded, label=label,
                                             ignored_tokens=[SOS, EOS])
exe.run(startup)
evaluator.reset(exe)
for hyps, refs in batches:
    distance, errors = exe.run(main, feed={'decoded': lod(hyps), 'label': lod(refs)},
                               fetch_list=evaluator.metrics)
    print(['%.5f' % v for v in distance], errors.tolist())
avg_distance, avg_instance_error = evaluator.eval(exe)
print('distance %.5f instance error %.5f' % (avg_distance[0], avg_instance_error[0]))
