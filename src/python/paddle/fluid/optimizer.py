"""paddle.fluid.optimizer: the 1.x optimizers, building the ops Paddle
3.3.1 builds in legacy static mode.

`minimize(loss)` is `append_backward`, then, with the (parameter,
gradient) pairs sorted by parameter name as Paddle's `apply_gradients`
sorts them: gradient clipping, regularization, the global learning rate
(`learning_rate_N`, a persistable float32 declared `[1]` as 1.x's, so a
script fetches it as shape `(1,)`, and filled 0-D in the startup program
as 3.3.1's), each parameter's accumulators (`<param>_<acc>_N`), and one
update op per parameter in name scope `/optimizer_N/` with `op_role`
Optimize and `op_role_var = [param, grad]`. Parameters update in place
(`ParamOut` is `Param`).
"""
import collections
import contextlib

import numpy as np

from .. import _stack
from . import clip as _clip
from . import core
from . import framework
from . import unique_name
from .backward import append_backward
from .framework import Program, Variable, VarType, name_scope
from .regularizer import L1DecayRegularizer, L2DecayRegularizer, WeightDecayRegularizer
from .regularizer import append_regularization_ops  # noqa: F401 (1.x re-exported it)

__all__ = [
    "SGD", "Momentum", "Adagrad", "Adam", "Adamax", "Adadelta", "RMSProp", "Lamb",
    "DecayedAdagrad", "SGDOptimizer", "MomentumOptimizer", "AdagradOptimizer",
    "AdamOptimizer", "AdamaxOptimizer", "AdadeltaOptimizer", "RMSPropOptimizer",
    "LambOptimizer", "DecayedAdagradOptimizer", "Ftrl", "FtrlOptimizer",
    "Optimizer", "ExponentialMovingAverage", "ModelAverage", "LookaheadOptimizer",
    "RecomputeOptimizer", "LarsMomentum", "LarsMomentumOptimizer",
]

# op_role values (Paddle's OpRole).
_FORWARD, _BACKWARD, _OPTIMIZE, _LR_SCHED = 0, 1, 2, 16


@contextlib.contextmanager
def _role(program, role, role_var=None):
    old = (program._op_role, program._op_role_var)
    program._op_role = role
    program._op_role_var = list(role_var or [])
    try:
        yield
    finally:
        program._op_role, program._op_role_var = old


def _str_float(v):
    return str(float(v))


