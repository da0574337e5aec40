"""paddle.fluid.clip: gradient clipping, as the optimizer applies it.

A clip reaches the optimizer two ways: 1.6's `grad_clip=` (the
optimizer's or `minimize`'s), whose `_static_clip` clips every gradient
in one name scope `/gradient_clip/`; or 2018's `set_gradient_clip`, which
gives parameters a `gradient_clip_attr` that `append_gradient_clip_ops`
applies, each parameter's steps in a name scope of their own
(`/gradient_clip_N/`). Every clip op is an optimizer op of its parameter
(`op_role` Optimize), and its `op_role_var` names the clipped gradient.

The clip ops are 1.x's: `clip`, `clip_by_norm`, and for the global norm
(1.x's, not 3.x's) per gradient `square` and `reduce_sum` (of a sparse
gradient's `merge_selected_rows` then `get_tensor_from_selected_rows`), then `sum`,
`sqrt`, `elementwise_max` with a `[1]` constant of `clip_norm`,
`elementwise_div`, and each gradient `elementwise_mul`'d by that scale.
"""
import copy

from . import core
from . import framework
from . import layers
from .framework import Parameter, name_scope
from .layer_helper import LayerHelper

VarType = core.VarDesc.VarType

__all__ = ["set_gradient_clip", "ErrorClipByValue", "GradientClipByValue", "GradientClipByNorm",
           "GradientClipByGlobalNorm"]


def _unary_op(op_type, x, attrs):
    """`op_type` of `x` into a new `<op_type>_N.tmp_0` (1.x's
    `layers.clip`, `layers.clip_by_norm`)."""
    helper = LayerHelper(op_type)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type=op_type, inputs={"X": [x]}, outputs={"Out": [out]}, attrs=attrs)
    return out


class BaseErrorClipAttr(object):
    """An error clip: what a variable's `error_clip` holds. Backward (with
    `error_clip_callback`, which the optimizer's `minimize` always passes)
    clips the variable's gradient in place right after the op that makes
    it, so the ops before it see the clipped gradient."""

    def __str__(self):
        raise NotImplementedError()

    def _append_clip_op(self, block, grad_name):
        raise NotImplementedError()


class ErrorClipByValue(BaseErrorClipAttr):
    """The gradient of the variable clipped to [min, max] (min is -max if
    not given)."""

    def __init__(self, max, min=None):
        max = float(max)
        if min is None:
            min = -max
        else:
            min = float(min)
        self.max = max
        self.min = min

    def __str__(self):
        return "ByValue, min=%f, max=%f" % (self.min, self.max)

    def _clip_op(self, grad_name):
        return dict(type="clip", inputs={"X": [grad_name]}, outputs={"Out": [grad_name]},
                    attrs={"min": self.min, "max": self.max, "op_role": _BACKWARD})

    def _append_clip_op(self, block, grad_name):
        block.append_op(**self._clip_op(grad_name))


_BACKWARD = 1  # OpRole.Backward


def error_clip_callback(block, context):
    """1.x's backward callback that applied each variable's `error_clip`
    after the grad op making its gradient. fluidc builds the backward
    natively; `append_backward(callbacks=[error_clip_callback])` applies
    the clips once it is built (`_apply_error_clips`), at the same places.
    Called directly, it does what 1.x's did for the block's last op."""
    grad_to_var = context
    index = len(block.ops) - 1
    _clip_outputs(block, index, lambda n: grad_to_var.get(n))


def _clip_outputs(block, index, forward_name):
    """Inserts, after op `index` of `block`, a clip of each of its outputs
    whose forward variable has an error clip; returns how many."""
    op = block.ops[index]
    added = 0
    for grad_n in op.output_arg_names:
        fwd = forward_name(grad_n)
        if fwd is None:
            continue
        fwd_var = block._find_var_recursive(fwd)
        if fwd_var is None:
            # a grad block's forward variables live in its forward block
            for b in block.program.blocks:
                if fwd in b.vars:
                    fwd_var = b.vars[fwd]
                    break
        if fwd_var is None:
            raise ValueError("Var %s is not found recursively" % fwd)
        error_clip = getattr(fwd_var, "error_clip", None)
        if not (error_clip is None or isinstance(error_clip, BaseErrorClipAttr)):
            raise TypeError(
                "Variable's error_clip should be an instance of BaseErrorClipAttr or None.")
        if error_clip is not None:
            block._insert_op(index + 1 + added, **error_clip._clip_op(grad_n))
            added += 1
    return added


