"""The fluid2018 shim's 1.x `fluid.contrib` extras and the evaluator
`EditDistance`, written after Paddle 1.2-1.6's Python over Paddle 3.3.1's
legacy static programs:

- `memory_usage(program, batch_size)` (contrib.memory_usage_calc) and
  `op_freq_statistic(program)` (contrib.op_frequence) read the program
  as 1.x did; op_freq_statistic gives what 1.x computed under Python 2
  (it used `has_key`).
- `extend_with_decoupled_weight_decay(Optimizer)` (contrib.extend_optimizer,
  1.6): the shim's optimizer classes build Paddle 3.3.1 optimizers from
  a factory, so the extended "class" builds one and gives it a
  `minimize` that appends `param = param - param * coeff` before the
  optimizer's own update, as 1.6's mix-in did.
- `summary(main_prog)` (contrib.model_stat, 1.4-1.6): 1.x's per-op
  parameters and FLOPs, in the box 1.x's `prettytable` drew (right-aligned).
- `EditDistance` (fluid.evaluator): the states and ops of 1.x's."""

import types

import numpy

import paddle
from paddle.base import core, framework, unique_name
from paddle.base.framework import Program, Variable, program_guard
from paddle.base.layer_helper import LayerHelper

_VT = core.VarDesc.VarType
# (dtype, bytes per element) as 1.x's memory_usage_calc counted them;
# compared with ==, as Paddle 3.3.1's var.dtype is a paddle.dtype.
_ELEMENT_BYTES = [(_VT.FP16, 2), (_VT.FP32, 4), (_VT.FP64, 8), (_VT.INT16, 2),
                  (_VT.INT32, 4), (_VT.INT64, 8), (_VT.BOOL, 1), (_VT.UINT8, 1)]


def _element_bytes(dtype):
    for known, size in _ELEMENT_BYTES:
        if dtype == known:
            return size
    raise KeyError(dtype)


def memory_usage(program, batch_size):
    if not isinstance(program, Program):
        raise TypeError("Calculating Memory Usage requires Program as its Parameter."
                        "But you passed in %s" % (type(program)))
    if batch_size <= 0:
        raise ValueError("The batch size need to be positive.")
    block = program.global_block()
    seen = {"@EMPTY@"}
    total = 0.0
    for op in block.ops:
        for name in op.output_arg_names:
            if name in seen:
                continue
            seen.add(name)
            var = block.vars[name]
            if var.desc.type() != _VT.LOD_TENSOR:
                continue
            elements, unknown = 1, 0
            for d in var.shape:
                if d < 0:
                    unknown += 1
                    if unknown > 1:
                        raise ValueError("Var %s has more than one negtive dim." % name)
                    elements *= batch_size * -d
                else:
                    elements *= d
            total += elements * _element_bytes(var.dtype)
    unit = "B"
    for bigger in ("KB", "MB"):
        if total <= 1024:
            break
        total /= 1024
        unit = bigger
    return total * 1.05, total * 1.1, unit


def _op_stat(vars_, op):
    """1.5 model_stat's (input dims, output dims, params, flops) of op."""
    dims = lambda slot_names: tuple(vars_[slot_names[0]].shape)  # noqa: E731
    t = op.type
    if t in ("conv2d", "depthwise_conv2d"):
        x, y, (c_out, c_in, kh, kw) = dims(op.input("Input")), dims(op.output("Output")), dims(op.input("Filter"))
        per_out = kh * kw * (c_in / op.attr("groups")) + (1 if "Bias" in op.input_names and op.input("Bias") else 0)
        return x, y, c_out * per_out, 2 * y[2] * y[3] * c_out * per_out
    if t == "pool2d":
        x, y, k = dims(op.input("X")), dims(op.output("Out")), op.attr("ksize")
        return x, y, 0, y[1] * y[2] * y[3] * k[0] * k[1]
    if t == "mul" and "fc" in op.output("Out")[0]:
        k_in, k_out = dims(op.input("Y"))
        return dims(op.input("X")), dims(op.output("Out")), k_in * k_out + 1, k_in * k_out
    if t in ("sigmoid", "tanh", "relu", "leaky_relu", "prelu"):
        x = dims(op.input("X"))
        return x, dims(op.output("Out")), int(t == "prelu"), int(numpy.prod(x))
    if t == "batch_norm":
        x = dims(op.input("X"))
        return x, dims(op.output("Y")), 2 * x[1], 2 * x[1] * x[2] * x[3]
    return None


