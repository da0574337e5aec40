"""paddle.fluid.metrics: 1.x's metrics accumulated in Python over the
numpy values a program fetched, batch after batch (`update`), read back
with `eval` and cleared with `reset`. A metric's states are its
attributes whose names do not start with `_`.

`Auc` is 1.0-1.8's (bucketed statistics; 0.14-0.15's threshold sweep,
`num_thresholds=200`, is not here)."""
import copy

import numpy as np

from . import layers
from . import unique_name
from .framework import Program, Variable, program_guard
from .initializer import Constant
from .layer_helper import LayerHelper
from .layers import detection

__all__ = [
    "MetricBase", "CompositeMetric", "Precision", "Recall", "Accuracy", "ChunkEvaluator",
    "EditDistance", "DetectionMAP", "Auc",
]


def _is_numpy_(var):
    return isinstance(var, (np.ndarray, np.generic))


def _is_number_(var):
    return (isinstance(var, (int, float, np.int64))
            or (isinstance(var, np.ndarray) and var.shape == (1,)))


def _is_number_or_matrix_(var):
    return _is_number_(var) or isinstance(var, np.ndarray)


def _rounded(preds, labels):
    """Binary predictions rounded to 0/1 ints, once both are arrays."""
    if not _is_numpy_(preds):
        raise ValueError("The 'preds' must be a numpy ndarray.")
    if not _is_numpy_(labels):
        raise ValueError("The 'labels' must be a numpy ndarray.")
    return np.rint(preds).astype("int32")


class MetricBase(object):
    """The base of every metric: `name` (the class's name by default) is
    what str() gives."""

    def __init__(self, name):
        self._name = str(name) if name is not None else self.__class__.__name__

    def __str__(self):
        return self._name

    def _states(self):
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def reset(self):
        """Each state back to zero: ints to 0, floats to 0.0, arrays to
        zeros of their shape, anything else to None."""
        for attr, value in self._states().items():
            if isinstance(value, int):
                setattr(self, attr, 0)
            elif isinstance(value, float):
                setattr(self, attr, .0)
            elif isinstance(value, (np.ndarray, np.generic)):
                setattr(self, attr, np.zeros_like(value))
            else:
                setattr(self, attr, None)

    def get_config(self):
        """{'name': the name, 'states': a deep copy of the states}."""
        return {"name": self._name, "states": copy.deepcopy(self._states())}

    def update(self, preds, labels):
        raise NotImplementedError("Should not use it directly, please extend it.")

    def eval(self):
        raise NotImplementedError("Should not use it directly, please extend it.")


class CompositeMetric(MetricBase):
    """Several metrics updated together; `eval` lists their results."""

    def __init__(self, name=None):
        super(CompositeMetric, self).__init__(name)
        self._metrics = []

    def add_metric(self, metric):
        if not isinstance(metric, MetricBase):
            raise ValueError("SubMetric should be inherit from MetricBase.")
        self._metrics.append(metric)

    def update(self, preds, labels):
        for m in self._metrics:
            m.update(preds, labels)

    def eval(self):
        return [m.eval() for m in self._metrics]


class _BinaryRatio(MetricBase):
    """Of the rows a binary metric looks at (`_looks_at(pred, label)`, the
    prediction rounded), the fraction predicted right: `tp` over `tp` and
    the misses, counted in the state named `_miss`."""

    def __init__(self, name=None):
        super(_BinaryRatio, self).__init__(name)
        self.tp = 0
        setattr(self, self._miss, 0)

    def update(self, preds, labels):
        preds = _rounded(preds, labels)
        for i in range(labels.shape[0]):
            if self._looks_at(preds[i], labels[i]):
                if preds[i] == labels[i]:
                    self.tp += 1
                else:
                    setattr(self, self._miss, getattr(self, self._miss) + 1)

    def eval(self):
        total = self.tp + getattr(self, self._miss)
        return float(self.tp) / total if total != 0 else .0


class Precision(_BinaryRatio):
    """Binary precision: of the rows predicted 1, the fraction labelled 1."""
    _miss = "fp"

    @staticmethod
    def _looks_at(pred, label):
        return pred == 1


class Recall(_BinaryRatio):
    """Binary recall: of the rows labelled 1, the fraction predicted 1."""
    _miss = "fn"

    @staticmethod
    def _looks_at(pred, label):
        return label == 1