class Optimizer(object):
    """What every optimizer shares; subclasses give `_type`, their
    accumulators and their update op."""

    # (suffix, fill value (a name: an attribute), shaped like the
    # parameter (else [1]), device)
    _accumulator_specs = ()

    def __init__(self, learning_rate, regularization=None, grad_clip=None, name=None):
        if not isinstance(learning_rate, (int, float, Variable)) or isinstance(learning_rate, bool):
            raise TypeError("learning rate should be float or Variable, but received %s"
                            % type(learning_rate).__name__)
        if regularization is not None and not isinstance(regularization, WeightDecayRegularizer):
            raise TypeError("regularization must be fluid.regularizer.L2Decay or L1Decay")
        if grad_clip is not None and not isinstance(grad_clip, _clip.GradientClipBase):
            raise TypeError("grad_clip must be a fluid.clip.GradientClipBy*, not %s"
                            % type(grad_clip).__name__)
        self._learning_rate = learning_rate
        self.regularization = regularization
        self._grad_clip = grad_clip
        self._name = name
        # 1.x's {program: its learning-rate variable}; a Variable learning
        # rate belongs to the main program of the optimizer's construction.
        self._learning_rate_map = {}
        if isinstance(learning_rate, Variable):
            self._learning_rate_map[framework.default_main_program()] = learning_rate
        # 1.x's: {accumulator name: {parameter name: its variable}}.
        self._accumulators = collections.defaultdict(dict)
        self.helper = None

    def _global_learning_rate(self, program=None):
        """1.x's: the learning-rate variable of `program` (default: the
        default main program), or None before minimize() created it."""
        if program is None:
            program = framework.default_main_program()
        return self._learning_rate_map.get(program, None)

    # The learning rate, created in `program` and `startup` on first use.
    def _create_global_learning_rate(self, program, startup):
        if isinstance(self._learning_rate, Variable):
            return self._learning_rate
        lr = self._learning_rate_map.get(program)
        if lr is None:
            name = unique_name.generate("learning_rate")
            lr = program.global_block().create_var(
                name=name, shape=[1], dtype="float32", persistable=True, stop_gradient=True)
            startup.global_block().create_var(
                name=name, shape=[1], dtype="float32", persistable=True, stop_gradient=True)
            startup.global_block().append_op(
                type="fill_constant", outputs={"Out": [name]},
                attrs={"shape": [], "dtype": 5, "value": float(self._learning_rate),
                       "str_value": _str_float(self._learning_rate), "force_cpu": False,
                       "op_device": ""})
            self._learning_rate_map[program] = lr
        return lr

    def _param_learning_rate(self, param, lr):
        """A parameter's own `learning_rate` (ParamAttr) scales the global
        one (a `scale` in `/optimizer_N/scale_with_param_lr/`)."""
        factor = getattr(param, "optimize_attr", {}).get("learning_rate", 1.0)
        if factor == 1.0:
            return lr
        program = param.block.program
        with _role(program, _LR_SCHED | _OPTIMIZE):
            with name_scope("scale_with_param_lr"):
                return lr * float(factor)

    def _create_accumulators(self, program, startup, param):
        names = []
        shape = list(param.shape)
        for suffix, value, like_param, device in self._accumulator_specs:
            if isinstance(value, str):
                value = getattr(self, value)
            # A named optimizer's accumulators are `<param>_<name>_<acc>_N`.
            if self._name is not None:
                suffix = "%s_%s" % (self._name, suffix)
            name = unique_name.generate("%s_%s" % (param.name, suffix))
            dims = shape if like_param else [1]
            var = program.global_block().create_var(
                name=name, shape=dims, dtype=param.dtype, persistable=True, stop_gradient=False)
            self._accumulators[suffix][param.name] = var
            startup.global_block().create_var(
                name=name, shape=dims, dtype=param.dtype, persistable=True, stop_gradient=True)
            startup.global_block().append_op(
                type="fill_constant", outputs={"Out": [name]},
                attrs={"shape": dims, "dtype": param.dtype, "value": float(value),
                       "str_value": _str_float(value), "force_cpu": False, "op_device": device})
            names.append(name)
        return dict(zip([a[0] for a in self._accumulator_specs], names))

    def _update_op(self, param, grad, lr, acc, fused_l2):
        raise NotImplementedError()

    def _finish_update(self, block, params_grads, accs):
        pass

    # Regularization.
    def _fuses_l2(self):
        return False

    def _regularize(self, program, pairs):
        """Paddle 3.3.1's `append_regularization_ops`: in name scope
        `/regularization/`, each regularized gradient gets its decay added
        in place (L2 `scale(param, c)`, L1 `scale(sign(param), c)`, then
        `sum([grad, decay])`); a sparse gradient sums into a new dense
        `grad@NEWGRAD@`. A parameter's own regularizer wins over the
        optimizer's; Momentum fuses L2 decay into its op (the returned
        coefficient per pair)."""
        fuse = self._fuses_l2()
        wide, wide_fused = self.regularization, None
        if fuse and isinstance(wide, L2DecayRegularizer):
            wide, wide_fused = None, wide._regularization_coeff
        fused, todo = [], []
        for k, (p, g) in enumerate(pairs):
            own = getattr(p, "regularizer", None)
            if own is not None and fuse and isinstance(own, L2DecayRegularizer):
                fused.append(own._regularization_coeff)
            elif own is not None:
                fused.append(None)
                todo.append((k, own))
            else:
                fused.append(wide_fused)
                if wide is not None:
                    todo.append((k, wide))
        out = list(pairs)
        if todo:
            with name_scope("regularization"):
                for k, reg in todo:
                    p, g = pairs[k]
                    with _role(program, _OPTIMIZE, [p.name, g.name]):
                        out[k] = (p, self._decay(program.global_block(), p, g, reg))
        return out, fused

    @staticmethod
    def _decay(block, p, g, reg):
        def fresh(name=None):
            return block.create_var(name=name or unique_name.generate("_generated_var"),
                                    dtype=p.dtype, shape=p.shape, stop_gradient=False)
        source = p
        if isinstance(reg, L1DecayRegularizer):
            source = fresh()
            block.append_op(type="sign", inputs={"X": [p]}, outputs={"Out": [source]})
        decay = fresh()
        block.append_op(type="scale", inputs={"X": [source]}, outputs={"Out": [decay]},
                        attrs={"scale": float(reg._regularization_coeff)})
        new = fresh(g.name + "@NEWGRAD@") if int(g.type) == 8 else g  # SELECTED_ROWS
        block.append_op(type="sum", inputs={"X": [g, decay]}, outputs={"Out": [new]})
        return new

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None):
        if callbacks is None:
            callbacks = [_clip.error_clip_callback]
        return append_backward(loss, parameter_list, no_grad_set, callbacks)

    def apply_gradients(self, params_grads, loss=None, startup_program=None):
        """Clipping, regularization and the update ops for `params_grads`
        (1.x's second half of `minimize`); returns the ops of the update
        pass, as 1.x's did."""
        program = framework.default_main_program() if loss is None else loss.block.program
        return self._apply(program, startup_program, params_grads)[0]

    def apply_optimize(self, loss, startup_program, params_grads):
        """1.5-1.6: `apply_gradients` in `loss`'s program."""
        return self._apply(loss.block.program, startup_program, params_grads)[0]

    def _apply(self, program, startup_program, params_grads, grad_clip=None):
        pairs = sorted(params_grads, key=lambda pg: pg[0].name)
        clip = grad_clip if grad_clip is not None else self._grad_clip
        if clip is not None:
            pairs = clip._static_clip(program, pairs)
        else:
            pairs = _clip.append_gradient_clip_ops(pairs)
        pairs, fused = self._regularize(program, pairs)
        ops = self._optimization_pass(program, startup_program, pairs, fused)
        return ops, pairs

    def _create_optimization_pass(self, parameters_and_grads, loss=None, startup_program=None):
        """1.x's: the update ops alone (no clipping nor regularization) for
        `parameters_and_grads`, in `loss`'s program (1.0-1.4's signature)
        or the default main program (1.5-1.6's); returns the ops the pass
        appended to the global block (the scaled learning rates, the
        updates and what `_finish_update` adds)."""
        if loss is not None:
            program = loss.block.program
        else:
            program = framework.default_main_program()
        return self._optimization_pass(program, startup_program, parameters_and_grads,
                                       [None] * len(parameters_and_grads))

    def _optimization_pass(self, program, startup_program, pairs, fused):
        if startup_program is None:
            startup_program = program._startup or framework.default_startup_program()
        kept = [(pg, l2) for pg, l2 in zip(pairs, fused)
                if pg[1] is not None and getattr(pg[0], "trainable", True)]
        pairs = [pg for pg, _ in kept]
        block = program.global_block()
        start = block.program.desc.op_count(block.idx)
        lr = self._create_global_learning_rate(program, startup_program)
        accs = [self._create_accumulators(program, startup_program, p) for p, _ in pairs]
        for (p, g), acc, (_, l2) in zip(pairs, accs, kept):
            with name_scope("optimizer"):
                param_lr = self._param_learning_rate(p, lr)
                with _role(program, _OPTIMIZE, [p.name, g.name]):
                    self._append_update(block, p, g, param_lr, acc, l2)
        self._finish_update(block, pairs, accs)
        return block.ops[start:]

    def _append_update(self, block, p, g, lr, acc, l2):
        """Appends the update of `p`: the one op `_update_op` gives (an
        optimizer whose 1.x op fluidc lacks appends the ops it computed)."""
        op_type, inputs, outputs, attrs = self._update_op(p, g, lr, acc, l2)
        block.append_op(type=op_type, inputs=inputs, outputs=outputs, attrs=attrs)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 grad_clip=None):
        """Backward, then the update ops; returns `(optimize_ops,
        params_grads)`: the ops of the update pass (the scaled learning
        rates, the updates and what follows them), as 1.x's did."""
        if grad_clip is not None and not isinstance(grad_clip, _clip.GradientClipBase):
            raise TypeError("grad_clip must be a fluid.clip.GradientClipBy*")
        if startup_program is not None and not isinstance(startup_program, Program):
            raise TypeError("startup_program must be a fluid.Program")
        params_grads = append_backward(loss, parameter_list, no_grad_set,
                                       [_clip.error_clip_callback])
        return self._apply(loss.block.program, startup_program, params_grads, grad_clip)

    def _base(self, op_type, param, grad, lr):
        inputs = {"Param": [param], "Grad": [grad], "LearningRate": [lr]}
        outputs = {"ParamOut": [param]}
        attrs = {"multi_precision": False}
        return op_type, inputs, outputs, attrs