def summary(main_prog):
    rows = []
    for block in main_prog.blocks:
        for op in block.ops:
            stat = _op_stat(block.vars, op)
            if stat is not None:
                rows.append([len(rows), op.type, stat[0][1:], stat[1][1:], int(stat[2]), int(stat[3])])
    text = [[str(c) for c in r] for r in [["No.", "TYPE", "INPUT", "OUTPUT", "PARAMs", "FLOPs"]] + rows]
    width = [max(len(r[i]) for r in text) for i in range(6)]
    rule = "+%s+" % "+".join("-" * (w + 2) for w in width)
    lines = ["| %s |" % " | ".join(c.rjust(w) for c, w in zip(r, width)) for r in text]
    print("\n".join([rule, lines[0], rule] + lines[1:] + [rule]))
    params, flops = sum(r[4] for r in rows), sum(r[5] for r in rows)
    print("Total PARAMs: %d(%.4fM)" % (params, params / 1e6))
    print("Total FLOPs: %d(%.2fG)" % (flops, flops / 1e9))
    print("Notice: \n now supported ops include [Conv, DepthwiseConv, FC(mul), BatchNorm, Pool, "
          "Activation(sigmoid, tanh, relu, leaky_relu, prelu)]")


def op_freq_statistic(program):
    if not isinstance(program, Program):
        raise TypeError("The input type should be Porgram."
                        "But you passed in %s" % (type(program)))
    params = {p.name for p in program.blocks[0].all_parameters()}
    ops = program.global_block().ops
    single = {}
    for op in ops:
        if [n for n in op.output_arg_names if n not in params]:
            single[op.type] = single.get(op.type, 0) + 1
    last_writer, fed_by = {}, {}
    for op in ops:
        for n in op.input_arg_names:
            if n in params:
                continue
            if n not in last_writer:
                print("Var's generate op is not found,%s, %s" % (n, op.type))
            else:
                fed_by.setdefault(op.type, []).append(last_writer[n])
        for n in op.output_arg_names:
            last_writer[n] = op.type
    pairs = {}
    for consumer, producers in fed_by.items():
        for producer in producers:
            key = "%s->%s" % (producer, consumer)
            pairs[key] = pairs.get(key, 0) + 1

    def ranked(d):
        return sorted(d.items(), key=lambda kv: kv[1], reverse=True)
    return ranked(single), ranked(pairs)


def extend_with_decoupled_weight_decay(base_optimizer):
    if not (isinstance(base_optimizer, type) and
            issubclass(base_optimizer, paddle.optimizer.Optimizer)):
        raise TypeError("The input(base_optimizer) should be a derived class of Optimizer.")

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        params_grads = self.backward(loss, startup_program, parameter_list, no_grad_set)
        coeff = self._decoupled_coeff
        if isinstance(coeff, float) and coeff == 0.0:
            raise TypeError("'NoneType' object is not iterable")
        chosen = [(p, g) for p, g in params_grads if g is not None and (
            self._decay_fun is None or self._decay_fun(p.name))]
        scaled = []
        for p, g in chosen:
            with p.block.program._optimized_guard([p, g]), framework.name_scope("weight decay"):
                scaled.append(p * coeff)
        for (p, g), s in zip(chosen, scaled):
            with p.block.program._optimized_guard([p, g]), framework.name_scope("weight decay"):
                paddle.fluid.layers.assign(
                    paddle.fluid.layers.elementwise_sub(x=p, y=s), output=p)
        ops = self.apply_optimize(loss, startup_program, params_grads)
        return ops, params_grads

    class OptimizerWithDecoupledWeightDecay(base_optimizer):
        def __new__(klass, weight_decay, apply_decay_param_fun=None, **kwargs):
            if not isinstance(weight_decay, (float, Variable)):
                raise TypeError("coeff should be float or Variable.")
            opt = base_optimizer(**kwargs)
            opt._decoupled_coeff = weight_decay
            opt._decay_fun = apply_decay_param_fun
            opt.minimize = types.MethodType(minimize, opt)
            return opt

    return OptimizerWithDecoupledWeightDecay


