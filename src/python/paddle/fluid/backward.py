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
    error_clips = False
    if callbacks is not None:
        assert isinstance(callbacks, list)
        from . import clip
        for cb in callbacks:
            if not hasattr(cb, "__call__"):
                raise ValueError("'callback' must be a callable object.")
            if cb is clip.error_clip_callback:
                error_clips = True
            else:
                # 1.x called each callback after each grad op it appended;
                # fluidc's backward is built natively, in one call.
                raise NotImplementedError(
                    "append_backward calls no callback but fluid.clip.error_clip_callback in "
                    "fluidc (its backward is built natively, not op by op in Python)")
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
    first_ops = [program.desc.op_count(b.idx) for b in program.blocks]
    pairs = program.desc.append_backward(loss.name, wanted, no_grad)
    framework._edited()
    program._sync_with_cpp()
    if error_clips:
        from . import clip
        clip._apply_error_clips(program, first_ops, framework.grad_var_name(loss.name))
    return [(block.var(p), block.var(g)) for (p, g) in pairs]


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    raise NotImplementedError("fluid.backward.gradients is not supported by fluidc; use append_backward")


_ = framework
