# A tiny seq2seq decoder's inference as the book's machine_translation
# decode() wrote it in Paddle 1.x: a While loop over tensor arrays of
# ids, scores and states, each step's candidates from topk, chosen by
# beam_search (2-level LoD: sources x prefixes), the sentences put back
# together by beam_search_decode. The weights are fixed so the numbers
# are the same everywhere. With a small bonus on the end token one source
# ends early (its beams all reach end_id and beam_search prunes it) while
# the others run to max_length; with a larger one every source ends and
# is_empty stops the loop early. Then one beam_search step on fed
# candidates: probabilities (is_accumulated=False), parent_idx, ended
# prefixes and a source pruned, and beam_size 1.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as pd

dict_size = 6
word_dim = 3
hidden = 4
beam_size = 2
max_length = 5
end_id = 3
batch = 3


def weights(shape, a, b, end_bonus=0.0):
    n = int(np.prod(shape))
    values = ((np.arange(n) * a) % 11 - b) / 4.0
    if end_bonus:
        values[end_id] += end_bonus
    return fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
        values.reshape(shape).astype('float32')))


def decoder(end_bonus):


    context = pd.data(name='context', shape=[hidden], dtype='float32')
    init_ids = pd.data(name='init_ids', shape=[1], dtype='int64', lod_level=2)
    init_scores = pd.data(name='init_scores', shape=[1], dtype='float32', lod_level=2)

    array_len = pd.fill_constant(shape=[1], dtype='int64', value=max_length)
    counter = pd.zeros(shape=[1], dtype='int64', force_cpu=True)

    state_array = pd.create_array('float32')
    pd.array_write(context, array=state_array, i=counter)
    ids_array = pd.create_array('int64')
    scores_array = pd.create_array('float32')
    pd.array_write(init_ids, array=ids_array, i=counter)
    pd.array_write(init_scores, array=scores_array, i=counter)

    cond = pd.less_than(x=counter, y=array_len)
    while_op = pd.While(cond=cond)
    with while_op.block():
        pre_ids = pd.array_read(array=ids_array, i=counter)
        pre_state = pd.array_read(array=state_array, i=counter)
        pre_score = pd.array_read(array=scores_array, i=counter)

        pre_state_expanded = pd.sequence_expand(pre_state, pre_score)
        pre_ids_emb = pd.embedding(input=pre_ids, size=[dict_size, word_dim], dtype='float32',
                                   param_attr=weights([dict_size, word_dim], 5, 5))
        current_state = pd.fc(input=[pre_state_expanded, pre_ids_emb], size=hidden, act='tanh',
                              param_attr=[weights([hidden, hidden], 3, 4),
                                          weights([word_dim, hidden], 7, 6)],
                              bias_attr=False)
        current_state_with_lod = pd.lod_reset(x=current_state, y=pre_score)
        current_score = pd.fc(input=current_state_with_lod, size=dict_size, act='softmax',
                              param_attr=weights([hidden, dict_size], 4, 5),
                              bias_attr=weights([dict_size], 2, 3, end_bonus))
        topk_scores, topk_indices = pd.topk(current_score, k=beam_size)
        accu_scores = pd.elementwise_add(x=pd.log(topk_scores),
                                         y=pd.reshape(pre_score, shape=[-1]), axis=0)
        selected_ids, selected_scores = pd.beam_search(pre_ids, pre_score, topk_indices,
                                                       accu_scores, beam_size, end_id=end_id,
                                                       level=0)
        pd.increment(x=counter, value=1, in_place=True)
        pd.array_write(current_state, array=state_array, i=counter)
        pd.array_write(selected_ids, array=ids_array, i=counter)
        pd.array_write(selected_scores, array=scores_array, i=counter)

        length_cond = pd.less_than(x=counter, y=array_len)
        finish_cond = pd.logical_not(pd.is_empty(x=selected_ids))
        pd.logical_and(x=length_cond, y=finish_cond, out=cond)

    translation_ids, translation_scores = pd.beam_search_decode(
        ids=ids_array, scores=scores_array, beam_size=beam_size, end_id=end_id)
    steps = pd.array_length(ids_array)
    return translation_ids, translation_scores, steps