class SGDOptimizer(Optimizer):
    _type = "sgd"

    def __init__(self, learning_rate, regularization=None, grad_clip=None, name=None):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)

    def _update_op(self, p, g, lr, acc, l2):
        return self._base("sgd", p, g, lr)


class MomentumOptimizer(Optimizer):
    _type = "momentum"
    _velocity_acc_str = "velocity"
    _accumulator_specs = (("velocity", 0.0, True, ""),)

    def __init__(self, learning_rate, momentum, use_nesterov=False, regularization=None,
                 grad_clip=None, name=None):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._momentum = momentum
        self._use_nesterov = bool(use_nesterov)

    def _fuses_l2(self):
        return True

    def _update_op(self, p, g, lr, acc, l2):
        t, i, o, a = self._base("momentum", p, g, lr)
        i["Velocity"] = [acc["velocity"]]
        o["VelocityOut"] = [acc["velocity"]]
        a.update({"mu": float(self._momentum), "use_nesterov": self._use_nesterov,
                  "regularization_method": "l2_decay" if l2 is not None else "",
                  "regularization_coeff": float(l2 or 0.0), "rescale_grad": 1.0})
        return t, i, o, a


class AdamOptimizer(Optimizer):
    _type = "adam"
    _moment1_acc_str = "moment1"
    _moment2_acc_str = "moment2"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _beta2_pow_acc_str = "beta2_pow_acc"
    _accumulator_specs = (("moment1", 0.0, True, ""), ("moment2", 0.0, True, ""),
                     ("beta1_pow_acc", "_beta1", False, "cpu"),
                     ("beta2_pow_acc", "_beta2", False, "cpu"))

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 regularization=None, grad_clip=None, name=None, lazy_mode=False):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon
        self._lazy_mode = lazy_mode

    def _update_op(self, p, g, lr, acc, l2):
        t, i, o, a = self._base("adam", p, g, lr)
        for slot, key in (("Moment1", "moment1"), ("Moment2", "moment2"),
                          ("Beta1Pow", "beta1_pow_acc"), ("Beta2Pow", "beta2_pow_acc")):
            i[slot] = [acc[key]]
            o[slot + "Out"] = [acc[key]]
        a.update({"beta1": float(self._beta1), "beta2": float(self._beta2),
                  "epsilon": float(self._epsilon), "lazy_mode": bool(self._lazy_mode),
                  "min_row_size_to_use_multithread": 1000, "use_global_beta_pow": False,
                  "amsgrad": False})
        return t, i, o, a


class AdagradOptimizer(Optimizer):
    _type = "adagrad"
    _moment_acc_str = "moment"
    _accumulator_specs = (("moment", "_initial", True, ""),)

    def __init__(self, learning_rate, epsilon=1.0e-6, regularization=None, grad_clip=None,
                 name=None, initial_accumulator_value=0.0):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._epsilon = epsilon
        self._initial = initial_accumulator_value

    def _update_op(self, p, g, lr, acc, l2):
        t, i, o, a = self._base("adagrad", p, g, lr)
        i["Moment"] = [acc["moment"]]
        o["MomentOut"] = [acc["moment"]]
        a["epsilon"] = float(self._epsilon)
        return t, i, o, a


