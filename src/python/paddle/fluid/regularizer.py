"""paddle.fluid.regularizer: weight decay, added to a parameter's gradient
before its optimizer op (see optimizer.py)."""

__all__ = ["L1Decay", "L2Decay", "L1DecayRegularizer", "L2DecayRegularizer"]


class WeightDecayRegularizer(object):
    def __init__(self, regularization_coeff=0.0):
        if not isinstance(regularization_coeff, (int, float)) or isinstance(regularization_coeff, bool):
            raise ValueError("regularization_coeff should be float")
        self._regularization_coeff = float(regularization_coeff)

    def __str__(self):
        return "%s, regularization_coeff=%f" % (self._kind, self._regularization_coeff)


class L2DecayRegularizer(WeightDecayRegularizer):
    _kind = "L2Decay"


class L1DecayRegularizer(WeightDecayRegularizer):
    _kind = "L1Decay"


L1Decay = L1DecayRegularizer
L2Decay = L2DecayRegularizer