class _ValueOverWeight(MetricBase):
    """The sum of the values given (times their weights where
    `_weighted`) over the sum of the weights; `_layer` names the layer
    whose output was to be given, for the error when nothing was."""

    def __init__(self, name=None):
        super(_ValueOverWeight, self).__init__(name)
        self.value = .0
        self.weight = .0

    def update(self, value, weight):
        if not _is_number_or_matrix_(value):
            raise ValueError("The 'value' must be a number(int, float) or a numpy ndarray.")
        if not _is_number_(weight):
            raise ValueError("The 'weight' must be a number(int, float).")
        if self._weighted and weight < 0:
            raise ValueError("The 'weight' can not be negative")
        self.value += value * weight if self._weighted else value
        self.weight += weight

    def eval(self):
        if self.weight == 0:
            kind = self.__class__.__name__
            raise ValueError("There is no data in %s Metrics. Please check layers.%s output has "
                             "added to %s." % (kind, self._layer, kind))
        return self.value / self.weight


class Accuracy(_ValueOverWeight):
    """The mean of batch accuracies weighted by their batch sizes."""
    _weighted, _layer = True, "accuracy"


class ChunkEvaluator(MetricBase):
    """Precision, recall and F1 of chunk detection over every batch: the
    three counts `layers.chunk_eval` outputs, summed (as numpy arrays when
    fetched ones are given, so `eval` then returns arrays too)."""

    def __init__(self, name=None):
        super(ChunkEvaluator, self).__init__(name)
        self.num_infer_chunks = 0
        self.num_label_chunks = 0
        self.num_correct_chunks = 0

    def update(self, num_infer_chunks, num_label_chunks, num_correct_chunks):
        for name, value in (("num_infer_chunks", num_infer_chunks),
                            ("num_label_chunks", num_label_chunks),
                            ("num_correct_chunks", num_correct_chunks)):
            if not _is_number_or_matrix_(value):
                raise ValueError("The '%s' must be a number(int, float) or a numpy ndarray."
                                 % name)
        self.num_infer_chunks += num_infer_chunks
        self.num_label_chunks += num_label_chunks
        self.num_correct_chunks += num_correct_chunks

    def eval(self):
        precision = (float(self.num_correct_chunks) / self.num_infer_chunks
                     if self.num_infer_chunks else 0)
        recall = (float(self.num_correct_chunks) / self.num_label_chunks
                  if self.num_label_chunks else 0)
        f1_score = (float(2 * precision * recall) / (precision + recall)
                    if self.num_correct_chunks else 0)
        return precision, recall, f1_score


class EditDistance(MetricBase):
    """The mean edit distance per sequence and the fraction of sequences
    not matched exactly, over the distances and sequence counts of every
    batch."""

    def __init__(self, name):
        super(EditDistance, self).__init__(name)
        self.total_distance = .0
        self.seq_num = 0
        self.instance_error = 0

    def update(self, distances, seq_num):
        if not _is_numpy_(distances):
            raise ValueError("The 'distances' must be a numpy ndarray.")
        if not _is_number_(seq_num):
            raise ValueError("The 'seq_num' must be a number(int, float).")
        seq_right_count = np.sum(distances == 0)
        self.seq_num += seq_num
        self.instance_error += seq_num - seq_right_count
        self.total_distance += np.sum(distances)

    def eval(self):
        if self.seq_num == 0:
            raise ValueError("There is no data in EditDistance Metric. Please check "
                             "layers.edit_distance output has been added to EditDistance.")
        return self.total_distance / self.seq_num, self.instance_error / self.seq_num


