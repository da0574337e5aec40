"""1.6's `contrib.layers.metric_op`: `ctr_metric_bundle`."""
from __future__ import print_function

from ...initializer import Constant
from ...layer_helper import LayerHelper

__all__ = ["ctr_metric_bundle"]


def ctr_metric_bundle(input, label):
    """1.6's running CTR statistics of predicted probabilities `input`
    against 0/1 `label` (same shape): persistable float32 `[1]` sums,
    zero in the startup program, each run adding its batch's: squared
    error, absolute error, predictions, sigmoids of the predictions (1.6's
    "q"), positive labels and instances. Returns those six accumulators
    (sqrerr, abserr, prob, q, pos_num, ins_num), which a script fetches to
    compute MAE, RMSE, actual/predicted CTR and COPC. 1.6's `l1_norm` op
    is here the `abs` and whole `reduce_sum` it computes."""
    assert input.shape == label.shape
    helper = LayerHelper("ctr_metric_bundle", **locals())

    def accumulator():
        return helper.create_global_variable(persistable=True, dtype='float32', shape=[1])

    def batch(shape=(1,)):
        return helper.create_global_variable(persistable=False, dtype='float32',
                                             shape=list(shape))

    local_abserr, local_sqrerr, local_prob = accumulator(), accumulator(), accumulator()
    local_q, local_pos_num, local_ins_num = accumulator(), accumulator(), accumulator()
    tmp_res_elesub, tmp_res_abs = batch([-1]), batch([-1])
    tmp_res_sigmoid, tmp_ones = batch([-1]), batch([-1])
    batch_prob, batch_abserr, batch_sqrerr = batch(), batch(), batch()
    batch_q, batch_pos_num, batch_ins_num = batch(), batch(), batch()
    for var in [local_abserr, batch_abserr, local_sqrerr, batch_sqrerr, local_prob,
                batch_prob, local_q, batch_q, batch_pos_num, batch_ins_num,
                local_pos_num, local_ins_num]:
        helper.set_variable_initializer(var, Constant(value=0.0, force_cpu=True))

    def op(type, x, out, attrs=None):
        helper.append_op(type=type, inputs={"X": [x]}, outputs={"Out": [out]}, attrs=attrs)

    def accumulate(batch_var, local_var):
        helper.append_op(type="elementwise_add", inputs={"X": [batch_var], "Y": [local_var]},
                         outputs={"Out": [local_var]})

    # 1.6's reduce_sum ops took the op's default attributes: dim 0.
    over_rows = {"dim": [0], "keep_dim": False, "reduce_all": False}
    helper.append_op(type="elementwise_sub", inputs={"X": [input], "Y": [label]},
                     outputs={"Out": [tmp_res_elesub]})
    op("squared_l2_norm", tmp_res_elesub, batch_sqrerr)
    accumulate(batch_sqrerr, local_sqrerr)
    op("abs", tmp_res_elesub, tmp_res_abs)
    op("reduce_sum", tmp_res_abs, batch_abserr,
       {"dim": [0], "keep_dim": False, "reduce_all": True})
    accumulate(batch_abserr, local_abserr)
    op("reduce_sum", input, batch_prob, over_rows)
    accumulate(batch_prob, local_prob)
    op("sigmoid", input, tmp_res_sigmoid)
    op("reduce_sum", tmp_res_sigmoid, batch_q, over_rows)
    accumulate(batch_q, local_q)
    op("reduce_sum", label, batch_pos_num, over_rows)
    accumulate(batch_pos_num, local_pos_num)
    helper.append_op(type='fill_constant_batch_size_like', inputs={"Input": label},
                     outputs={'Out': [tmp_ones]},
                     attrs={'shape': [-1, 1], 'dtype': tmp_ones.dtype, 'value': 1.0})
    op("reduce_sum", tmp_ones, batch_ins_num, over_rows)
    accumulate(batch_ins_num, local_ins_num)
    return local_sqrerr, local_abserr, local_prob, local_q, local_pos_num, local_ins_num