class DecayedAdagradOptimizer(Optimizer):
    """Adagrad whose moment decays: `moment = decay * moment + (1 - decay) *
    grad^2`, `param -= lr * grad / (sqrt(moment) + epsilon)`. 1.0-1.5 left
    `decay` out of the op (so it ran with the op's 0.95 whatever was asked);
    fluidc passes it, as 1.6+ did."""
    _type = "decayed_adagrad"
    _moment_acc_str = "moment"
    _accumulator_specs = (("moment", 0.0, True, ""),)

    def __init__(self, learning_rate, decay=0.95, epsilon=1.0e-6, regularization=None,
                 grad_clip=None, name=None):
        assert learning_rate is not None
        assert decay is not None
        assert epsilon is not None
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._decay = decay
        self._epsilon = epsilon

    def _update_op(self, p, g, lr, acc, l2):
        _dense_only("decayed_adagrad", g)
        inputs = {"Param": [p], "Grad": [g], "Moment": [acc["moment"]], "LearningRate": [lr]}
        outputs = {"ParamOut": [p], "MomentOut": [acc["moment"]]}
        attrs = {"epsilon": float(self._epsilon), "decay": float(self._decay)}
        return "decayed_adagrad", inputs, outputs, attrs


class FtrlOptimizer(Optimizer):
    """FTRL-Proximal: accumulators `squared` (sum of grad^2) and `linear`,
    both 0, updated by one `ftrl` op with `l1`, `l2` and `lr_power`. Paddle
    1.x passed `l1` as the op's `l2` too (`"l2": self._l1`), so `l2` is
    kept but the op runs with `l1` for both; fluidc builds what 1.x built,
    and says so on stderr when the two differ (an argument that changes
    nothing is not left silent)."""
    _type = "ftrl"
    _squared_acc_str = "squared"
    _linear_acc_str = "linear"
    _accumulator_specs = ((_squared_acc_str, 0.0, True, ""), (_linear_acc_str, 0.0, True, ""))

    def __init__(self, learning_rate, l1=0.0, l2=0.0, lr_power=-0.5, regularization=None,
                 grad_clip=None, name=None):
        if learning_rate is None:
            raise ValueError("learning_rate is not set.")
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._l1 = l1
        self._l2 = l2
        self._lr_power = lr_power
        if l2 != l1:
            import warnings  # on first use: importing it costs start-up
            warnings.warn("FtrlOptimizer: Paddle 1.x built the ftrl op with l2 = l1 (%r), so "
                          "l2=%r changes nothing; fluidc does the same" % (l1, l2),
                          stacklevel=_stack.user_stacklevel())

    def _update_op(self, p, g, lr, acc, l2):
        _dense_only("ftrl", g)
        sq, lin = acc[self._squared_acc_str], acc[self._linear_acc_str]
        inputs = {"Param": [p], "Grad": [g], "SquaredAccumulator": [sq],
                  "LinearAccumulator": [lin], "LearningRate": [lr]}
        outputs = {"ParamOut": [p], "SquaredAccumOut": [sq], "LinearAccumOut": [lin]}
        attrs = {"l1": float(self._l1), "l2": float(self._l1),
                 "lr_power": float(self._lr_power)}
        return "ftrl", inputs, outputs, attrs


class RMSPropOptimizer(Optimizer):
    _type = "rmsprop"
    _momentum_acc_str = "momentum"
    _mean_square_acc_str = "mean_square"
    _mean_grad_acc_str = "mean_grad"
    _accumulator_specs = (("momentum", 0.0, True, ""), ("mean_square", 0.0, True, ""),
                     ("mean_grad", 0.0, True, ""))

    def __init__(self, learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False,
                 regularization=None, grad_clip=None, name=None):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._rho, self._epsilon = rho, epsilon
        self._momentum, self._centered = momentum, centered

    def _update_op(self, p, g, lr, acc, l2):
        t, i, o, a = self._base("rmsprop", p, g, lr)
        for slot, key in (("Moment", "momentum"), ("MeanSquare", "mean_square"),
                          ("MeanGrad", "mean_grad")):
            i[slot] = [acc[key]]
            o[slot + "Out"] = [acc[key]]
        a.update({"decay": float(self._rho), "epsilon": float(self._epsilon),
                  "momentum": float(self._momentum), "centered": bool(self._centered)})
        return t, i, o, a


def _dense_only(op_type, g):
    """1.x's adamax and adadelta kernels took dense gradients only: a sparse
    embedding's (`is_sparse=True`) failed when the program ran; fluidc
    refuses it when the optimizer op is built."""
    if int(g.type) == 8:  # SELECTED_ROWS
        raise core.EnforceNotMet(
            "The Var(%s)'s type should be LoDTensor, but the received is SelectedRows: %s "
            "takes dense gradients only (use is_sparse=False, or SGD, Momentum, Adam, Adagrad "
            "or RMSProp for sparse embeddings)" % (g.name, op_type))


class AdamaxOptimizer(Optimizer):
    _type = "adamax"
    _moment_acc_str = "moment"
    _inf_norm_acc_str = "inf_norm"
    _beta1_pow_acc_str = "beta1_pow_acc"
    _accumulator_specs = (("moment", 0.0, True, ""), ("inf_norm", 0.0, True, ""),
                     ("beta1_pow_acc", "_beta1", False, ""))

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8,
                 regularization=None, grad_clip=None, name=None):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._beta1, self._beta2, self._epsilon = beta1, beta2, epsilon

    def _update_op(self, p, g, lr, acc, l2):
        _dense_only("adamax", g)
        t, i, o, a = self._base("adamax", p, g, lr)
        i["Moment"] = [acc["moment"]]
        i["InfNorm"] = [acc["inf_norm"]]
        i["Beta1Pow"] = [acc["beta1_pow_acc"]]
        o["MomentOut"] = [acc["moment"]]
        o["InfNormOut"] = [acc["inf_norm"]]
        a.update({"beta1": float(self._beta1), "beta2": float(self._beta2),
                  "epsilon": float(self._epsilon)})
        return t, i, o, a

    def _finish_update(self, block, pairs, accs):
        """beta1_pow *= beta1: one `scale` per parameter in `/adamax_N/`."""
        program = block.program
        for (p, g), acc in zip(pairs, accs):
            pow_acc = acc["beta1_pow_acc"]
            with _role(program, _OPTIMIZE, [p.name, g.name]), name_scope("adamax"):
                block.append_op(type="scale", inputs={"X": [pow_acc]},
                                outputs={"Out": [pow_acc]}, attrs={"scale": float(self._beta1)})


