"""paddle.fluid.metrics: 1.x's metrics accumulated in Python over the
numpy values a program fetched, batch after batch (`update`), read back
with `eval` and cleared with `reset`. A metric's states are its
attributes whose names do not start with `_`.

`Auc` is 1.0-1.8's (bucketed statistics; 0.14-0.15's threshold sweep,
`num_thresholds=200`, is not here)."""
import copy

import numpy as np

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
    """The sum of the batch mAPs given over the sum of their weights (1.x
    adds each value as given, unweighted)."""
    _weighted, _layer = False, "detection_map"


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
