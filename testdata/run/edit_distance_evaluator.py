# The deprecated fluid.evaluator.EditDistance of 1.x's OCR examples:
# greedy-decoded label sequences against the ground truth over a few
# batches, the per-batch metrics fetched with the run, and the pass's
# average distance and instance error read back by eval() after each
# reset().
from __future__ import print_function

import warnings

import numpy as np
import paddle.fluid as fluid

warnings.simplefilter('ignore')
place = fluid.CPUPlace()
exe = fluid.Executor(place)

decoded = fluid.layers.data(name='decoded', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
evaluator = fluid.evaluator.EditDistance(input=decoded, label=label)
print([s.name for s in evaluator.states])
print([m.shape for m in evaluator.metrics], evaluator.seq_num.shape, evaluator.total_distance.persistable)
print(len(evaluator.metrics), fluid.evaluator.EditDistance.__name__ in dir(fluid.evaluator))


def lod(seqs):
    return fluid.create_lod_tensor([np.array(s, 'int64').reshape(-1, 1) for s in seqs],
                                   [[len(s) for s in seqs]], place)


passes = [
    [([[1, 2, 3], [4, 5]], [[1, 2, 3], [4, 6]]),
     ([[7, 7, 2, 1]], [[7, 2, 1]])],
    [([[3, 3], [2], [9, 8, 7]], [[3, 3], [1, 2], [9, 8, 7]]),
     ([[5, 4, 3, 2]], [[2, 3, 4, 5]]),
     ([[6]], [[6]])],
]
exe.run(fluid.default_startup_program())
for pass_id, batches in enumerate(passes):
    evaluator.reset(exe)
    for hyps, refs in batches:
        distance, errors = exe.run(fluid.default_main_program(),
                                   feed={'decoded': lod(hyps), 'label': lod(refs)},
                                   fetch_list=evaluator.metrics)
        print(pass_id, np.round(distance, 5).tolist(), errors.tolist())
    avg_distance, avg_instance_error = evaluator.eval(exe)
    print('pass %d: distance %.5f instance error %.5f' % (
        pass_id, avg_distance[0], avg_instance_error[0]))
    print(type(avg_distance).__name__, avg_distance.shape, avg_distance.dtype,
          avg_instance_error.dtype)

with fluid.program_guard(fluid.Program(), fluid.Program()):
    hyp = fluid.layers.data(name='hyp', shape=[1], dtype='int64', lod_level=1)
    ref = fluid.layers.data(name='ref', shape=[1], dtype='int64', lod_level=1)
    cond = fluid.layers.less_than(x=fluid.layers.fill_constant([1], 'int64', 0),
                                  y=fluid.layers.fill_constant([1], 'int64', 1))
    ifelse = fluid.layers.IfElse(cond)
    with ifelse.true_block():
        try:
            fluid.evaluator.EditDistance(input=hyp, label=ref)
        except ValueError as e:
            print('ValueError', e)
        ifelse.output(fluid.layers.fill_constant([1], 'float32', 0.0))