class AdadeltaOptimizer(Optimizer):
    _type = "adadelta"
    _avg_squared_grad_acc_str = "_avg_squared_grad"
    _avg_squared_update_acc_str = "_avg_squared_update"
    _accumulator_specs = (("_avg_squared_grad", 0.0, True, ""), ("_avg_squared_update", 0.0, True, ""))

    def __init__(self, learning_rate, epsilon=1.0e-6, rho=0.95, regularization=None,
                 grad_clip=None, name=None):
        Optimizer.__init__(self, learning_rate, regularization, grad_clip, name)
        self._epsilon, self._rho = epsilon, rho

    def _update_op(self, p, g, lr, acc, l2):
        _dense_only("adadelta", g)
        t, i, o, a = self._base("adadelta", p, g, lr)
        i["AvgSquaredGrad"] = [acc["_avg_squared_grad"]]
        i["AvgSquaredUpdate"] = [acc["_avg_squared_update"]]
        o["AvgSquaredGradOut"] = [acc["_avg_squared_grad"]]
        o["AvgSquaredUpdateOut"] = [acc["_avg_squared_update"]]
        a.update({"rho": float(self._rho), "epsilon": float(self._epsilon)})
        return t, i, o, a


class LambOptimizer(AdamOptimizer):
    _type = "lamb"

    def __init__(self, learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999,
                 epsilon=1e-6, regularization=None, grad_clip=None,
                 exclude_from_weight_decay_fn=None, name=None):
        if exclude_from_weight_decay_fn is not None:
            raise NotImplementedError(
                "Lamb's exclude_from_weight_decay_fn is not supported by fluidc; leave it out")
        AdamOptimizer.__init__(self, learning_rate, beta1, beta2, epsilon, regularization,
                               grad_clip, name)
        self._weight_decay = lamb_weight_decay

    def _update_op(self, p, g, lr, acc, l2):
        t, i, o, a = AdamOptimizer._update_op(self, p, g, lr, acc, l2)
        for k in ("lazy_mode", "min_row_size_to_use_multithread", "use_global_beta_pow", "amsgrad"):
            a.pop(k, None)
        a.update({"weight_decay": float(self._weight_decay), "always_adapt": False})
        return "lamb", i, o, a


SGD = SGDOptimizer
Momentum = MomentumOptimizer
Adagrad = AdagradOptimizer
Adam = AdamOptimizer
Adamax = AdamaxOptimizer
Adadelta = AdadeltaOptimizer
RMSProp = RMSPropOptimizer
Lamb = LambOptimizer
DecayedAdagrad = DecayedAdagradOptimizer
Ftrl = FtrlOptimizer