class DetectionMAP(_ValueOverWeight):
    """1.2-1.x's DetectionMAP, given the detections `input` (a Variable):
    the program gets a `detection_map` of the batch (`cur_map`) and one
    accumulating into persistable states (`accum_map`; counts and
    true/false positives, used once the int32 `has_state` is 1, which
    the program sets after its first run); `get_map_var()` gives both,
    `reset(exe)` runs a program setting `has_state` back to 0.
    `gt_difficult`, when given, is concatenated between the labels and
    the boxes, as 1.x did.

    Given a name instead (1.0's), the sum of the batch mAPs given over
    the sum of their weights (1.0 adds each value as given, unweighted)."""
    _weighted, _layer = False, "detection_map"

    def __init__(self, input=None, gt_label=None, gt_box=None, gt_difficult=None,
                 class_num=None, background_label=0, overlap_threshold=0.5,
                 evaluate_difficult=True, ap_version='integral', name=None):
        if not isinstance(input, Variable):
            super(DetectionMAP, self).__init__(input if name is None else name)
            self._program = None
            return
        self._program = True
        self.helper = LayerHelper('map_eval')
        gt_label = layers.cast(x=gt_label, dtype=gt_box.dtype)
        if gt_difficult is not None:
            gt_difficult = layers.cast(x=gt_difficult, dtype=gt_box.dtype)
            label = layers.concat([gt_label, gt_difficult, gt_box], axis=1)
        else:
            label = layers.concat([gt_label, gt_box], axis=1)

        # the mAP of the current mini-batch
        map = detection.detection_map(input, label, class_num, background_label,
                                      overlap_threshold=overlap_threshold,
                                      evaluate_difficult=evaluate_difficult,
                                      ap_version=ap_version)
        states = [
            self._create_state(dtype='int32', shape=None, suffix='accum_pos_count'),
            self._create_state(dtype='float32', shape=None, suffix='accum_true_pos'),
            self._create_state(dtype='float32', shape=None, suffix='accum_false_pos'),
        ]
        var = self._create_state(dtype='int32', shape=[1], suffix='has_state')
        self.helper.set_variable_initializer(var, initializer=Constant(value=int(0)))
        self.has_state = var

        # the mAP accumulated over the mini-batches
        accum_map = detection.detection_map(input, label, class_num, background_label,
                                            overlap_threshold=overlap_threshold,
                                            evaluate_difficult=evaluate_difficult,
                                            has_state=self.has_state, input_states=states,
                                            out_states=states, ap_version=ap_version)
        layers.fill_constant(shape=self.has_state.shape, value=1, dtype=self.has_state.dtype,
                             out=self.has_state)
        self.cur_map = map
        self.accum_map = accum_map

    def _create_state(self, suffix, dtype, shape):
        return self.helper.create_variable(
            name="_".join([unique_name.generate(self.helper.name), suffix]),
            persistable=True, dtype=dtype, shape=shape)

    def get_map_var(self):
        """The mAP variables of the current mini-batch and of the
        mini-batches since the last reset."""
        return self.cur_map, self.accum_map

    def reset(self, executor=None, reset_program=None):
        """Runs `reset_program` (a new Program by default) setting the
        state flag to 0 (1.2-1.x's); 1.0's: the sums back to zero."""
        if not self._program:
            return super(DetectionMAP, self).reset()
        if reset_program is None:
            reset_program = Program()
        with program_guard(main_program=reset_program):
            var = reset_program.current_block().create_var(
                name=self.has_state.name, shape=self.has_state.shape,
                dtype=self.has_state.dtype, type=self.has_state.type,
                lod_level=self.has_state.lod_level, persistable=self.has_state.persistable)
            layers.fill_constant(shape=var.shape, value=0, dtype=var.dtype, out=var)
        executor.run(reset_program)


class Auc(MetricBase):
    """Area under the ROC curve of a binary classifier, from the
    probability of class 1 (`preds[:, 1]`, preds being [batch, 2]) and the
    labels ([batch, 1]) of every batch: each row counts, as a positive or
    a negative, in the bucket int(p * num_thresholds) of `num_thresholds
    + 1`; `eval` sums the trapezoids of the curve walked from the highest
    bucket down (0.0 while there are no positives or no negatives).
    `curve` is kept, as 1.x kept it, but the curve is always ROC.

    The counts are private attributes, as in 1.x, so 1.x's `reset` leaves
    them alone and `get_config` lists no states."""

    def __init__(self, name, curve='ROC', num_thresholds=4095):
        super(Auc, self).__init__(name=name)
        self._curve = curve
        self._num_thresholds = num_thresholds
        self._stat_pos = [0] * (num_thresholds + 1)
        self._stat_neg = [0] * (num_thresholds + 1)

    def update(self, preds, labels):
        if not _is_numpy_(labels):
            raise ValueError("The 'labels' must be a numpy ndarray.")
        if not _is_numpy_(preds):
            raise ValueError("The 'predictions' must be a numpy ndarray.")
        for i, lbl in enumerate(labels):
            bin_idx = int(preds[i, 1] * self._num_thresholds)
            assert bin_idx <= self._num_thresholds
            if lbl:
                self._stat_pos[bin_idx] += 1.0
            else:
                self._stat_neg[bin_idx] += 1.0

    @staticmethod
    def trapezoid_area(x1, x2, y1, y2):
        return abs(x1 - x2) * (y1 + y2) / 2.0

    def eval(self):
        tot_pos = tot_neg = auc = 0.0
        for idx in range(self._num_thresholds, -1, -1):
            tot_pos_prev, tot_neg_prev = tot_pos, tot_neg
            tot_pos += self._stat_pos[idx]
            tot_neg += self._stat_neg[idx]
            auc += self.trapezoid_area(tot_neg, tot_neg_prev, tot_pos, tot_pos_prev)
        return auc / tot_pos / tot_neg if tot_pos > 0.0 and tot_neg > 0.0 else 0.0
