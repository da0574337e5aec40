"""paddle.fluid.backward: `append_backward`, Paddle 3.3.1's backward of a
loss (built natively: the grad makers are the op definitions')."""
from . import framework
from .framework import Parameter, Variable

__all__ = ["append_backward", "gradients", "calc_gradient"]


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


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None):
    """Appends the gradient ops of `loss` to its program; returns the
    (parameter, gradient) pairs, in the order of `parameter_list` (every
    trainable parameter by default).

    `checkpoints` (1.6, a non-empty list of Variables) made 1.6 keep only
    those forward values and recompute the rest before their gradients,
    which saves memory and changes no gradient; fluidc builds the plain
    backward for them (see RecomputeOptimizer)."""
    if not isinstance(loss, Variable):
        raise TypeError("The type of 'loss' in append_backward must be Variable, but received %s"
                        % type(loss).__name__)
    if isinstance(checkpoints, list):
        for c in checkpoints:
            if not isinstance(c, Variable):
                raise TypeError("checkpoints must be a list of Variables, not of %s"
                                % type(c).__name__)
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


def _as_list(x):
    if x is None:
        return []
    return list(x) if isinstance(x, (list, tuple)) else [x]


def calc_gradient(targets, inputs, target_gradients=None, no_grad_set=None):
    """The gradients of `targets` (a Variable or a list) with respect to
    `inputs` (a Variable or a list), built into the targets' block as Paddle
    3.3.1's legacy `calc_gradient` builds them on a program's first
    backward: `fill_any_like(1.0)` for each target whose gradient
    `target_gradients` does not give, then the grad ops on the path from
    the inputs to the targets. Returns the gradient Variable of each input
    (None where the targets do not depend on it), the Variable itself for
    one input. A second call on the same program appends another backward
    under the same gradient names, as 1.0-1.4 did (1.5+ renamed them)."""
    targets = _as_list(targets)
    inputs = _as_list(inputs)
    target_gradients = _as_list(target_gradients)
    for v in targets + inputs + [g for g in target_gradients if g is not None]:
        if not isinstance(v, Variable):
            raise TypeError("calc_gradient takes Variables, not %s" % type(v).__name__)
    block = targets[0].block
    prog = block.program
    if not target_gradients:
        target_gradients = [None] * len(targets)
    if len(targets) != len(target_gradients):
        raise ValueError("Should have the same number of target_gradients as targets")
    for target, grad in zip(targets, target_gradients):
        if grad is None:
            continue
        if target.block.idx != block.idx or target.block.program is not prog:
            raise ValueError("all targets must be in the same block")
        if list(target.shape) != list(grad.shape):
            raise ValueError("The shapes of target and grad are different: %s %s"
                             % (target.name, grad.name))
    for v in inputs:
        if v.block.program is not prog:
            raise ValueError("input must be in the same program as targets")
    if block.idx != 0:
        raise NotImplementedError("calc_gradient builds the backward of the global block; "
                                  "compute the targets there")
    no_grad = _names(no_grad_set, "no_grad_set") or []
    found = prog.desc.calc_gradient(
        [t.name for t in targets], [v.name for v in inputs],
        [g.name if g is not None else None for g in target_gradients], no_grad)
    framework._edited()
    prog._sync_with_cpp()
    grads = [None if name is None else block.var(name) for name in found]
    return grads[0] if len(grads) == 1 else grads


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    """`calc_gradient`, always as a list (1.5's `fluid.gradients`)."""
    return _as_list(calc_gradient(targets, inputs, target_gradients, no_grad_set))


_ = framework
