"""paddle.fluid.regularizer: weight decay, added to a parameter's gradient
before its optimizer op (see optimizer.py).

A regularizer called as 1.x called it, `reg(param, grad, block)`, appends
the ops of its decay term to `block` and returns the term: L2Decay
`scale(param, coeff)`, L1Decay `scale(sign(param), coeff)`.
`append_regularization_ops(parameters_and_grads, regularization=None)`
(also `fluid.optimizer.append_regularization_ops`, as 1.x re-exported it)
adds to each gradient the term of its parameter's own regularizer, else of
`regularization`: as 1.2-1.5 and Paddle 3.3.1 build it (1.0 used an
`elementwise_add`), a `sum([grad, term])` written back into the gradient
(a sparse gradient sums into a new dense `grad@NEWGRAD@`), in name scope
`/regularization/` with op_role Optimize and op_role_var [param, grad]. It
returns the (parameter, gradient) pairs with the new gradients.
"""
from . import core
from . import framework

__all__ = ["L1Decay", "L2Decay", "L1DecayRegularizer", "L2DecayRegularizer",
           "append_regularization_ops"]


def append_regularization_ops(parameters_and_grads, regularization=None):
    """See the module's note."""
    params_and_grads = []
    pairs = list(parameters_and_grads)
    with framework.name_scope("regularization"):
        for param, grad in pairs:
            reg = getattr(param, "regularizer", None) or regularization
            if grad is None or reg is None:
                params_and_grads.append((param, grad))
                continue
            with param.block.program._optimized_guard([param, grad]):
                term = reg(param, grad, grad.block)
                new_grad = grad
                if grad.type == core.VarDesc.VarType.SELECTED_ROWS:
                    new_grad = grad.block.create_var(
                        name=grad.name + "@NEWGRAD@", dtype=param.dtype, shape=param.shape,
                        lod_level=param.lod_level, type=core.VarDesc.VarType.LOD_TENSOR)
                grad.block.append_op(type="sum", inputs={"X": [grad, term]},
                                     outputs={"Out": [new_grad]})
                params_and_grads.append((param, new_grad))
    return params_and_grads


class WeightDecayRegularizer(object):
    def __init__(self, regularization_coeff=0.0):
        if not isinstance(regularization_coeff, (int, float)) or isinstance(regularization_coeff, bool):
            raise ValueError("regularization_coeff should be float")
        self._regularization_coeff = float(regularization_coeff)

    def __call__(self, param, grad, block):
        raise NotImplementedError()

    def _decay_var(self, param, block):
        return block.create_var(dtype=param.dtype, shape=param.shape, lod_level=param.lod_level)

    def __str__(self):
        return "%s, regularization_coeff=%f" % (self._kind, self._regularization_coeff)


class L2DecayRegularizer(WeightDecayRegularizer):
    _kind = "L2Decay"

    def __call__(self, param, grad, block):
        """Appends `decay = scale(param, coeff)` to `block`; returns decay."""
        assert isinstance(param, framework.Parameter)
        assert isinstance(block, framework.Block)
        decay = self._decay_var(param, block)
        block.append_op(type="scale", inputs={"X": [param]}, outputs={"Out": [decay]},
                        attrs={"scale": self._regularization_coeff})
        return decay


class L1DecayRegularizer(WeightDecayRegularizer):
    _kind = "L1Decay"

    def __call__(self, param, grad, block):
        """Appends `decay = scale(sign(param), coeff)` to `block`; returns
        decay."""
        assert isinstance(param, framework.Parameter)
        assert isinstance(block, framework.Block)
        sign = self._decay_var(param, block)
        block.append_op(type="sign", inputs={"X": [param]}, outputs={"Out": [sign]})
        decay = self._decay_var(param, block)
        block.append_op(type="scale", inputs={"X": [sign]}, outputs={"Out": [decay]},
                        attrs={"scale": self._regularization_coeff})
        return decay


L1Decay = L1DecayRegularizer
L2Decay = L2DecayRegularizer
