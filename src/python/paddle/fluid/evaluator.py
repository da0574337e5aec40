"""paddle.fluid.evaluator: 1.x's evaluators, deprecated there in favour
of fluid.metrics, which accumulate inside the program: each keeps
persistable int64 states the main program adds each batch's counts to,
`reset(exe)` zeroes them by running a program of fill_constants and
`eval(exe)` fetches them.

1.x's EditDistance and DetectionMAP evaluators are not here: fluidc has
neither the edit_distance nor the detection_map layer."""
import warnings

import numpy as np

from . import layers
from . import unique_name
from .framework import Program, Variable, program_guard
from .layer_helper import LayerHelper

__all__ = ["ChunkEvaluator"]


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