def _apply_error_clips(program, first_ops, loss_grad):
    """After a native backward: the clips 1.x's `error_clip_callback` made.
    `first_ops[i]` is the number of ops block i had before the backward
    (blocks the backward added start at 0); the gradients are the grad
    ops' outputs named `<forward>@GRAD` (not the renamed partial ones,
    which 1.x's callback did not clip either: it clipped the `sum` of
    them). The loss's own gradient (the `fill_constant` backward starts
    with) is not a grad op's output, so it is not clipped."""
    suffix = framework.GRAD_VAR_SUFFIX

    def forward_name(n):
        if n.endswith(suffix) and n != loss_grad:
            return n[:-len(suffix)]
        return None

    for b in program.blocks:
        i = first_ops[b.idx] if b.idx < len(first_ops) else 0
        while i < len(b.ops):
            i += 1 + _clip_outputs(b, i, forward_name)


class GradientClipBase(object):
    """What every clip shares: `need_clip`, a function of a Parameter that
    says whether its gradient is clipped (`grad_clip=` only)."""

    def __init__(self, need_clip=None):
        if need_clip is not None and not callable(need_clip):
            raise TypeError(
                "The type of need_clip must be funciton, and it can filter out parameter that "
                "does't need gradient clip. This function must return True or False, and True "
                "means that clipping is required.")
        self._need_clip_func = need_clip

    def __str__(self):
        raise NotImplementedError()

    def _skips(self, param):
        return self._need_clip_func is not None and not self._need_clip_func(param)

    def _static_clip(self, program, params_grads):
        """`grad_clip=`: the clipped (parameter, gradient) pairs."""
        out, renamed = [], {}
        with name_scope("gradient_clip"):
            for p, g in params_grads:
                if g is None:
                    continue
                if self._skips(p):
                    out.append((p, g))
                    continue
                with program._optimized_guard([p, g]):
                    new_grad = self._clip(g)
                out.append((p, new_grad))
                renamed[p.name] = new_grad.name
        _correct_clip_op_role_var(program, renamed)
        return out

    def _process_context(self, context, param, grad):
        pass

    def _create_operators(self, param, grad):
        return param, self._clip(grad)


class GradientClipByValue(GradientClipBase):
    """Each gradient element clipped to [min, max] (min is -max if not given)."""

    def __init__(self, max, min=None, need_clip=None):
        GradientClipBase.__init__(self, need_clip)
        if min is None:
            if not max > 0.0:
                raise AssertionError("GradientClipByValue's max must be positive when min is not given")
            min = -max
        self.max = float(max)
        self.min = float(min)

    def __str__(self):
        return "Gradient Clip By Value, min = %f, max=%f" % (self.min, self.max)

    def _clip(self, grad):
        return _unary_op("clip", grad, {"min": self.min, "max": self.max})


class GradientClipByNorm(GradientClipBase):
    """Each gradient scaled down to L2 norm `clip_norm` if its norm is above."""

    def __init__(self, clip_norm, need_clip=None):
        GradientClipBase.__init__(self, need_clip)
        self.clip_norm = float(clip_norm)

    def __str__(self):
        return "Gradient Clip By Norm, clip_norm=%f" % self.clip_norm

    def _clip(self, grad):
        return _unary_op("clip_by_norm", grad, {"max_norm": self.clip_norm})


class GradientClipByGlobalNorm(GradientClipBase):
    """Every gradient (of a group) scaled by clip_norm / max(clip_norm,
    global_norm), the global norm the L2 norm of all of them together."""

    def __init__(self, clip_norm, group_name="default_group", need_clip=None):
        GradientClipBase.__init__(self, need_clip)
        self.clip_norm = float(clip_norm)
        self.group_name = group_name

    def __str__(self):
        return "Gradient Clip By GlobalNorm, global_norm=%f" % self.clip_norm

    @staticmethod
    def _squared_norm(grad):
        if int(grad.type) == int(VarType.SELECTED_ROWS):
            # 1.3+: a sparse gradient's norm is that of its merged rows'
            # values; the gradient itself is scaled as SelectedRows.
            grad = layers.merge_selected_rows(grad)
            grad = layers.get_tensor_from_selected_rows(grad)
        return layers.reduce_sum(input=layers.square(grad))

    @staticmethod
    def _global_norm(squared_norms):
        return layers.sqrt(x=layers.sums(squared_norms))

    @staticmethod
    def _scale(clip_var, norm):
        return layers.elementwise_div(x=clip_var, y=layers.elementwise_max(x=clip_var, y=norm))

    def _static_clip(self, program, params_grads):
        out, renamed, squares = [], {}, []
        last = None
        with name_scope("gradient_clip"):
            for p, g in params_grads:
                last = (p, g)  # the shared ops are the last pair's, as in 1.x
                if g is None or self._skips(p):
                    continue
                with program._optimized_guard([p, g]):
                    squares.append(self._squared_norm(g))
            if not squares:
                return params_grads
            with program._optimized_guard(list(last)):
                norm = self._global_norm(squares)
                clip_var = layers.fill_constant(shape=[1], dtype="float32", value=self.clip_norm)
                scale = self._scale(clip_var, norm)
            for p, g in params_grads:
                if g is None:
                    continue
                if self._skips(p):
                    out.append((p, g))
                    continue
                with program._optimized_guard([p, g]):
                    new_grad = layers.elementwise_mul(x=g, y=scale)
                out.append((p, new_grad))
                renamed[p.name] = new_grad.name
        _correct_clip_op_role_var(program, renamed)
        return out

    def _process_context(self, context, param, grad):
        """The group's clip_norm constant (made by its first gradient) and
        each gradient's squared norm."""
        if self.group_name not in context:
            context[self.group_name] = []
            context[self.group_name + "_clip_value"] = self.clip_norm
            context[self.group_name + "_clip"] = layers.fill_constant(
                shape=[1], dtype="float32", value=self.clip_norm)
        elif self.clip_norm != context[self.group_name + "_clip_value"]:
            raise ValueError("All parameters' 'clip_norm' of a same group should be the same")
        context[self.group_name].append(self._squared_norm(grad))
        self.context = context

    def _create_operators(self, param, grad):
        key = self.group_name + "_scale"
        if key not in self.context:
            norm = self._global_norm(self.context[self.group_name])
            self.context[key] = self._scale(self.context[self.group_name + "_clip"], norm)
        return param, layers.elementwise_mul(x=grad, y=self.context[key])


