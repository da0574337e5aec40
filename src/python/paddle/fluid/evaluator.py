"""paddle.fluid.evaluator: 1.x's evaluators, deprecated there in favour
of fluid.metrics, which accumulate inside the program: each keeps
persistable int64 states the main program adds each batch's counts to,
`reset(exe)` zeroes them by running a program of fill_constants and
`eval(exe)` fetches them."""
import warnings

import numpy as np

from . import layers
from . import unique_name
from .framework import Program, Variable, program_guard
from .initializer import Constant
from .layer_helper import LayerHelper

__all__ = ["ChunkEvaluator", "EditDistance", "DetectionMAP"]


def _clone_var_(block, var):
    assert isinstance(var, Variable)
    return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype, type=var.type,
                            lod_level=var.lod_level, persistable=True)


class Evaluator(object):
    """The base of the evaluators: `states` are zeroed by `reset`,
    `metrics` are the per-batch results to fetch with the training ops."""

    def __init__(self, name, **kwargs):
        warnings.warn(
            "The %s is deprecated, because maintain a modified program inside evaluator cause "
            "bug easily, please use fluid.metrics.%s instead."
            % (self.__class__.__name__, self.__class__.__name__), Warning)
        self.states = []
        self.metrics = []
        self.helper = LayerHelper(name, **kwargs)

    def reset(self, executor, reset_program=None):
        """Runs `reset_program` (a new Program by default) with a
        fill_constant of 0 into each state."""
        if reset_program is None:
            reset_program = Program()
        with program_guard(main_program=reset_program):
            for var in self.states:
                g_var = _clone_var_(reset_program.current_block(), var)
                layers.fill_constant(shape=g_var.shape, value=0.0, dtype=g_var.dtype, out=g_var)
        executor.run(reset_program)

    def eval(self, executor, eval_program=None):
        raise NotImplementedError()

    def _create_state(self, suffix, dtype, shape):
        state = self.helper.create_variable(
            name="_".join([unique_name.generate(self.helper.name), suffix]),
            persistable=True, dtype=dtype, shape=shape)
        self.states.append(state)
        return state


class ChunkEvaluator(Evaluator):
    """`layers.chunk_eval` of `input` against `label`, its batch precision,
    recall and F1 in `metrics`, and its three counts summed into the
    states `chunk_eval_N_num_infer_chunks`, `..._num_label_chunks` and
    `..._num_correct_chunks`; `eval(exe)` gives the precision, recall and
    F1 of the sums, each a float32 array [1]. Call `reset(exe)` before the
    first batch: the states have no initializer."""

    def __init__(self, input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None):
        super(ChunkEvaluator, self).__init__("chunk_eval")
        main_program = self.helper.main_program
        if main_program.current_block().idx != 0:
            raise ValueError("You can only invoke Evaluator in root block")
        self.num_infer_chunks = self._create_state(dtype="int64", shape=[1],
                                                   suffix="num_infer_chunks")
        self.num_label_chunks = self._create_state(dtype="int64", shape=[1],
                                                   suffix="num_label_chunks")
        self.num_correct_chunks = self._create_state(dtype="int64", shape=[1],
                                                     suffix="num_correct_chunks")
        (precision, recall, f1_score, num_infer_chunks, num_label_chunks,
         num_correct_chunks) = layers.chunk_eval(
             input=input, label=label, chunk_scheme=chunk_scheme,
             num_chunk_types=num_chunk_types, excluded_chunk_types=excluded_chunk_types)
        layers.sums(input=[self.num_infer_chunks, num_infer_chunks], out=self.num_infer_chunks)
        layers.sums(input=[self.num_label_chunks, num_label_chunks], out=self.num_label_chunks)
        layers.sums(input=[self.num_correct_chunks, num_correct_chunks],
                    out=self.num_correct_chunks)
        self.metrics.extend([precision, recall, f1_score])

    def eval(self, executor, eval_program=None):
        if eval_program is None:
            eval_program = Program()
        block = eval_program.current_block()
        num_infer_chunks, num_label_chunks, num_correct_chunks = executor.run(
            eval_program, fetch_list=[_clone_var_(block, state) for state in self.states])
        num_infer_chunks = num_infer_chunks[0]
        num_label_chunks = num_label_chunks[0]
        num_correct_chunks = num_correct_chunks[0]
        precision = float(num_correct_chunks) / num_infer_chunks if num_infer_chunks else 0
        recall = float(num_correct_chunks) / num_label_chunks if num_label_chunks else 0
        f1_score = (float(2 * precision * recall) / (precision + recall)
                    if num_correct_chunks else 0)
        return (np.array([precision], dtype="float32"), np.array([recall], dtype="float32"),
                np.array([f1_score], dtype="float32"))