class EvaluatorEditDistance:
    """1.x's fluid.evaluator.EditDistance: float32/int64 [1] persistable
    states `edit_distance_N_<suffix>` the program sums the batch's total
    distance, sequence count and wrong-sequence count into."""

    def __init__(self, input, label, ignored_tokens=None, **kwargs):
        layers = paddle.fluid.layers
        self.helper = LayerHelper("edit_distance", **kwargs)
        block = self.helper.main_program.current_block()
        if block.idx != 0:
            raise ValueError("You can only invoke Evaluator in root block")
        self.states, self.metrics = [], []

        def state(suffix, dtype):
            var = block.create_var(name="_".join([unique_name.generate(self.helper.name), suffix]),
                                   persistable=True, dtype=dtype, shape=[1])
            self.states.append(var)
            return var
        self.total_distance = state("total_distance", "float32")
        self.seq_num = state("seq_num", "int64")
        self.instance_error = state("instance_error", "int64")
        dist, seqs = layers.edit_distance(input=input, label=label, ignored_tokens=ignored_tokens)
        exact = layers.equal(dist, layers.fill_constant(shape=[1], value=0.0, dtype="float32"))
        errors = layers.elementwise_sub(
            x=seqs, y=layers.reduce_sum(layers.cast(x=exact, dtype="int64")))
        batch_total = layers.reduce_sum(dist)
        for s, v in ((self.total_distance, batch_total), (self.seq_num, seqs),
                     (self.instance_error, errors)):
            layers.sums(input=[s, v], out=s)
        self.metrics += [batch_total, errors]

    @staticmethod
    def _clone(block, var):
        return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype, type=var.type,
                                lod_level=var.lod_level, persistable=True)

    def reset(self, executor, reset_program=None):
        layers = paddle.fluid.layers
        reset_program = reset_program or Program()
        with program_guard(reset_program):
            for var in self.states:
                layers.fill_constant(shape=var.shape, value=0.0, dtype=var.dtype,
                                     out=self._clone(reset_program.current_block(), var))
        executor.run(reset_program)

    def eval(self, executor, eval_program=None):
        layers = paddle.fluid.layers
        eval_program = eval_program or Program()
        block = eval_program.current_block()
        with program_guard(eval_program):
            total, seqs, wrong = (self._clone(block, s) for s in self.states)
            seqs = layers.cast(x=seqs, dtype="float32")
            wrong = layers.cast(x=wrong, dtype="float32")
            fetched = executor.run(eval_program, fetch_list=[
                layers.elementwise_div(x=total, y=seqs), layers.elementwise_div(x=wrong, y=seqs)])
        return numpy.array(fetched[0]), numpy.array(fetched[1])


# 1.6's contrib.layers nn and metric_op layers (fluid.contrib.<name>).

def fused_elemwise_activation(x, y, functor_list, axis=-1, scale=0.0,
                              save_intermediate_out=True):
    """1.6's layer: the fused_elemwise_activation op Paddle 3.3.1 still has."""
    if not isinstance(functor_list, list) or len(functor_list) != 2:
        raise ValueError('functor_list should be a list of str, and the length should be 2.')
    helper = LayerHelper('fused_elemwise_activation')
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    intermediate_out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type='fused_elemwise_activation', inputs={'X': x, 'Y': y},
                     outputs={'Out': out, 'IntermediateOut': intermediate_out},
                     attrs={'axis': axis, 'scale': scale,
                            'save_intermediate_out': save_intermediate_out,
                            'functor_list': functor_list})
    return out


def fused_embedding_seq_pool(input, size, is_sparse=False, padding_idx=None, combiner='sum',
                             param_attr=None, dtype='float32'):
    """1.6's layer; Paddle 3.3.1 dropped the fused op, so the two ops it
    fused: lookup_table (the padding id's row zero), sequence_pool sum."""
    import paddle_fluid_shim as shim
    helper = LayerHelper('fused_embedding_seq_pool')
    w = shim._create_parameter(helper, param_attr, size, dtype, is_bias=False)
    rows = helper.create_variable_for_type_inference(shim._dtype(dtype))
    padding_idx = -1 if padding_idx is None else (
        padding_idx if padding_idx >= 0 else size[0] + padding_idx)
    helper.append_op(type="lookup_table", inputs={"Ids": input, "W": w}, outputs={"Out": rows},
                     attrs={"is_sparse": is_sparse, "is_distributed": False,
                            "remote_prefetch": False, "padding_idx": padding_idx})
    return shim.sequence_pool(rows, "sum")


def multiclass_nms2(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                    normalized=True, nms_eta=1., background_label=0, return_index=False,
                    name=None):
    """1.6's layer, over the shim's multiclass_nms2 (multiclass_nms3)."""
    import paddle_fluid_shim as shim
    helper = LayerHelper('multiclass_nms2')
    output = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
    attrs = {'background_label': background_label, 'score_threshold': score_threshold,
             'nms_top_k': nms_top_k, 'nms_threshold': nms_threshold, 'nms_eta': nms_eta,
             'keep_top_k': keep_top_k, 'normalized': normalized}
    output, index = shim._multiclass_nms2_1x(helper, bboxes, scores, attrs, output)
    return (output, index) if return_index else output


