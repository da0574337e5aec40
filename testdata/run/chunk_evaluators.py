# Chunk F1 over several batches, both ways 1.x scripts kept it: the
# deprecated fluid.evaluator.ChunkEvaluator (counts summed inside the
# program into persistable states, reset and read back by programs of
# its own) and fluid.metrics.ChunkEvaluator (the counts fetched and
# summed in Python, as numpy arrays or ints), with chunk_eval's per-batch
# metrics beside them.
from __future__ import print_function

import warnings

import numpy as np
import paddle.fluid as fluid

warnings.simplefilter('ignore')
place = fluid.CPUPlace()
exe = fluid.Executor(place)

infer = fluid.layers.data(name='infer', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
(precision, recall, f1_score, num_infer_chunks, num_label_chunks,
 num_correct_chunks) = fluid.layers.chunk_eval(input=infer, label=label, chunk_scheme='IOB',
                                               num_chunk_types=2)
evaluator = fluid.evaluator.ChunkEvaluator(input=infer, label=label, chunk_scheme='IOB',
                                           num_chunk_types=2)
print([s.name for s in evaluator.states], [m.shape for m in evaluator.metrics])
metric = fluid.metrics.ChunkEvaluator()
counted = fluid.metrics.ChunkEvaluator('counted')
print(str(metric), str(counted), sorted(metric.get_config()['states'].items()))


def lod(seqs):
    return fluid.create_lod_tensor([np.array(s, 'int64').reshape(-1, 1) for s in seqs],
                                   [[len(s) for s in seqs]], place)


batches = [
    ([[0, 1, 4, 2], [2, 3, 3]], [[0, 1, 4, 2], [2, 4, 3]]),
    ([[4, 4, 0], [0, 2, 3, 4, 0]], [[4, 4, 0], [0, 2, 3, 4, 2]]),
    ([[1, 1, 4]], [[0, 1, 4]]),
]
for epoch in range(2):
    evaluator.reset(exe)
    metric.reset()
    for inferred, labelled in batches[epoch:]:
        out = exe.run(feed={'infer': lod(inferred), 'label': lod(labelled)},
                      fetch_list=[precision, recall, f1_score, num_infer_chunks,
                                  num_label_chunks, num_correct_chunks] + evaluator.metrics)
        metric.update(out[3], out[4], out[5])
        counted.update(int(out[3][0]), int(out[4][0]), int(out[5][0]))
        print(epoch, ['%.4f' % v[0] for v in out[:3]], [int(v[0]) for v in out[3:6]],
              ['%.4f' % v[0] for v in out[6:]])
    p, r, f = evaluator.eval(exe)
    print('evaluator', p.dtype, p.shape, '%.4f %.4f %.4f' % (p[0], r[0], f[0]))
    print('metric', metric.eval())
    print('state', metric.num_infer_chunks, metric.num_label_chunks, metric.num_correct_chunks)
    print('counted', counted.eval())