class EditDistance(Evaluator):
    """`layers.edit_distance` of the decoded sequences `input` against
    `label`; `metrics` are the batch's summed distance (float32 [1]) and
    its number of sequences with a non-zero distance (int64 [1]); the
    states `edit_distance_N_total_distance` (float32), `..._seq_num` and
    `..._instance_error` (int64) accumulate them and the sequence count.
    `eval(exe)` gives the average distance and the fraction of wrong
    sequences over the batches since `reset(exe)`, each a float32 array
    [1]. `ignored_tokens` is passed to `layers.edit_distance`."""

    def __init__(self, input, label, ignored_tokens=None, **kwargs):
        super(EditDistance, self).__init__("edit_distance", **kwargs)
        main_program = self.helper.main_program
        if main_program.current_block().idx != 0:
            raise ValueError("You can only invoke Evaluator in root block")
        self.total_distance = self._create_state(dtype="float32", shape=[1],
                                                 suffix="total_distance")
        self.seq_num = self._create_state(dtype="int64", shape=[1], suffix="seq_num")
        self.instance_error = self._create_state(dtype="int64", shape=[1],
                                                 suffix="instance_error")
        distances, seq_num = layers.edit_distance(input=input, label=label,
                                                  ignored_tokens=ignored_tokens)
        # a sequence is right when its distance is exactly 0
        zero = layers.fill_constant(shape=[1], value=0.0, dtype="float32")
        right = layers.cast(x=layers.equal(distances, zero), dtype="int64")
        instance_error_count = layers.elementwise_sub(x=seq_num, y=layers.reduce_sum(right))
        total_distance = layers.reduce_sum(distances)
        layers.sums(input=[self.total_distance, total_distance], out=self.total_distance)
        layers.sums(input=[self.seq_num, seq_num], out=self.seq_num)
        layers.sums(input=[self.instance_error, instance_error_count], out=self.instance_error)
        self.metrics.append(total_distance)
        self.metrics.append(instance_error_count)

    def eval(self, executor, eval_program=None):
        """Runs `eval_program` (a new Program by default) dividing the
        summed distance and error count by the sequence count."""
        if eval_program is None:
            eval_program = Program()
        block = eval_program.current_block()
        with program_guard(main_program=eval_program):
            total_distance = _clone_var_(block, self.total_distance)
            seq_num = layers.cast(x=_clone_var_(block, self.seq_num), dtype="float32")
            instance_error = layers.cast(x=_clone_var_(block, self.instance_error),
                                         dtype="float32")
            avg_distance = layers.elementwise_div(x=total_distance, y=seq_num)
            avg_instance_error = layers.elementwise_div(x=instance_error, y=seq_num)
            result = executor.run(eval_program, fetch_list=[avg_distance, avg_instance_error])
        return np.array(result[0]), np.array(result[1])


class DetectionMAP(Evaluator):
    """`layers.detection_map` of the detections `input` against
    `gt_label`/`gt_box` (with `gt_difficult` concatenated between them
    when given): `cur_map` is the batch's mAP, `accum_map` the mAP
    accumulated into the states `map_eval_N_accum_pos_count`,
    `..._accum_true_pos` and `..._accum_false_pos` (`states`; `metrics`
    stays empty, as in 1.x), which the op adds in while the persistable
    int32 `has_state` is non-zero (0 at start-up, set to 1 by each run).
    `reset(exe)` sets `has_state` back to 0, as 1.x's did.
    `get_map_var()` gives the two mAPs."""

    def __init__(self, input, gt_label, gt_box, gt_difficult=None, class_num=None,
                 background_label=0, overlap_threshold=0.5, evaluate_difficult=True,
                 ap_version='integral'):
        super(DetectionMAP, self).__init__("map_eval")
        gt_label = layers.cast(x=gt_label, dtype=gt_box.dtype)
        if gt_difficult is not None:
            gt_difficult = layers.cast(x=gt_difficult, dtype=gt_box.dtype)
            label = layers.concat([gt_label, gt_difficult, gt_box], axis=1)
        else:
            label = layers.concat([gt_label, gt_box], axis=1)

        # the mAP of the current mini-batch
        map = layers.detection_map(input, label, class_num, background_label,
                                   overlap_threshold=overlap_threshold,
                                   evaluate_difficult=evaluate_difficult, ap_version=ap_version)

        self._create_state(dtype='int32', shape=None, suffix='accum_pos_count')
        self._create_state(dtype='float32', shape=None, suffix='accum_true_pos')
        self._create_state(dtype='float32', shape=None, suffix='accum_false_pos')

        self.has_state = None
        var = self.helper.create_variable(persistable=True, dtype='int32', shape=[1])
        self.helper.set_variable_initializer(var, initializer=Constant(value=int(0)))
        self.has_state = var

        # the mAP accumulated over the mini-batches
        accum_map = layers.detection_map(input, label, class_num, background_label,
                                         overlap_threshold=overlap_threshold,
                                         evaluate_difficult=evaluate_difficult,
                                         has_state=self.has_state, input_states=self.states,
                                         out_states=self.states, ap_version=ap_version)
        layers.fill_constant(shape=self.has_state.shape, value=1, dtype=self.has_state.dtype,
                             out=self.has_state)

        self.cur_map = map
        self.accum_map = accum_map

    def get_map_var(self):
        return self.cur_map, self.accum_map

    def reset(self, executor, reset_program=None):
        if reset_program is None:
            reset_program = Program()
        with program_guard(main_program=reset_program):
            var = _clone_var_(reset_program.current_block(), self.has_state)
            layers.fill_constant(shape=var.shape, value=0, dtype=var.dtype, out=var)
        executor.run(reset_program)
