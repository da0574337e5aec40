"""paddle.fluid.backward: `append_backward`, Paddle 3.3.1's backward of a
loss (built natively: the grad makers are the op definitions')."""
from . import framework
from .framework import Parameter, Variable

__all__ = ["append_backward", "gradients"]


def _names(items, what):
    if items is None:
        return None
    out = []
    for it in items:
        if isinstance(it, Variable):
            out.append(it.name)
        elif isinstance(it, str):
            out.append(it)
        else:
            raise TypeError("%s must hold Variables or names, not %s" % (what, type(it).__name__))
    return out


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None):
    """Appends the gradient ops of `loss` to its program; returns the
    (parameter, gradient) pairs, in the order of `parameter_list` (every
    trainable parameter by default)."""
    if not isinstance(loss, Variable):
        raise TypeError("The type of 'loss' in append_backward must be Variable, but received %s"
                        % type(loss).__name__)
    if callbacks is not None:
        raise NotImplementedError("append_backward's callbacks are not supported by fluidc")
    if loss.block.idx != 0:
        raise ValueError(
            "the loss must be computed in the program's global block (a loss computed inside "
            "a While or conditional block is not supported); compute it after the block")
    program = loss.block.program
    block = program.global_block()
    params = [v for v in block.vars.values() if isinstance(v, Parameter)]
    no_grad = _names(no_grad_set, "no_grad_set") or []
    # Paddle's optimizer adds non-trainable parameters to the no-grad set;
    # the default parameter list is every trainable parameter.
    no_grad += [p.name for p in params if not p.trainable]
    wanted = _names(parameter_list, "parameter_list")
    if wanted is None:
        wanted = [p.name for p in params if p.trainable]
    pairs = program.desc.append_backward(loss.name, wanted, no_grad)
    program._sync_with_cpp()
    return [(block.var(p), block.var(g)) for (p, g) in pairs]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    raise NotImplementedError("fluid.backward.gradients is not supported by fluidc; use append_backward")


_ = framework