class ModelAverage(Optimizer):
    """1.x's ModelAverage: averages of each parameter over a sliding
    window of its recent values, kept by an `average_accumulates` op per
    parameter that the constructor appends to the default main program
    (after the optimizer's updates); `apply(executor, need_restore=True)`
    (a context manager) runs `apply_program`, which backs the parameters up
    and replaces them by `(sum_1 + sum_2 + sum_3) / (num_accumulates +
    old_num_accumulates)`, and `restore(executor)` runs `restore_program`.
    The window: at least `min_average_window` updates and at least
    `average_window_rate` of all updates, at most `max_average_window`."""

    def __init__(self, average_window_rate, min_average_window=10000,
                 max_average_window=10000, regularization=None, name=None):
        super(ModelAverage, self).__init__(0.0, regularization=regularization, name=name)
        self.average_window = average_window_rate
        self.min_average_window = min_average_window
        self.max_average_window = max_average_window
        self._dtype = None

        self.params_grads = []
        for param in framework.default_main_program().global_block().all_parameters():
            if param.do_model_average is not False:
                grad = param.block.create_var(
                    name=unique_name.generate(".".join([param.name, "tmp"])),
                    dtype=param.dtype, persistable=False, stop_gradient=True)
                self.params_grads.append((param, grad))

        for param, grad in self.params_grads:
            with param.block.program._optimized_guard([param, grad]), \
                    name_scope("move_average"):
                self._append_average_accumulate_op(param)

        self.apply_program = Program()
        block = self.apply_program.global_block()
        with framework.program_guard(main_program=self.apply_program):
            for param_grad in self.params_grads:
                self._add_average_apply_op(block, param_grad)

        self.restore_program = Program()
        block = self.restore_program.global_block()
        with framework.program_guard(main_program=self.restore_program):
            for param_grad in self.params_grads:
                self._add_average_restore_op(block, param_grad)

    def _add_accumulator(self, name, param, dtype=None, fill_value=0.0, shape=None):
        """1.x's: a persistable `<param>_<name>_N` of the main program's
        global block (the parameter's shape unless given), filled in the
        default startup program."""
        from .initializer import Constant
        if self._name is not None:
            name = self._name + "_" + name
        if param.name in self._accumulators.get(name, {}):
            raise Exception("Accumulator {} already exists for parameter {}".format(
                name, param.name))
        var = self.helper.create_global_variable(
            name=unique_name.generate(param.name + "_" + name), persistable=True,
            dtype=dtype or param.dtype, type=param.type,
            shape=list(param.shape) if shape is None else shape)
        self.helper.set_variable_initializer(var, initializer=Constant(value=float(fill_value)))
        self._accumulators[name][param.name] = var
        return var

    def _get_accumulator(self, name, param):
        if self._name is not None:
            name = self._name + "_" + name
        if param.name not in self._accumulators.get(name, {}):
            raise Exception("Accumulator {} does not exist for parameter {}".format(
                name, param.name))
        return self._accumulators[name][param.name]

    def _append_average_accumulate_op(self, param):
        from .layer_helper import LayerHelper
        self.helper = LayerHelper("average_accumulate")
        sum_1 = self._add_accumulator("sum_1", param)
        sum_2 = self._add_accumulator("sum_2", param)
        sum_3 = self._add_accumulator("sum_3", param)
        num_accumulates = self._add_accumulator("num_accumulates", param, dtype="int64",
                                                shape=[1])
        old_num_accumulates = self._add_accumulator("old_num_accumulates", param,
                                                    dtype="int64", shape=[1])
        num_updates = self._add_accumulator("num_updates", param, dtype="int64", shape=[1])
        self.helper.append_op(
            type="average_accumulates",
            inputs={"param": param, "in_sum_1": sum_1, "in_sum_2": sum_2, "in_sum_3": sum_3,
                    "in_num_accumulates": num_accumulates,
                    "in_old_num_accumulates": old_num_accumulates,
                    "in_num_updates": num_updates},
            outputs={"out_sum_1": sum_1, "out_sum_2": sum_2, "out_sum_3": sum_3,
                     "out_num_accumulates": num_accumulates,
                     "out_old_num_accumulates": old_num_accumulates,
                     "out_num_updates": num_updates},
            attrs={"average_window": self.average_window,
                   "min_average_window": self.min_average_window,
                   "max_average_window": self.max_average_window})

    def _add_average_apply_op(self, block, param_grad):
        from . import layers
        param = block._clone_variable(param_grad[0])
        grad = block._clone_variable(param_grad[1])
        sums = [block._clone_variable(self._get_accumulator(n, param_grad[0]))
                for n in ("sum_1", "sum_2", "sum_3")]
        counts = [block._clone_variable(self._get_accumulator(n, param_grad[0]))
                  for n in ("num_accumulates", "old_num_accumulates")]
        # The parameter's value, kept for restore.
        layers.assign(input=param, output=grad)
        # param = (sum_1 + sum_2 + sum_3) / (num_accumulates + old_num_accumulates)
        dtype = "float32" if self._dtype is None else self._dtype
        tmp = layers.cast(x=layers.sum(x=counts), dtype=dtype)
        total = layers.cast(x=layers.sum(x=sums), dtype=dtype)
        block.append_op(type="elementwise_div", inputs={"X": [total], "Y": [tmp]},
                        outputs={"Out": [param]}, attrs={"axis": -1})

    def _add_average_restore_op(self, block, param_grad):
        from . import layers
        param = block._clone_variable(param_grad[0])
        grad = block._clone_variable(param_grad[1])
        layers.assign(input=grad, output=param)

    def minimize(self, *args, **kwargs):
        raise NotImplementedError(
            "ModelAverage is not an optimizer to minimize with: build it after the "
            "optimizer's minimize, then use apply()/restore()")

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        """Runs `apply_program`: the parameters hold their averages until
        the `with` block ends (then `restore`, unless `need_restore` is
        False)."""
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        """Runs `restore_program`: the parameters get back the values
        `apply` saved."""
        executor.run(self.restore_program)


class ExponentialMovingAverage(object):
    """Exponential moving averages of the main program's parameters, as
    1.5-1.6 built them:

    * the constructor makes, in the default main program, the persistable
      decay rate `scheduled_ema_decay_rate` (with `thres_steps`, a Switch
      sets it each run to `min(decay, (thres_steps + 1) / (thres_steps +
      10))`), per parameter an average `<name><param>_ema_N` filled with 0
      and a `<name><param>.ema_tmp_N` backup, plus two programs of its own:
      `apply_program` (backup, then the average corrected by `1 -
      decay^(@LR_DECAY_COUNTER@ + 1)` into the parameter; it carries its
      own increment of that counter, as 1.x's did) and `restore_program`;
    * `update()` appends to the main program `ema = ema * decay + param *
      (1 - decay)` for each parameter;
    * `apply(executor, need_restore=True)` runs `apply_program` and, as a
      context manager, `restore_program` on leaving; `restore(executor)`
      runs `restore_program`.
    """

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        from . import layers
        self._decay = decay
        self._thres_steps = thres_steps
        self._name = name if name is not None else ""
        self._decay_var = self._get_ema_decay()

        main = framework.default_main_program()
        self._params_tmps = []
        for param in main.global_block().all_parameters():
            if param.do_model_average is not False:
                tmp = param.block.create_var(
                    name=unique_name.generate(".".join([self._name + param.name, "ema_tmp"])),
                    dtype=param.dtype, persistable=False, stop_gradient=True)
                self._params_tmps.append((param, tmp))

        self._ema_vars = {}
        for param, tmp in self._params_tmps:
            with param.block.program._optimized_guard([param, tmp]), \
                    name_scope("moving_average"):
                self._ema_vars[param.name] = self._create_ema_vars(param)

        self.apply_program = Program()
        block = self.apply_program.global_block()
        with framework.program_guard(main_program=self.apply_program):
            decay_pow = self._get_decay_pow(block)
            for param, tmp in self._params_tmps:
                param = block._clone_variable(param)
                tmp = block._clone_variable(tmp)
                ema = block._clone_variable(self._ema_vars[param.name])
                layers.assign(input=param, output=tmp)
                # The bias correction.
                ema = ema / (1.0 - decay_pow)
                layers.assign(input=ema, output=param)

        self.restore_program = Program()
        block = self.restore_program.global_block()
        with framework.program_guard(main_program=self.restore_program):
            for param, tmp in self._params_tmps:
                tmp = block._clone_variable(tmp)
                param = block._clone_variable(param)
                layers.assign(input=tmp, output=param)

    def _get_ema_decay(self):
        from . import layers
        with framework.default_main_program()._lr_schedule_guard():
            decay_var = layers.tensor.create_global_var(
                shape=[1], value=self._decay, dtype="float32", persistable=True,
                name="scheduled_ema_decay_rate")
            if self._thres_steps is not None:
                decay_t = (self._thres_steps + 1.0) / (self._thres_steps + 10.0)
                with layers.control_flow.Switch() as switch:
                    with switch.case(decay_t < self._decay):
                        layers.tensor.assign(decay_t, decay_var)
                    with switch.default():
                        layers.tensor.assign(np.array([self._decay], dtype=np.float32),
                                             decay_var)
        return decay_var

    def _get_decay_pow(self, block):
        from . import layers
        global_steps = layers.learning_rate_scheduler._decay_step_counter()
        decay_var = block._clone_variable(self._decay_var)
        return layers.elementwise_pow(decay_var, global_steps + 1)

    def _create_ema_vars(self, param):
        from . import layers
        return layers.create_global_var(
            name=unique_name.generate(self._name + param.name + "_ema"), shape=param.shape,
            value=0.0, dtype=param.dtype, persistable=True)

    def update(self):
        """Appends the averages' update to the main program (call it once,
        in the training program)."""
        from . import layers
        for param, tmp in self._params_tmps:
            with param.block.program._optimized_guard([param, tmp]), \
                    name_scope("moving_average"):
                param_ema = self._ema_vars[param.name]
                ema_t = param_ema * self._decay_var + param * (1 - self._decay_var)
                layers.assign(input=ema_t, output=param_ema)

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        """Runs `apply_program`: the parameters hold their averages until
        the `with` block ends (then `restore`, unless `need_restore` is
        False)."""
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        """Runs `restore_program`: the parameters get back the values
        `apply` saved."""
        executor.run(self.restore_program)