def ctr_metric_bundle(input, label):
    """1.6's layer: its ops (l1_norm, squared_l2_norm, the dim-0 reduce_sum
    1.6's defaults gave) into persistable float32 [1] sums."""
    assert input.shape == label.shape
    from paddle.nn.initializer import Constant
    helper = LayerHelper("ctr_metric_bundle")

    def var(persistable, shape=(1,)):
        return helper.create_global_variable(persistable=persistable, dtype='float32',
                                             shape=list(shape))
    local_abserr, local_sqrerr, local_prob = var(True), var(True), var(True)
    local_q, local_pos_num, local_ins_num = var(True), var(True), var(True)
    tmp_res_elesub, tmp_res_sigmoid, tmp_ones = var(False, [-1]), var(False, [-1]), var(False, [-1])
    batch_prob, batch_abserr, batch_sqrerr = var(False), var(False), var(False)
    batch_q, batch_pos_num, batch_ins_num = var(False), var(False), var(False)
    for v in [local_abserr, batch_abserr, local_sqrerr, batch_sqrerr, local_prob,
              batch_prob, local_q, batch_q, batch_pos_num, batch_ins_num,
              local_pos_num, local_ins_num]:
        helper.set_variable_initializer(v, Constant(value=0.0))

    def op(type, x, out, attrs=None):
        helper.append_op(type=type, inputs={"X": [x]}, outputs={"Out": [out]}, attrs=attrs)

    def accumulate(b, local):
        helper.append_op(type="elementwise_add", inputs={"X": [b], "Y": [local]},
                         outputs={"Out": [local]})
    rows = {"dim": [0], "keep_dim": False, "reduce_all": False}
    helper.append_op(type="elementwise_sub", inputs={"X": [input], "Y": [label]},
                     outputs={"Out": [tmp_res_elesub]})
    op("squared_l2_norm", tmp_res_elesub, batch_sqrerr)
    accumulate(batch_sqrerr, local_sqrerr)
    op("l1_norm", tmp_res_elesub, batch_abserr)
    accumulate(batch_abserr, local_abserr)
    op("reduce_sum", input, batch_prob, rows)
    accumulate(batch_prob, local_prob)
    op("sigmoid", input, tmp_res_sigmoid)
    op("reduce_sum", tmp_res_sigmoid, batch_q, rows)
    accumulate(batch_q, local_q)
    op("reduce_sum", label, batch_pos_num, rows)
    accumulate(batch_pos_num, local_pos_num)
    helper.append_op(type='fill_constant_batch_size_like', inputs={"Input": label},
                     outputs={'Out': [tmp_ones]},
                     attrs={'shape': [-1, 1], 'dtype': tmp_ones.dtype, 'value': 1.0})
    op("reduce_sum", tmp_ones, batch_ins_num, rows)
    accumulate(batch_ins_num, local_ins_num)
    return local_sqrerr, local_abserr, local_prob, local_q, local_pos_num, local_ins_num


CONTRIB_LAYERS_1_6 = dict(fused_elemwise_activation=fused_elemwise_activation,
                          fused_embedding_seq_pool=fused_embedding_seq_pool,
                          multiclass_nms2=multiclass_nms2, ctr_metric_bundle=ctr_metric_bundle)


def distributed_batch_reader(batch_reader):
    """1.6's contrib.reader.distributed_batch_reader (Paddle 3.3.1 has no
    fluid.contrib): of each run of PADDLE_TRAINERS_NUM batches, the one at
    PADDLE_TRAINER_ID; an incomplete last run dropped."""
    import os
    trainers_num = int(os.environ.get('PADDLE_TRAINERS_NUM', 1))
    trainer_id = int(os.getenv("PADDLE_TRAINER_ID", 0))
    assert trainer_id < trainers_num

    def reader():
        if trainers_num > 1:
            print("start data reader (trainers_num: {}, trainer_id: {})".format(
                trainers_num, trainer_id))
        batches = []
        for data in batch_reader():
            batches.append(data)
            if len(batches) == trainers_num:
                assert batches[trainer_id] is not None, "train data should not be None."
                yield batches[trainer_id]
                batches = []

    return reader
