"""1.6's `extend_with_decoupled_weight_decay(Optimizer)`: a subclass of
the optimizer whose `minimize` first subtracts `weight_decay * param`
from each parameter (ops in the 'weight decay' name scope), then appends
the optimizer's own update, with the gradients of the undecayed
parameters (Loshchilov & Hutter, "Decoupled weight decay
regularization")."""
from __future__ import print_function

from ... import framework
from ... import layers
from ... import optimizer as _optimizer

__all__ = ["extend_with_decoupled_weight_decay"]


class DecoupledWeightDecay(object):
    """The mix-in: `coeff` (a float or a Variable of the parameters'
    dtype) and `apply_decay_param_fun(name) -> bool` choosing the
    parameters to decay (all by default)."""

    def __init__(self, coeff=0.0, apply_decay_param_fun=None, **kwargs):
        if not isinstance(coeff, (float, framework.Variable)):
            raise TypeError("coeff should be float or Variable.")
        self._params_name = set()
        self._apply_decay_param_fun = apply_decay_param_fun
        self._coeff = coeff
        super(DecoupledWeightDecay, self).__init__(**kwargs)

    def _scale_parameters(self, params_and_grads):
        """`(param, grad, param * coeff)` for each parameter to decay,
        the products appended to the program; None when coeff is 0.0."""
        if isinstance(self._coeff, float) and self._coeff == 0.0:
            return
        scaled = []
        for param, grad in params_and_grads:
            if grad is None:
                continue
            if self._apply_decay_param_fun is not None and \
                    not self._apply_decay_param_fun(param.name):
                continue
            if isinstance(self._coeff, framework.Variable):
                assert self._coeff.dtype == param.dtype, \
                    "the type of coeff(%s) and parameter(%s) is not consistent." % (
                        self._coeff.dtype, param.dtype)
            with param.block.program._optimized_guard([param, grad]), \
                    framework.name_scope("weight decay"):
                assert param.name not in self._params_name
                # `param * coeff`: a tmp_N, as 1.x's math_op_patch made it.
                scaled.append((param, grad, param * self._coeff))
                self._params_name.add(param.name)
        return scaled

    def backward(self, **kargs):
        return super(DecoupledWeightDecay, self).backward(**kargs)

    def apply_optimize(self, **kargs):
        return super(DecoupledWeightDecay, self).apply_optimize(**kargs)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None):
        params_grads = self.backward(loss=loss, startup_program=startup_program,
                                     parameter_list=parameter_list, no_grad_set=no_grad_set)
        # 1.6 iterated over the result as is: a coeff of 0.0 (None) raised
        # TypeError there, as it does here.
        for param, grad, scaled in self._scale_parameters(params_grads):
            with param.block.program._optimized_guard([param, grad]), \
                    framework.name_scope("weight decay"):
                decayed = layers.elementwise_sub(x=param, y=scaled)
                layers.assign(input=decayed, output=param)
        optimize_ops = self.apply_optimize(loss=loss, params_grads=params_grads,
                                           startup_program=startup_program)
        return optimize_ops, params_grads

    def __str__(self):
        return " ".join(["Weight Decay, params:", ",".join(self._params_name)])


def extend_with_decoupled_weight_decay(base_optimizer):
    """Returns `OptimizerWithDecoupledWeightDecay`, a subclass of
    `base_optimizer` (a class derived from fluid.optimizer.Optimizer)
    taking `weight_decay` and `apply_decay_param_fun` before the base
    optimizer's own keyword arguments:

        AdamW = fluid.contrib.extend_with_decoupled_weight_decay(fluid.optimizer.Adam)
        AdamW(weight_decay=0.01, learning_rate=0.1).minimize(cost)
    """
    if not (isinstance(base_optimizer, type) and
            issubclass(base_optimizer, _optimizer.Optimizer)):
        raise TypeError("The input(base_optimizer) should be a derived class of Optimizer.")

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecay, base_optimizer):
        """`base_optimizer` with decoupled weight decay `weight_decay`
        (a float or a Variable), on the parameters
        `apply_decay_param_fun(name)` accepts (all when None)."""

        def __init__(self, weight_decay, apply_decay_param_fun=None, **kwargs):
            super(OptimizerWithDecoupledWeightDecay, self).__init__(
                weight_decay, apply_decay_param_fun, **kwargs)

    return OptimizerWithDecoupledWeightDecay