class LookaheadOptimizer(object):
    """1.6's Lookahead (Zhang et al. 2019) around `inner_optimizer`: every
    parameter has a persistable `<param>@SLOW` copy (the startup program
    assigns it the parameter's initial value); each run counts
    `lookahead_step`, and every `k`-th one sets both the slow copy and the
    parameter to `alpha * param + (1 - alpha) * slow`, after the inner
    optimizer's update (in a Switch, as 1.6 built it)."""

    def __init__(self, inner_optimizer, alpha=0.5, k=5):
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, \
            "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer = inner_optimizer
        self.alpha = alpha
        self.k = k
        self.type = "lookahead"

    def minimize(self, loss, startup_program=None):
        from . import layers
        mini_out = self.inner_optimizer.minimize(loss, startup_program=startup_program)
        if startup_program is None:
            startup_program = framework.default_startup_program()
        main_block = loss.block
        startup_block = startup_program.global_block()
        params = [param.name for param in main_block.all_parameters()]
        slow = {}
        for name in params:
            fast = main_block.var(name)
            slow[name] = main_block.create_var(name=name + "@SLOW", shape=fast.shape,
                                               dtype=fast.dtype, persistable=True)
        for name in params:
            fast = startup_block.var(name)
            slow_init = startup_block.create_var(name=name + "@SLOW", shape=fast.shape,
                                                 dtype=fast.dtype, persistable=True)
            startup_block.append_op(type="assign", inputs={"X": fast},
                                    outputs={"Out": slow_init})
        k = layers.create_global_var(name="lookahead_k", shape=[1], value=int(self.k),
                                     dtype="int32", persistable=True)
        alpha = layers.create_global_var(name="lookahead_alpha", shape=[1],
                                         value=float(self.alpha), dtype="float32",
                                         persistable=True)
        step = layers.create_global_var(name="lookahead_step", shape=[1], value=int(0),
                                        dtype="int32", persistable=True)
        layers.increment(x=step, value=1.0, in_place=True)
        zero_var = layers.fill_constant(shape=[1], dtype="float32", value=0.0)
        one_var = layers.fill_constant(shape=[1], dtype="float32", value=1.0)
        mod = layers.elementwise_mod(step, k)
        with layers.control_flow.Switch() as switch:
            with switch.case(mod == zero_var):
                for name in params:
                    fast = main_block.var(name)
                    mixed = layers.elementwise_add(
                        layers.elementwise_mul(fast, alpha),
                        layers.elementwise_mul(slow[name], layers.elementwise_sub(one_var, alpha)))
                    layers.assign(input=mixed, output=slow[name])
                    layers.assign(input=mixed, output=fast)
            with switch.default():
                pass
        return mini_out