place = fluid.CPUPlace()
exe = fluid.Executor(place)
lod = [[1] * batch, [1] * batch]
feed = {
    'context': np.array([[0.5, -1.0, 0.25, 1.0],
                         [-0.75, 0.5, 1.0, -0.5],
                         [1.0, 1.0, -1.0, 0.0]], dtype='float32'),
    'init_ids': fluid.create_lod_tensor(np.zeros((batch, 1), dtype='int64'), lod, place),
    'init_scores': fluid.create_lod_tensor(np.zeros((batch, 1), dtype='float32'), lod, place),
}


def show(ids, scores):
    lod = ids.lod()
    print('lod:', lod)
    print('sequence lengths:', ids.recursive_sequence_lengths())
    print('scores lod:', scores.lod())
    ids = np.array(ids)
    scores = np.array(scores)
    print('ids:', ids.shape, ids.dtype, ids.tolist())
    print('scores:', scores.shape, scores.dtype, [round(float(s), 4) for s in scores])
    for src in range(len(lod[0]) - 1):
        for k in range(lod[0][src], lod[0][src + 1]):
            start, end = lod[1][k], lod[1][k + 1]
            print('  source %d sentence %d:' % (src, k - lod[0][src]),
                  ids[start:end].tolist(), 'score %.4f' % scores[end - 1])


for end_bonus in (1.5, 2.5):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        translation_ids, translation_scores, steps = decoder(end_bonus)
    exe.run(startup)
    ids, scores, n = exe.run(main, feed=feed,
                             fetch_list=[translation_ids, translation_scores, steps],
                             return_numpy=False)
    print('end bonus %.1f: steps written %s' % (end_bonus, np.array(n)))
    show(ids, scores)

# One step on fed candidates. Source 0 has two prefixes, one ended
# (pre_id 3); source 1 has two prefixes, both ended, so it is pruned;
# source 2 has one prefix. The scores are probabilities.
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    pre_ids = pd.data(name='pre_ids', shape=[1], dtype='int64', lod_level=2)
    pre_scores = pd.data(name='pre_scores', shape=[1], dtype='float32', lod_level=2)
    cand_ids = pd.data(name='cand_ids', shape=[3], dtype='int64', lod_level=2)
    probs = pd.data(name='probs', shape=[3], dtype='float32', lod_level=2)
    outs = {}
    for beam in (2, 1):
        outs[beam] = pd.beam_search(pre_ids, pre_scores, cand_ids, probs, beam_size=beam,
                                    end_id=end_id, is_accumulated=False,
                                    return_parent_idx=True)
    top_values, top_indices = pd.topk(probs, k=2)
step_lod = [[2, 2, 1], [1, 1, 1, 1, 1]]
step_feed = {
    'pre_ids': fluid.create_lod_tensor(np.array([[2], [3], [3], [3], [5]], 'int64'),
                                       step_lod, place),
    'pre_scores': fluid.create_lod_tensor(
        np.array([[-0.5], [-0.25], [-1.0], [-2.0], [-0.75]], 'float32'), step_lod, place),
    'cand_ids': fluid.create_lod_tensor(
        np.array([[3, 4, 5], [0, 1, 2], [0, 1, 2], [0, 1, 2], [5, 3, 4]], 'int64'),
        step_lod, place),
    'probs': fluid.create_lod_tensor(
        np.array([[0.5, 0.25, 0.125], [0.5, 0.25, 0.125], [0.5, 0.25, 0.125],
                  [0.5, 0.25, 0.125], [0.375, 0.5, 0.125]], 'float32'), step_lod, place),
}
for beam in (2, 1):
    sel_ids, sel_scores, parent = exe.run(main, feed=step_feed, fetch_list=list(outs[beam]),
                                          return_numpy=False)
    print('beam_size %d:' % beam)
    print('  selected_ids', np.array(sel_ids).ravel().tolist(), sel_ids.lod())
    print('  selected_scores', [round(float(v), 4) for v in np.array(sel_scores).ravel()],
          sel_scores.lod())
    print('  parent_idx', np.array(parent).tolist(), np.array(parent).dtype)
values, indices = exe.run(main, feed=step_feed, fetch_list=[top_values, top_indices],
                          return_numpy=False)
print('topk keeps the LoD:', values.lod(), indices.lod(), np.array(indices).tolist())