ClipByValue = GradientClipByValue
ClipByNorm = GradientClipByNorm
ClipByGlobalNorm = GradientClipByGlobalNorm


def set_gradient_clip(clip, param_list=None, program=None):
    """Gives each parameter of `param_list` (Parameters or their names;
    every parameter of `program` by default) its own copy of `clip`, which
    the optimizer's `minimize` applies (unless it has a `grad_clip=`)."""
    if not isinstance(clip, GradientClipBase):
        raise TypeError("'clip' should be an instance of GradientClipBase's derived class")
    if program is None:
        program = framework.default_main_program()
    elif not isinstance(program, framework.Program):
        raise TypeError("'program' should be a fluid.Program, not %s" % type(program).__name__)
    block = program.block(0)
    if param_list is None:
        param_list = block.all_parameters()
    if not isinstance(param_list, (list, tuple)):
        raise TypeError("'param_list' should be a list of Parameter or basestring(parameter's name).")
    if all(isinstance(p, str) for p in param_list):
        param_list = [block.var(p) for p in param_list]
    if not all(isinstance(p, Parameter) for p in param_list):
        raise TypeError("'param_list' should be a list of Parameter or basestring(parameter's name).")
    for param in param_list:
        param.gradient_clip_attr = copy.deepcopy(clip)


def append_gradient_clip_ops(param_grads):
    """The clips `set_gradient_clip` gave the parameters, applied to their
    gradients: every clip first sees its gradient (the global norm's
    squared norms), then makes the clipped one. As in 1.x, nothing is
    clipped if a parameter has no clip, and the clip of the last parameter
    makes every clipped gradient."""
    context = {}
    clip_attr = None
    for p, g in param_grads:
        if g is None:
            continue
        program = p.block.program
        with program._optimized_guard([p, g]), name_scope("gradient_clip"):
            clip_attr = getattr(p, "gradient_clip_attr", None)
            if clip_attr is None:
                return param_grads
            if not isinstance(clip_attr, GradientClipBase):
                raise TypeError("clip attribute should be an instance of GradientClipBase")
            clip_attr._process_context(context=context, param=p, grad=g)
    res, renamed = [], {}
    program = None
    for p, g in param_grads:
        if g is None:
            continue
        program = p.block.program
        with program._optimized_guard([p, g]), name_scope("gradient_clip"):
            param, new_grad = clip_attr._create_operators(param=p, grad=g)
        renamed[param.name] = new_grad.name
        res.append((param, new_grad))
    if program is not None:
        _correct_clip_op_role_var(program, renamed)
    return res


def _correct_clip_op_role_var(program, renamed):
    """Each op in a gradient-clip name scope is the optimizer op of its
    parameter's clipped gradient (`op_role_var` [param, clipped grad])."""
    if not renamed:
        return
    for op in program.global_block().ops:
        if not op.has_attr("op_namescope") or "gradient_clip" not in (op.attr("op_namescope") or ""):
            continue
        role_var = op.attr("op_role_var") if op.has_attr("op_role_var") else None
        if role_var and role_var[0] in renamed:
            op._set_attr("op_role_var", [role_var[0], renamed[role_var[0]]])