class LarsMomentumOptimizer(Optimizer):
    """1.6's momentum with layer-wise adaptive rate scaling (LARS): for each
    parameter, `local_lr = lr * lars_coeff * ||p|| / (||g|| +
    lars_weight_decay * ||p||)` (the plain `lr` when lars_weight_decay is 0
    or a norm is 0), then `velocity = velocity * momentum + local_lr * (g +
    lars_weight_decay * p)` and `p = p - velocity`. 1.6 ran its
    `lars_momentum` op, which fluidc does not have: the update is the ops
    computing those same products in the same order (a 0/1 mask of the
    norms' signs picks the rate, exactly)."""
    _type = "lars_momentum"
    _velocity_acc_str = "velocity"
    _accumulator_specs = (("velocity", 0.0, True, ""),)

    def __init__(self, learning_rate, momentum, lars_coeff=0.001, lars_weight_decay=0.0005,
                 regularization=None, name=None):
        assert learning_rate is not None
        assert momentum is not None
        Optimizer.__init__(self, learning_rate, regularization, None, name)
        self._momentum = momentum
        self._lars_coeff = float(lars_coeff)
        self._lars_weight_decay = float(lars_weight_decay)

    def _append_update(self, block, p, g, lr, acc, l2):
        _dense_only("lars_momentum", g)
        velocity = block.var(acc["velocity"])

        def op(type, x, y=None, out=None, shape=None, **attrs):
            if out is None:
                out = block.create_var(name=unique_name.generate("lars_momentum.tmp"),
                                       dtype=p.dtype, shape=shape or list(x.shape),
                                       stop_gradient=True)
            inputs = {"X": [x]} if y is None else {"X": [x], "Y": [y]}
            block.append_op(type=type, inputs=inputs, outputs={"Out": [out]}, attrs=attrs)
            return out

        def scale(x, factor, bias=0.0):
            return op("scale", x, scale=float(factor), bias=float(bias), bias_after_scale=True)

        decay = self._lars_weight_decay
        local_lr = lr
        if decay > 0:
            p_norm = op("sqrt", op("squared_l2_norm", p, shape=[1]))
            g_norm = op("sqrt", op("squared_l2_norm", g, shape=[1]))
            zero = block.create_var(name=unique_name.generate("lars_momentum.tmp"),
                                    dtype=p.dtype, shape=[1], stop_gradient=True)
            block.append_op(type="fill_constant", outputs={"Out": [zero]},
                            attrs={"shape": [1], "dtype": p.dtype, "value": 0.0})

            def positive(x):
                above = block.create_var(name=unique_name.generate("lars_momentum.tmp"),
                                         dtype=VarType.BOOL, shape=[1], stop_gradient=True)
                block.append_op(type="greater_than", inputs={"X": [x], "Y": [zero]},
                                outputs={"Out": [above]})
                as_float = block.create_var(name=unique_name.generate("lars_momentum.tmp"),
                                            dtype=p.dtype, shape=[1], stop_gradient=True)
                block.append_op(type="cast", inputs={"X": [above]}, outputs={"Out": [as_float]},
                                attrs={"in_dtype": VarType.BOOL, "out_dtype": p.dtype})
                return as_float

            use_lars = op("elementwise_mul", positive(p_norm), positive(g_norm))
            keep_lr = scale(use_lars, -1.0, 1.0)
            numerator = op("elementwise_mul", scale(lr, self._lars_coeff), p_norm)
            denominator = op("elementwise_add", g_norm, scale(p_norm, decay))
            # + keep_lr: never 0/0 where the plain rate is kept (+0 otherwise).
            lars_lr = op("elementwise_div", numerator,
                         op("elementwise_add", denominator, keep_lr))
            local_lr = op("elementwise_add", op("elementwise_mul", lars_lr, use_lars),
                          op("elementwise_mul", lr, keep_lr))
        step = op("elementwise_mul", op("elementwise_add", g, scale(p, decay)), local_lr)
        op("elementwise_add", scale(velocity, self._momentum), step, out=velocity)
        op("elementwise_sub", p, velocity, out=p)


LarsMomentum = LarsMomentumOptimizer


class RecomputeOptimizer(Optimizer):
    """1.6's recompute wrapper around `optimizer`. In 1.6 the backward kept
    only the forward values of the `_set_checkpoints` variables and ran the
    forward ops between two checkpoints again before their gradient ops:
    less memory for more time, and the same gradients. fluidc builds the
    plain backward (`append_backward` takes the checkpoints and changes
    nothing for them), so the gradients and every update are the wrapped
    optimizer's own, as 1.6's were; only 1.6's memory saving is not had.
    (1.6 also ran a recomputed dropout again with a new mask unless its seed
    was fixed; here the gradient uses the forward's mask, as later Paddle's
    recompute does.)"""

    def __init__(self, optimizer):
        self._optimizer = optimizer
        self._checkpoints = None

    def _set_checkpoints(self, checkpoints):
        self._checkpoints = checkpoints

    def load(self, stat_dict):
        raise NotImplementedError(
            "load function is not supported by Recompute Optimizer for now")

    def apply_gradients(self, params_grads):
        return self._optimizer.apply_gradients(params_grads=params_grads)

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None, checkpoints=None):
        """1.6's: `append_backward` with the checkpoints `_set_checkpoints`
        gave (1.6 ignored `checkpoints` and `callbacks` here)."""
        self._dtype = loss.dtype
        program = loss.block.program
        with framework.program_guard(program, startup_program):
            return append_backward(loss, parameter_list, no_grad_set,
                                   checkpoints=self._checkpoints)

    def apply_optimize(self, loss, startup_program, params_grads):
        return self._optimizer.apply_optimize(
            loss, startup_program=startup_program, params_grads=params_grads)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 grad_clip=None):
        """The backward, then the wrapped optimizer's update ops; returns
        `(optimize_ops, params_grads)`. `grad_clip` is ignored, as 1.6
        ignored it here (the wrapped optimizer's clipping still applies)."""
        assert isinstance(loss, Variable), "The loss should be an Variable."
        assert self._checkpoints is not None, "You should call _set_checkpoints first"
        params_grads = self.backward(loss, startup_program=startup_program,
                                     parameter_list=parameter_list, no_grad_set=no_grad_set)
        optimize_ops = self.apply_optimize(loss, startup_program=startup_program,
                                           params_grads=params_grads)
        return optimize_ops, params_grads
