"""A fake `paddle.fluid` (the 2018-2020 API) built on Paddle 3.3.1, for tests only.

fluidc compiles fluid `model.py` scripts without running Python, promising the
program Paddle's own Python would have built (ARCHITECTURE.md). Paddle 3.3.1 no longer
ships `paddle.fluid`, but its legacy static graph does survive: `Program`,
`Block.append_op`, `LayerHelper`, the op protos that type and default every
attribute, C++ shape inference. This module rebuilds the channel-free part of
the fluid API on top of it so that a script can be run through real Paddle and
the result compared with fluidc's (see build_with_paddle.py and compare.py).

Each layer follows Paddle 1.x's Python (`fluid/layers/{tensor,nn,control_flow,
math_op_patch}.py`, `initializer.py`): which ops it appends, in which order,
with which attributes, and how it names variables. Where Paddle 3 changed the
Python, 1.x wins:
- one global unique-name generator shared by every program (3.x gives each
  Program its own), so `unique_name.guard()` resets all counters;
- `create_global_var` initializers are *prepended* to the startup block;
- `x < 10` makes a `[1]`-shaped constant (3.x makes a 0-D one);
- While/ConditionalBlock compute X/Input and Out from the sub-block as 1.x did
  (3.x also adds While's outputs to X).
1.x iterated Python sets there, so its order was hash-dependent; this shim keeps
first-use order and compare.py compares those slots as sets.

Training (docs/training.md), what maps to what:
- Layers and parameters are 1.x's (1.8's Python), rebuilt here: `ParamAttr`
  (`name`, `initializer`, `learning_rate`, `regularizer`, `trainable`; a
  string, an initializer, a regularizer, or False for `param_attr=` /
  `bias_attr=`, False creating no parameter and no add), the initializers
  (`Constant`, `Uniform`, `Normal`, `TruncatedNormal`, `Xavier`, `MSRA`,
  `NumpyArrayInitializer`, long names too), each *prepending* one op to the
  startup block and taking the startup program's `random_seed` when its seed
  is 0; per-layer defaults (weights Xavier uniform, biases Constant 0, conv2d
  filters Normal(0, sqrt(2/(k*k*C)))); fc, embedding (`lookup_table`),
  conv2d, pool2d, batch_norm, dropout, cross_entropy (`cross_entropy2` for
  hard labels, as 1.6+), softmax_with_cross_entropy, accuracy (`top_k` +
  `accuracy`), concat, reshape (`reshape2` + XShape), transpose
  (`transpose2`), reduce_*, sums, clip, the unary activations,
  create_parameter, autoincreased_step_counter. Attributes 1.x passed that
  Paddle 3 keeps only as "extra" attributes (use_cudnn, use_mkldnn, dropout's
  seed/fix_seed) are passed and Paddle keeps them; those it no longer knows
  it drops.
- Backward and optimizers are Paddle 3.3.1's own, legacy static mode:
  `fluid.backward.append_backward` / `gradients` are paddle.static's (that is
  paddle.base.backward); `fluid.optimizer.X` / `XOptimizer` (SGD, Momentum,
  Adam, Adamax, Adagrad, RMSProp, Adadelta, Lamb) make a paddle.optimizer.X
  from 1.x's arguments (`regularization` -> weight_decay; `parameter_list`,
  `grad_clip`, minimize's 1.6 `grad_clip=` accepted), a Variable learning
  rate (a schedule) set in `_learning_rate_map` as 1.x did; regularizers are
  paddle.regularizer.L2Decay/L1Decay under the 1.x names (and
  `regularization_coeff=`); GradientClipByValue/ByNorm and set_gradient_clip
  are paddle.nn's.
- Built by this shim the 1.x way, because Paddle 3.3.1 has no legacy-static
  equivalent that works: the learning-rate schedules (1.8's ops on the
  `@LR_DECAY_COUNTER@` step counter, op_role LRSched; Paddle 3's
  paddle.optimizer.lr.*_decay functions use 3.x layers and `case`/`cond`),
  and GradientClipByGlobalNorm (3.3.1's static path calls PIR-only
  functions and fails): 1.8's square/reduce_sum/sum/sqrt/elementwise_max/
  elementwise_div/elementwise_mul ops, a subclass of Paddle's class so its
  optimizer and set_gradient_clip take it.
- batch_norm adds a ReserveSpace output (`batch_norm_N.tmp_3`) when training:
  Paddle 3's CPU kernel needs it (1.x added it only for cuDNN NHWC).
Where Paddle 3.3.1's optimizer/backward differ from 1.x's (docs/training.md: the
3.3.1 build is the reference):
- `learning_rate_0` is filled 0-D (shape []; declared [1] in the main
  program, as 1.x's, so it fetches as (1,)) and its fill_constant
  (str_value "0.01") is *appended* to the startup block after the prepended
  parameter initializers; accumulators are appended too (1.x prepended all
  of them). Accumulator names are 1.x's: `<param>_moment1_0`,
  `_beta1_pow_acc_0` ([1]), `_velocity_0`, `_moment_0`, `_inf_norm_0`,
  `_mean_square_0`, `__avg_squared_grad_0`, ...
- the loss gradient is a fill_constant shaped like the loss, and 3.3.1's
  `mean` is 0-D, so `shape: []` (1.x [1]), with op_role 257 and an empty
  op_namescope; losses fetch as 0-D arrays (print `16.135`, not `[16.135]`).
- Momentum with L2Decay fuses the decay into the momentum op
  (`regularization_method: "l2_decay"`, `regularization_coeff`) instead of
  1.x's scale + sum; per-parameter regularizers still get scale/sign + sum.
- optimizer ops carry 3.3.1's newer attributes (`multi_precision`, ...) and
  each parameter's update is in its own name scope `/optimizer_N/`.

`Executor.run` runs nothing: it records the program, the feed names and the
fetch targets of the script's first run of a program other than a startup
program, and stops the script there (`StopBuild`; README, "Run mode", as fluidc's
build does). With `install(run=True)` (run_with_paddle.py) every run goes to
Paddle's executor instead, so training loops train.

Channels, Go and Select are not here: Paddle 3 has no such ops.
"""

import collections.abc
import contextlib
import copy
import functools
import math
import os
import sys
import types

os.environ.setdefault("FLAGS_enable_pir_api", "0")  # legacy ProgramDesc mode; before `import paddle`

import numpy  # noqa: E402
import paddle  # noqa: E402
from paddle.base import core, framework, unique_name  # noqa: E402
from paddle.base.framework import Program, Variable  # noqa: E402
from paddle.base.layer_helper import LayerHelper  # noqa: E402

VarType = core.VarDesc.VarType
_INT_DTYPES = (VarType.UINT8, VarType.INT8, VarType.INT16, VarType.INT32, VarType.INT64)


def _dtype(dtype):
    """A fluid dtype (VarType, 'int64', numpy.float32, ...) as a VarType."""
    return framework.convert_to_proto_type(dtype)


# ---------------------------------------------------------------- programs and runs


class _State:
    """What the script did: programs paired by program_guard, and its exe.run calls."""

    def __init__(self):
        self.pairs = []  # (main, startup) as program_guard paired them
        self.runs = []  # (program, feed names, fetch names)
        self.main = framework.default_main_program()
        self.startup = framework.default_startup_program()

    def startup_of(self, main):
        for m, s in reversed(self.pairs):
            if m is main:
                return s
        return self.startup

    def is_startup(self, program):
        return (
            program is self.startup
            or program is framework.default_startup_program()
            or any(program is s for _, s in self.pairs)
        )


STATE = None


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    if startup_program is not None:
        STATE.pairs.append((main_program, startup_program))
    with framework.program_guard(main_program, startup_program):
        yield


class StopBuild(BaseException):
    """Raised by `Executor.run` in build mode: the script has built its
    program (a BaseException, so the script's `except Exception` lets it by)."""


class Executor:
    """Records `exe.run(program, feed, fetch_list)` and stops the script
    (`StopBuild`) at the first run of a non-startup program; with
    `install(run=True)` it runs each program in Paddle 3.3.1's executor
    instead (run_with_paddle.py)."""

    def __init__(self, place=None):
        self.place = place
        self.real = paddle.static.Executor(paddle.CPUPlace()) if RUN else None

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=False):
        program = framework.default_main_program() if program is None else program
        if isinstance(program, CompiledProgram):
            program = program._program
        if fetch_list is not None and not isinstance(fetch_list, (list, tuple, str, Variable)):
            # 1.0-1.5 took any sized iterable (`fetch_list={g_img}`), in its
            # iteration order; Paddle 3.3.1 takes a list or tuple.
            len(fetch_list)
            fetch_list = list(fetch_list)
        if self.real is not None:
            got = self.real.run(program, feed=feed, fetch_list=fetch_list, scope=scope,
                                return_numpy=return_numpy)
            if return_numpy:
                return _fetched_as_1x(program, fetch_list, got)
            return _fetched_tensors_as_1x(program, fetch_list, got)
        if STATE.is_startup(program):
            return []
        fetch = [v if isinstance(v, str) else v.name for v in (fetch_list or [])]
        STATE.runs.append((program, list(feed or {}), fetch))
        # Build mode (README): the build stops at the first run of a non-startup program.
        raise StopBuild()

    def close(self):
        pass


# ---------------------------------------------------------------- fluid.io (docs/models.md)

from paddle.static import io as static_io  # noqa: E402


def _building():
    """Build mode: the script has not run, so nothing is saved or loaded."""
    return not RUN


def _real(executor):
    """Paddle's own executor behind the shim's (Paddle's io calls flush())."""
    return getattr(executor, "real", None) or executor


def _unwrapping(fn):
    """paddle.static.{save,load}_inference_model taking the shim's Executor."""
    def call(*args, **kwargs):
        args = [_real(a) if isinstance(a, Executor) else a for a in args]
        if "executor" in kwargs:
            kwargs["executor"] = _real(kwargs["executor"])
        return fn(*args, **kwargs)
    return call


def io_save_vars(executor, dirname, main_program=None, vars=None, predicate=None,
                 filename=None):
    if _building():
        return None
    return static_io.save_vars(_real(executor), dirname, main_program=main_program, vars=vars,
                               predicate=predicate, filename=filename)


def io_load_vars(executor, dirname, main_program=None, vars=None, predicate=None,
                 filename=None):
    if _building():
        return None
    return static_io.load_vars(_real(executor), dirname, main_program=main_program, vars=vars,
                               predicate=predicate, filename=filename)


def _io_by(predicate, fn):
    def call(executor, dirname, main_program=None, filename=None):
        return fn(executor, dirname, main_program=main_program, predicate=predicate,
                  filename=filename)
    return call


def io_save_inference_model(dirname, feeded_var_names, target_vars, executor,
                            main_program=None, model_filename=None, params_filename=None,
                            export_for_deployment=True, program_only=False):
    """1.x's fluid.io.save_inference_model on Paddle 3.3.1's normalize_program
    (the program paddle.static.save_inference_model writes) and save_vars,
    with 1.4-1.6's `scale(var, 1.)` appended to `main_program` after each
    target, its output named `save_infer_model/scale_<i>` (1.6's
    `layers.scale(name=)`): the saved model fetches those."""
    main_program = main_program or framework.default_main_program()
    if isinstance(feeded_var_names, str):
        feeded_var_names = [feeded_var_names]
    if not isinstance(target_vars, (list, tuple)):
        target_vars = [target_vars]
    block = main_program.global_block()
    scaled = []
    for i, var in enumerate(target_vars):
        name = "save_infer_model/scale_%d" % i
        out = block.var(name) if block.has_var(name) else block.create_var(
            name=name, dtype=var.dtype, persistable=False)
        block.append_op(type="scale", inputs={"X": [var]}, outputs={"Out": [out]},
                        attrs={"scale": 1.0, "bias": 0.0, "bias_after_scale": True})
        scaled.append(out)
    target_vars = scaled
    if _building():
        return None
    program = static_io.normalize_program(
        main_program, [block.var(n) for n in feeded_var_names], list(target_vars))
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, model_filename or "__model__"), "wb") as f:
        f.write(program.desc.serialize_to_string())
    if not program_only:
        if params_filename is not None:
            params_filename = os.path.basename(params_filename)
        static_io.save_vars(_real(executor), dirname, main_program=program,
                            predicate=static_io.is_persistable, filename=params_filename)
    return [v.name for v in target_vars]


def io_load_inference_model(dirname, executor, model_filename=None, params_filename=None,
                            pserver_endpoints=None):
    with open(os.path.join(dirname, model_filename or "__model__"), "rb") as f:
        program = Program.parse_from_string(f.read())
    static_io.load_vars(_real(executor), dirname, main_program=program,
                        predicate=static_io.is_persistable, filename=params_filename)
    feed = program.desc.get_feed_target_names()
    fetch = [program.global_block().var(n) for n in program.desc.get_fetch_target_names()]
    return [program, feed, fetch]


def result():
    """(main, startup, feed names, fetch names) of the program the script ran
    (its first non-startup run), else of the default main program with no
    feeds or fetches."""
    if STATE.runs:
        program, feed, fetch = STATE.runs[-1]
    else:
        program, feed, fetch = STATE.main, [], []
    return program, STATE.startup_of(program), feed, fetch


# ---------------------------------------------------------------- tensor layers


_FORCE_INIT_ON_CPU = False


def force_init_on_cpu():
    return _FORCE_INIT_ON_CPU


@contextlib.contextmanager
def init_on_cpu():
    """1.x's `fluid.initializer.init_on_cpu`: the fill_constant,
    Constant-initializer and less_than ops built inside get force_cpu."""
    global _FORCE_INIT_ON_CPU
    pre_state = _FORCE_INIT_ON_CPU
    _FORCE_INIT_ON_CPU = True
    try:
        yield
    finally:
        _FORCE_INIT_ON_CPU = pre_state


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    helper = LayerHelper("fill_constant", name=name)
    dtype = _dtype(dtype)
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=dtype)
    is_int = dtype in (VarType.INT32, VarType.INT64)
    helper.append_op(
        type="fill_constant",
        inputs={},
        outputs={"Out": [out]},
        attrs={
            "shape": list(shape),
            "dtype": out.dtype,
            "value": float(value),
            "str_value": str(int(value)) if is_int else str(float(value)),
            "force_cpu": force_cpu or force_init_on_cpu(),
        },
        stop_gradient=True,
    )
    out.stop_gradient = True
    return out


def fill_constant_batch_size_like(input, shape, dtype, value, input_dim_idx=0,
                                  output_dim_idx=0, force_cpu=False):
    """1.x's fill_constant_batch_size_like (no str_value: the kernel fills
    `value`)."""
    helper = LayerHelper("fill_constant_batch_size_like")
    out = helper.create_variable_for_type_inference(dtype=_dtype(dtype))
    helper.append_op(type="fill_constant_batch_size_like", inputs={"Input": input},
                     outputs={"Out": [out]},
                     attrs={"shape": [int(d) for d in shape], "dtype": out.dtype,
                            "value": float(value), "input_dim_idx": input_dim_idx,
                            "output_dim_idx": output_dim_idx, "force_cpu": force_cpu})
    out.stop_gradient = True
    return out


def zeros(shape, dtype, force_cpu=False, name=None):
    return fill_constant(shape, dtype, 0.0, force_cpu=force_cpu)


def ones(shape, dtype, force_cpu=False, name=None):
    return fill_constant(shape, dtype, 1.0, force_cpu=force_cpu)


def _declare_foreign(block, var):
    """1.x's executor found an op's variables in the scope by name, so an op
    could name another program's (DQN's sync program assigns one network's
    parameters to another's); 3.3.1's runs only what its program declares."""
    if var.block.program is not block.program and block._find_var_recursive(var.name) is None:
        block.program.global_block()._clone_variable(var, force_persistable=False)


def assign(input, output=None):
    helper = LayerHelper("assign")
    if isinstance(input, Variable):
        if output is None:
            output = helper.create_variable_for_type_inference(dtype=input.dtype)
        for var in (input, output):
            _declare_foreign(helper.main_program.current_block(), var)
        helper.append_op(type="assign", inputs={"X": [input]}, outputs={"Out": [output]})
        return output
    # A numpy array (1.x) or Python numbers (2.x): an assign_value constant,
    # spelled as Paddle 3 spells it (`values` SCALARS); float64 becomes float32.
    array = numpy.array(input)
    if array.dtype == numpy.float64:
        array = array.astype(numpy.float32)
    if output is None:
        output = helper.create_variable_for_type_inference(dtype=_dtype(array.dtype))
    helper.append_op(
        type="assign_value",
        outputs={"Out": [output]},
        attrs={"dtype": _dtype(array.dtype), "shape": list(array.shape),
               "values": array.ravel().tolist()},
    )
    return output


def _global_var(name, shape, dtype, **kwargs):
    helper = LayerHelper("data", name=name)  # a given name consumes no counter
    return helper.create_global_variable(name=name, shape=shape, dtype=dtype, **kwargs)


def layers_data(name, shape, append_batch_size=True, dtype="float32", lod_level=0,
                type=VarType.DENSE_TENSOR, stop_gradient=True):
    """`fluid.layers.data`: a batch dimension is prepended unless a dim is None or < 0."""
    shape = list(shape)
    for i, dim in enumerate(shape):
        if dim is None:
            shape[i] = -1
            append_batch_size = False
        elif dim < 0:
            append_batch_size = False
    if append_batch_size:
        shape = [-1] + shape
    return _global_var(name, shape, dtype, type=type, stop_gradient=stop_gradient,
                       lod_level=lod_level, is_data=True)


def data(name, shape, dtype="float32", lod_level=0):
    """`fluid.data`: the shape as given (None = -1), checked at feed time."""
    shape = [-1 if dim is None else dim for dim in shape]
    return _global_var(name, shape, dtype, type=VarType.DENSE_TENSOR, stop_gradient=True,
                       lod_level=lod_level, is_data=True, need_check_feed=True)


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    helper = LayerHelper("global_var", name=name)
    var = helper.create_global_variable(dtype=dtype, shape=shape, persistable=persistable,
                                        name=name, stop_gradient=True)
    # set_variable_initializer + 1.x ConstantInitializer: a persistable copy in
    # the startup program, initialized by a fill_constant *prepended* there.
    block = helper.startup_program.global_block()
    init_var = block.create_var(name=var.name, type=var.type, dtype=var.dtype,
                                shape=var.shape, persistable=True)
    block._prepend_op(
        type="fill_constant",
        outputs={"Out": init_var},
        attrs={"shape": var.shape, "dtype": int(var.dtype), "value": float(value),
               "force_cpu": force_cpu or force_init_on_cpu()},
        stop_gradient=True,
    )
    return var


def cast(x, dtype):
    helper = LayerHelper("cast")
    out = helper.create_variable_for_type_inference(dtype=_dtype(dtype))
    helper.append_op(type="cast", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"in_dtype": x.dtype, "out_dtype": out.dtype})
    return out


def increment(x, value=1.0, in_place=True):
    helper = LayerHelper("increment")
    out = x if in_place else helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="increment", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"step": float(value)})
    return out


# ---------------------------------------------------------------- math layers


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    helper = LayerHelper("scale", act=act)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="scale", inputs={"X": [x]}, outputs={"Out": out},
                     attrs={"scale": float(scale), "bias": float(bias),
                            "bias_after_scale": bias_after_scale})
    return helper.append_activation(out)


def _elementwise(op_type):
    def layer(x, y, axis=-1, act=None, name=None):
        helper = LayerHelper(op_type, act=act)
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs={"X": x, "Y": y}, outputs={"Out": out},
                         attrs={"axis": axis})
        return helper.append_activation(out)

    layer.__name__ = op_type
    return layer


def _compare(op_type):
    # 1.x: the LayerHelper (and its counter) is made even when `cond` is given.
    def layer(x, y, force_cpu=None, cond=None, name=None):
        helper = LayerHelper(op_type, name=name)
        if cond is None:
            cond = helper.create_variable_for_type_inference(dtype="bool")
            cond.stop_gradient = True
        attrs = {} if force_cpu is None else {"force_cpu": force_cpu}
        if force_cpu is None and op_type == "less_than" and force_init_on_cpu():
            attrs = {"force_cpu": True}
        helper.append_op(type=op_type, inputs={"X": [x], "Y": [y]}, outputs={"Out": [cond]},
                         attrs=attrs)
        return cond

    layer.__name__ = op_type
    return layer


def _logical(op_type, x, y=None, out=None, name=None):
    helper = LayerHelper(op_type, name=name)
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    inputs = {"X": x} if y is None else {"X": x, "Y": y}
    helper.append_op(type=op_type, inputs=inputs, outputs={"Out": out})
    return out


def logical_and(x, y, out=None, name=None):
    return _logical("logical_and", x, y, out, name)


def logical_or(x, y, out=None, name=None):
    return _logical("logical_or", x, y, out, name)


def logical_xor(x, y, out=None, name=None):
    return _logical("logical_xor", x, y, out, name)


def logical_not(x, out=None, name=None):
    return _logical("logical_not", x, None, out, name)


def _unary(op_type):
    def layer(x, name=None):
        helper = LayerHelper(op_type, name=name)
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out})
        return out

    layer.__name__ = op_type
    return layer


def _attr_args(op_type, x, attrs, name=None):
    """A 1.x activation whose arguments set attributes; one left None keeps
    the op's default."""
    helper = LayerHelper(op_type, name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out},
                     attrs={k: float(v) for k, v in attrs.items() if v is not None})
    return out


def softshrink(x, alpha=None, name=None):
    return _attr_args("softshrink", x, {"lambda": alpha}, name)


def hard_shrink(x, threshold=None, name=None):
    return _attr_args("hard_shrink", x, {"threshold": threshold}, name)


def thresholded_relu(x, threshold=None, name=None):
    return _attr_args("thresholded_relu", x, {"threshold": threshold}, name)


def selu(x, scale=None, alpha=None, name=None):
    return _attr_args("selu", x, {"scale": scale, "alpha": alpha}, name)


def brelu(x, t_min=0.0, t_max=24.0, name=None):
    return _attr_args("brelu", x, {"t_min": t_min, "t_max": t_max}, name)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    return _attr_args("stanh", x, {"scale_a": scale_a, "scale_b": scale_b}, name)


def leaky_relu(x, alpha=0.02, name=None):
    helper = LayerHelper("leaky_relu", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="leaky_relu", inputs={"X": x}, outputs={"Out": out},
                     attrs={"alpha": float(alpha)})
    return out


def stack(x, axis=0):
    helper = LayerHelper("stack")
    x = list(x) if isinstance(x, (list, tuple)) else [x]
    out = helper.create_variable_for_type_inference(x[0].dtype)
    helper.append_op(type="stack", inputs={"X": x}, outputs={"Y": out}, attrs={"axis": axis})
    return out


def expand(x, expand_times, name=None):
    """1.x expand; the output declared as 1.x's InferShape did (each dim
    times its count, -1 kept): Paddle 3.3.1 declares (1, 2) for x (-1, 3)
    expanded [1, 2], and a later fc would size its weight from that."""
    helper = LayerHelper("expand", name=name)
    out = helper.create_variable_for_type_inference(x.dtype)
    # 1.6: counts given by Variables go in ExpandTimes (one int32 tensor)
    # or expand_times_tensor (a [1] int32 tensor per dim, -1 in the attribute).
    inputs = {"X": x}
    if isinstance(expand_times, Variable):
        inputs["ExpandTimes"] = expand_times
        expand_times = [-1] * len(x.shape)
    elif any(isinstance(t, Variable) for t in expand_times):
        inputs["expand_times_tensor"] = [
            (t if t.dtype == VarType.INT32 else cast(t, "int32")) if isinstance(t, Variable)
            else fill_constant([1], "int32", t) for t in expand_times]
        expand_times = [-1 if isinstance(t, Variable) else t for t in expand_times]
    helper.append_op(type="expand", inputs=inputs, outputs={"Out": out},
                     attrs={"expand_times": list(expand_times)})
    out.desc.set_shape([-1 if d < 0 or k < 0 else d * k for d, k in zip(x.shape, expand_times)])
    if x.lod_level > 0 and expand_times[0] == 1:
        # 1.x's InferShape shared X's LoD when dim 0 was not tiled;
        # 3.3.1's expand drops it.
        reset = helper.create_variable_for_type_inference(x.dtype)
        helper.append_op(type="lod_reset", inputs={"X": out, "Y": x}, outputs={"Out": reset},
                         attrs={"target_lod": [], "append": False})
        reset.desc.set_shape(out.shape)
        reset.desc.set_lod_level(x.lod_level)
        return reset
    return out


def flatten(x, axis=1, name=None):
    helper = LayerHelper("flatten", name=name)
    out = helper.create_variable_for_type_inference(x.dtype)
    x_shape = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="flatten2", inputs={"X": x}, outputs={"Out": out, "XShape": x_shape},
                     attrs={"axis": axis})
    return out


def _activation(op_type, **defaults):
    """A 1.x activation layer `op_type(x, <attrs>, name=None)`: one op whose
    attributes are the layer's arguments; `fixed` ones (relu6's threshold,
    swish's beta) have no attribute in Paddle 3.3.1 and must keep their value."""
    fixed = defaults.pop("fixed", {})

    def layer(x, name=None, **attrs):
        for k, v in fixed.items():
            if attrs.pop(k, v) != v:
                raise ValueError(f"Paddle 3.3.1's {op_type} fixes {k} at {v}")
        attrs = {**defaults, **attrs}
        helper = LayerHelper(op_type, name=name)
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out},
                         attrs={k: float(v) for k, v in attrs.items()})
        return out
    return layer


def sequence_pool(input, pool_type, is_test=False, pad_value=0.0):
    """1.x's sequence_pool: `Out` and `MaxIndex` (stop_gradient for max)."""
    helper = LayerHelper("sequence_pool")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    max_index = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="sequence_pool", inputs={"X": input},
                     outputs={"Out": out, "MaxIndex": max_index},
                     attrs={"pooltype": pool_type.upper(), "is_test": is_test,
                            "pad_value": pad_value})
    if pool_type == "max":
        max_index.stop_gradient = True
    return out


def sequence_expand(x, y, ref_level=-1, name=None):
    """1.x's sequence_expand: the op, which Paddle 3.3.1 still has."""
    helper = LayerHelper("sequence_expand", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="sequence_expand", inputs={"X": x, "Y": y}, outputs={"Out": out},
                     attrs={"ref_level": ref_level})
    return out


def lod_reset(x, y=None, target_lod=None):
    """1.x's lod_reset: `x` with `y`'s LoD (or `y`'s values as offsets), or
    with the offsets `target_lod`; the op Paddle 3.3.1 still has."""
    helper = LayerHelper("lod_reset")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if y is not None:
        helper.append_op(type="lod_reset", inputs={"X": x, "Y": y}, outputs={"Out": out})
    elif target_lod is not None:
        helper.append_op(type="lod_reset", inputs={"X": x}, outputs={"Out": out},
                         attrs={"target_lod": list(target_lod)})
    else:
        raise ValueError("y and target_lod should not be both None.")
    return out


def lod_append(x, level):
    """1.6's lod_append: a `lod_reset` with `append`, the op Paddle 3.3.1
    still has."""
    if x is None:
        raise ValueError("Input(x) can't be None.")
    if not isinstance(level, (collections.abc.Iterable, Variable)):
        raise ValueError("Input(level) must be list, tuple or Variable.")
    helper = LayerHelper("lod_append")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    inputs, attrs = {"X": x}, {"append": True}
    if isinstance(level, Variable):
        inputs["Y"] = level
    else:
        attrs["target_lod"] = [int(o) for o in level]
    helper.append_op(type="lod_reset", inputs=inputs, attrs=attrs, outputs={"Out": out})
    return out


def is_empty(x, cond=None):
    """1.x's is_empty: a bool [1], whether `x` has no elements."""
    helper = LayerHelper("is_empty")
    if cond is None:
        cond = helper.create_variable_for_type_inference(dtype="bool")
        cond.stop_gradient = True
    helper.append_op(type="is_empty", inputs={"X": [x]}, outputs={"Out": [cond]})
    return cond


def beam_search(pre_ids, pre_scores, ids, scores, beam_size, end_id, level=0,
                is_accumulated=True, name=None, return_parent_idx=False):
    """1.x's beam_search (1.2's is_accumulated, 1.4's return_parent_idx):
    the op, which Paddle 3.3.1 still has."""
    helper = LayerHelper("beam_search", name=name)
    inputs = {"pre_ids": pre_ids, "pre_scores": pre_scores, "scores": scores}
    if ids is not None:
        inputs["ids"] = ids
    selected_scores = helper.create_variable_for_type_inference(dtype=pre_scores.dtype)
    selected_ids = helper.create_variable_for_type_inference(dtype=pre_ids.dtype)
    parent_idx = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="beam_search", inputs=inputs,
                     outputs={"selected_ids": selected_ids, "selected_scores": selected_scores,
                              "parent_idx": parent_idx},
                     attrs={"level": level, "beam_size": beam_size, "end_id": end_id,
                            "is_accumulated": is_accumulated})
    if return_parent_idx:
        return selected_ids, selected_scores, parent_idx
    return selected_ids, selected_scores


def beam_search_decode(ids, scores, beam_size, end_id, name=None):
    """1.x's beam_search_decode: the op, which Paddle 3.3.1 still has."""
    helper = LayerHelper("beam_search_decode", name=name)
    sentence_ids = helper.create_variable_for_type_inference(dtype=ids.dtype)
    sentence_scores = helper.create_variable_for_type_inference(dtype=scores.dtype)
    helper.append_op(type="beam_search_decode", inputs={"Ids": ids, "Scores": scores},
                     outputs={"SentenceIds": sentence_ids, "SentenceScores": sentence_scores},
                     attrs={"beam_size": beam_size, "end_id": end_id})
    return sentence_ids, sentence_scores


def one_hot(input, depth, allow_out_of_range=False):
    """1.x's one_hot (ids [..., 1] to float32 [..., depth], LoD kept).
    Paddle 3.3.1 dropped the `one_hot` op; its `one_hot_v2` appends the
    depth axis, so the last axis is squeezed first, as fluidc writes it.
    3.3.1's kernel refuses out-of-range ids even with allow_out_of_range."""
    if allow_out_of_range:
        raise NotImplementedError("Paddle 3.3.1's one_hot_v2 ignores allow_out_of_range")
    helper = LayerHelper("one_hot")
    out = helper.create_variable_for_type_inference(dtype="float32")
    ids = helper.create_variable_for_type_inference(dtype=input.dtype)
    xshape = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="squeeze2", inputs={"X": input}, outputs={"Out": ids, "XShape": xshape},
                     attrs={"axes": [-1]})
    helper.append_op(type="one_hot_v2", inputs={"X": ids}, outputs={"Out": out},
                     attrs={"depth": depth, "allow_out_of_range": False})
    return out


def sequence_softmax(input, use_cudnn=False, name=None):
    """1.x's sequence_softmax (use_cudnn only picks the GPU kernel; the op
    keeps it as its attribute)."""
    helper = LayerHelper("sequence_softmax", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="sequence_softmax", inputs={"X": input}, outputs={"Out": out},
                     attrs={"use_cudnn": use_cudnn})
    return out


def gru_unit(input, hidden, size, param_attr=None, bias_attr=None, activation="tanh",
             gate_activation="sigmoid", origin_mode=False):
    """1.x's gru_unit: a [size/3, size] weight, a [1, size] bias unless
    bias_attr=False, and the op with tanh and sigmoid whatever the
    arguments say (1.x only looked them up)."""
    names = dict(identity=0, sigmoid=1, tanh=2, relu=3)
    names[activation], names[gate_activation]
    helper = LayerHelper("gru_unit")
    dtype = input.dtype
    size = size // 3
    weight = _create_parameter(helper, param_attr, [size, 3 * size], dtype)
    gate = helper.create_variable_for_type_inference(dtype)
    reset_hidden_pre = helper.create_variable_for_type_inference(dtype)
    updated_hidden = helper.create_variable_for_type_inference(dtype)
    inputs = {"Input": input, "HiddenPrev": hidden, "Weight": weight}
    bias = _create_parameter(helper, bias_attr, [1, 3 * size], dtype, is_bias=True)
    if bias is not None:
        inputs["Bias"] = bias
    helper.append_op(type="gru_unit", inputs=inputs,
                     outputs={"Gate": gate, "ResetHiddenPrev": reset_hidden_pre,
                              "Hidden": updated_hidden},
                     attrs={"activation": 2, "gate_activation": 1, "origin_mode": origin_mode})
    return updated_hidden, reset_hidden_pre, gate


def dynamic_lstm(input, size, h_0=None, c_0=None, param_attr=None, bias_attr=None,
                 use_peepholes=True, is_reverse=False, gate_activation="sigmoid",
                 cell_activation="tanh", candidate_activation="tanh", dtype="float32",
                 name=None):
    """1.x's dynamic_lstm: a [size/4, size] weight, a [1, 7 * size/4] bias
    ([1, size] without peepholes) and the `lstm` op; returns (hidden, cell)."""
    assert bias_attr is not False, "bias_attr should not be False in dynamic_lstmp."
    helper = LayerHelper("lstm", name=name)
    size = size // 4
    weight = _create_parameter(helper, param_attr, [size, 4 * size], dtype)
    bias_size = [1, 7 * size] if use_peepholes else [1, 4 * size]
    bias = _create_parameter(helper, bias_attr, bias_size, dtype, is_bias=True)
    hidden = helper.create_variable_for_type_inference(dtype)
    cell = helper.create_variable_for_type_inference(dtype)
    batch_gate = helper.create_variable_for_type_inference(dtype)
    batch_cell_pre_act = helper.create_variable_for_type_inference(dtype)
    inputs = {"Input": input, "Weight": weight, "Bias": bias}
    if h_0 is not None:
        inputs["H0"] = h_0
    if c_0 is not None:
        inputs["C0"] = c_0
    helper.append_op(type="lstm", inputs=inputs,
                     outputs={"Hidden": hidden, "Cell": cell, "BatchGate": batch_gate,
                              "BatchCellPreAct": batch_cell_pre_act},
                     attrs={"use_peepholes": use_peepholes, "is_reverse": is_reverse,
                            "gate_activation": gate_activation,
                            "cell_activation": cell_activation,
                            "candidate_activation": candidate_activation})
    return hidden, cell


def dynamic_gru(input, size, param_attr=None, bias_attr=None, is_reverse=False,
                gate_activation="sigmoid", candidate_activation="tanh", h_0=None,
                origin_mode=False):
    """1.x's dynamic_gru: a [size, 3 * size] weight, a [1, 3 * size] bias
    and the `gru` op; returns the hidden states."""
    helper = LayerHelper("gru")
    dtype = input.dtype
    weight = _create_parameter(helper, param_attr, [size, 3 * size], dtype)
    bias = _create_parameter(helper, bias_attr, [1, 3 * size], dtype, is_bias=True)
    inputs = {"Input": input, "Weight": weight}
    if bias is not None:
        inputs["Bias"] = bias
    if h_0 is not None:
        inputs["H0"] = h_0
    hidden = helper.create_variable_for_type_inference(dtype)
    batch_gate = helper.create_variable_for_type_inference(dtype)
    batch_reset_hidden_prev = helper.create_variable_for_type_inference(dtype)
    batch_hidden = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="gru", inputs=inputs,
                     outputs={"Hidden": hidden, "BatchGate": batch_gate,
                              "BatchResetHiddenPrev": batch_reset_hidden_prev,
                              "BatchHidden": batch_hidden},
                     attrs={"is_reverse": is_reverse, "gate_activation": gate_activation,
                            "activation": candidate_activation, "origin_mode": origin_mode})
    return hidden


def sequence_conv(input, num_filters, filter_size=3, filter_stride=1, padding=None,
                  bias_attr=None, param_attr=None, act=None, name=None):
    """1.x's sequence_conv: a [filter_size * D, num_filters] filter, the op
    with a window centred on each row, the bias add and the activation."""
    helper = LayerHelper("sequence_conv", act=act, name=name)
    dtype = input.dtype
    filter_param = _create_parameter(helper, param_attr, [filter_size * input.shape[1], num_filters],
                                     dtype)
    pre_bias = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="sequence_conv", inputs={"X": [input], "Filter": [filter_param]},
                     outputs={"Out": pre_bias},
                     attrs={"contextStride": filter_stride,
                            "contextStart": -int(filter_size // 2),
                            "contextLength": filter_size})
    return helper.append_activation(_append_bias(helper, pre_bias, bias_attr))


def _sequence_conv_pool(input, num_filters, filter_size, param_attr=None, act="sigmoid",
                        pool_type="max", bias_attr=None):
    conv_out = sequence_conv(input=input, num_filters=num_filters, filter_size=filter_size,
                             param_attr=param_attr, bias_attr=bias_attr, act=act)
    return sequence_pool(input=conv_out, pool_type=pool_type)


def _simple_img_conv_pool(input, num_filters, filter_size, pool_size, pool_stride,
                          pool_padding=0, pool_type="max", global_pooling=False,
                          conv_stride=1, conv_padding=0, conv_dilation=1, conv_groups=1,
                          param_attr=None, bias_attr=None, act=None, use_cudnn=True,
                          use_mkldnn=False):
    # Early 2018's use_mkldnn went to conv2d (and so its activation) and
    # pool2d, which put it in their ops' attributes.
    block = framework.default_main_program().current_block()
    first = len(block.ops)
    conv_out = conv2d(input=input, num_filters=num_filters, filter_size=filter_size,
                      stride=conv_stride, padding=conv_padding, dilation=conv_dilation,
                      groups=conv_groups, param_attr=param_attr, bias_attr=bias_attr, act=act,
                      use_cudnn=use_cudnn)
    pool_out = pool2d(input=conv_out, pool_size=pool_size, pool_type=pool_type,
                      pool_stride=pool_stride, pool_padding=pool_padding,
                      global_pooling=global_pooling, use_cudnn=use_cudnn)
    if use_mkldnn:
        for op in block.ops[first:]:
            if op.type in ("conv2d", "pool2d", act):
                op._set_attr("use_mkldnn", True)
    return pool_out


def sigmoid_cross_entropy_with_logits(x, label, ignore_index=-100, name=None, normalize=False):
    helper = LayerHelper("sigmoid_cross_entropy_with_logits", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="sigmoid_cross_entropy_with_logits", inputs={"X": x, "Label": label},
                     outputs={"Out": out},
                     attrs={"ignore_index": ignore_index, "normalize": normalize})
    return out


def create_lod_tensor(data, recursive_seq_lens, place):
    """1.x's create_lod_tensor: a list of sequences becomes one int64 column."""
    if isinstance(data, list):
        flat = [x for seq in data for x in seq]
        data = numpy.array(flat, dtype="int64").reshape([len(flat), 1])
    return paddle.base.create_lod_tensor(data, recursive_seq_lens, place)


def _recursive_sequence_lengths(tensor):
    """1.x's LoDTensor.recursive_sequence_lengths(): the LoD as lengths
    (Paddle 3.3.1's DenseTensor keeps only lod(), the offsets)."""
    return [[b - a for a, b in zip(level[:-1], level[1:])] for level in tensor.lod()]


def create_random_int_lodtensor(recursive_seq_lens, base_shape, place, low, high):
    """1.x's: int64 data of [total length] + base_shape in [low, high],
    drawn with numpy's np.random.random_integers."""
    overall_shape = [sum(recursive_seq_lens[-1])] + base_shape
    data = numpy.random.random_integers(low, high, overall_shape).astype("int64")
    return create_lod_tensor(data, recursive_seq_lens, place)


def clip(x, min, max, name=None):
    helper = LayerHelper("clip", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="clip", inputs={"X": x}, outputs={"Out": out},
                     attrs={"min": float(min), "max": float(max)})
    return out


def _fill_like(value):
    def layer(x, out=None):
        helper = LayerHelper("fill_any_like")
        if out is None:
            out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type="fill_any_like", inputs={"X": [x]}, outputs={"Out": [out]},
                         attrs={"value": value})
        return out
    return layer


def _arg(op_type):
    def layer(x, axis=0):
        helper = LayerHelper(op_type)
        out = helper.create_variable_for_type_inference("int64")
        helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": [out]},
                         attrs={"axis": axis})
        out.stop_gradient = True
        return out
    return layer


def _squeeze(layer_name, op_type):
    def layer(input, axes, name=None):
        helper = LayerHelper(layer_name, name=name)
        out = helper.create_variable_for_type_inference(dtype=input.dtype)
        x_shape = helper.create_variable_for_type_inference(dtype=input.dtype)
        helper.append_op(type=op_type, inputs={"X": input}, attrs={"axes": axes},
                         outputs={"Out": out, "XShape": x_shape})
        return out
    return layer


def split(input, num_or_sections, dim=-1, name=None):
    helper = LayerHelper("split", name=name)
    dim = len(input.shape) + dim if dim < 0 else dim
    num = num_or_sections if isinstance(num_or_sections, int) else len(num_or_sections)
    outs = [helper.create_variable_for_type_inference(dtype=input.dtype) for _ in range(num)]
    helper.append_op(type="split", inputs={"X": input}, outputs={"Out": outs},
                     attrs={"num": num_or_sections if isinstance(num_or_sections, int) else 0,
                            "sections": num_or_sections if isinstance(num_or_sections, list) else [],
                            "axis": dim})
    return outs


def slice_layer(input, axes, starts, ends):
    helper = LayerHelper("slice")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="slice", inputs={"Input": input}, outputs={"Out": out},
                     attrs={"axes": axes, "starts": starts, "ends": ends,
                            "infer_flags": [1] * len(axes)})
    return out


def shape(input):
    helper = LayerHelper("shape")
    out = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="shape", inputs={"Input": input}, outputs={"Out": out})
    return out


def gather(input, index, overwrite=True):
    """1.7's gather (`overwrite` an attribute, which Paddle 3.3.1 ignores:
    its gather_grad adds the gradients of a repeated index). 1.x's CPU
    kernel kept the last one (ScatterAssign), so with overwrite a py_func
    adds zero to the result, with the difference as its gradient."""
    helper = LayerHelper("gather")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="gather", inputs={"X": input, "Index": index}, outputs={"Out": out},
                     attrs={"overwrite": overwrite})
    if not overwrite or input.dtype not in (VarType.FP32, VarType.FP64):
        return out

    def forward(x, idx):
        x = numpy.array(x)
        return numpy.zeros((numpy.array(idx).size,) + x.shape[1:], dtype=x.dtype)

    def backward(x, idx, dout):
        x, d = numpy.array(x), numpy.array(dout)
        rows = numpy.array(idx).reshape(-1)
        assigned, added = numpy.zeros_like(x), numpy.zeros_like(x)
        for k, j in enumerate(rows):
            assigned[j] = d[k]
        numpy.add.at(added, rows, d)
        return assigned - added, None

    fix = helper.create_variable_for_type_inference(dtype=input.dtype)
    fix.desc.set_shape(list(out.shape))
    paddle.static.py_func(forward, [input, index], fix, backward_func=backward,
                          skip_vars_in_backward_input=[fix])
    result = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="elementwise_add", inputs={"X": [out], "Y": [fix]},
                     outputs={"Out": [result]}, attrs={"axis": -1})
    return result


def scatter(input, index, updates, name=None, overwrite=True):
    """1.6's scatter on Paddle 3.3.1's scatter op. 1.x's scatter_grad passed
    Out@GRAD to X@GRAD whole; 3.3.1's zeroes the scattered rows, so a
    py_func adds zero to the result, with those rows as its gradient."""
    helper = LayerHelper("scatter", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="scatter", inputs={"X": input, "Ids": index, "Updates": updates},
                     attrs={"overwrite": overwrite}, outputs={"Out": out})
    if input.dtype not in (VarType.FP32, VarType.FP64):
        return out

    def forward(x, idx):
        return numpy.zeros_like(numpy.array(x))

    def backward(x, idx, dout):
        d = numpy.array(dout)
        rows = numpy.unique(numpy.array(idx).reshape(-1))
        fix = numpy.zeros_like(d)
        fix[rows] = d[rows]
        return fix, None

    fix = helper.create_variable_for_type_inference(dtype=input.dtype)
    fix.desc.set_shape(list(out.shape))
    paddle.static.py_func(forward, [input, index], fix, backward_func=backward,
                          skip_vars_in_backward_input=[fix])
    result = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="elementwise_add", inputs={"X": [out], "Y": [fix]},
                     outputs={"Out": [result]}, attrs={"axis": -1})
    return result


def gather_nd(input, index, name=None):
    helper = LayerHelper("gather_nd", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="gather_nd", inputs={"X": input, "Index": index},
                     outputs={"Out": out})
    return out


def multiplex(inputs, index):
    helper = LayerHelper("multiplex")
    if not isinstance(inputs, list) and len(inputs) < 2:
        raise ValueError("inputs should be a list object and contains at least "
                         "2 elements.")
    out = helper.create_variable_for_type_inference(inputs[0].dtype)
    helper.append_op(type="multiplex", inputs={"X": inputs, "Ids": index},
                     outputs={"Out": [out]})
    return out


def crop(x, shape=None, offsets=None, name=None):
    """1.x's crop layer on Paddle 3.3.1's crop op."""
    helper = LayerHelper("crop", name=name)
    if not isinstance(shape, (list, tuple, Variable)):
        raise ValueError("The shape should be a list, tuple or Variable.")
    if offsets is None:
        offsets = [0] * len(x.shape)
    out = helper.create_variable_for_type_inference(x.dtype)
    ipts, attrs = {"X": x}, {}
    if isinstance(shape, Variable):
        ipts["Y"] = shape
    else:
        attrs["shape"] = list(shape)
    if isinstance(offsets, Variable):
        ipts["Offsets"] = offsets
    else:
        attrs["offsets"] = list(offsets)
    helper.append_op(type="crop", inputs=ipts, outputs={"Out": out}, attrs=attrs)
    return out


def pad2d(input, paddings=[0, 0, 0, 0], mode='constant', pad_value=0.0,
          data_format="NCHW", name=None):
    """1.x's pad2d, which Paddle 3.3.1 dropped, on its pad3d op: the image
    batch gets a depth of 1 (unsqueeze2), is padded on height and width
    (1.x's 'edge' is pad3d's 'replicate'), and loses the depth again."""
    assert mode in ['reflect', 'edge', 'constant'], \
        "mode should be one of constant, reflect, edge."
    helper = LayerHelper("pad2d", name=name)
    depth_axis = 2 if data_format == "NCHW" else 1

    def tmp(dtype=input.dtype):
        return helper.create_variable_for_type_inference(dtype)

    deep, xshape = tmp(), tmp()
    helper.append_op(type="unsqueeze2", inputs={"X": [input]},
                     outputs={"Out": [deep], "XShape": [xshape]}, attrs={"axes": [depth_axis]})
    inputs = {"X": [deep]}
    attrs = {"mode": "replicate" if mode == "edge" else mode, "value": float(pad_value),
             "data_format": "NCDHW" if data_format == "NCHW" else "NDHWC"}
    if isinstance(paddings, Variable):
        # pad3d's order: left, right, top, bottom, front, back.
        order = assign(numpy.array([2, 3, 0, 1], dtype="int32"))
        lr_tb = tmp(paddings.dtype)
        helper.append_op(type="gather", inputs={"X": [paddings], "Index": [order]},
                         outputs={"Out": [lr_tb]})
        no_depth = fill_constant([2], paddings.dtype, 0)
        six = tmp(paddings.dtype)
        helper.append_op(type="concat", inputs={"X": [lr_tb, no_depth]}, outputs={"Out": [six]},
                         attrs={"axis": 0})
        inputs["Paddings"] = [six]
        attrs["paddings"] = []
    else:
        p = list(paddings)
        attrs["paddings"] = [p[2], p[3], p[0], p[1], 0, 0]
    padded = tmp()
    helper.append_op(type="pad3d", inputs=inputs, outputs={"Out": [padded]}, attrs=attrs)
    out, xshape2 = tmp(), tmp()
    helper.append_op(type="squeeze2", inputs={"X": [padded]},
                     outputs={"Out": [out], "XShape": [xshape2]}, attrs={"axes": [depth_axis]})
    return out


def pad_constant_like(x, y, pad_value=0., name=None):
    """1.x's pad_constant_like, which Paddle 3.3.1 dropped, in numpy
    (py_func): `y` at the start of each dim of a `pad_value` tensor shaped
    as `x`; its gradient is `Out@GRAD` cut back to `y`."""
    helper = LayerHelper("pad_constant_like", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    out.desc.set_shape(list(x.shape))

    def forward(a, b):
        a, b = numpy.array(a), numpy.array(b)
        o = numpy.full(a.shape, pad_value, dtype=b.dtype)
        o[tuple(slice(0, d) for d in b.shape)] = b
        return o

    def backward(a, b, dout):
        b = numpy.array(b)
        return None, numpy.array(dout)[tuple(slice(0, d) for d in b.shape)]

    paddle.static.py_func(forward, [x, y], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


def _one_op(op_type, x, attrs, name=None):
    helper = LayerHelper(op_type, name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out}, attrs=attrs)
    return out


def maxout(x, groups, name=None):
    helper = LayerHelper("maxout")
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(name=name, dtype=x.dtype, persistable=False)
    helper.append_op(type="maxout", inputs={"X": x}, attrs={"groups": groups},
                     outputs={"Out": out})
    return out


def pixel_shuffle(x, upscale_factor):
    if not isinstance(upscale_factor, int):
        raise TypeError("upscale factor must be int type")
    return _one_op("pixel_shuffle", x, {"upscale_factor": upscale_factor})


def shuffle_channel(x, group, name=None):
    if not isinstance(group, int):
        raise TypeError("group must be int type")
    return _one_op("shuffle_channel", x, {"group": group}, name)


def _space_to_depth_source(shape, blocksize):
    """For each element of 1.x's space_to_depth output, the flat index of
    the input element it copies (1.x's kernel moved input element
    (b, k, j, i) to (b, k % oc, j*s + (k // oc) // s, i*s + (k // oc) % s)
    of the output buffer seen as [B, oc, H*s, W*s], oc = C / s**2)."""
    b, c, h, w = shape
    s = blocksize
    oc = c // (s * s)
    bb, k, j, i = numpy.meshgrid(numpy.arange(b), numpy.arange(c), numpy.arange(h),
                                 numpy.arange(w), indexing="ij")
    offset = k // oc
    w2 = i * s + offset % s
    h2 = j * s + offset // s
    out_index = w2 + w * s * (h2 + h * s * (k % oc + oc * bb))
    source = numpy.empty(b * c * h * w, dtype=numpy.int64)
    source[out_index.reshape(-1)] = numpy.arange(b * c * h * w)
    return source


def space_to_depth(x, blocksize, name=None):
    """1.x's space_to_depth, which Paddle 3.3.1 dropped, in numpy (py_func,
    forward and backward)."""
    if not isinstance(blocksize, int):
        raise ValueError("blocksize must be a python Int")
    helper = LayerHelper("space_to_depth", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    n, c, h, w = x.shape
    out.desc.set_shape([n, c * blocksize * blocksize if c > 0 else -1,
                        h // blocksize if h > 0 else -1, w // blocksize if w > 0 else -1])

    def forward(a):
        a = numpy.array(a)
        b, c, h, w = a.shape
        src = _space_to_depth_source(a.shape, blocksize)
        s2 = blocksize * blocksize
        return a.reshape(-1)[src].reshape(b, c * s2, h // blocksize, w // blocksize)

    def backward(a, dout):
        a, d = numpy.array(a), numpy.array(dout)
        g = numpy.zeros(a.size, dtype=d.dtype)
        g[_space_to_depth_source(a.shape, blocksize)] = d.reshape(-1)
        return g.reshape(a.shape)

    paddle.static.py_func(forward, [x], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


def hsigmoid(input, label, num_classes, param_attr=None, bias_attr=None, name=None,
             path_table=None, path_code=None, is_custom=False, is_sparse=False):
    """1.6's hsigmoid layer (its checks and prints) on Paddle 3.3.1's
    hierarchical_sigmoid op, which has no `remote_prefetch` attribute."""
    helper = LayerHelper('hierarchical_sigmoid', name=name)
    dtype = input.dtype
    out = helper.create_variable_for_type_inference(dtype)
    pre_out = helper.create_variable_for_type_inference(dtype)
    dim = input.shape[1]
    if ((num_classes is None) or (num_classes < 2)) and (not is_custom):
        raise ValueError("num_classes must not be less than 2 with default tree")
    if (not is_custom) and (is_sparse):
        print("Sparse mode should not be used without custom tree")
        is_sparse = False
    if (not is_custom) and ((path_table is not None) or (path_code is not None)):
        raise ValueError("only num_classes should be passed without custom tree")
    if (is_custom) and (path_code is None):
        raise ValueError("path_code should not be None with custom tree")
    elif (is_custom) and (path_table is None):
        raise ValueError("path_table should not be None with custom tree")
    elif (is_custom) and (num_classes is None):
        raise ValueError("num_classes should not be None with custom tree")
    print("With sparse mode, if your models has only small parameter prefetch may cause speed down")
    rows = num_classes - 1 if not is_custom else num_classes
    weights = _create_parameter(helper, param_attr, [rows, dim], dtype)
    inputs = {"X": input, "W": weights, "Label": label}
    if path_table is not None:
        inputs["PathTable"] = path_table
    if path_code is not None:
        inputs["PathCode"] = path_code
    bias = _create_parameter(helper, bias_attr, [rows, 1], dtype, is_bias=True)
    if bias is not None:
        inputs["Bias"] = bias
    helper.append_op(type="hierarchical_sigmoid", inputs=inputs,
                     outputs={"Out": out, "PreOut": pre_out, "W_Out": weights},
                     attrs={"num_classes": num_classes, "is_sparse": is_sparse})
    return out


def hard_swish(x, threshold=6.0, scale=6.0, offset=3.0, name=None):
    """1.x's hard_swish. Paddle 3.3.1's op computes with 6, 6 and 3 whatever
    its attributes say, so other values are composed of its ops:
    x * clip(x + offset, 0, threshold) / scale; 1.x's gradient where
    x + offset >= threshold was 1 (not threshold / scale), so a py_func adds
    zero to the result, with the difference as its gradient."""
    if (threshold, scale, offset) == (6.0, 6.0, 3.0):
        return _one_op("hard_swish", x, {"threshold": threshold, "scale": scale,
                                         "offset": offset}, name)
    helper = LayerHelper("hard_swish", name=name)

    def step(op_type, inputs, attrs=None):
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs=inputs, outputs={"Out": [out]},
                         attrs=attrs or {})
        return out

    shifted = step("scale", {"X": [x]}, {"scale": 1.0, "bias": float(offset)})
    gate = step("clip", {"X": [shifted]}, {"min": 0.0, "max": float(threshold)})
    prod = step("elementwise_mul", {"X": [x], "Y": [gate]}, {"axis": -1})
    out = step("scale", {"X": [prod]}, {"scale": 1.0 / scale, "bias": 0.0})

    def forward(a):
        return numpy.zeros_like(numpy.array(a))

    def backward(a, dout):
        a, d = numpy.array(a), numpy.array(dout)
        top = (a + offset) >= threshold
        return numpy.where(top, d * (1.0 - threshold / scale), 0.0).astype(d.dtype)

    fix = helper.create_variable_for_type_inference(dtype=x.dtype)
    fix.desc.set_shape(list(x.shape))
    paddle.static.py_func(forward, [x], fix, backward_func=backward,
                          skip_vars_in_backward_input=[fix])
    return step("elementwise_add", {"X": [out], "Y": [fix]}, {"axis": -1})


def soft_relu(x, threshold=40.0, name=None):
    """1.x's soft_relu, which Paddle 3.3.1 dropped, in numpy (py_func):
    log(1 + exp(clip(x, -threshold, threshold))); 1.x's gradient,
    Out@GRAD * (1 - exp(-Out)) where -threshold < Out < threshold, does not
    stop at the clip."""
    helper = LayerHelper("soft_relu", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    out.desc.set_shape(list(x.shape))
    t = float(threshold)

    def forward(a):
        a = numpy.array(a)
        return numpy.log1p(numpy.exp(numpy.clip(a.astype("float64"), -t, t))).astype(a.dtype)

    def backward(o, dout):
        o, d = numpy.array(o), numpy.array(dout)
        o64 = o.astype("float64")
        inside = (o64 > -t) & (o64 < t)
        return (d * (1.0 - numpy.exp(-o64)) * inside).astype(d.dtype)

    paddle.static.py_func(forward, [x], out, backward_func=backward,
                          skip_vars_in_backward_input=[x])
    return out


def clip_by_norm(x, max_norm, name=None):
    helper = LayerHelper("clip_by_norm")
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(name=name, dtype=x.dtype, persistable=False)
    helper.append_op(type="clip_by_norm", inputs={"X": x}, attrs={"max_norm": max_norm},
                     outputs={"Out": out})
    return out


def kldiv_loss(x, target, reduction='mean', name=None):
    """1.x's kldiv_loss on Paddle 3.3.1's op, whose reduced loss is 0-D
    where 1.x's was [1]: reshaped back."""
    helper = LayerHelper("kldiv_loss", name=name)
    loss = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="kldiv_loss", inputs={"X": x, "Target": target},
                     outputs={"Loss": loss}, attrs={"reduction": reduction})
    if reduction == "none":
        return loss
    return reshape(loss, [1])


def affine_channel(x, scale=None, bias=None, data_layout='NCHW', name=None, act=None):
    helper = LayerHelper("affine_channel", act=act)
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(name=name, dtype=x.dtype, persistable=False)
    helper.append_op(type="affine_channel", inputs={"X": x, "Scale": scale, "Bias": bias},
                     attrs={"data_layout": data_layout}, outputs={"Out": out})
    return helper.append_activation(out)


def expand_as(x, target_tensor, name=None):
    """1.6's expand_as (tiling X to target_tensor's shape), which Paddle
    3.3.1 dropped (its expand_as_v2 broadcasts), in numpy (py_func):
    numpy.tile, and the tiles' gradients summed back."""
    helper = LayerHelper("expand_as", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    out.desc.set_shape(list(target_tensor.shape))

    def forward(a, t):
        a, t = numpy.array(a), numpy.array(t)
        return numpy.tile(a, [n // m for n, m in zip(t.shape, a.shape)])

    def backward(a, t, dout):
        a, d = numpy.array(a), numpy.array(dout)
        times = [n // m for n, m in zip(d.shape, a.shape)]
        split = []
        for k, m in zip(times, a.shape):
            split += [k, m]
        summed = d.reshape(split).sum(axis=tuple(range(0, 2 * a.ndim, 2)))
        # 1.x's grad gave target_tensor none; py_func wants one when it
        # needs a gradient: zeros add nothing.
        return summed.astype(d.dtype), numpy.zeros(numpy.array(t).shape, dtype=d.dtype)

    paddle.static.py_func(forward, [x, target_tensor], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


def bpr_loss(input, label, name=None):
    """1.x's bpr_loss, which Paddle 3.3.1 dropped, in numpy (py_func): each
    row's mean over the other classes of log(1 + exp(x_j - x_label)); its
    gradient as 1.x's kernel made it."""
    helper = LayerHelper("bpr_loss", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out.desc.set_shape(list(input.shape[:-1]) + [1])

    def rows(x, lbl):
        x = numpy.array(x).astype("float64")
        c = x.shape[-1]
        return x.reshape(-1, c), numpy.array(lbl).reshape(-1), c

    def forward(x, lbl):
        dtype = numpy.array(x).dtype
        x2, l2, c = rows(x, lbl)
        pos = x2[numpy.arange(len(l2)), l2][:, None]
        terms = numpy.log1p(numpy.exp(x2 - pos))
        terms[numpy.arange(len(l2)), l2] = 0.0
        shape = numpy.array(x).shape[:-1] + (1,)
        return (terms.sum(axis=1) / (c - 1)).reshape(shape).astype(dtype)

    def backward(x, lbl, dy):
        dtype = numpy.array(x).dtype
        x2, l2, c = rows(x, lbl)
        d = numpy.array(dy).astype("float64").reshape(-1)
        pos = x2[numpy.arange(len(l2)), l2][:, None]
        g = -d[:, None] / ((c - 1) * (1.0 + numpy.exp(pos - x2)))
        g[numpy.arange(len(l2)), l2] = 0.0
        dx = -g
        dx[numpy.arange(len(l2)), l2] = g.sum(axis=1)
        return dx.reshape(numpy.array(x).shape).astype(dtype), None

    paddle.static.py_func(forward, [input, label], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


def mean_iou(input, label, num_classes):
    """1.x's mean_iou, which Paddle 3.3.1 dropped, in numpy (py_func): per
    class the right predictions and the wrong ones it was the label or the
    prediction of, and the mean of right / (right + wrong) over the
    classes that occur."""
    helper = LayerHelper("mean_iou")
    outs = [helper.create_variable_for_type_inference(d) for d in ("float32", "int32", "int32")]
    for v, shape in zip(outs, ([1], [num_classes], [num_classes])):
        v.desc.set_shape(shape)
        v.stop_gradient = True

    def forward(p, y):
        p = numpy.array(p).reshape(-1).astype("int64")
        y = numpy.array(y).reshape(-1).astype("int64")
        right = numpy.bincount(p[p == y], minlength=num_classes)
        wrong = (numpy.bincount(p[p != y], minlength=num_classes)
                 + numpy.bincount(y[p != y], minlength=num_classes))
        seen = right + wrong
        iou = (right / numpy.maximum(seen, 1).astype("float32")).astype("float32").sum(dtype="float32")
        return (numpy.array([iou / numpy.float32((seen > 0).sum())], "float32"),
                wrong.astype("int32"), right.astype("int32"))

    paddle.static.py_func(forward, [input, label], outs)
    return tuple(outs)


def sampling_id(x, min=0.0, max=1.0, seed=0, dtype='float32'):
    """1.6's sampling_id, which Paddle 3.3.1 dropped, in numpy (py_func):
    per row a uniform draw in [min, max) from std::minstd_rand(seed)
    (numpy's generator for seed 0, where 1.x took random_device's), walked
    through the row's probabilities; int64 ids."""
    helper = LayerHelper("sampling_id")
    out = helper.create_variable_for_type_inference("int64")
    out.desc.set_shape([x.shape[0]])
    out.stop_gradient = True

    def forward(a):
        a = numpy.array(a)
        state = (seed if seed != 0 else int(numpy.random.randint(1, 2 ** 31 - 1))) % (2 ** 31 - 1)
        state = state or 1
        ids = []
        for row in a:
            state = state * 48271 % (2 ** 31 - 1)
            if a.dtype == numpy.float32:
                u = numpy.float32(state - 1) / numpy.float32(2147483646)
                u = min_below_one(u, numpy.float32)
                r = u * (numpy.float32(max) - numpy.float32(min)) + numpy.float32(min)
            else:
                first = state - 1
                state = state * 48271 % (2 ** 31 - 1)
                u = (float(first) + float(state - 1) * 2147483646.0) / (2147483646.0 ** 2)
                u = min_below_one(u, numpy.float64)
                r = u * (max - min) + min
            idx = len(row) - 1
            for j, p in enumerate(row):
                r = r - p
                if r < 0:
                    idx = j
                    break
            ids.append(idx)
        return numpy.array(ids, dtype="int64")

    def min_below_one(u, kind):
        return u if u < 1 else numpy.nextafter(kind(1), kind(0))

    paddle.static.py_func(forward, [x], out)
    return out


def topk(input, k, name=None):
    helper = LayerHelper("top_k", name=name)
    values = helper.create_variable_for_type_inference(dtype=input.dtype)
    indices = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="top_k", inputs={"X": [input]},
                     outputs={"Out": [values], "Indices": [indices]}, attrs={"k": k})
    values.stop_gradient = True
    indices.stop_gradient = True
    return values, indices


def argsort(input, axis=-1, name=None):
    """1.x's argsort: (sorted values, their int64 indices), ascending."""
    helper = LayerHelper("argsort", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    ids = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="argsort", inputs={"X": [input]},
                     outputs={"Out": [out], "Indices": [ids]}, attrs={"axis": axis})
    return out, ids


def reverse(x, axis):
    helper = LayerHelper("reverse")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reverse", inputs={"X": x}, outputs={"Out": [out]},
                     attrs={"axis": [axis] if isinstance(axis, int) else list(axis)})
    return out


def _as_tensor(value, dtype):
    return value if isinstance(value, framework.Variable) else fill_constant([1], dtype, value)


def range_layer(start, end, step, dtype):
    """1.5's range on 3.3.1's op (which multiplies where 1.x added up: a
    float range may differ in the last bit)."""
    helper = LayerHelper("range")
    start, end, step = (_as_tensor(v, dtype) for v in (start, end, step))
    out = helper.create_variable_for_type_inference(dtype=start.dtype)
    helper.append_op(type="range", inputs={"Start": start, "End": end, "Step": step},
                     outputs={"Out": [out]})
    return out


def linspace(start, stop, num, dtype):
    """1.6's linspace on 3.3.1's op (which counts half of the values back
    from `stop`, where 1.x added up from `start`: the last bits may differ)."""
    helper = LayerHelper("linspace")
    start, stop = _as_tensor(start, dtype), _as_tensor(stop, dtype)
    num = _as_tensor(num, "int32")
    out = helper.create_variable_for_type_inference(dtype=start.dtype)
    helper.append_op(type="linspace", inputs={"Start": start, "Stop": stop, "Num": num},
                     outputs={"Out": [out]}, attrs={"dtype": out.dtype})
    return out


def eye(num_rows, num_columns=None, batch_shape=None, dtype="float32"):
    if batch_shape is not None:
        raise NotImplementedError("the shim's eye takes no batch_shape")
    helper = LayerHelper("eye")
    out = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="eye", outputs={"Out": [out]},
                     attrs={"num_rows": num_rows, "num_columns": -1 if num_columns is None else num_columns,
                            "dtype": out.dtype})
    out.stop_gradient = True
    return out


def diag(diagonal):
    """1.6's diag (op `diag`, gone in 3.3.1) on diag_v2."""
    helper = LayerHelper("diag")
    out = helper.create_variable_for_type_inference(dtype=diagonal.dtype)
    helper.append_op(type="diag_v2", inputs={"X": [diagonal]}, outputs={"Out": [out]},
                     attrs={"offset": 0, "padding_value": 0.0})
    out.stop_gradient = True
    return out


def _whole(elementwise, reduce):
    """1.x's isfinite / has_inf / has_nan (one bool about the whole tensor;
    3.3.1 has only the elementwise ops) as the elementwise op reduced."""
    def layer(x):
        helper = LayerHelper(elementwise)
        each = helper.create_variable_for_type_inference(dtype="bool")
        helper.append_op(type=elementwise, inputs={"X": x}, outputs={"Out": each})
        out = helper.create_variable_for_type_inference(dtype="bool")
        helper.append_op(type=reduce, inputs={"X": each}, outputs={"Out": out},
                         attrs={"dim": [0], "keep_dim": True, "reduce_all": True})
        return reshape(out, [1])
    return layer


def warpctc(input, label, blank=0, norm_by_times=False, use_cudnn=False):
    helper = LayerHelper("warpctc")
    loss = helper.create_variable_for_type_inference(dtype=input.dtype)
    grad = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="warpctc", inputs={"Logits": [input], "Label": [label]},
                     outputs={"WarpCTCGrad": [grad], "Loss": [loss]},
                     attrs={"blank": blank, "norm_by_times": norm_by_times})
    return loss


def ctc_greedy_decoder(input, blank, name=None):
    helper = LayerHelper("ctc_greedy_decoder")
    _, ids = topk(input, k=1)
    out = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="ctc_align", inputs={"Input": [ids]}, outputs={"Output": [out]},
                     attrs={"merge_repeated": True, "blank": blank})
    return out


def _sequence_erase(x, tokens):
    """1.x's sequence_erase, which Paddle 3.3.1 dropped, in numpy (py_func):
    the ids of `x` not in `tokens`, the last LoD level the lengths kept."""
    def forward(xt):
        arr = numpy.array(xt)
        lod = [[int(o) for o in level] for level in xt.lod()]
        last = lod[-1]
        keep = ~numpy.isin(arr.reshape(-1), numpy.array(tokens, dtype=arr.dtype))
        offsets = [0]
        for a, b in zip(last[:-1], last[1:]):
            offsets.append(offsets[-1] + int(keep[a:b].sum()))
        return _ifelse_tensor(arr[keep], lod[:-1] + [offsets])

    out = _seq_func("edit_distance", [x], x.dtype, list(x.shape), forward)
    out.stop_gradient = True
    return out


def edit_distance(input, label, normalized=True, ignored_tokens=None):
    if ignored_tokens is not None and len(ignored_tokens) > 0:
        input = _sequence_erase(input, ignored_tokens)
        label = _sequence_erase(label, ignored_tokens)
    helper = LayerHelper("edit_distance")
    out = helper.create_variable_for_type_inference(dtype="float32")
    num = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="edit_distance", inputs={"Hyps": [input], "Refs": [label]},
                     outputs={"Out": [out], "SequenceNum": [num]}, attrs={"normalized": normalized})
    # 3.3.1's shape inference may declare SequenceNum float32; its kernel
    # (and 1.x's declaration) is int64.
    num.desc.set_dtype(core.VarDesc.VarType.INT64)
    return out, num


def uniform_random_batch_size_like(input, shape, dtype="float32", input_dim_idx=0,
                                   output_dim_idx=0, min=-1.0, max=1.0, seed=0):
    helper = LayerHelper("uniform_random_batch_size_like")
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="uniform_random_batch_size_like", inputs={"Input": input},
                     outputs={"Out": out},
                     attrs={"shape": list(shape), "input_dim_idx": input_dim_idx,
                            "output_dim_idx": output_dim_idx, "min": float(min),
                            "max": float(max), "seed": seed, "dtype": out.dtype})
    return out


def gaussian_random_batch_size_like(input, shape, input_dim_idx=0, output_dim_idx=0, mean=0.0,
                                    std=1.0, seed=0, dtype='float32'):
    """1.x's gaussian_random_batch_size_like, which Paddle 3.3.1 dropped, in
    numpy (py_func): Normal(mean, std) draws of `shape` with dim
    `output_dim_idx` the batch size of `input` (dim `input_dim_idx`); a
    non-zero seed gives the same draws each run."""
    helper = LayerHelper("gaussian_random_batch_size_like")
    out = helper.create_variable_for_type_inference(dtype)
    dims = list(shape)
    dims[output_dim_idx] = input.shape[input_dim_idx]
    out.desc.set_shape(dims)
    out.stop_gradient = True

    def forward(xt):
        run_dims = list(shape)
        run_dims[output_dim_idx] = numpy.array(xt).shape[input_dim_idx]
        rng = numpy.random.RandomState(seed) if seed else numpy.random
        return rng.normal(mean, std, size=run_dims).astype(dtype)

    paddle.static.py_func(forward, [input], out)
    return out


def tensor_array_to_tensor(input, axis=1, name=None, use_stack=False):
    helper = LayerHelper("tensor_array_to_tensor")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_index = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="tensor_array_to_tensor", inputs={"X": [input]},
                     outputs={"Out": [out], "OutIndex": [out_index]},
                     attrs={"axis": axis, "use_stack": use_stack})
    return out, out_index


def size_layer(input):
    helper = LayerHelper("size")
    out = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="size", inputs={"Input": input}, outputs={"Out": out})
    return out


def where(condition):
    helper = LayerHelper("where")
    out = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="where_index", inputs={"Condition": condition}, outputs={"Out": [out]})
    return out


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    helper = LayerHelper("instance_norm", name=name)
    dtype = input.dtype
    shape = [input.shape[1]]
    scale = _create_parameter(helper, param_attr, shape, dtype, default_initializer=Constant(1.0))
    bias = _create_parameter(helper, bias_attr, shape, dtype, is_bias=True,
                             default_initializer=Constant(0.0))
    mean = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    var = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="instance_norm", inputs={"X": input, "Scale": scale, "Bias": bias},
                     outputs={"Y": out, "SavedMean": mean, "SavedVariance": var},
                     attrs={"epsilon": epsilon})
    return out


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None,
               data_layout="NCHW", name=None):
    helper = LayerHelper("group_norm", act=act, name=name)
    dtype = input.dtype
    inputs = {"X": input}
    shape = [input.shape[1]]
    if param_attr:
        inputs["Scale"] = _create_parameter(helper, param_attr, shape, dtype,
                                            default_initializer=Constant(1.0))
    if bias_attr:
        inputs["Bias"] = _create_parameter(helper, bias_attr, shape, dtype, is_bias=True)
    mean = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    var = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="group_norm", inputs=inputs,
                     outputs={"Y": out, "Mean": mean, "Variance": var},
                     attrs={"epsilon": epsilon, "groups": groups, "data_layout": data_layout})
    return helper.append_activation(out)


def adaptive_pool2d(input, pool_size, pool_type="max", require_index=False, name=None):
    return _adaptive_pool(input, pool_size, pool_type, require_index, 2, name)


def adaptive_pool3d(input, pool_size, pool_type="max", require_index=False, name=None):
    return _adaptive_pool(input, pool_size, pool_type, require_index, 3, name)


def _adaptive_pool(input, pool_size, pool_type, require_index, dims, name):
    pool_size = [pool_size] * dims if isinstance(pool_size, int) else list(pool_size)
    l_type = ("max_pool%dd_with_index" % dims) if pool_type == "max" else ("pool%dd" % dims)
    helper = LayerHelper(l_type, name=name)
    out = helper.create_variable_for_type_inference(input.dtype)
    outputs = {"Out": out}
    if pool_type == "max":
        mask = helper.create_variable_for_type_inference("int32")
        outputs["Mask"] = mask
    helper.append_op(type=l_type, inputs={"X": input}, outputs=outputs,
                     attrs={"pooling_type": pool_type, "ksize": pool_size, "adaptive": True})
    return (out, mask) if require_index else out


def unique(x, dtype="int32"):
    helper = LayerHelper("unique")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    index = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="unique", inputs={"X": x}, attrs={"dtype": index.dtype},
                     outputs={"Out": [out], "Index": [index]})
    return out, index


# 1.x's SSD-style detection layers (layers/detection.py), each as 1.x's
# Python built it, on Paddle 3.3.1's op where it has one, in numpy
# (py_func) after 1.x's C++ where it has not. Bound by _detection_layers().


def _is_list_or_tuple_(data):
    return isinstance(data, (list, tuple))


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.],
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0],
              offset=0.5, name=None, min_max_aspect_ratios_order=False):
    """1.x's prior_box on Paddle 3.3.1's prior_box op."""
    helper = LayerHelper("prior_box", name=name)
    dtype = input.dtype
    if not _is_list_or_tuple_(min_sizes):
        min_sizes = [min_sizes]
    if not _is_list_or_tuple_(aspect_ratios):
        aspect_ratios = [aspect_ratios]
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    attrs = {
        'min_sizes': list(map(float, min_sizes)),
        'aspect_ratios': list(map(float, aspect_ratios)), 'variances': variance,
        'flip': flip, 'clip': clip, 'step_w': float(steps[0]), 'step_h': float(steps[1]),
        'offset': offset, 'min_max_aspect_ratios_order': min_max_aspect_ratios_order,
    }
    if max_sizes is not None and len(max_sizes) > 0 and max_sizes[0] > 0:
        if not _is_list_or_tuple_(max_sizes):
            max_sizes = [max_sizes]
        attrs['max_sizes'] = max_sizes
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="prior_box", inputs={"Input": input, "Image": image},
                     outputs={"Boxes": box, "Variances": var}, attrs=attrs)
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var


def density_prior_box(input, image, densities=None, fixed_sizes=None, fixed_ratios=None,
                      variance=[0.1, 0.1, 0.2, 0.2], clip=False, steps=[0.0, 0.0],
                      offset=0.5, flatten_to_2d=False, name=None):
    """1.x's density_prior_box, which Paddle 3.3.1 dropped, in numpy
    (py_func) after 1.x's CPU kernel: per fixed size, per ratio, a
    density x density grid of boxes around each place's center, shifted
    by (step_w + step_h) / 2 // density (ints, as there), each side
    clamped to [0, 1]; the kernel's float intermediates are float32."""
    if not _is_list_or_tuple_(densities):
        raise TypeError('densities should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_sizes):
        raise TypeError('fixed_sizes should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_ratios):
        raise TypeError('fixed_ratios should be a list or a tuple or None.')
    if len(densities) != len(fixed_sizes):
        raise ValueError('densities and fixed_sizes length should be euqal.')
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    densities = list(map(int, densities))
    fixed_sizes = list(map(float, fixed_sizes))
    fixed_ratios = list(map(float, fixed_ratios))
    steps = list(map(float, steps))
    helper = LayerHelper("density_prior_box", name=name)
    dtype = input.dtype
    num_priors = sum(len(fixed_ratios) * d * d for d in densities)
    fh, fw = input.shape[2], input.shape[3]
    shape = [fh * fw * num_priors, 4] if flatten_to_2d else [fh, fw, num_priors, 4]
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    box.desc.set_shape(shape)
    var.desc.set_shape(shape)
    f32 = numpy.float32

    def forward(feature, img):
        feature, img = numpy.array(feature), numpy.array(img)
        kind = feature.dtype.type
        fh, fw = feature.shape[2], feature.shape[3]
        ih, iw = img.shape[2], img.shape[3]
        if steps[0] == 0 or steps[1] == 0:
            step_w, step_h = kind(iw) / kind(fw), kind(ih) / kind(fh)
        else:
            step_w, step_h = kind(steps[0]), kind(steps[1])
        step_average = int(float(step_w + step_h) * 0.5)
        roots = [f32(numpy.sqrt(f32(r))) for r in fixed_ratios]
        out = []
        for h in range(fh):
            for w in range(fw):
                cx = (kind(w) + kind(offset)) * step_w
                cy = (kind(h) + kind(offset)) * step_h
                for size, density in zip(fixed_sizes, densities):
                    shift = step_average // density
                    for root in roots:
                        bw = f32(size) * root
                        bh = f32(size) / root
                        dcx = f32(float(cx) - step_average / 2. + shift / 2.)
                        dcy = f32(float(cy) - step_average / 2. + shift / 2.)
                        for di in range(density):
                            for dj in range(density):
                                x = dcx + f32(dj * shift)
                                y = dcy + f32(di * shift)
                                out.append([max((float(x) - float(bw) / 2.) / iw, 0.),
                                            max((float(y) - float(bh) / 2.) / ih, 0.),
                                            min((float(x) + float(bw) / 2.) / iw, 1.),
                                            min((float(y) + float(bh) / 2.) / ih, 1.)])
        boxes = numpy.array(out, dtype=kind).reshape(shape)
        if clip:
            boxes = numpy.clip(boxes, kind(0), kind(1))
        variances = numpy.tile(numpy.array(variance, dtype=kind), boxes.size // 4)
        return boxes, variances.reshape(shape)

    paddle.static.py_func(forward, [input, image], [box, var])
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var


def multi_box_head(inputs, image, base_size, num_classes, aspect_ratios, min_ratio=None,
                   max_ratio=None, min_sizes=None, max_sizes=None, steps=None, step_w=None,
                   step_h=None, offset=0.5, variance=[0.1, 0.1, 0.2, 0.2], flip=True,
                   clip=False, kernel_size=1, pad=0, stride=1, name=None,
                   min_max_aspect_ratios_order=False):
    """1.x's multi_box_head, composed as 1.x composed it: for each feature map in `inputs`,
    prior boxes and two convolutions predicting each prior's location
    offsets and class confidences. Returns `(mbox_locs, mbox_confs, boxes,
    variances)`: `[N, num_priors, 4]`, `[N, num_priors, num_classes]` and
    `[num_priors, 4]` twice over several maps; one map's flattened locs and
    confs and its 4-D boxes, as 1.x returned them."""

    def _reshape_with_axis_(input, axis=1):
        return flatten(x=input, axis=axis)

    def _is_list_or_tuple_and_equal(data, length, err_info):
        if not (_is_list_or_tuple_(data) and len(data) == length):
            raise ValueError(err_info)

    if not _is_list_or_tuple_(inputs):
        raise ValueError('inputs should be a list or tuple.')

    num_layer = len(inputs)

    if num_layer <= 2:
        assert min_sizes is not None and max_sizes is not None
        assert len(min_sizes) == num_layer and len(max_sizes) == num_layer
    elif min_sizes is None and max_sizes is None:
        min_sizes = []
        max_sizes = []
        step = int(math.floor(((max_ratio - min_ratio)) / (num_layer - 2)))
        for ratio in range(min_ratio, max_ratio + 1, step):
            min_sizes.append(base_size * ratio / 100.)
            max_sizes.append(base_size * (ratio + step) / 100.)
        min_sizes = [base_size * .10] + min_sizes
        max_sizes = [base_size * .20] + max_sizes

    if aspect_ratios:
        _is_list_or_tuple_and_equal(
            aspect_ratios, num_layer,
            'aspect_ratios should be list or tuple, and the length of inputs '
            'and aspect_ratios should be the same.')
    if step_h:
        _is_list_or_tuple_and_equal(
            step_h, num_layer,
            'step_h should be list or tuple, and the length of inputs and '
            'step_h should be the same.')
    if step_w:
        _is_list_or_tuple_and_equal(
            step_w, num_layer,
            'step_w should be list or tuple, and the length of inputs and '
            'step_w should be the same.')
    if steps:
        _is_list_or_tuple_and_equal(
            steps, num_layer,
            'steps should be list or tuple, and the length of inputs and '
            'step_w should be the same.')
        step_w = steps
        step_h = steps

    mbox_locs = []
    mbox_confs = []
    box_results = []
    var_results = []
    for i, input in enumerate(inputs):
        min_size = min_sizes[i]
        max_size = max_sizes[i]

        if not _is_list_or_tuple_(min_size):
            min_size = [min_size]
        if not _is_list_or_tuple_(max_size):
            max_size = [max_size]

        aspect_ratio = []
        if aspect_ratios is not None:
            aspect_ratio = aspect_ratios[i]
            if not _is_list_or_tuple_(aspect_ratio):
                aspect_ratio = [aspect_ratio]
        # 1.x's: step_h[i] only when step_w is given.
        step = [step_w[i] if step_w else 0.0, step_h[i] if step_w else 0.0]

        box, var = prior_box(input, image, min_size, max_size, aspect_ratio, variance, flip,
                             clip, step, offset, None, min_max_aspect_ratios_order)

        box_results.append(box)
        var_results.append(var)

        num_boxes = box.shape[2]

        # get loc
        num_loc_output = num_boxes * 4
        mbox_loc = conv2d(input=input, num_filters=num_loc_output, filter_size=kernel_size,
                             padding=pad, stride=stride)
        mbox_loc = transpose(mbox_loc, perm=[0, 2, 3, 1])
        mbox_loc_flatten = flatten(mbox_loc, axis=1)
        mbox_locs.append(mbox_loc_flatten)

        # get conf
        num_conf_output = num_boxes * num_classes
        conf_loc = conv2d(input=input, num_filters=num_conf_output, filter_size=kernel_size,
                             padding=pad, stride=stride)
        conf_loc = transpose(conf_loc, perm=[0, 2, 3, 1])
        conf_loc_flatten = flatten(conf_loc, axis=1)
        mbox_confs.append(conf_loc_flatten)

    if len(box_results) == 1:
        box = box_results[0]
        var = var_results[0]
        mbox_locs_concat = mbox_locs[0]
        mbox_confs_concat = mbox_confs[0]
    else:
        reshaped_boxes = []
        reshaped_vars = []
        for i in range(len(box_results)):
            reshaped_boxes.append(_reshape_with_axis_(box_results[i], axis=3))
            reshaped_vars.append(_reshape_with_axis_(var_results[i], axis=3))

        box = concat(reshaped_boxes)
        var = concat(reshaped_vars)
        mbox_locs_concat = concat(mbox_locs, axis=1)
        mbox_locs_concat = reshape(mbox_locs_concat, shape=[0, -1, 4])
        mbox_confs_concat = concat(mbox_confs, axis=1)
        mbox_confs_concat = reshape(mbox_confs_concat, shape=[0, -1, num_classes])

    box.stop_gradient = True
    var.stop_gradient = True
    return mbox_locs_concat, mbox_confs_concat, box, var


def iou_similarity(x, y, name=None):
    """1.x's iou_similarity, which Paddle 3.3.1 dropped, in numpy (py_func)
    after 1.x's functor, in the input's precision; `Out` keeps `x`'s LoD."""
    helper = LayerHelper("iou_similarity", name=name)
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(name=name, dtype=x.dtype, persistable=False)
    out.desc.set_shape([x.shape[0], y.shape[0]])

    def forward(xt, yt):
        a, b = numpy.array(xt), numpy.array(yt)
        kind = a.dtype.type
        zero = kind(0)
        res = numpy.zeros((a.shape[0], b.shape[0]), dtype=a.dtype)
        for i, p in enumerate(a):
            for j, q in enumerate(b):
                area1 = (p[3] - p[1]) * (p[2] - p[0])
                area2 = (q[3] - q[1]) * (q[2] - q[0])
                ih = min(p[3], q[3]) - max(p[1], q[1])
                iw = min(p[2], q[2]) - max(p[0], q[0])
                inter = (iw if iw > zero else zero) * (ih if ih > zero else zero)
                res[i, j] = inter / (area1 + area2 - inter)
        return _ifelse_tensor(res, xt.lod()) if xt.lod() else res

    paddle.static.py_func(forward, [x, y], out)
    return out


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
              box_normalized=True, name=None, axis=0):
    """1.x's box_coder on Paddle 3.3.1's box_coder op."""
    helper = LayerHelper("box_coder", name=name)
    if name is None:
        output_box = helper.create_variable_for_type_inference(dtype=prior_box.dtype)
    else:
        output_box = helper.create_variable(name=name, dtype=prior_box.dtype,
                                            persistable=False)
    inputs = {"PriorBox": prior_box, "TargetBox": target_box}
    attrs = {"code_type": code_type, "box_normalized": box_normalized, "axis": axis}
    if isinstance(prior_box_var, Variable):
        inputs['PriorBoxVar'] = prior_box_var
    elif isinstance(prior_box_var, list):
        attrs['variance'] = prior_box_var
    else:
        raise TypeError("Input variance of box_coder must be Variable or lisz")
    helper.append_op(type="box_coder", inputs=inputs, attrs=attrs,
                     outputs={"OutputBox": output_box})
    return output_box


def anchor_generator(input, anchor_sizes=None, aspect_ratios=None,
                     variance=[0.1, 0.1, 0.2, 0.2], stride=None, offset=0.5, name=None):
    """Faster R-CNN's anchors for each place of `input`'s feature map
    (1.x's layer): `(anchors, variances)`, each `[H, W, num_anchors, 4]`
    in pixels."""
    helper = LayerHelper("anchor_generator", name=name)
    dtype = input.dtype
    if not _is_list_or_tuple_(anchor_sizes):
        anchor_sizes = [anchor_sizes]
    if not _is_list_or_tuple_(aspect_ratios):
        aspect_ratios = [aspect_ratios]
    if not (_is_list_or_tuple_(stride) and len(stride) == 2):
        raise ValueError('stride should be a list or tuple ',
                         'with length 2, (stride_width, stride_height).')
    anchor_sizes = list(map(float, anchor_sizes))
    aspect_ratios = list(map(float, aspect_ratios))
    stride = list(map(float, stride))
    attrs = {
        'anchor_sizes': anchor_sizes,
        'aspect_ratios': aspect_ratios,
        'variances': variance,
        'stride': stride,
        'offset': offset,
    }
    anchor = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="anchor_generator", inputs={"Input": input},
                     outputs={"Anchors": anchor, "Variances": var}, attrs=attrs)
    anchor.stop_gradient = True
    var.stop_gradient = True
    return anchor, var


def box_clip(input, im_info, name=None):
    """Each box of `input` (one LoD level: the boxes of each image) clipped
    to its image's size from `im_info` rows `(height, width, scale)`."""
    helper = LayerHelper("box_clip", name=name)
    output = helper.create_variable_for_type_inference(dtype=input.dtype)
    inputs = {"Input": input, "ImInfo": im_info}
    helper.append_op(type="box_clip", inputs=inputs, outputs={"Output": output})
    return output


def _nms_shape_1x(out, bboxes, scores):
    """1.x's multiclass_nms InferShape: `[M, box_size + 2]` for 3-D scores,
    `[-1, box_size + 2]` for 2-D (Paddle 3.3.1 declares `[-1, ...]`)."""
    width = bboxes.shape[2] + 2 if bboxes.shape[2] >= 0 else -1
    out.desc.set_shape([bboxes.shape[1] if len(scores.shape) == 3 else -1, width])


def fsp_matrix(x, y):
    """1.6's fsp op (Paddle 3.3.1 dropped it): `x y^T / (h w)` over the
    flattened feature maps, a batched matmul (alpha `1 / (h w)`)."""
    h, w = x.shape[2], x.shape[3]
    flat_x = reshape(x, [0, x.shape[1], h * w])
    flat_y = reshape(y, [0, y.shape[1], h * w])
    return matmul(flat_x, flat_y, transpose_y=True, alpha=1.0 / (h * w))


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """1.6's unfold layer over the unfold op Paddle 3.3.1 still has."""
    def pair(v):
        return [v, v] if isinstance(v, int) else list(v)
    if isinstance(paddings, int):
        paddings = [paddings] * 4
    elif len(paddings) == 2:
        paddings = list(paddings) * 2
    helper = LayerHelper("unfold")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="unfold", inputs={"X": x}, outputs={"Y": out},
                     attrs={"kernel_sizes": pair(kernel_sizes), "strides": pair(strides),
                            "paddings": list(paddings), "dilations": pair(dilations)})
    return out


def crop_tensor(x, shape=None, offsets=None, name=None):
    """1.6's crop_tensor layer over the crop_tensor op Paddle 3.3.1 still
    has (shape ints; offsets ints or one int32 Variable)."""
    if offsets is None:
        offsets = [0] * len(x.shape)
    for d in shape:
        if d == 0:
            raise ValueError("Attr(shape) of Op(crop_tensor) should not be zero, but received: "
                             "%s." % str(d))
    helper = LayerHelper("crop_tensor")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    inputs, attrs = {"X": x}, {"shape": list(shape)}
    if isinstance(offsets, Variable):
        offsets.stop_gradient = True
        inputs["Offsets"] = offsets
        attrs["offsets"] = [-1] * len(x.shape)
    else:
        attrs["offsets"] = list(offsets)
    helper.append_op(type="crop_tensor", inputs=inputs, outputs={"Out": out}, attrs=attrs)
    # 1.6's InferShape: a -1 dim is x's less its (known) offset.
    out.desc.set_shape([d if d > 0 else (x.shape[i] - attrs["offsets"][i] if (
        attrs["offsets"][i] != -1 and x.shape[i] != -1) else -1) for i, d in enumerate(shape)])
    return out


def sigmoid_focal_loss(x, label, fg_num, gamma=2, alpha=0.25):
    """1.6's sigmoid_focal_loss op (Paddle 3.3.1 dropped it), as 3.3.1's
    F.sigmoid_focal_loss writes focal loss: `alpha_t * (1 - p_t)^gamma *
    BCE(x, onehot)` (BCE by sigmoid_cross_entropy_with_logits), rows of
    label -1 zero, over max(fg_num, 1)."""
    layers = sys.modules["paddle.fluid.layers"]
    classes = layers.assign(numpy.arange(1, x.shape[1] + 1, dtype="int32"))
    onehot = layers.cast(layers.equal(label, classes), x.dtype)
    kept = layers.cast(layers.not_equal(label, layers.fill_constant([1], "int32", -1)), x.dtype)
    p = layers.sigmoid(x)
    p_t = p * onehot + (1.0 - p) * (1.0 - onehot)
    alpha_t = onehot * float(alpha) + (1.0 - onehot) * (1.0 - float(alpha))
    bce = layers.sigmoid_cross_entropy_with_logits(x, onehot)
    fg = layers.elementwise_max(layers.cast(fg_num, x.dtype),
                                layers.fill_constant([1], x.dtype, 1.0))
    loss = alpha_t * layers.pow(1.0 - p_t, factor=float(gamma)) * bce * kept
    return layers.elementwise_div(loss, fg)


def teacher_student_sigmoid_loss(input, label, soft_max_up_bound=15.0,
                                 soft_max_lower_bound=-15.0):
    """1.6's teacher_student_sigmoid_loss op (Paddle 3.3.1 dropped it): its
    four cases of the label, each its kernel's sum of `max(x, 0) - x z +
    log(1 + exp(-|x|))` terms, picked by masks; the gradient let through
    only strictly inside the bounds, as its grad kernel zeroed it."""
    layers = sys.modules["paddle.fluid.layers"]

    def mask(cond):
        m = layers.cast(cond, input.dtype)
        m.stop_gradient = True
        return m

    def const(v):
        return layers.fill_constant([1], input.dtype, float(v))
    inside = mask(layers.less_than(input, const(soft_max_up_bound))) * mask(
        layers.greater_than(input, const(soft_max_lower_bound)))
    frozen = input * (1.0 - inside)
    frozen.stop_gradient = True
    x = input * inside + frozen
    pos = layers.relu(x)
    soft = layers.log(1.0 + layers.exp(0.0 - layers.abs(x)))
    below = mask(layers.less_than(label, const(-1.0)))
    neg = mask(layers.less_than(label, const(0.0))) - below
    low = mask(layers.less_than(label, const(1.0))) - below - neg
    high = 1.0 - below - neg - low
    return (below * (pos + soft) + neg * (pos - x + soft) +
            low * (pos + soft + pos - x * label + soft) +
            high * (pos - x + soft + pos - x * (label - 1.0) + soft))


def multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                   normalized=True, nms_eta=1., background_label=0, name=None):
    """1.x's multiclass_nms on Paddle 3.3.1's multiclass_nms op (whose
    kernel is 1.x's: `[No, 6]` rows with a LoD, a single `[1, 1]` row of
    -1 when no image keeps any), `Out` declared as 1.x declared it."""
    helper = LayerHelper("multiclass_nms", name=name)
    output = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
    helper.append_op(
        type="multiclass_nms",
        inputs={'BBoxes': bboxes, 'Scores': scores},
        attrs={
            'background_label': background_label,
            'score_threshold': score_threshold,
            'nms_top_k': nms_top_k,
            'nms_threshold': nms_threshold,
            'nms_eta': nms_eta,
            'keep_top_k': keep_top_k,
            'normalized': normalized,
        },
        outputs={'Out': output})
    _nms_shape_1x(output, bboxes, scores)
    output.stop_gradient = True
    return output


def _multiclass_nms2_1x(helper, bboxes, scores, attrs, nmsed_outs):
    """1.6's multiclass_nms2 op, which Paddle 3.3.1 dropped: its
    multiclass_nms3 (the same kernel, the per-image counts in NmsRoisNum)
    gives Out and Index, and a py_func gives both 1.x's LoD into
    `nmsed_outs` and a new index. Returns (nmsed_outs, index)."""
    raw_out = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
    raw_index = helper.create_variable_for_type_inference(dtype='int32')
    counts = helper.create_variable_for_type_inference(dtype='int32')
    helper.append_op(type="multiclass_nms3",
                     inputs={'Scores': scores, 'BBoxes': bboxes},
                     outputs={'Out': raw_out, 'Index': raw_index, 'NmsRoisNum': counts},
                     attrs=attrs)
    index = helper.create_variable_for_type_inference(dtype='int')

    def with_lod(out, idx, num):
        lod = [0]
        for n in numpy.array(num).reshape(-1).tolist():
            lod.append(lod[-1] + int(n))
        width = 2 + bboxes.shape[-1]
        return (_ifelse_tensor(numpy.array(out).reshape(-1, width), [lod]),
                _ifelse_tensor(numpy.array(idx).reshape(-1, 1), [lod]))

    _nms_shape_1x(nmsed_outs, bboxes, scores)
    index.desc.set_shape([nmsed_outs.shape[0], 1])
    paddle.static.py_func(with_lod, [raw_out, raw_index, counts], [nmsed_outs, index])
    index.stop_gradient = True
    nmsed_outs.stop_gradient = True
    return nmsed_outs, index


def detection_output(loc, scores, prior_box, prior_box_var, background_label=0,
                     nms_threshold=0.3, nms_top_k=400, keep_top_k=200, score_threshold=0.01,
                     nms_eta=1.0, return_index=False):
    """1.x's detection_output (box_coder decode, softmax, transpose,
    multiclass_nms with background 0 and nms_eta 1 whatever the arguments).
    1.6's return_index appends multiclass_nms2, which Paddle 3.3.1 dropped:
    its multiclass_nms3 (the same kernel, the per-image counts in
    NmsRoisNum) gives Out and Index, and a py_func gives both 1.x's LoD."""
    helper = LayerHelper("detection_output")
    decoded_box = box_coder(prior_box=prior_box, prior_box_var=prior_box_var,
                            target_box=loc, code_type='decode_center_size')
    scores = softmax(input=scores)
    scores = transpose(scores, perm=[0, 2, 1])
    scores.stop_gradient = True
    nmsed_outs = helper.create_variable_for_type_inference(dtype=decoded_box.dtype)
    attrs = {
        'background_label': 0,
        'nms_threshold': nms_threshold,
        'nms_top_k': nms_top_k,
        'keep_top_k': keep_top_k,
        'score_threshold': score_threshold,
        'nms_eta': 1.0,
    }
    if return_index:
        return _multiclass_nms2_1x(helper, decoded_box, scores, attrs, nmsed_outs)
    helper.append_op(type="multiclass_nms", inputs={'Scores': scores, 'BBoxes': decoded_box},
                     outputs={'Out': nmsed_outs}, attrs=attrs)
    _nms_shape_1x(nmsed_outs, decoded_box, scores)
    nmsed_outs.stop_gradient = True
    return nmsed_outs


def _rpn_reservoir(num, inds, draws):
    """1.x's ReservoirSampling (`draws`: its uniform numbers, the same for
    every call as 1.x passed its engine by value; None: the first `num`)."""
    num = max(num, 0)
    if len(inds) > num:
        if draws is not None:
            for i in range(num, len(inds)):
                at = int(numpy.floor(draws[i - num] * numpy.float32(i)))
                if at < num:
                    inds[at], inds[i] = inds[i], inds[at]
        del inds[num:]


def _rpn_targets(anchors, gts, gt_lod, crowd, crowd_lod, info, batch, straddle, positive,
                 negative, fg_fraction, use_random):
    """1.6's rpn_target_assign CPU kernel in numpy (the anchors' dtype)."""
    dt = anchors.dtype.type
    one = dt(1)
    anchors = anchors.reshape(-1, 4)
    anchor_num = anchors.shape[0]
    draws = numpy.random.uniform(0, 1, size=len(anchors) + 1).astype("float32") \
        if use_random else None
    loc, score, bbox, label, weight = [], [], [], [], []
    loc_lod, score_lod = [0], [0]
    for img in range(len(gt_lod) - 1):
        im_h, im_w, im_scale = (dt(v) for v in info[img])
        st = dt(straddle)
        inside = [i for i in range(anchor_num)
                  if straddle < 0 or (anchors[i, 0] >= -st and anchors[i, 1] >= -st
                                      and anchors[i, 2] < im_w + st
                                      and anchors[i, 3] < im_h + st)]
        g = [gts[k] * im_scale for k, c in zip(range(gt_lod[img], gt_lod[img + 1]),
                                               range(crowd_lod[img], crowd_lod[img + 1]))
             if crowd[c] == 0]
        ng = len(g)
        ov = numpy.zeros((len(inside), ng), dtype=dt)
        for a, i in enumerate(inside):
            r = anchors[i]
            ra = (r[2] - r[0] + one) * (r[3] - r[1] + one)
            for j, c in enumerate(g):
                ca = (c[2] - c[0] + one) * (c[3] - c[1] + one)
                iw = max(min(r[2], c[2]) - max(r[0], c[0]) + one, dt(0))
                ih = max(min(r[3], c[3]) - max(r[1], c[1]) + one, dt(0))
                inter = iw * ih
                ov[a, j] = 0 if inter == 0 else inter / (ra + ca - inter)
        low = numpy.finfo(dt).min
        amax = ov.max(axis=1) if ng else numpy.full(len(inside), low, dtype=dt)
        arg = ov.argmax(axis=1) if ng else numpy.zeros(len(inside), dtype="int64")
        gmax = ov.max(axis=0) if len(inside) else numpy.full(ng, low, dtype=dt)
        eps = dt(numpy.float32(0.00001))
        fg_fake_inds = [i for i in range(len(inside))
                        if any(abs(ov[i, j] - gmax[j]) < eps for j in range(ng))
                        or amax[i] >= dt(positive)]
        sampling = fg_fraction > 0 and batch > 0
        if sampling:
            _rpn_reservoir(int(numpy.float32(fg_fraction) * numpy.float32(batch)),
                           fg_fake_inds, draws)
        fg_fake_num = len(fg_fake_inds)
        lbl = [-1] * len(inside)
        for i in fg_fake_inds:
            lbl[i] = 1
        bg_fake = [i for i in range(len(inside)) if amax[i] < dt(negative)]
        if sampling:
            _rpn_reservoir(batch - fg_fake_num, bg_fake, draws)
        fg_fake, w, fake = [], [], 0
        for i in bg_fake:
            if lbl[i] == 1:
                fake += 1
                fg_fake.append(fg_fake_inds[0])
                w += [0.0] * 4
            lbl[i] = 0
        w += [1.0] * ((fg_fake_num - fake) * 4)
        fg = [i for i in range(len(inside)) if lbl[i] == 1]
        bg = [i for i in range(len(inside)) if lbl[i] == 0]
        fg_fake += fg
        off = img * anchor_num
        for k in fg_fake:
            a, c = anchors[inside[k]], g[arg[k]]
            ew, eh = a[2] - a[0] + one, a[3] - a[1] + one
            ex, ey = dt(float(a[0]) + 0.5 * float(ew)), dt(float(a[1]) + 0.5 * float(eh))
            gw, gh = c[2] - c[0] + one, c[3] - c[1] + one
            gx, gy = dt(float(c[0]) + 0.5 * float(gw)), dt(float(c[1]) + 0.5 * float(gh))
            bbox.append([(gx - ex) / ew, (gy - ey) / eh, numpy.log(gw / ew), numpy.log(gh / eh)])
            loc.append(inside[k] + off)
        weight += w
        score += [inside[k] + off for k in fg + bg]
        label += [1] * len(fg) + [0] * len(bg)
        loc_lod.append(len(loc))
        score_lod.append(len(score))
    return (numpy.array(loc, dtype="int32"), numpy.array(score, dtype="int32"),
            numpy.array(bbox, dtype=dt).reshape(-1, 4),
            numpy.array(label, dtype="int32").reshape(-1, 1),
            numpy.array(weight, dtype=dt).reshape(-1, 4), loc_lod, score_lod)


def rpn_target_assign(bbox_pred, cls_logits, anchor_box, anchor_var, gt_boxes, is_crowd, im_info,
                      rpn_batch_size_per_im=256, rpn_straddle_thresh=0.0, rpn_fg_fraction=0.5,
                      rpn_positive_overlap=0.7, rpn_negative_overlap=0.3, use_random=True):
    """1.x's rpn_target_assign, whose op Paddle 3.3.1 dropped: the op in
    numpy (py_func, after 1.6's CPU kernel), then 1.x's gathers."""
    helper = LayerHelper("rpn_target_assign")
    outs = [helper.create_variable_for_type_inference(d) for d in
            ("int32", "int32", anchor_box.dtype, "int32", anchor_box.dtype)]
    for v, shape in zip(outs, ([-1], [-1], [-1, 4], [-1, 1], [-1, 4])):
        v.desc.set_shape(shape)
        v.stop_gradient = True
    loc_index, score_index, target_bbox, target_label, bbox_inside_weight = outs

    def forward(at, gt, ct, it):
        gt_lod = [int(o) for o in gt.lod()[0]]
        crowd_lod = [int(o) for o in ct.lod()[0]]
        got = _rpn_targets(numpy.array(at), numpy.array(gt).astype(numpy.array(at).dtype),
                           gt_lod, numpy.array(ct).reshape(-1), crowd_lod, numpy.array(it),
                           rpn_batch_size_per_im, rpn_straddle_thresh, rpn_positive_overlap,
                           rpn_negative_overlap, rpn_fg_fraction, use_random)
        loc, score, bbox, label, weight, loc_lod, score_lod = got
        return (_ifelse_tensor(loc, [loc_lod]), _ifelse_tensor(score, [score_lod]),
                _ifelse_tensor(bbox, [loc_lod]), _ifelse_tensor(label, [score_lod]),
                _ifelse_tensor(weight, [loc_lod]))

    paddle.static.py_func(forward, [anchor_box, gt_boxes, is_crowd, im_info], outs)
    cls_logits = reshape(x=cls_logits, shape=(-1, 1))
    bbox_pred = reshape(x=bbox_pred, shape=(-1, 4))
    predicted_cls_logits = gather(cls_logits, score_index)
    predicted_bbox_pred = gather(bbox_pred, loc_index)
    return (predicted_cls_logits, predicted_bbox_pred, target_label, target_bbox,
            bbox_inside_weight)


def generate_proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n=6000,
                       post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0, name=None):
    """1.x's generate_proposals layer on Paddle 3.3.1's generate_proposals op."""
    helper = LayerHelper("generate_proposals", name=name)
    rpn_rois = helper.create_variable_for_type_inference(dtype=bbox_deltas.dtype)
    rpn_roi_probs = helper.create_variable_for_type_inference(dtype=scores.dtype)
    helper.append_op(
        type="generate_proposals",
        inputs={"Scores": scores, "BboxDeltas": bbox_deltas, "ImInfo": im_info,
                "Anchors": anchors, "Variances": variances},
        attrs={"pre_nms_topN": pre_nms_top_n, "post_nms_topN": post_nms_top_n,
               "nms_thresh": nms_thresh, "min_size": min_size, "eta": eta},
        outputs={"RpnRois": rpn_rois, "RpnRoiProbs": rpn_roi_probs})
    rpn_rois.stop_gradient = True
    rpn_roi_probs.stop_gradient = True
    return rpn_rois, rpn_roi_probs


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale,
                             name=None):
    """1.6's layer on Paddle 3.3.1's op, with 1.6's pixel boxes (`+ 1`
    sides: 3.3.1's API defaults pixel_offset to False)."""
    helper = LayerHelper("distribute_fpn_proposals", name=name)
    multi_rois = [helper.create_variable_for_type_inference(dtype=fpn_rois.dtype)
                  for _ in range(max_level - min_level + 1)]
    restore_ind = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(
        type="distribute_fpn_proposals", inputs={"FpnRois": fpn_rois},
        outputs={"MultiFpnRois": multi_rois, "RestoreIndex": restore_ind},
        attrs={"min_level": min_level, "max_level": max_level, "refer_level": refer_level,
               "refer_scale": refer_scale, "pixel_offset": True})
    for v in multi_rois:
        v.desc.set_lod_level(1)
    return multi_rois, restore_ind


def collect_fpn_proposals(multi_rois, multi_scores, min_level, max_level, post_nms_top_n,
                          name=None):
    """1.6's layer on Paddle 3.3.1's op."""
    helper = LayerHelper("collect_fpn_proposals", name=name)
    num_lvl = max_level - min_level + 1
    output_rois = helper.create_variable_for_type_inference(dtype=multi_rois[0].dtype)
    output_rois.stop_gradient = True
    helper.append_op(
        type="collect_fpn_proposals",
        inputs={"MultiLevelRois": multi_rois[:num_lvl], "MultiLevelScores": multi_scores[:num_lvl]},
        outputs={"FpnRois": output_rois}, attrs={"post_nms_topN": post_nms_top_n})
    output_rois.desc.set_lod_level(1)
    return output_rois

def _rpt_quads(rt, scale):
    """ROI k's corners (x, y as float32, scaled) and its image (LoD)."""
    f = numpy.float32
    rois = numpy.array(rt).astype("float32")
    lod = [int(o) for o in rt.lod()[-1]]
    image = numpy.zeros(rois.shape[0], dtype="int64")
    for i in range(len(lod) - 1):
        image[lod[i]:lod[i + 1]] = i
    quads = [([rois[k, 2 * j] * f(scale) for j in range(4)],
              [rois[k, 2 * j + 1] * f(scale) for j in range(4)]) for k in range(rois.shape[0])]
    return quads, image


def _rpt_gt_e(a, b):
    return bool(a > b) or float(abs(a - b)) < 1e-4


def _rpt_lt_e(a, b):
    return bool(a < b) or float(abs(a - b)) < 1e-4


def _rpt_gt(a, b):
    return float(a - b) > 1e-4


def _rpt_in_quad(x, y, qx, qy):
    """1.6's in_quad, in float32."""
    for i in range(4):
        xs, ys, xe, ye = qx[i], qy[i], qx[(i + 1) % 4], qy[(i + 1) % 4]
        if float(abs(ys - ye)) < 1e-4:
            if (float(abs(y - ys)) < 1e-4 and float(abs(y - ye)) < 1e-4
                    and _rpt_gt_e(x, min(xs, xe)) and _rpt_lt_e(x, max(xs, xe))):
                return True
        else:
            ix = (y - ys) * (xe - xs) / (ye - ys) + xs
            if (float(abs(ix - x)) < 1e-4 and _rpt_gt_e(y, min(ys, ye))
                    and _rpt_lt_e(y, max(ys, ye))):
                return True
    crossings = 0
    for i in range(4):
        xs, ys, xe, ye = qx[i], qy[i], qx[(i + 1) % 4], qy[(i + 1) % 4]
        if float(abs(ys - ye)) < 1e-4:
            continue
        if _rpt_lt_e(y, min(ys, ye)) or _rpt_gt(y, max(ys, ye)):
            continue
        ix = (y - ys) * (xe - xs) / (ye - ys) + xs
        if float(abs(ix - x)) < 1e-4:
            return True
        if _rpt_gt(ix, x):
            crossings += 1
    return crossings % 2 == 1


def _rpt_matrix(tw, th, qx, qy):
    """1.6's get_transform_matrix, float32 with its double steps."""
    f = numpy.float32
    x0, x1, x2, x3 = qx
    y0, y1, y2, y3 = qy

    def length(a, b):
        return numpy.sqrt((qx[a] - qx[b]) * (qx[a] - qx[b]) + (qy[a] - qy[b]) * (qy[a] - qy[b]))
    est_h = f(float(length(1, 2) + length(3, 0)) / 2.0)
    est_w = f(float(length(0, 1) + length(2, 3)) / 2.0)
    nh = max(2, th)
    q = est_w * f(nh - 1) / est_h
    nw = int(numpy.floor(numpy.abs(q) + f(0.5)) * numpy.sign(q) + f(1))
    nw = max(2, min(nw, tw))
    fw, fh = f(nw - 1), f(nh - 1)
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    den = float(dx1 * dy2 - dx2 * dy1) + 1e-5
    m6 = f(float(dx3 * dy2 - dx2 * dy3) / den / (nw - 1))
    m7 = f(float(dx1 * dy3 - dx3 * dy1) / den / (nh - 1))
    return [(x1 - x0 + m6 * fw * x1) / fw, (x3 - x0 + m7 * fh * x3) / fh, x0,
            (y1 - y0 + m6 * fw * y1) / fw, (y3 - y0 + m7 * fh * y3) / fh, y0, m6, m7, f(1)]


def _rpt_points(th, tw, qx, qy, height, width):
    """The grid points of one ROI that sample the map: (oh, ow) and the
    clamped neighbours and coordinates on each axis."""
    f = numpy.float32
    m = _rpt_matrix(tw, th, qx, qy)
    points = []
    for oh in range(th):
        for ow in range(tw):
            u = m[0] * f(ow) + m[1] * f(oh) + m[2]
            v = m[3] * f(ow) + m[4] * f(oh) + m[5]
            w = m[6] * f(ow) + m[7] * f(oh) + m[8]
            sw, sh = u / w, v / w
            if not _rpt_in_quad(sw, sh, qx, qy):
                continue
            if (_rpt_gt_e(f(-0.5), sw) or _rpt_gt_e(sw, f(width - 0.5))
                    or _rpt_gt_e(f(-0.5), sh) or _rpt_gt_e(sh, f(height - 0.5))):
                continue
            axes = []
            for val, size in ((sw, width), (sh, height)):
                if _rpt_gt_e(f(0), val):
                    val = f(0)
                lo = int(numpy.floor(val))
                if _rpt_gt_e(f(lo), f(size - 1)):
                    lo = hi = size - 1
                    val = f(lo)
                else:
                    hi = lo + 1
                axes.append((lo, hi, val))
            points.append((oh, ow, axes[0], axes[1]))
    return m, points


def roi_perspective_transform(input, rois, transformed_height, transformed_width,
                              spatial_scale=1.0):
    """1.6's roi_perspective_transform, which Paddle 3.3.1 dropped, in numpy
    (py_func) after its CPU kernel (float32): the warped ROIs, the mask and
    the transform matrices; its gradient to `input` as 1.6's grad kernel."""
    th, tw = transformed_height, transformed_width
    helper = LayerHelper("roi_perspective_transform")
    out = helper.create_variable_for_type_inference(input.dtype)
    mask = helper.create_variable_for_type_inference("int32")
    matrix = helper.create_variable_for_type_inference(input.dtype)
    out.desc.set_shape([-1, input.shape[1], th, tw])
    mask.desc.set_shape([-1, 1, th, tw])
    matrix.desc.set_shape([-1, 9])
    mask.stop_gradient = True
    matrix.stop_gradient = True
    f = numpy.float32

    def forward(xt, rt):
        x = numpy.array(xt).astype("float32")
        n, c, height, width = x.shape
        quads, image = _rpt_quads(rt, spatial_scale)
        o = numpy.zeros((len(quads), c, th, tw), dtype="float32")
        mk = numpy.zeros((len(quads), 1, th, tw), dtype="int32")
        mats = numpy.zeros((len(quads), 9), dtype="float32")
        for k, (qx, qy) in enumerate(quads):
            m, points = _rpt_points(th, tw, qx, qy, height, width)
            mats[k] = m
            for oh, ow, (wf, wc, sw), (hf, hc, sh) in points:
                mk[k, 0, oh, ow] = 1
                w_fl, h_fl = sw - f(wf), sh - f(hf)
                w_ce, h_ce = f(1) - w_fl, f(1) - h_fl
                for ch in range(c):
                    p = x[image[k], ch]
                    o[k, ch, oh, ow] = (w_ce * h_ce * p[hf, wf] + w_ce * h_fl * p[hc, wf]
                                        + w_fl * h_fl * p[hc, wc] + w_fl * h_ce * p[hf, wc])
        return _ifelse_tensor(o, [list(rt.lod()[-1])]), mk, mats

    def backward(*args):
        # X, ROIs and Out@GRAD (mask and matrix have no gradient).
        xt, rt, dout = args[:3]
        x = numpy.array(xt)
        n, c, height, width = x.shape
        d = numpy.array(dout).astype("float32")
        quads, image = _rpt_quads(rt, spatial_scale)
        g = numpy.zeros(x.shape, dtype="float32")
        for k, (qx, qy) in enumerate(quads):
            if image[k] >= n:
                continue
            _, points = _rpt_points(th, tw, qx, qy, height, width)
            for oh, ow, (wf, wc, sw), (hf, hc, sh) in points:
                xs = [(wf, f(wf + 1) - sw)] + ([(wc, sw + f(1) - f(wc))] if wc != wf else [])
                ys = [(hf, f(hf + 1) - sh)] + ([(hc, sh + f(1) - f(hc))] if hc != hf else [])
                for ch in range(c):
                    for yy, wy in ys:
                        for xx, wx in xs:
                            g[image[k], ch, yy, xx] += d[k, ch, oh, ow] * (wx * wy)
        return g.astype(x.dtype), None

    paddle.static.py_func(forward, [input, rois], [out, mask, matrix], backward_func=backward,
                          skip_vars_in_backward_input=[out, mask, matrix])
    return out, mask, matrix


def polygon_box_transform(input, name=None):
    """1.x's polygon_box_transform, which Paddle 3.3.1 dropped, in numpy
    (py_func): each even geometry channel 4 * column - x, each odd one
    4 * row - x."""
    helper = LayerHelper("polygon_box_transform")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out.desc.set_shape(list(input.shape))
    out.stop_gradient = True

    def forward(xt):
        arr = numpy.array(xt)
        n, c, h, w = arr.shape
        cols = numpy.broadcast_to(numpy.arange(w) * 4, (h, w))
        rows = numpy.broadcast_to((numpy.arange(h) * 4)[:, None], (h, w))
        base = numpy.stack([cols if k % 2 == 0 else rows for k in range(c)])
        return (base[None].astype(arr.dtype) - arr).astype(arr.dtype)

    paddle.static.py_func(forward, [input], out)
    return out


def _detection_layers():
    return dict(prior_box=prior_box, density_prior_box=density_prior_box,
                multi_box_head=multi_box_head, iou_similarity=iou_similarity,
                box_coder=box_coder, anchor_generator=anchor_generator, box_clip=box_clip,
                multiclass_nms=multiclass_nms, detection_output=detection_output,
                polygon_box_transform=polygon_box_transform,
                roi_perspective_transform=roi_perspective_transform,
                generate_proposals=generate_proposals, rpn_target_assign=rpn_target_assign,
                distribute_fpn_proposals=distribute_fpn_proposals,
                collect_fpn_proposals=collect_fpn_proposals)


def _random(op_type, **dist):
    def layer(shape, dtype="float32", seed=0, **kwargs):
        helper = LayerHelper(op_type)
        out = helper.create_variable_for_type_inference(dtype)
        attrs = {"shape": list(shape), "dtype": out.dtype, "seed": seed}
        attrs.update({k: float(kwargs.get(k, v)) for k, v in dist.items()})
        helper.append_op(type=op_type, outputs={"Out": out}, attrs=attrs)
        return out
    return layer


def softmax(input, use_cudnn=False, name=None, axis=-1):
    helper = LayerHelper("softmax", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="softmax", inputs={"X": input}, outputs={"Out": out},
                     attrs={"axis": axis, "use_cudnn": use_cudnn})
    return out


# ---------------------------------------------------------------- initializers (1.x initializer.py)


class Initializer:
    """1.x `fluid.initializer.Initializer`: `init(var, block)` *prepends* one
    op to `block` (the startup block). A seed of 0 takes the seed of the
    block's program (`startup_program.random_seed`) when it is called."""

    def __call__(self, var, block):
        raise NotImplementedError()

    def _compute_fans(self, var):
        shape = var.shape
        if not shape or len(shape) == 0:
            return 1, 1
        if len(shape) == 1:
            return shape[0], shape[0]
        if len(shape) == 2:
            return shape[0], shape[1]
        receptive_field_size = int(numpy.prod(shape[2:]))
        return shape[1] * receptive_field_size, shape[0] * receptive_field_size

    def _seeded(self, block):
        if self._seed == 0:
            self._seed = block.program.random_seed
        return self._seed

    @staticmethod
    def _prepend(block, var, op_type, attrs):
        # 1.x passed `inputs={}` (every slot declared, empty) for uniform_random only.
        extra = {"inputs": {}} if op_type == "uniform_random" else {}
        op = block._prepend_op(type=op_type, outputs={"Out": var}, attrs=dict(attrs),
                               stop_gradient=True, **extra)
        var.op = op
        return op


class ConstantInitializer(Initializer):
    def __init__(self, value=0.0, force_cpu=False):
        assert value is not None
        self._value = value
        self._force_cpu = force_cpu

    def __call__(self, var, block):
        return self._prepend(block, var, "fill_constant", {
            "shape": var.shape, "dtype": int(var.dtype), "value": float(self._value),
            "force_cpu": self._force_cpu or force_init_on_cpu()})


class UniformInitializer(Initializer):
    def __init__(self, low=-1.0, high=1.0, seed=0, diag_num=0, diag_step=0, diag_val=1.0):
        assert high >= low
        self._low, self._high, self._seed = low, high, seed
        self._diag_num, self._diag_step, self._diag_val = diag_num, diag_step, diag_val

    def __call__(self, var, block):
        seed = self._seeded(block)
        return self._prepend(block, var, "uniform_random", {
            "shape": var.shape, "dtype": var.dtype, "min": self._low, "max": self._high,
            "seed": seed, "diag_num": self._diag_num, "diag_step": self._diag_step,
            "diag_val": self._diag_val})


class NormalInitializer(Initializer):
    def __init__(self, loc=0.0, scale=1.0, seed=0):
        self._mean, self._std_dev, self._seed = loc, scale, seed

    def __call__(self, var, block):
        seed = self._seeded(block)
        return self._prepend(block, var, "gaussian_random", {
            "shape": var.shape, "dtype": var.dtype, "mean": self._mean, "std": self._std_dev,
            "seed": seed, "use_mkldnn": False})


class TruncatedNormalInitializer(Initializer):
    def __init__(self, loc=0.0, scale=1.0, seed=0):
        self._mean, self._std_dev, self._seed = loc, scale, seed

    def __call__(self, var, block):
        seed = self._seeded(block)
        return self._prepend(block, var, "truncated_gaussian_random", {
            "shape": var.shape, "dtype": var.dtype, "mean": self._mean, "std": self._std_dev,
            "seed": seed})


class XavierInitializer(Initializer):
    def __init__(self, uniform=True, fan_in=None, fan_out=None, seed=0):
        self._uniform, self._fan_in, self._fan_out, self._seed = uniform, fan_in, fan_out, seed

    def __call__(self, var, block):
        f_in, f_out = self._compute_fans(var)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        seed = self._seeded(block)
        if self._uniform:
            limit = numpy.sqrt(6.0 / float(fan_in + fan_out))
            return self._prepend(block, var, "uniform_random", {
                "shape": var.shape, "dtype": var.dtype, "min": -limit, "max": limit,
                "seed": seed})
        std = numpy.sqrt(2.0 / float(fan_in + fan_out))
        return self._prepend(block, var, "gaussian_random", {
            "shape": var.shape, "dtype": var.dtype, "mean": 0.0, "std": std, "seed": seed})


class MSRAInitializer(Initializer):
    def __init__(self, uniform=True, fan_in=None, seed=0):
        self._uniform, self._fan_in, self._seed = uniform, fan_in, seed

    def __call__(self, var, block):
        f_in, _ = self._compute_fans(var)
        fan_in = f_in if self._fan_in is None else self._fan_in
        seed = self._seeded(block)
        if self._uniform:
            limit = numpy.sqrt(6.0 / float(fan_in))
            return self._prepend(block, var, "uniform_random", {
                "shape": var.shape, "dtype": int(var.dtype), "min": -limit, "max": limit,
                "seed": seed})
        std = numpy.sqrt(2.0 / float(fan_in))
        return self._prepend(block, var, "gaussian_random", {
            "shape": var.shape, "dtype": int(var.dtype), "mean": 0.0, "std": std, "seed": seed})


class NumpyArrayInitializer(Initializer):
    """1.x wrote `fp32_values`/`int32_values`; Paddle 3's assign_value has
    one `values` attribute (SCALARS), as the shim's `assign` spells it."""

    def __init__(self, value):
        assert isinstance(value, numpy.ndarray)
        self._value = value

    def __call__(self, var, block):
        if var.dtype == VarType.FP32:
            values = [float(v) for v in self._value.flat]
        elif var.dtype == VarType.INT32:
            values = [int(v) for v in self._value.flat]
        else:
            raise ValueError("Unsupported dtype %s" % self._value.dtype)
        return self._prepend(block, var, "assign_value", {
            "dtype": var.dtype, "shape": list(self._value.shape), "values": values})


Constant = ConstantInitializer
Uniform = UniformInitializer
Normal = NormalInitializer
TruncatedNormal = TruncatedNormalInitializer
Xavier = XavierInitializer
MSRA = MSRAInitializer


# ---------------------------------------------------------------- ParamAttr and parameters
# (1.x param_attr.py, layer_helper_base.py)


class ParamAttr:
    def __init__(self, name=None, initializer=None, learning_rate=1.0, regularizer=None,
                 trainable=True, gradient_clip=None, do_model_average=True):
        if name == "":
            raise ValueError("name of ParamAttr can not be empty str")
        self.name = name
        self.initializer = initializer
        self.learning_rate = learning_rate
        self.regularizer = regularizer
        self.trainable = trainable
        self.do_model_average = do_model_average

    def _set_default_initializer(self, initializer):
        if initializer is None:
            if self.initializer is None:
                raise ValueError("ParamAttr.initializer is not set")
            return
        if self.initializer is None:
            self.initializer = initializer

    def _set_default_param_initializer(self):
        self._set_default_initializer(Xavier())

    def _set_default_bias_initializer(self):
        self._set_default_initializer(Constant(0.0))

    @staticmethod
    def _to_attr(arg):
        if arg is None:
            return ParamAttr()
        if isinstance(arg, (list, tuple)):
            return [ParamAttr._to_attr(a) for a in arg]
        if isinstance(arg, ParamAttr):
            return arg
        if isinstance(arg, str):
            return ParamAttr(name=arg)
        if isinstance(arg, Initializer):
            return ParamAttr(initializer=arg)
        if isinstance(arg, paddle.regularizer.WeightDecayRegularizer):
            return ParamAttr(regularizer=arg)
        if isinstance(arg, bool):
            return ParamAttr._to_attr(None) if arg else False
        raise TypeError("{0} cast to ParamAttr".format(type(arg)))

    def _to_kwargs(self, with_initializer=False):
        kwargs = {"name": self.name, "optimize_attr": {"learning_rate": self.learning_rate},
                  "regularizer": self.regularizer, "trainable": self.trainable,
                  "do_model_average": self.do_model_average}
        if with_initializer:
            kwargs["initializer"] = self.initializer
        return kwargs


def _create_parameter(helper, attr, shape, dtype, is_bias=False, default_initializer=None):
    """1.x LayerHelperBase.create_parameter: `<layer>_N.<w|b>_K` unless named;
    the default initializer (Xavier for weights, Constant(0) for biases) or
    the layer's; created in the startup program first (Paddle's
    Block.create_parameter calls the initializer unless an op there already
    writes the name: a shared parameter is initialized once), then in main.
    `bias_attr=False` (or `param_attr=False`) creates nothing."""
    attr = ParamAttr._to_attr(copy.deepcopy(attr))
    if not attr:
        return None
    suffix = "b" if is_bias else "w"
    if attr.name is None:
        attr.name = unique_name.generate(helper.name + "." + suffix)
    dtype = _dtype(dtype)
    if default_initializer is None and attr.initializer is None:
        if dtype not in (VarType.FP32, VarType.FP64, VarType.FP16):
            raise TypeError("Can not create parameter with default initializer when dtype is "
                            "not float type. Set default_initializer to fit the parameter "
                            "dtype!")
        if is_bias:
            attr._set_default_bias_initializer()
        else:
            attr._set_default_param_initializer()
    else:
        attr._set_default_initializer(default_initializer)
    if isinstance(attr, WeightNormParamAttr):
        return _weight_norm_parameter(helper, attr, list(shape), dtype)
    helper.startup_program.global_block().create_parameter(
        dtype=dtype, shape=list(shape), **attr._to_kwargs(with_initializer=True))
    return helper.main_program.global_block().create_parameter(
        dtype=dtype, shape=list(shape), **attr._to_kwargs())


def _append_bias(helper, input_var, bias_attr, dim_start=1, dim_end=None):
    """1.x LayerHelper.append_bias_op: a bias shaped input.shape[dim_start:dim_end]
    and an `elementwise_add` with axis=dim_start; none with bias_attr=False."""
    size = list(input_var.shape[dim_start:dim_end])
    bias_attr = ParamAttr._to_attr(bias_attr)
    if not bias_attr:
        return input_var
    b = _create_parameter(helper, bias_attr, size, input_var.dtype, is_bias=True)
    tmp = helper.create_variable_for_type_inference(dtype=input_var.dtype)
    helper.append_op(type="elementwise_add", inputs={"X": [input_var], "Y": [b]},
                     outputs={"Out": [tmp]}, attrs={"axis": dim_start})
    return tmp


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    helper = LayerHelper("create_parameter", name=name)
    if attr is None:
        attr = ParamAttr(name=name)
    return _create_parameter(helper, attr, shape, dtype, is_bias, default_initializer)


# ---------------------------------------------------------------- nn layers
# (1.x layers/{nn,loss,metric_op,tensor}.py)


def fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None, name=None):
    """1.x fc: one `mul` per input (a `sum` of them for several inputs), the
    bias add (unless bias_attr=False) and the activation; temporaries are
    `fc_N.tmp_K`."""
    helper = LayerHelper("fc", act=act, name=name)
    inputs = list(input) if isinstance(input, (list, tuple)) else [input]
    attrs = ParamAttr._to_attr(param_attr)
    attrs = attrs if isinstance(attrs, list) else [attrs]
    if len(attrs) != 1 and len(attrs) != len(inputs):
        raise ValueError("parameter number mismatch")
    if len(attrs) == 1 and len(inputs) != 1:
        attrs = [copy.deepcopy(attrs[0]) for _ in inputs]
    dtype = inputs[0].dtype
    mul_results = []
    for input_var, attr in zip(inputs, attrs):
        if num_flatten_dims == -1:
            num_flatten_dims = len(input_var.shape) - 1
        fan_in = 1
        for dim in input_var.shape[num_flatten_dims:]:
            fan_in *= dim
        w = _create_parameter(helper, attr, [fan_in, size], dtype, is_bias=False)
        tmp = helper.create_variable_for_type_inference(dtype)
        helper.append_op(type="mul", inputs={"X": input_var, "Y": w}, outputs={"Out": tmp},
                         attrs={"x_num_col_dims": num_flatten_dims, "y_num_col_dims": 1})
        mul_results.append(tmp)
    if len(mul_results) == 1:
        pre_bias = mul_results[0]
    else:
        pre_bias = helper.create_variable_for_type_inference(dtype)
        helper.append_op(type="sum", inputs={"X": mul_results}, outputs={"Out": pre_bias},
                         attrs={"use_mkldnn": False})
    pre_activation = _append_bias(helper, pre_bias, bias_attr, dim_start=num_flatten_dims)
    return helper.append_activation(pre_activation)


def _to_list(value, n, name):
    """1.x layers/utils.convert_to_list."""
    if isinstance(value, int):
        return [value] * n
    try:
        value = list(value)
    except TypeError:  # a lone numpy integer too, as 1.x's isinstance(value, int)
        raise ValueError("The %s's type must be list or tuple. Received: %s" % (name, value))
    if len(value) != n:
        raise ValueError("The %s's length must be %d. Received: %s" % (name, n, value))
    return value


def _padding(padding, data_format, name):
    """1.x conv2d/pool2d `_update_padding` for 2-D: [ph, pw] or, when
    asymmetric, [top, bottom, left, right]; "SAME"/"VALID" strings."""
    algorithm = "EXPLICIT"
    if isinstance(padding, str):
        padding = padding.upper()
        if padding not in ("SAME", "VALID"):
            raise ValueError("Unknown padding: '%s'" % padding)
        algorithm, padding = padding, [0, 0]
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        if isinstance(padding[0], (list, tuple)):
            pairs = padding[2:4] if data_format == "NCHW" else padding[1:3]
            padding = [p for pair in pairs for p in pair]
        padding = _to_list(padding, 4, name)
        if padding[0] == padding[1] and padding[2] == padding[3]:
            padding = [padding[0], padding[2]]
    else:
        padding = _to_list(padding, 2, name)
    return padding, algorithm


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """1.x embedding: a `lookup_table` op (Ids must end in a dim of 1)."""
    helper = LayerHelper("embedding")
    remote_prefetch = is_sparse and not is_distributed
    w = _create_parameter(helper, param_attr, size, dtype, is_bias=False)
    tmp = helper.create_variable_for_type_inference(_dtype(dtype))
    padding_idx = -1 if padding_idx is None else (
        padding_idx if padding_idx >= 0 else size[0] + padding_idx)
    helper.append_op(type="lookup_table", inputs={"Ids": input, "W": w}, outputs={"Out": tmp},
                     attrs={"is_sparse": is_sparse, "is_distributed": is_distributed,
                            "remote_prefetch": remote_prefetch, "padding_idx": padding_idx})
    return tmp


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """1.x conv2d: filter Normal(0, sqrt(2 / (k*k*C_in))) by default, bias
    `[num_filters]` added on axis 1, `depthwise_conv2d` when groups == C_in
    and use_cudnn is off."""
    channel_last = data_format == "NHWC"
    num_channels = input.shape[3] if channel_last else input.shape[1]
    l_type = "conv2d"
    if num_channels == groups and num_filters % num_channels == 0 and not use_cudnn:
        l_type = "depthwise_conv2d"
    helper = LayerHelper(l_type, act=act, name=name, use_cudnn=use_cudnn)
    dtype = input.dtype
    num_filter_channels = num_channels if groups is None else num_channels // groups
    filter_size = _to_list(filter_size, 2, "filter_size")
    stride = _to_list(stride, 2, "stride")
    dilation = _to_list(dilation, 2, "dilation")
    padding, padding_algorithm = _padding(padding, data_format, "padding")
    filter_shape = [num_filters, int(num_filter_channels)] + filter_size
    std = (2.0 / (filter_size[0] * filter_size[1] * num_channels)) ** 0.5
    filter_param = _create_parameter(helper, param_attr, filter_shape, dtype,
                                     default_initializer=Normal(0.0, std, 0))
    pre_bias = helper.create_variable_for_type_inference(dtype)
    helper.append_op(
        type=l_type, inputs={"Input": input, "Filter": filter_param},
        outputs={"Output": pre_bias},
        attrs={"strides": stride, "paddings": padding, "dilations": dilation,
               "groups": groups, "use_cudnn": use_cudnn, "use_mkldnn": False,
               "fuse_relu_before_depthwise_conv": False,
               "padding_algorithm": padding_algorithm, "data_format": data_format})
    if data_format == "NCHW":
        pre_act = _append_bias(helper, pre_bias, bias_attr, dim_start=1, dim_end=2)
    else:
        pre_act = _append_bias(helper, pre_bias, bias_attr, dim_start=3, dim_end=4)
    return helper.append_activation(pre_act)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None):
    """1.2-1.5 conv2d_transpose: filter `[C_in, num_filters // groups, kh, kw]`
    (Xavier by default; its size from output_size when filter_size is None),
    `depthwise_conv2d_transpose` when groups == C_in == num_filters and
    use_cudnn is off, bias `[num_filters]` on axis 1."""
    assert param_attr is not False, "param_attr should not be False in conv2d_transpose."
    input_channel = input.shape[1]
    op_type = "conv2d_transpose"
    if input_channel == groups and num_filters == input_channel and not use_cudnn:
        op_type = "depthwise_conv2d_transpose"
    helper = LayerHelper(op_type, act=act, name=name, use_cudnn=use_cudnn)
    padding = _to_list(padding, 2, "padding")
    stride = _to_list(stride, 2, "stride")
    dilation = _to_list(dilation, 2, "dilation")
    if filter_size is None:
        if output_size is None:
            raise ValueError("output_size must be set when filter_size is None")
        if isinstance(output_size, int):
            output_size = [output_size, output_size]
        filter_size = [(output_size[i] - (input.shape[2 + i] - 1) * stride[i] + 2 * padding[i]
                        - 1) // dilation[i] + 1 for i in range(2)]
    else:
        filter_size = _to_list(filter_size, 2, "conv2d_transpose.filter_size")
    if output_size is None:
        output_size = []
    elif isinstance(output_size, (list, int)):
        output_size = _to_list(output_size, 2, "output_size")
    else:
        raise ValueError("output_size should be list or int")
    groups = 1 if groups is None else groups
    filter_param = _create_parameter(helper, param_attr,
                                     [input_channel, num_filters // groups] + filter_size,
                                     input.dtype)
    pre_bias = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(
        type=op_type, inputs={"Input": [input], "Filter": [filter_param]},
        outputs={"Output": pre_bias},
        attrs={"output_size": output_size, "strides": stride, "paddings": padding,
               "dilations": dilation, "groups": groups, "use_cudnn": use_cudnn})
    pre_act = _append_bias(helper, pre_bias, bias_attr, dim_start=1, dim_end=2)
    return helper.append_activation(pre_act)


def pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
           global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
           data_format="NCHW"):
    if pool_type not in ("max", "avg"):
        raise ValueError("Unknown Attr(pool_type): '%s'" % pool_type)
    if global_pooling is False and pool_size == -1:
        raise ValueError("When Attr(global_pooling) is False, Attr(pool_size) must be passed")
    pool_size = _to_list(pool_size, 2, "pool_size")
    pool_stride = _to_list(pool_stride, 2, "pool_stride")
    pool_padding, padding_algorithm = _padding(pool_padding, data_format, "pool_padding")
    helper = LayerHelper("pool2d", name=name)
    pool_out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(
        type="pool2d", inputs={"X": input}, outputs={"Out": pool_out},
        attrs={"pooling_type": pool_type, "ksize": pool_size, "global_pooling": global_pooling,
               "strides": pool_stride, "paddings": pool_padding,
               "padding_algorithm": padding_algorithm, "use_cudnn": use_cudnn,
               "ceil_mode": ceil_mode, "use_mkldnn": False, "exclusive": exclusive,
               "data_format": data_format})
    return pool_out


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, fuse_with_relu=False,
               use_global_stats=False):
    """1.x batch_norm (fuse_with_relu: 1.x's CPU kernel applied no relu): scale `batch_norm_N.w_0` (Constant 1), bias `.b_0`
    (Constant 0), moving mean `.w_1` (Constant 0) and variance `.w_2`
    (Constant 1) not trainable; MeanOut/VarianceOut are the moving stats;
    ReserveSpace (`<Y>.reserve_space`) when training, which Paddle 3 requires."""
    assert bias_attr is not False, "bias_attr should not be False in batch_norm."
    helper = LayerHelper("batch_norm", act=act, name=name)
    dtype = input.dtype
    if dtype == VarType.FP16:
        dtype = VarType.FP32
    channel_num = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    param_shape = [channel_num]
    scale = _create_parameter(helper, param_attr, param_shape, dtype,
                              default_initializer=Constant(1.0))
    bias = _create_parameter(helper, bias_attr, param_shape, dtype, is_bias=True)
    mean = _create_parameter(
        helper, ParamAttr(name=moving_mean_name, initializer=Constant(0.0), trainable=False,
                          do_model_average=do_model_average_for_mean_and_var),
        param_shape, dtype)
    mean.stop_gradient = True
    variance = _create_parameter(
        helper, ParamAttr(name=moving_variance_name, initializer=Constant(1.0), trainable=False,
                          do_model_average=do_model_average_for_mean_and_var),
        param_shape, dtype)
    variance.stop_gradient = True
    saved_mean = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    saved_variance = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = input if in_place else helper.create_variable_for_type_inference(dtype)
    outputs = {"Y": out, "MeanOut": mean, "VarianceOut": variance,
               "SavedMean": saved_mean, "SavedVariance": saved_variance}
    if not is_test:
        # Paddle 3's CPU kernel needs ReserveSpace when training (1.x added it
        # only for cuDNN NHWC); named after Y, not from the tmp counter, so
        # the activation keeps its 1.x name (`.tmp_3`).
        outputs["ReserveSpace"] = helper.create_variable(
            name=out.name + ".reserve_space", dtype=input.dtype, stop_gradient=True)
    inputs = {"X": input, "Scale": scale, "Bias": bias, "Mean": mean, "Variance": variance}
    attrs = {"epsilon": epsilon, "is_test": is_test, "data_layout": data_layout,
             "use_mkldnn": False, "fuse_with_relu": False, "use_global_stats": use_global_stats}
    if isinstance(momentum, Variable):
        inputs["MomemtumTensor"] = momentum
    else:
        attrs["momentum"] = momentum
    helper.append_op(type="batch_norm", inputs=inputs, outputs=outputs, attrs=attrs)
    return helper.append_activation(out)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05,
               param_attr=None, bias_attr=None, act=None, name=None):
    """1.x layer_norm: scale `layer_norm_N.w_0` (Constant 1) and bias `.b_0`
    over the dims from begin_norm_axis; Mean and Variance (`.tmp_0`,
    `.tmp_1`) before Y (`.tmp_2`)."""
    helper = LayerHelper("layer_norm", act=act, name=name)
    dtype = input.dtype
    inputs = {"X": input}
    param_shape = [functools.reduce(lambda a, b: a * b, input.shape[begin_norm_axis:])]
    if scale:
        inputs["Scale"] = _create_parameter(helper, param_attr, param_shape, dtype,
                                            default_initializer=Constant(1.0))
    if shift:
        assert bias_attr is not False
        inputs["Bias"] = _create_parameter(helper, bias_attr, param_shape, dtype, is_bias=True)
    mean_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    variance_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="layer_norm", inputs=inputs,
                     outputs={"Y": out, "Mean": mean_out, "Variance": variance_out},
                     attrs={"epsilon": epsilon, "begin_norm_axis": begin_norm_axis})
    # 1.x's InferShape declared Mean and Variance one vector `[left]` (3.3.1
    # keeps the dims before the axis); a 1.x script sees 1.x's.
    lead = input.shape[:begin_norm_axis]
    left = -1 if any(d < 0 for d in lead) else functools.reduce(lambda a, b: a * b, lead, 1)
    for stat in (mean_out, variance_out):
        stat.desc.set_shape([left])
    return helper.append_activation(out)


def l2_normalize(x, axis, epsilon=1e-12, name=None):
    if len(x.shape) == 1:
        axis = 0
    helper = LayerHelper("l2_normalize", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    norm = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="norm", inputs={"X": x}, outputs={"Out": out, "Norm": norm},
                     attrs={"axis": 1 if axis is None else axis, "epsilon": epsilon})
    return out


def prelu(x, mode, param_attr=None, name=None):
    """1.x prelu: alpha `prelu_N.w_0` (Constant 1, float32) of [1], [1, C, 1, 1]
    or one sample's dims."""
    helper = LayerHelper("prelu", name=name)
    alpha_shape = [1]
    if mode == "channel":
        alpha_shape = [1, x.shape[1], 1, 1]
    elif mode == "element":
        alpha_shape = [1] + list(x.shape[1:])
    alpha = _create_parameter(helper, param_attr, alpha_shape, "float32",
                              default_initializer=Constant(1.0))
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="prelu", inputs={"X": x, "Alpha": alpha}, attrs={"mode": mode},
                     outputs={"Out": out})
    return out


def im2sequence(input, filter_size=1, stride=1, padding=0, input_image_size=None,
                out_stride=1, name=None):
    """1.x's im2sequence layer on Paddle 3.3.1's im2sequence op."""
    if isinstance(filter_size, int):
        filter_size = [filter_size, filter_size]
    if isinstance(stride, int):
        stride = [stride, stride]
    if isinstance(padding, int):
        padding = [padding, padding]
    if len(padding) == 2:
        padding.append(padding[0])
        padding.append(padding[1])
    inputs = {"X": input}
    attrs = {"kernels": filter_size, "strides": stride, "paddings": padding}
    if input_image_size is not None:
        if isinstance(out_stride, int):
            out_stride = [out_stride, out_stride]
        inputs["Y"] = input_image_size
        attrs["out_stride"] = out_stride
    helper = LayerHelper("im2sequence", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="im2sequence", inputs=inputs, outputs={"Out": out}, attrs=attrs)
    return out


def row_conv(input, future_context_size, param_attr=None, act=None):
    """1.x's row_conv layer on Paddle 3.3.1's row_conv op: the filter
    `row_conv_N.w_0` [future_context_size + 1, width] (Xavier)."""
    helper = LayerHelper("row_conv", act=act)
    filter_param = _create_parameter(helper, param_attr,
                                     [future_context_size + 1, input.shape[1]], input.dtype)
    out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="row_conv", inputs={"X": [input], "Filter": [filter_param]},
                     outputs={"Out": [out]})
    return helper.append_activation(out)


def label_smooth(label, prior_dist=None, epsilon=0.1, dtype="float32", name=None):
    helper = LayerHelper("label_smooth", name=name)
    label.stop_gradient = True
    out = helper.create_variable_for_type_inference(dtype)
    inputs = {"X": label, "PriorDist": prior_dist} if prior_dist else {"X": label}
    helper.append_op(type="label_smooth", inputs=inputs, outputs={"Out": out},
                     attrs={"epsilon": float(epsilon)})
    return out


def huber_loss(input, label, delta):
    helper = LayerHelper("huber_loss")
    residual = helper.create_variable_for_type_inference(dtype=input.dtype)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="huber_loss", inputs={"X": input, "Y": label},
                     outputs={"Out": out, "Residual": residual}, attrs={"delta": delta})
    return out


def _chain(helper, dtype):
    """`op(type, inputs, attrs)` appending one op of Paddle 3.3.1 with one
    `Out` to `helper`'s block."""
    def op(type, inputs, attrs=None):
        out = helper.create_variable_for_type_inference(dtype=dtype)
        helper.append_op(type=type, inputs=inputs, outputs={"Out": out}, attrs=attrs or {})
        return out
    return op


def smooth_l1(x, y, inside_weight=None, outside_weight=None, sigma=None):
    """1.x's smooth_l1, whose smooth_l1_loss op Paddle 3.3.1 dropped,
    written out of ops 3.3.1 has: `d = (x - y) * inside_weight`; per
    element `0.5 sigma^2 d^2` within `1 / sigma^2`, else `|d| - 0.5 /
    sigma^2` (huber_loss with delta `1 / sigma^2`, times `sigma^2`); times
    `outside_weight`; summed over each row into `[N, 1]`."""
    helper = LayerHelper("smooth_l1_loss")
    op = _chain(helper, x.dtype)
    sigma2 = float(sigma if sigma is not None else 1.0) ** 2
    diff = op("elementwise_sub", {"X": x, "Y": y})
    if inside_weight is not None and outside_weight is not None:
        diff = op("elementwise_mul", {"X": diff, "Y": inside_weight})
    zeros = op("scale", {"X": diff}, {"scale": 0.0})
    residual = helper.create_variable_for_type_inference(dtype=x.dtype)
    huber = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="huber_loss", inputs={"X": diff, "Y": zeros},
                     outputs={"Out": huber, "Residual": residual},
                     attrs={"delta": 1.0 / sigma2})
    errors = op("scale", {"X": huber}, {"scale": sigma2})
    if inside_weight is not None and outside_weight is not None:
        errors = op("elementwise_mul", {"X": errors, "Y": outside_weight})
    rows = helper.create_variable_for_type_inference(dtype=x.dtype)
    xshape = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reshape2", inputs={"X": errors}, outputs={"Out": rows, "XShape": xshape},
                     attrs={"shape": [0, -1]})
    return op("reduce_sum", {"X": rows}, {"dim": [1], "keep_dim": True})


def margin_rank_loss(label, left, right, margin=0.1, name=None):
    """1.x's margin_rank_loss (an op Paddle 3.3.1 dropped) out of ops 3.3.1
    has: `relu(-label * (left - right) + margin)`."""
    for what, v in (("label", label), ("left", left), ("right", right)):
        if not isinstance(v, Variable):
            raise ValueError("The %s should be a Variable." % what)
    op = _chain(LayerHelper("margin_rank_loss"), left.dtype)
    signed = op("elementwise_mul", {"X": label, "Y": op("elementwise_sub", {"X": left, "Y": right})})
    return op("relu", {"X": op("scale", {"X": signed}, {"scale": -1.0, "bias": float(margin)})})


def rank_loss(label, left, right, name=None):
    """1.x's rank_loss (an op Paddle 3.3.1 dropped) out of ops 3.3.1 has:
    `log(1 + exp(left - right)) - label * (left - right)`."""
    for what, v in (("label", label), ("left", left), ("right", right)):
        if not isinstance(v, Variable):
            raise ValueError("The %s should be a Variable" % what)
    op = _chain(LayerHelper("rank_loss"), "float32")
    d = op("elementwise_sub", {"X": left, "Y": right})
    softplus = op("log", {"X": op("scale", {"X": op("exp", {"X": d})}, {"scale": 1.0, "bias": 1.0})})
    return op("elementwise_sub", {"X": softplus, "Y": op("elementwise_mul", {"X": label, "Y": d})})


def lrn(input, n=5, k=1.0, alpha=1e-4, beta=0.75, name=None):
    """1.x's lrn on Paddle 3.3.1's lrn op (the same op and attributes)."""
    helper = LayerHelper("lrn", input=input, name=name)
    dtype = helper.input_dtype()
    if len(input.shape) != 4:
        raise ValueError(
            "dims of input must be 4(not %d), and it's order must be NCHW" % len(input.shape))
    mid_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    lrn_out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="lrn", inputs={"X": input}, outputs={"Out": lrn_out, "MidOut": mid_out},
                     attrs={"n": n, "k": k, "alpha": alpha, "beta": beta})
    return lrn_out


def image_resize(input, out_shape=None, scale=None, name=None, resample="BILINEAR",
                 actual_shape=None, align_corners=True, align_mode=1):
    """1.4's image_resize on Paddle 3.3.1's bilinear_interp/nearest_interp
    ops (1.x's ops, kept with the same attributes)."""
    methods = {"BILINEAR": "bilinear", "NEAREST": "nearest"}
    if resample not in methods:
        raise ValueError(
            "The 'resample' of image_resize can only be 'BILINEAR' or 'NEAREST' currently.")
    if not isinstance(align_corners, bool):
        raise TypeError("Attr align_corners should be a bool value")
    if align_mode != 0 and align_mode != 1:
        raise ValueError("align_mode can only be 0 or 1")
    if out_shape is None and scale is None:
        raise ValueError("One of out_shape and scale must not be None.")
    helper = LayerHelper("%s_interp" % methods[resample], input=input, name=name)
    inputs = {"X": input}
    attrs = {"out_h": 0, "out_w": 0, "interp_method": methods[resample],
             "align_corners": align_corners, "align_mode": align_mode}
    if out_shape is not None:
        if isinstance(out_shape, Variable):
            inputs["OutSize"] = out_shape
        else:
            if not isinstance(out_shape, (list, tuple)):
                raise TypeError("out_shape should be a list or tuple or Variable.")
            if len(out_shape) != 2:
                raise ValueError("out_shape length should be 2.")
            attrs["out_h"], attrs["out_w"] = [int(d) for d in out_shape]
    else:
        if scale <= 0:
            raise ValueError("scale should be greater than zero.")
        h, w = input.shape[2], input.shape[3]
        if h > 0 and w > 0:
            # 1.x sampled at in/out whatever the scale; Paddle 3.3.1's op
            # samples at 1/scale when given one, so the size goes as out_h
            # and out_w (1.x's float product, rounded down).
            attrs["out_h"] = int(numpy.float32(h) * numpy.float32(scale))
            attrs["out_w"] = int(numpy.float32(w) * numpy.float32(scale))
        else:
            attrs["scale"] = float(scale)
    if isinstance(actual_shape, Variable):
        inputs["OutSize"] = actual_shape
    elif actual_shape is not None:
        raise TypeError("actual_shape should either be Variable or None.")
    out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="%s_interp" % methods[resample], inputs=inputs, outputs={"Out": out},
                     attrs=attrs)
    return out


def resize_bilinear(input, out_shape=None, scale=None, name=None, actual_shape=None,
                    align_corners=True, align_mode=1):
    return image_resize(input, out_shape, scale, name, "BILINEAR", actual_shape,
                        align_corners, align_mode)


def resize_nearest(input, out_shape=None, scale=None, name=None, actual_shape=None,
                   align_corners=True):
    return image_resize(input, out_shape, scale, name, "NEAREST", actual_shape, align_corners)


def image_resize_short(input, out_short_len, resample="BILINEAR"):
    in_shape = input.shape
    if len(in_shape) != 4:
        raise ValueError("The rank of input must be 4 (num_batches, channels, in_h, in_w).")
    hw = list(in_shape[2:4])
    short_idx = hw.index(min(hw))
    long_idx = 1 - short_idx
    out_shape = list(hw)
    out_shape[short_idx] = out_short_len
    out_shape[long_idx] = int(
        float(out_shape[long_idx]) * (float(out_short_len) / float(hw[short_idx])) + 0.5)
    return image_resize(input=input, out_shape=out_shape, resample=resample)


def cumsum(x, axis=None, exclusive=None, reverse=None):
    """1.x's generated cumsum layer on Paddle 3.3.1's cumsum op: the
    arguments left None keep the op's defaults."""
    helper = LayerHelper("cumsum", x=x)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    attrs = {k: v for k, v in (("axis", axis), ("exclusive", exclusive), ("reverse", reverse))
             if v is not None}
    helper.append_op(type="cumsum", inputs={"X": x}, outputs={"Out": out}, attrs=attrs)
    return out


def unstack(x, axis=0, num=None):
    """1.x's unstack layer on Paddle 3.3.1's unstack op."""
    helper = LayerHelper("unstack")
    if num is None:
        if axis is None or x.shape[axis] <= 0:
            raise ValueError('unknown unstack number')
        num = x.shape[axis]
    outs = [helper.create_variable_for_type_inference(x.dtype) for _ in range(num)]
    helper.append_op(type="unstack", inputs={"X": [x]}, outputs={"Y": outs},
                     attrs={"axis": axis, "num": num})
    return outs


def sequence_mask(x, maxlen=None, dtype='int64', name=None):
    """1.x's sequence_mask layer on Paddle 3.3.1's sequence_mask op."""
    helper = LayerHelper("sequence_mask", name=name)
    out = helper.create_variable_for_type_inference(dtype=dtype)
    inputs = {"X": [x]}
    attrs = {"out_dtype": out.dtype}
    if maxlen is not None:
        if isinstance(maxlen, Variable):
            inputs["MaxLenTensor"] = maxlen
        else:
            attrs["maxlen"] = maxlen
    helper.append_op(type="sequence_mask", inputs=inputs, outputs={"Y": out}, attrs=attrs)
    out.stop_gradient = True
    return out


# 1.x's sequence_pad and sequence_unpad, which Paddle 3.3.1 dropped:
# computed in numpy by py_funcs (forward and backward), after 1.x's
# PaddingLoDTensorFunctor / UnpaddingLoDTensorFunctor.


def _seq_row_offsets(lod):
    """Level 0 of `lod` in rows (1.x's ToAbsOffset(lod)[0])."""
    top = list(lod[0])
    for level in lod[1:]:
        top = [level[o] for o in top]
    return top


def _seq_padded(rows, spans, padded, fill):
    out = numpy.empty((len(spans), padded) + rows.shape[1:], dtype=rows.dtype)
    out[...] = fill
    for i, (a, b) in enumerate(spans):
        out[i, :b - a] = rows[a:b]
    return out


def sequence_pad(x, pad_value, maxlen=None, name=None):
    """1.x's sequence_pad layer: `(Out, Length)`, `Out` the sequences of
    `x`'s LoD level 0 padded after their end with `pad_value` to `maxlen`
    steps (None: the longest), `Length` their int64 lengths."""
    helper = LayerHelper("sequence_pad", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    length = helper.create_variable_for_type_inference(dtype=x.dtype)
    out.desc.set_shape([-1, 1 if maxlen is None else maxlen] + list(x.shape[1:]))
    length.desc.set_shape([-1, 1])  # 1.2-1.5's (1.6: [-1])
    pad_value.stop_gradient = True
    length.stop_gradient = True

    def spans(xt):
        offsets = _seq_row_offsets(list(xt.lod()))
        return list(zip(offsets[:-1], offsets[1:]))

    def forward(xt, pt):
        rows = numpy.array(xt)
        sp = spans(xt)
        longest = max([b - a for a, b in sp] + [0])
        padded = longest if maxlen is None or maxlen == -1 else maxlen
        if padded < longest:
            raise ValueError("The Attr(padded_length) must be -1 or an int greater than "
                             "the length of the longest original sequence.")
        fill = numpy.array(pt).astype(rows.dtype).reshape(-1)
        fill = fill[0] if fill.size == 1 else fill.reshape(rows.shape[1:])
        lengths = numpy.array([[b - a] for a, b in sp], dtype="int64").reshape(-1, 1)
        return _ifelse_tensor(_seq_padded(rows, sp, padded, fill), []), _ifelse_tensor(lengths, [])

    def backward(xt, pt, dout, dlength):
        d = numpy.array(dout)
        dx = numpy.concatenate([d[i, :b - a] for i, (a, b) in enumerate(spans(xt))]
                               + [d[:0, 0]])
        return dx.reshape(numpy.array(xt).shape), None

    paddle.static.py_func(forward, [x, pad_value], [out, length], backward_func=backward,
                          skip_vars_in_backward_input=[out, length])
    return out, length


def sequence_unpad(x, length, name=None):
    """1.x's sequence_unpad layer: the first `length[i]` steps of each
    `x[i]`, as a LoD tensor of one level."""
    helper = LayerHelper("sequence_unpad", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    out.desc.set_shape([-1] + (list(x.shape[2:]) if len(x.shape) > 2 else [1]))
    length.stop_gradient = True

    def spans(xt, lt):
        lengths = numpy.array(lt).reshape(-1).astype("int64")
        return [(i, int(n)) for i, n in enumerate(lengths)]

    def forward(xt, lt):
        arr = numpy.array(xt)
        sp = spans(xt, lt)
        step = arr.shape[2:] if arr.ndim > 2 else (1,)
        rows = numpy.concatenate([arr[i, :n].reshape((n,) + step) for i, n in sp]
                                 + [arr[:0, 0].reshape((0,) + step)])
        offsets = [0]
        for _, n in sp:
            offsets.append(offsets[-1] + n)
        return _ifelse_tensor(rows, [offsets])

    def backward(xt, lt, dout):
        arr = numpy.array(xt)
        d = numpy.array(dout)
        dx = numpy.zeros_like(arr)
        at = 0
        for i, n in spans(xt, lt):
            dx[i, :n] = d[at:at + n].reshape((n,) + arr.shape[2:])
            at += n
        return dx, None

    paddle.static.py_func(forward, [x, length], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


# 1.x's sequence_reverse, sequence_concat, sequence_slice, sequence_reshape,
# sequence_enumerate and sequence_expand_as, which Paddle 3.3.1 dropped:
# numpy in py_funcs (forward and backward), the LoD set as 1.x's kernels
# set it.


def _seq_level0(t):
    return [int(o) for o in t.lod()[0]]


def _seq_func(layer, inputs, out_dtype, shape, forward, backward=None, name=None,
              out_name=None):
    helper = LayerHelper(layer, name=name)
    if out_name is None:
        out = helper.create_variable_for_type_inference(dtype=out_dtype)
    else:
        out = helper.create_variable(name=out_name, dtype=out_dtype, persistable=False)
    out.desc.set_shape(shape)
    paddle.static.py_func(forward, inputs, out, backward_func=backward,
                          skip_vars_in_backward_input=[out] if backward else None)
    return out


def sequence_reverse(x, name=None):
    """Each sequence of `x` reversed, the LoD kept; its gradient the same."""
    def rev(arr, lod):
        return numpy.concatenate([arr[a:b][::-1] for a, b in zip(lod[:-1], lod[1:])]
                                 + [arr[:0]])

    def forward(xt):
        return _ifelse_tensor(rev(numpy.array(xt), _seq_level0(xt)), [_seq_level0(xt)])

    def backward(xt, dy):
        return rev(numpy.array(dy), _seq_level0(xt))

    return _seq_func("sequence_reverse", [x], x.dtype, list(x.shape), forward, backward,
                     out_name=name)


def sequence_concat(input, name=None):
    """Sequence i of each input, in turn; LoD the sums of their offsets."""
    n = len(input)

    def forward(*ts):
        lods = [_seq_level0(t) for t in ts]
        arrs = [numpy.array(t) for t in ts]
        parts = [a[lod[i - 1]:lod[i]] for i in range(1, len(lods[0]))
                 for a, lod in zip(arrs, lods)]
        offsets = [sum(lod[i] for lod in lods) for i in range(len(lods[0]))]
        return _ifelse_tensor(numpy.concatenate(parts + [arrs[0][:0]]), [offsets])

    def backward(*args):
        ts, d = args[:n], numpy.array(args[n])
        lods = [_seq_level0(t) for t in ts]
        grads = [[] for _ in ts]
        at = 0
        for i in range(1, len(lods[0])):
            for j, lod in enumerate(lods):
                k = lod[i] - lod[i - 1]
                grads[j].append(d[at:at + k])
                at += k
        return [numpy.concatenate(g + [d[:0]]) for g in grads]

    first = input[0]
    return _seq_func("sequence_concat", list(input), first.dtype,
                     [-1] + list(first.shape[1:]), forward, backward, name)


def sequence_slice(input, offset, length, name=None):
    """`length[i]` rows of sequence i from `offset[i]`; LoD the lengths."""
    offset.stop_gradient = True
    length.stop_gradient = True

    def spans(xt, ot, lt):
        lod = _seq_level0(xt)
        off = numpy.array(ot).reshape(-1)
        lens = numpy.array(lt).reshape(-1)
        return [(lod[i] + int(off[i]), lod[i] + int(off[i]) + int(lens[i]))
                for i in range(len(lod) - 1)]

    def forward(xt, ot, lt):
        arr = numpy.array(xt)
        sp = spans(xt, ot, lt)
        offsets = [0]
        for a, b in sp:
            offsets.append(offsets[-1] + b - a)
        return _ifelse_tensor(numpy.concatenate([arr[a:b] for a, b in sp] + [arr[:0]]),
                              [offsets])

    def backward(xt, ot, lt, dout):
        arr, d = numpy.array(xt), numpy.array(dout)
        dx = numpy.zeros_like(arr)
        at = 0
        for a, b in spans(xt, ot, lt):
            dx[a:b] = d[at:at + b - a]
            at += b - a
        return dx, None, None

    return _seq_func("sequence_slice", [input, offset, length], input.dtype,
                     list(input.shape), forward, backward, name)


def sequence_reshape(input, new_dim):
    """The rows of each sequence regrouped into rows of `new_dim`."""
    def forward(xt):
        arr = numpy.array(xt)
        lod = _seq_level0(xt)
        width = arr.shape[1]
        offsets = [o * width // new_dim for o in lod]
        return _ifelse_tensor(arr.reshape(-1, new_dim), [offsets])

    def backward(xt, dout):
        return numpy.array(dout).reshape(numpy.array(xt).shape)

    return _seq_func("sequence_reshape", [input], input.dtype, [-1, new_dim], forward,
                     backward)


def sequence_enumerate(input, win_size, pad_value=0, name=None):
    """For each id, the `win_size` ids from it on in its sequence, padded."""
    def forward(xt):
        arr = numpy.array(xt).reshape(-1)
        lod = _seq_level0(xt)
        out = numpy.full((arr.shape[0], win_size), pad_value, dtype=arr.dtype)
        for a, b in zip(lod[:-1], lod[1:]):
            for r in range(a, b):
                window = arr[r:min(r + win_size, b)]
                out[r, :len(window)] = window
        return _ifelse_tensor(out, [lod])

    out = _seq_func("sequence_enumerate", [input], input.dtype,
                    [input.shape[0], win_size], forward, None, name)
    out.stop_gradient = True
    return out


def sequence_expand_as(x, y, name=None):
    """Row i of `x` repeated over the rows of sequence i of `y`; `y`'s LoD."""
    def counts(yt):
        lod = _seq_level0(yt)
        return numpy.diff(numpy.array(lod, dtype="int64")), lod

    def forward(xt, yt):
        c, lod = counts(yt)
        return _ifelse_tensor(numpy.repeat(numpy.array(xt), c, axis=0), [lod])

    def backward(xt, yt, dout):
        c, lod = counts(yt)
        d = numpy.array(dout)
        dx = numpy.stack([d[a:b].sum(axis=0) for a, b in zip(lod[:-1], lod[1:])])
        # 1.x's grad gives Y none; Paddle 3.3.1's py_func wants one when Y
        # needs a gradient: zeros add nothing.
        yv = numpy.array(yt)
        return dx.astype(d.dtype), (numpy.zeros_like(yv) if yv.dtype.kind == "f" else None)

    return _seq_func("sequence_expand_as", [x, y], x.dtype, [-1] + list(x.shape[1:]),
                     forward, backward, name)


def pad(x, paddings, pad_value=0.0, name=None):
    helper = LayerHelper("pad", name=name)
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="pad", inputs={"X": x}, outputs={"Out": out},
                     attrs={"paddings": paddings, "pad_value": float(pad_value)})
    return out


def sum_layer(x):
    """1.x sum(x): the `sum` op into `sum_N.tmp_0`."""
    helper = LayerHelper("sum")
    first = x[0] if isinstance(x, (list, tuple)) else x
    out = helper.create_variable_for_type_inference(dtype=first.dtype)
    helper.append_op(type="sum", inputs={"X": x}, outputs={"Out": out},
                     attrs={"use_mkldnn": False})
    return out


def dropout(x, dropout_prob, is_test=False, seed=None, name=None,
            dropout_implementation="downgrade_in_infer"):
    """1.x dropout: a seed of None/0 takes the main program's random_seed
    when that is set (fix_seed then true). Paddle 3 keeps seed/fix_seed as
    extra attributes."""
    helper = LayerHelper("dropout", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    mask = helper.create_variable_for_type_inference(dtype=VarType.UINT8, stop_gradient=True)
    if (seed is None or seed == 0) and helper.main_program.random_seed != 0:
        seed = helper.main_program.random_seed
    helper.append_op(type="dropout", inputs={"X": [x]}, outputs={"Out": [out], "Mask": [mask]},
                     attrs={"dropout_prob": dropout_prob, "is_test": is_test,
                            "fix_seed": seed is not None, "seed": seed if seed is not None else 0,
                            "dropout_implementation": dropout_implementation})
    return out


_IGNORE_INDEX = -100


def cross_entropy(input, label, soft_label=False, ignore_index=_IGNORE_INDEX):
    """1.x up to 1.5: one `cross_entropy` op for hard and soft labels (1.6+
    built `cross_entropy2` for hard labels; fluidc follows the earlier form,
    which the 2018-19 scripts it targets were written against)."""
    helper = LayerHelper("cross_entropy")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="cross_entropy", inputs={"X": [input], "Label": [label]},
                     outputs={"Y": [out]},
                     attrs={"soft_label": soft_label, "ignore_index": ignore_index})
    return out


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=_IGNORE_INDEX,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    helper = LayerHelper("softmax_with_cross_entropy")
    softmax_out = helper.create_variable_for_type_inference(dtype=logits.dtype)
    loss = helper.create_variable_for_type_inference(dtype=logits.dtype)
    helper.append_op(type="softmax_with_cross_entropy",
                     inputs={"Logits": logits, "Label": label},
                     outputs={"Softmax": softmax_out, "Loss": loss},
                     attrs={"soft_label": soft_label, "ignore_index": ignore_index,
                            "numeric_stable_mode": numeric_stable_mode, "axis": axis})
    return (loss, softmax_out) if return_softmax else loss


def topk(input, k, name=None):
    helper = LayerHelper("top_k", name=name)
    inputs, attrs = {"X": [input]}, {}
    if isinstance(k, Variable):
        inputs["K"] = [k]
    else:
        attrs = {"k": k}
    values = helper.create_variable_for_type_inference(dtype=input.dtype)
    indices = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="top_k", inputs=inputs,
                     outputs={"Out": [values], "Indices": [indices]}, attrs=attrs)
    values.stop_gradient = True
    indices.stop_gradient = True
    return values, indices


def accuracy(input, label, k=1, correct=None, total=None):
    """1.x metric_op.accuracy: `top_k` then `accuracy` (float32 Accuracy,
    int32 Correct and Total)."""
    helper = LayerHelper("accuracy")
    topk_out, topk_indices = topk(input, k=k)
    acc_out = helper.create_variable_for_type_inference(dtype="float32")
    if correct is None:
        correct = helper.create_variable_for_type_inference(dtype="int32")
    if total is None:
        total = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="accuracy",
                     inputs={"Out": [topk_out], "Indices": [topk_indices], "Label": [label]},
                     outputs={"Accuracy": [acc_out], "Correct": [correct], "Total": [total]})
    return acc_out


def auc(input, label, curve="ROC", num_thresholds=2**12 - 1, topk=1, slide_steps=1):
    """1.x metric_op.auc: a batch `auc` over the last `slide_steps` batches and
    a global one, each with persistable int64 statistics zeroed at startup
    (no InsTagWeight, which 3.3.1's own layer adds)."""
    helper = LayerHelper("auc")
    auc_out = helper.create_variable_for_type_inference(dtype="float64")
    batch_auc_out = helper.create_variable_for_type_inference(dtype="float64")
    ring = [(1 + slide_steps) * (num_thresholds + 1) + 1]
    stats = [create_global_var(shape, 0, "int64", persistable=True)
             for shape in (ring, ring, [1, num_thresholds + 1], [1, num_thresholds + 1])]
    for out, (pos, neg), steps in ((batch_auc_out, stats[:2], slide_steps),
                                   (auc_out, stats[2:], 0)):
        helper.append_op(type="auc",
                         inputs={"Predict": [input], "Label": [label],
                                 "StatPos": [pos], "StatNeg": [neg]},
                         attrs={"curve": curve, "num_thresholds": num_thresholds,
                                "slide_steps": steps},
                         outputs={"AUC": [out], "StatPosOut": [pos], "StatNegOut": [neg]})
    return auc_out, batch_auc_out, stats


def concat(input, axis=0, name=None):
    if not isinstance(input, list):
        input = [input]
    helper = LayerHelper("concat", name=name)
    out = helper.create_variable_for_type_inference(dtype=input[0].dtype)
    inputs, attrs = {"X": input}, {}
    if isinstance(axis, Variable):
        axis.stop_gradient = True
        inputs["AxisTensor"] = axis
    else:
        attrs["axis"] = axis
    helper.append_op(type="concat", inputs=inputs, outputs={"Out": [out]}, attrs=attrs)
    return out


def sums(input, out=None):
    helper = LayerHelper("sum")
    if out is None:
        first = input[0] if isinstance(input, (list, tuple)) else input
        out = helper.create_variable_for_type_inference(dtype=first.dtype)
    helper.append_op(type="sum", inputs={"X": input}, outputs={"Out": out},
                     attrs={"use_mkldnn": False})
    return out


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    """1.x reshape: `reshape2` with an XShape output; Variables inside
    `shape` become int32 `fill_constant`s in ShapeTensor."""
    helper = LayerHelper("reshape2", act=act, name=name)
    inputs, attrs = {"X": x}, {}
    if isinstance(shape, Variable):
        shape.stop_gradient = True
        inputs["Shape"] = shape
    else:
        attrs["shape"] = [-1 if isinstance(d, Variable) else d for d in shape]
        if any(isinstance(d, Variable) for d in shape):
            tensors = []
            for dim in shape:
                if isinstance(dim, Variable):
                    dim.stop_gradient = True
                    tensors.append(dim)
                else:
                    tmp = helper.create_variable_for_type_inference("int32")
                    fill_constant([1], "int32", dim, force_cpu=True, out=tmp)
                    tensors.append(tmp)
            inputs["ShapeTensor"] = tensors
        elif isinstance(actual_shape, Variable):
            actual_shape.stop_gradient = True
            inputs["Shape"] = actual_shape
    out = x if inplace else helper.create_variable_for_type_inference(dtype=x.dtype)
    x_shape = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reshape2", inputs=inputs, attrs=attrs,
                     outputs={"Out": out, "XShape": x_shape})
    return helper.append_activation(out)


def transpose(x, perm, name=None):
    helper = LayerHelper("transpose", name=name)
    out = helper.create_variable_for_type_inference(x.dtype)
    x_shape = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="transpose2", inputs={"X": [x]},
                     outputs={"Out": [out], "XShape": [x_shape]}, attrs={"axis": perm})
    return out


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    """1.x's matmul layer: the `matmul` op (Paddle 3.3.1 still registers it)
    with `transpose_X`, `transpose_Y` and `alpha`."""
    helper = LayerHelper("matmul", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="matmul", inputs={"X": x, "Y": y}, outputs={"Out": out},
                     attrs={"transpose_X": transpose_x, "transpose_Y": transpose_y,
                            "alpha": float(alpha)})
    return out


def _reduce(op_type):
    def layer(input, dim=None, keep_dim=False, name=None):
        if isinstance(input, (list, tuple)) and len(input) == 1:
            input = input[0]  # 1.0-1.5 passed the list to the op's X
        helper = LayerHelper(op_type, name=name)
        out = helper.create_variable_for_type_inference(dtype=input.dtype)
        if dim is not None and not isinstance(dim, list):
            dim = [dim]
        helper.append_op(type=op_type, inputs={"X": input}, outputs={"Out": out},
                         attrs={"dim": dim if dim else [0], "keep_dim": keep_dim,
                                "reduce_all": not dim})
        return out

    layer.__name__ = op_type
    return layer


def clip(x, min, max, name=None):
    helper = LayerHelper("clip", name=name)
    if name is None:
        name = unique_name.generate_with_ignorable_key(helper.name + ".tmp")
    out = helper.create_variable(type=x.type, name=name, dtype=x.dtype, persistable=False)
    helper.append_op(type="clip", inputs={"X": x}, attrs={"min": min, "max": max},
                     outputs={"Out": out})
    return out


def autoincreased_step_counter(counter_name=None, begin=1, step=1):
    """1.x: an int64 [1] persistable counter initialized to begin - 1 (a
    force_cpu fill_constant prepended to startup) and an `increment`
    prepended to the main program's block 0."""
    helper = LayerHelper("global_step_counter")
    if counter_name is None:
        counter_name = "@STEP_COUNTER@"
    counter, is_new_var = helper.create_or_get_global_variable(
        name=counter_name, dtype="int64", shape=[1], persistable=True,
        belong_to_optimizer=True)
    if is_new_var:
        helper.startup_program.global_block().create_var(
            name=counter.name, type=counter.type, dtype=counter.dtype, shape=counter.shape,
            persistable=True, initializer=Constant(value=begin - 1, force_cpu=True))
        helper.main_program.global_block()._prepend_op(
            type="increment", inputs={"X": [counter]}, outputs={"Out": [counter]},
            attrs={"step": float(step)})
        counter.stop_gradient = True
    return counter


def log_loss(input, label, epsilon=1e-4, name=None):
    helper = LayerHelper("log_loss", name=name)
    loss = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="log_loss", inputs={"Predicted": [input], "Labels": [label]},
                     outputs={"Loss": [loss]}, attrs={"epsilon": epsilon})
    return loss


def _nce_alias_tables(dist):
    """1.2's alias tables for nce's custom_dist sampler (ties within 1e-4)."""
    n = len(dist)
    alias_probs, alias = [0] * n, [0] * n
    bigs, littles = [], []
    for i in range(n):
        scaled = dist[i] * n
        if scaled - 1.0 > 1e-4:
            bigs.append((i, scaled))
        elif 1.0 - scaled > 1e-4:
            littles.append((i, scaled))
        else:
            alias_probs[i], alias[i] = scaled, -1
    while bigs and littles:
        big, little = bigs.pop(0), littles.pop(0)
        alias_probs[little[0]], alias[little[0]] = little[1], big[0]
        left = big[1] + little[1] - 1
        if left - 1.0 > 1e-4:
            bigs.append((big[0], left))
        elif 1.0 - left > 1e-4:
            littles.append((big[0], left))
        else:
            alias_probs[big[0]], alias[big[0]] = left, -1
    for rest in (bigs, littles):
        if rest:
            alias_probs[rest[0][0]], alias[rest[0][0]] = 1.0, -1
    return alias_probs, alias


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None, bias_attr=None,
        num_neg_samples=None, name=None, sampler="uniform", custom_dist=None, seed=0,
        is_sparse=False):
    """1.2's nce: the raw `nce` op with the weight [C, dim] and the bias
    [C, 1] (`nce_N.w_0`, `nce_N.b_0`), its cost / (num_neg_samples + 1)."""
    helper = LayerHelper("nce", name=name)
    w = _create_parameter(helper, param_attr, [num_total_classes, input.shape[1]], input.dtype)
    inputs = {}
    b = _create_parameter(helper, bias_attr, [num_total_classes, 1], input.dtype, is_bias=True)
    if b is not None:
        inputs["Bias"] = b
    cost = helper.create_variable_for_type_inference(dtype=input.dtype)
    sample_logits = helper.create_variable_for_type_inference(dtype=input.dtype)
    sample_labels = helper.create_variable_for_type_inference(dtype=label.dtype)
    inputs.update({"Input": input, "Label": label, "Weight": w})
    if sample_weight is not None:
        inputs["SampleWeight"] = sample_weight
    samplers = {"uniform": 0, "log_uniform": 1, "custom_dist": 2}
    if sampler not in samplers:
        raise Exception("Unsupported sampler type.")
    if sampler == "custom_dist":
        assert custom_dist is not None
        alias_probs, alias = _nce_alias_tables(custom_dist)
        inputs["CustomDistProbs"] = assign(numpy.array(custom_dist).astype("float32"))
        inputs["CustomDistAlias"] = assign(numpy.array(alias).astype("int32"))
        inputs["CustomDistAliasProbs"] = assign(numpy.array(alias_probs).astype("float32"))
    num_neg_samples = 10 if num_neg_samples is None else int(num_neg_samples)
    helper.append_op(type="nce", inputs=inputs,
                     outputs={"Cost": cost, "SampleLogits": sample_logits,
                              "SampleLabels": sample_labels},
                     attrs={"num_total_classes": int(num_total_classes),
                            "num_neg_samples": num_neg_samples, "seed": seed,
                            "sampler": samplers[sampler], "is_sparse": is_sparse})
    return cost / (num_neg_samples + 1)


def square_error_cost(input, label):
    helper = LayerHelper("square_error_cost")
    minus_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="elementwise_sub", inputs={"X": [input], "Y": [label]},
                     outputs={"Out": [minus_out]})
    square_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="square", inputs={"X": [minus_out]}, outputs={"Out": [square_out]})
    return square_out


def mse_loss(input, label):
    """1.6: `square_error_cost` then `reduce_mean` (3.3.1's
    paddle.nn.functional.mse_loss builds 2.x ops)."""
    return _reduce("reduce_mean")(square_error_cost(input, label))


def dice_loss(input, label, epsilon=0.00001, name=None):
    """1.x (2018-2019): one-hot labels over the last axis, sums over all
    axes but the batch's, `1 - 2 * inter / (sum + epsilon)` averaged."""
    label = one_hot(label, depth=input.shape[-1])
    dims = list(range(1, len(input.shape)))
    reduce_sum = _reduce("reduce_sum")
    inse = reduce_sum(input * label, dim=dims)
    denominator = reduce_sum(input, dim=dims) + reduce_sum(label, dim=dims)
    return _reduce("reduce_mean")(1 - inse * 2 / (denominator + epsilon))


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """1.4-1.6's composition: "same label" rows (normalized) as soft labels
    of the anchor-positive similarities, plus 0.25 * l2_reg times the mean
    squared norms."""
    reduce_sum, reduce_mean = _reduce("reduce_sum"), _reduce("reduce_mean")
    batch_size = labels.shape[0]
    labels = reshape(labels, shape=[batch_size, 1], inplace=True)
    labels = expand(labels, expand_times=[1, batch_size])
    labels = _compare("equal")(labels, transpose(labels, perm=[1, 0])).astype("float32")
    labels = labels / reduce_sum(labels, dim=1, keep_dim=True)
    square = _unary("square")
    l2loss = reduce_mean(reduce_sum(square(anchor), 1)) + \
        reduce_mean(reduce_sum(square(positive), 1))
    l2loss = l2loss * 0.25 * l2_reg
    similarity = matmul(anchor, positive, transpose_x=False, transpose_y=True)
    softmax_ce = softmax_with_cross_entropy(logits=similarity, label=labels, soft_label=True)
    return l2loss + reduce_mean(reduce_sum(labels * softmax_ce, 0))


def rank_layer(input):
    """1.4+: the rank, known at build time, as an int32 assign_value."""
    return assign(numpy.array(len(input.shape), "int32"))


def _named_out(helper, name, dtype):
    if name is None:
        return helper.create_variable_for_type_inference(dtype=dtype)
    return helper.create_variable(name=name, dtype=dtype, persistable=False)


def scatter_nd_add(ref, index, updates, name=None):
    """1.6's layer on 3.3.1's op."""
    helper = LayerHelper("scatter_nd_add", name=name)
    out = _named_out(helper, name, ref.dtype)
    helper.append_op(type="scatter_nd_add", inputs={"X": ref, "Index": index, "Updates": updates},
                     outputs={"Out": out})
    return out


def scatter_nd(index, updates, shape, name=None):
    return scatter_nd_add(zeros(shape, updates.dtype), index, updates, name)


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    helper = LayerHelper("shard_index")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="shard_index", inputs={"X": [input]}, outputs={"Out": out},
                     attrs={"index_num": index_num, "nshards": nshards, "shard_id": shard_id,
                            "ignore_value": ignore_value})
    return out


def continuous_value_model(input, cvm, use_cvm=True):
    helper = LayerHelper("cvm")
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="cvm", inputs={"X": [input], "CVM": [cvm]}, outputs={"Y": [out]},
                     attrs={"use_cvm": use_cvm})
    if input.lod_level > 0:
        out.desc.set_lod_level(input.lod_level)
    return out


def hash(input, hash_size, num_hash=1, name=None):
    helper = LayerHelper("hash", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype, stop_gradient=True)
    helper.append_op(type="hash", inputs={"X": [input]}, outputs={"Out": out},
                     attrs={"num_hash": num_hash, "mod_by": hash_size})
    if input.lod_level > 0:
        out.desc.set_lod_level(input.lod_level)
    return out


def add_position_encoding(input, alpha, beta, name=None):
    helper = LayerHelper("add_position_encoding", name=name)
    out = _named_out(helper, name, input.dtype)
    helper.append_op(type="add_position_encoding", inputs={"X": input}, outputs={"Out": out},
                     attrs={"alpha": float(alpha), "beta": float(beta)})
    if input.lod_level > 0:
        out.desc.set_lod_level(input.lod_level)
    return out


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    """1.x's layer on 3.3.1's op, its parameters named and initialized as
    1.x's LayerHelper did (`_create_parameter`)."""
    helper = LayerHelper("bilinear_tensor_product", name=name, act=act)
    w = _create_parameter(helper, param_attr, [size, x.shape[1], y.shape[1]], x.dtype)
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(name=name, dtype=x.dtype, persistable=False)
    inputs = {"X": x, "Y": y, "Weight": w}
    bias = _create_parameter(helper, bias_attr, [1, size], x.dtype, is_bias=True)
    if bias is not None:
        inputs["Bias"] = bias
    helper.append_op(type="bilinear_tensor_product", inputs=inputs, outputs={"Out": out})
    return helper.append_activation(out)


def cos_sim(X, Y):
    """1.x's cos_sim, which Paddle 3.3.1 dropped (its cosine_similarity
    differs: a [N] result, eps on the product of the norms), written out of
    ops 3.3.1 has, as 1.x's functor computes it: per row, the squared norms
    clamped at 1e-8 before their square roots, `Out = X.Y / (|X| |Y|)`,
    `[N, 1]`; a one-row Y is compared with every row of X."""
    helper = LayerHelper("cos_sim")

    def tmp():
        return helper.create_variable_for_type_inference(dtype=X.dtype)

    def op(type, inputs, attrs=None):
        out = tmp()
        helper.append_op(type=type, inputs=inputs, outputs={"Out": out}, attrs=attrs or {})
        return out

    def row_sum(a, b):
        product = op("elementwise_mul", {"X": a, "Y": b})
        return op("reduce_sum", {"X": product}, {"dim": [1], "keep_dim": True})

    def row_norm(a):
        clamped = op("clip", {"X": row_sum(a, a)}, {"min": 1e-8, "max": 3.4e38})
        return op("sqrt", {"X": clamped})

    norms = op("elementwise_mul", {"X": row_norm(X), "Y": row_norm(Y)})
    return op("elementwise_div", {"X": row_sum(X, Y), "Y": norms})


# ---------------------------------------------------------------- sequence labelling


def _logsumexp(a, axis):
    top = a.max(axis=axis, keepdims=True)
    return (top + numpy.log(numpy.exp(a - top).sum(axis=axis, keepdims=True))).squeeze(axis)


def _crf_sequence(x, w, tags):
    """One sequence of a linear-chain CRF, in float64 log space: its cost
    `log Z - score(tags)` and the cost's gradients in the emissions `x`
    [L, D] and the transitions `w` [D + 2, D] (row 0 start, row 1 end,
    row 2 + i from tag i), from the forward and backward log-vectors and
    the marginals they give."""
    length, d = x.shape
    start, end, trans = w[0], w[1], w[2:]
    alpha = numpy.empty((length, d))
    beta = numpy.empty((length, d))
    alpha[0] = start + x[0]
    for k in range(1, length):
        alpha[k] = _logsumexp(alpha[k - 1][:, None] + trans, 0) + x[k]
    beta[-1] = end
    for k in range(length - 2, -1, -1):
        beta[k] = _logsumexp(trans + (x[k + 1] + beta[k + 1])[None, :], 1)
    log_z = _logsumexp(alpha[-1] + end, 0)
    score = start[tags[0]] + end[tags[-1]] + x[numpy.arange(length), tags].sum()
    score += trans[tags[:-1], tags[1:]].sum()
    dx = numpy.exp(alpha + beta - log_z)
    dx[numpy.arange(length), tags] -= 1.0
    dw = numpy.zeros_like(w)
    dw[0] = dx[0]
    dw[1] = dx[-1]
    for k in range(1, length):
        pair = alpha[k - 1][:, None] + trans + (x[k] + beta[k])[None, :] - log_z
        dw[2:] += numpy.exp(pair)
        dw[2 + tags[k - 1], tags[k]] -= 1.0
    return log_z - score, dx, dw


def _crf_sequences(emission, label):
    x = numpy.array(emission, dtype="float64")
    tags = numpy.array(label).reshape(-1)
    offsets = label.lod()[0]
    return x, tags, list(zip(offsets[:-1], offsets[1:]))


def linear_chain_crf(input, label, param_attr=None):
    """1.x's linear_chain_crf: the [D + 2, D] transition parameter (Xavier
    by default) and each sequence's negative log-likelihood [S, 1].
    Paddle 3.3.1 dropped the op, so the cost and its gradient are computed
    in numpy (float64, log space) by a `py_func`; an empty sequence costs
    0, as 1.x's kernel padded it."""
    helper = LayerHelper("linear_chain_crf")
    size = input.shape[1]
    transition = _create_parameter(helper, param_attr, [size + 2, size], input.dtype)
    block = helper.main_program.current_block()
    cost = block.create_var(name=unique_name.generate("linear_chain_crf.tmp"),
                            dtype=input.dtype, shape=[-1, 1])
    dtype = numpy.float32 if input.dtype == VarType.FP32 else numpy.float64

    def forward(emission, w, label):
        x, tags, seqs = _crf_sequences(emission, label)
        w = numpy.array(w, dtype="float64")
        costs = [_crf_sequence(x[a:b], w, tags[a:b])[0] if b > a else 0.0 for a, b in seqs]
        return numpy.array(costs, dtype=dtype).reshape(-1, 1)

    def backward(emission, w, label, dcost):
        x, tags, seqs = _crf_sequences(emission, label)
        w = numpy.array(w, dtype="float64")
        g = numpy.array(dcost, dtype="float64").reshape(-1)
        dx, dw = numpy.zeros_like(x), numpy.zeros_like(w)
        for i, (a, b) in enumerate(seqs):
            if b > a:
                _, sx, sw = _crf_sequence(x[a:b], w, tags[a:b])
                dx[a:b] = g[i] * sx
                dw += g[i] * sw
        return dx.astype(dtype), dw.astype(dtype), None

    paddle.static.py_func(forward, [input, transition, label], cost, backward_func=backward,
                          skip_vars_in_backward_input=[cost])
    return cost


def crf_decoding(input, param_attr, label=None, length=None):
    """1.x's crf_decoding: Paddle 3.3.1's op, reading the transitions by name."""
    helper = LayerHelper("crf_decoding")
    transition = helper.main_program.global_block().var(param_attr.name)
    path = helper.create_variable_for_type_inference(dtype=input.dtype)
    inputs = {"Emission": [input], "Transition": transition}
    if label is not None:
        inputs["Label"] = label
    if length is not None:
        inputs["Length"] = length
    helper.append_op(type="crf_decoding", inputs=inputs, outputs={"ViterbiPath": [path]})
    return path


def chunk_eval(input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None,
               seq_length=None):
    """1.x's chunk_eval: Paddle 3.3.1's op; returns its six outputs."""
    helper = LayerHelper("chunk_eval")
    outs = [helper.create_variable_for_type_inference(dtype=t)
            for t in ["float32"] * 3 + ["int64"] * 3]
    inputs = {"Inference": [input], "Label": [label]}
    if seq_length is not None:
        inputs["SeqLength"] = [seq_length]
    slots = ["Precision", "Recall", "F1-Score", "NumInferChunks", "NumLabelChunks",
             "NumCorrectChunks"]
    helper.append_op(type="chunk_eval", inputs=inputs,
                     outputs={s: [v] for s, v in zip(slots, outs)},
                     attrs={"num_chunk_types": num_chunk_types, "chunk_scheme": chunk_scheme,
                            "excluded_chunk_types": excluded_chunk_types or []})
    return tuple(outs)


class MetricChunkEvaluator:
    """1.x's fluid.metrics.ChunkEvaluator (Paddle 3.3.1 has none): the
    three chunk counts summed as given (ints, or the fetched arrays), and
    precision, recall and F1 of the sums."""

    def __init__(self, name=None):
        self._name = str(name) if name is not None else "ChunkEvaluator"
        self.reset()

    def __str__(self):
        return self._name

    def reset(self):
        for attr in ("num_infer_chunks", "num_label_chunks", "num_correct_chunks"):
            value = getattr(self, attr, 0)
            setattr(self, attr, numpy.zeros_like(value) if isinstance(value, numpy.ndarray)
                    else 0)

    def get_config(self):
        states = {k: v for k, v in vars(self).items() if not k.startswith("_")}
        return {"name": self._name, "states": copy.deepcopy(states)}

    def update(self, num_infer_chunks, num_label_chunks, num_correct_chunks):
        self.num_infer_chunks += num_infer_chunks
        self.num_label_chunks += num_label_chunks
        self.num_correct_chunks += num_correct_chunks

    def eval(self):
        # 1.x ran on numpy 1.x, where float() of a one-element array is its
        # value as a float array's element: numpy 2 refuses, so arrays are
        # cast instead (the same result).
        def real(x):
            return x.astype("float64") if isinstance(x, numpy.ndarray) else float(x)

        correct = self.num_correct_chunks
        precision = real(correct) / self.num_infer_chunks if self.num_infer_chunks else 0
        recall = real(correct) / self.num_label_chunks if self.num_label_chunks else 0
        f1 = real(2 * precision * recall) / (precision + recall) if correct else 0
        return precision, recall, f1


class EvaluatorChunkEvaluator:
    """1.x's deprecated fluid.evaluator.ChunkEvaluator: persistable int64
    [1] states `chunk_eval_N_K_<count>` the program sums chunk_eval's
    counts into (Paddle 3.3.1's sum op), zeroed by a program of
    fill_constants and fetched by an empty one."""

    def __init__(self, input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None):
        self.helper = LayerHelper("chunk_eval")
        block = self.helper.main_program.current_block()
        self.states, self.metrics = [], []
        for suffix in ("num_infer_chunks", "num_label_chunks", "num_correct_chunks"):
            self.states.append(block.create_var(
                name="_".join([unique_name.generate(self.helper.name), suffix]),
                persistable=True, dtype="int64", shape=[1]))
        outs = chunk_eval(input, label, chunk_scheme, num_chunk_types, excluded_chunk_types)
        for state, count in zip(self.states, outs[3:]):
            sums([state, count], out=state)
        self.metrics.extend(outs[:3])

    @staticmethod
    def _clone(block, var):
        return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype, type=var.type,
                                lod_level=var.lod_level, persistable=True)

    def reset(self, executor, reset_program=None):
        reset_program = reset_program or Program()
        with program_guard(reset_program):
            for var in self.states:
                fill_constant(shape=var.shape, value=0.0, dtype=var.dtype,
                              out=self._clone(reset_program.current_block(), var))
        executor.run(reset_program)

    def eval(self, executor, eval_program=None):
        eval_program = eval_program or Program()
        block = eval_program.current_block()
        infer, label, correct = (v[0] for v in executor.run(
            eval_program, fetch_list=[self._clone(block, s) for s in self.states]))
        precision = float(correct) / infer if infer else 0
        recall = float(correct) / label if label else 0
        f1 = float(2 * precision * recall) / (precision + recall) if correct else 0
        return tuple(numpy.array([v], dtype="float32") for v in (precision, recall, f1))


# ---------------------------------------------------------------- Variable operators (math_op_patch)


def _tmp(block, dtype):
    return block.create_var(name=unique_name.generate("tmp"), dtype=dtype)


def _current_block(var):
    return var.block.program.current_block()


def _create_tensor(block, value, dtype, shape):
    var = _tmp(block, dtype)
    block.append_op(type="fill_constant", outputs={"Out": [var]},
                    attrs={"dtype": var.dtype, "shape": shape, "value": float(value),
                           "force_cpu": False},
                    stop_gradient=True)
    var.stop_gradient = True
    return var


def _create_tensor_with_batchsize(ref_var, value, dtype):
    block = _current_block(ref_var)
    var = _tmp(block, dtype)
    batch_dim = next(i for i, d in enumerate(ref_var.shape) if d < 0)
    block.append_op(type="fill_constant_batch_size_like", outputs={"Out": [var]},
                    inputs={"Input": [ref_var]},
                    attrs={"shape": list(ref_var.shape), "value": float(value),
                           "input_dim_idx": batch_dim, "output_dim_idx": batch_dim},
                    stop_gradient=True)
    var.stop_gradient = True
    return var


def _astype(self, dtype):
    block = _current_block(self)
    out = _tmp(block, dtype)
    block.append_op(type="cast", inputs={"X": [self]}, outputs={"Out": [out]},
                    attrs={"in_dtype": self.dtype, "out_dtype": out.dtype})
    return out


def _scale_op(var, scale, bias):
    block = _current_block(var)
    out = _tmp(block, var.dtype)
    block.append_op(type="scale", inputs={"X": [var]}, outputs={"Out": [out]},
                    attrs={"scale": scale, "bias": bias})
    return out


_SCALAR_METHODS = {
    "__add__": lambda v, s: _scale_op(v, 1.0, s),
    "__radd__": lambda v, s: _scale_op(v, 1.0, s),
    "__sub__": lambda v, s: _scale_op(v, 1.0, -s),
    "__rsub__": lambda v, s: _scale_op(v, -1.0, s),
    "__mul__": lambda v, s: _scale_op(v, s, 0.0),
    "__rmul__": lambda v, s: _scale_op(v, s, 0.0),
    "__truediv__": lambda v, s: _scale_op(v, 1.0 / s, 0.0),
}

_OPERATORS = [  # (method, op type, reverse)
    ("__add__", "elementwise_add", False),
    ("__radd__", "elementwise_add", False),
    ("__sub__", "elementwise_sub", False),
    ("__rsub__", "elementwise_sub", True),
    ("__mul__", "elementwise_mul", False),
    ("__rmul__", "elementwise_mul", False),
    ("__truediv__", "elementwise_div", False),
    ("__rtruediv__", "elementwise_div", True),
    ("__pow__", "elementwise_pow", False),
    ("__rpow__", "elementwise_pow", True),
    ("__floordiv__", "elementwise_floordiv", False),
    ("__mod__", "elementwise_mod", False),
    ("__eq__", "equal", False),
    ("__ne__", "not_equal", False),
    ("__lt__", "less_than", False),
    ("__le__", "less_equal", False),
    ("__gt__", "greater_than", False),
    ("__ge__", "greater_equal", False),
]
_COMPARE = {"equal", "not_equal", "less_than", "less_equal", "greater_than", "greater_equal"}


def _operator(method, op_type, reverse):
    scalar_method = _SCALAR_METHODS.get(method)

    def impl(self, other):
        # 1.6 hot fix: integer division is never turned into a scale.
        if scalar_method is not None and not (
            op_type == "elementwise_div" and self.dtype in _INT_DTYPES
        ):
            if isinstance(other, (int, float)):
                return scalar_method(self, float(other))
        lhs_dtype = self.dtype
        if not isinstance(other, Variable):
            if not reverse:
                other = _create_tensor(_current_block(self), other, lhs_dtype, [1])
            elif any(d < 0 for d in self.shape):
                other = _create_tensor_with_batchsize(self, other, lhs_dtype)
            else:
                other = _create_tensor(_current_block(self), other, lhs_dtype, list(self.shape))
        if other.dtype != lhs_dtype:
            other = _astype(other, lhs_dtype)
        x, y = (other, self) if reverse else (self, other)
        out = _tmp(_current_block(x), "bool" if op_type in _COMPARE else lhs_dtype)
        axis = 0 if len(y.shape) > 0 and y.shape[0] == -1 else -1
        _current_block(x).append_op(type=op_type, inputs={"X": [x], "Y": [y]},
                                    outputs={"Out": out}, attrs={"axis": axis})
        return out

    impl.__name__ = method
    return impl


def _declare_one(block, op):
    """Paddle 1.x had no 0-D tensors: an op output its InferShape made 0-D
    (a `mean`, an `accuracy`, a full reduction) was declared `[1]`."""
    for name in op.output_arg_names:
        var = block._find_var_recursive(name)
        if (var is not None and var.type == core.VarDesc.VarType.LOD_TENSOR
                and list(var.desc.shape()) == []):
            var.desc.set_shape([1])
    return op


def _patch_zero_d():
    """Every op appended, prepended or inserted declares 0-D outputs `[1]`."""
    block_cls = framework.Block
    for method in ("append_op", "_prepend_op", "_insert_op"):
        original = getattr(block_cls, method)
        if getattr(original, "_declares_one", False):
            continue

        def patched(self, *args, _original=original, **kwargs):
            return _declare_one(self, _original(self, *args, **kwargs))
        patched._declares_one = True
        setattr(block_cls, method, patched)


class _Array1x(numpy.ndarray):
    """A fetched (1,) array as numpy 1.x let 1.x scripts use it: `float()`,
    `int()` and `%f` of a one-element array (numpy 2.4 refuses them);
    it prints as a plain ndarray."""

    def __float__(self):
        return float(self.reshape(()).view(numpy.ndarray))

    def __int__(self):
        return int(self.reshape(()).view(numpy.ndarray))

    def __repr__(self):
        return repr(self.view(numpy.ndarray))


def _fetched_as_1x(program, fetch_list, got):
    """What 1.x fetched: a 0-D value of a variable declared `[1]` as shape
    (1,) (README, "Run mode")."""
    program = framework.default_main_program() if program is None else program
    program = getattr(program, "_program", None) or program  # a CompiledProgram's
    block = program.global_block()
    out = []
    for item, value in zip(fetch_list or [], got):
        name = item if isinstance(item, str) else getattr(item, "name", None)
        var = block._find_var_recursive(name) if name is not None else None
        if (isinstance(value, numpy.ndarray) and value.ndim == 0 and var is not None
                and list(var.shape) == [1]):
            value = value.reshape(1).view(_Array1x)
        elif isinstance(value, numpy.ndarray) and value.ndim > 0 and value.size == 1:
            # numpy 1.x's float()/int()/"%f" took any one-element array
            # (chunk_eval's counters, a [-1, 1] cost of batch 1)
            value = value.view(_Array1x)
        out.append(value)
    return out


def _fetched_tensors_as_1x(program, fetch_list, got):
    """return_numpy=False: 1.x fetched a variable declared `[1]` as a
    LoDTensor of shape [1], so `numpy.array(t)` had one axis."""
    arrays = _fetched_as_1x(program, fetch_list, [
        numpy.array(t) if isinstance(t, core.DenseTensor) and t.shape() == [] else t
        for t in got])
    out = []
    for value, tensor in zip(arrays, got):
        if isinstance(value, numpy.ndarray) and isinstance(tensor, core.DenseTensor):
            tensor = core.DenseTensor()
            tensor.set(numpy.asarray(value), paddle.CPUPlace())
        out.append(tensor)
    return out + list(got[len(out):])


def _patch_variable():
    for method, op_type, reverse in _OPERATORS:
        setattr(Variable, method, _operator(method, op_type, reverse))
    Variable.__neg__ = lambda self: _scale_op(self, -1.0, 0.0)
    Variable.astype = _astype


# ---------------------------------------------------------------- control flow


@contextlib.contextmanager
def _sub_block(program, complete):
    """A BlockGuard: a new current block; on a clean exit, `complete()` appends
    the block's op to the parent (while the sub-block is still current)."""
    program._create_block()
    try:
        yield
    except BaseException:
        program._rollback()
        raise
    complete()
    program._rollback()


def _block_io(block, written):
    """1.x's scan of a finished sub-block: names read before any op of the
    block writes them, and every name written (seeded with `written`)."""
    reads, produced = {}, dict.fromkeys(written)
    for op in block.ops:
        for slot in op.input_names:
            for name in op.input(slot):
                if name not in produced:
                    reads[name] = None
        for slot in op.output_names:
            for name in op.output(slot):
                produced[name] = None
    return list(reads), list(produced)


def _found_in(block, names):
    found = (block._find_var_recursive(n) for n in names)
    return [v for v in found if v is not None]


class While:
    def __init__(self, cond, is_test=False, name=None):
        # 1.x's checks: one bool.
        if cond.dtype != VarType.BOOL:
            raise TypeError("condition should be a bool variable")
        if functools.reduce(lambda a, b: a * b, cond.shape, 1) != 1:
            raise TypeError("condition should be a bool scalar")
        self.helper = LayerHelper("while", name=name)
        self.cond_var = cond
        self.is_test = is_test

    def block(self):
        return _sub_block(self.helper.main_program, self._complete)

    def _complete(self):
        program = self.helper.main_program
        while_block = program.current_block()
        parent = program.block(while_block.parent_idx)
        x_names, inner_outputs = _block_io(while_block, [self.cond_var.name])
        out_vars = _found_in(parent, inner_outputs)
        step_scope = parent.create_var(type=VarType.STEP_SCOPES)
        parent.append_op(
            type="while",
            inputs={"X": [parent._var_recursive(n) for n in x_names],
                    "Condition": [self.cond_var]},
            outputs={"Out": out_vars, "StepScopes": [step_scope]},
            attrs={"sub_block": while_block, "is_test": self.is_test},
        )


class StaticRNN:
    """1.x's StaticRNN. Paddle 3.3.1 no longer has the `recurrent` op 1.x
    built it with, so this is fluidc's lowering onto a While loop (fluidc's
    `front/api/rnn.rs` builds the same ops in the same order): a counter
    `i`, `gather(x, i)` for each step input, a tensor array per memory
    (the boot value written at 0, step t reading t and writing t + 1), a
    tensor array per output read back after the loop and concatenated."""

    def __init__(self, name=None, main_program=None):
        # 0.x's `main_program=`: the step block is built there, with it
        # the default main program inside `with rnn.step():`.
        self.guarded = main_program
        self.program = main_program or framework.default_main_program()
        self.parent = None
        self.seq_len = None
        self.inputs = {}
        self.memories = []
        self.outputs = []
        self.results = None

    def _in_parent(self, fn):
        inside = self.program.current_block_idx
        self.program.current_block_idx = self.parent.idx
        try:
            return fn()
        finally:
            self.program.current_block_idx = inside

    def step(self):
        if self.guarded is not None:
            return self._step_in()
        return self._step()

    @contextlib.contextmanager
    def _step_in(self):
        with program_guard(self.guarded):
            with self._step():
                yield

    @contextlib.contextmanager
    def _step(self):
        self.parent = self.program.current_block()
        self.counter = fill_constant(shape=[1], dtype="int64", value=0)
        self.counter.stop_gradient = True
        self.cond = self.parent.create_var(name=unique_name.generate("static_rnn_cond"),
                                           dtype="bool", shape=[1])
        self.cond.stop_gradient = True
        loop = While(cond=self.cond)
        with loop.block():
            yield
            increment(self.counter, in_place=True)
            for mem, array, new in self.memories:
                paddle.tensor.array_write(new, self.counter, array=array)
            _compare("less_than")(x=self.counter, y=self.limit, cond=self.cond)
        self.results = []
        for array, like in self.outputs:
            steps = []
            for t in range(self.seq_len):
                k = fill_constant(shape=[1], dtype="int64", value=t)
                steps.append(paddle.tensor.array_read(array, k))
            joined = concat(steps, axis=0)
            self.results.append(reshape(joined, shape=[self.seq_len] + list(like.shape)))

    def step_input(self, x):
        if self.seq_len is None:
            self.seq_len = x.shape[0]

            def limit():
                self.limit = fill_constant(shape=[1], dtype="int64", value=self.seq_len)
                _compare("less_than")(x=self.counter, y=self.limit, cond=self.cond)

            self._in_parent(limit)
        helper = LayerHelper("gather")
        row = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type="gather", inputs={"X": [x], "Index": [self.counter]},
                         outputs={"Out": [row]}, attrs={"axis": 0})
        step = reshape(row, shape=list(x.shape[1:]))
        self.inputs[step.name] = x
        return step

    def memory(self, init=None, shape=None, batch_ref=None, init_value=0.0,
               init_batch_dim_idx=0, ref_batch_dim_idx=1):
        def boot():
            if init is not None:
                start = init
            else:
                ref = self.inputs.get(batch_ref.name, batch_ref)
                helper = LayerHelper("fill_constant_batch_size_like")
                start = helper.create_variable_for_type_inference(dtype=ref.dtype)
                helper.append_op(
                    type="fill_constant_batch_size_like", inputs={"Input": [ref]},
                    outputs={"Out": [start]},
                    attrs={"shape": list(shape), "dtype": start.dtype,
                           "value": float(init_value), "input_dim_idx": ref_batch_dim_idx,
                           "output_dim_idx": init_batch_dim_idx})
                start.stop_gradient = True
            array = paddle.tensor.array_write(start, self.counter)
            # Gradients flow through the memory from step to step even
            # when the boot value stops them (Paddle 3's append_op would
            # otherwise mark the array stop_gradient).
            array.stop_gradient = False
            return array

        array = self._in_parent(boot)
        mem = paddle.tensor.array_read(array, self.counter)
        self.memories.append([mem, array, None])
        return mem

    def update_memory(self, mem, var):
        for entry in self.memories:
            if entry[0] is mem:
                entry[2] = var

    def step_output(self, o):
        array = self._in_parent(lambda: paddle.tensor.create_array(o.dtype))
        paddle.tensor.array_write(o, self.counter, array=array)
        self.outputs.append((array, o))

    def output(self, *outputs):
        for o in outputs:
            self.step_output(o)

    def __call__(self):
        return self.results[0] if len(self.results) == 1 else self.results


class ConditionalBlock:
    def __init__(self, inputs, is_scalar_condition=False, name=None):
        self.inputs = inputs
        self.is_scalar_condition = is_scalar_condition
        self.helper = LayerHelper("conditional_block", name=name)

    def block(self):
        return _sub_block(self.helper.main_program, self.complete)

    def complete(self):
        program = self.helper.main_program
        inside = program.current_block()
        parent = program.block(inside.parent_idx)
        params, intermediate = _block_io(inside, [])
        cond_names = {v.name for v in self.inputs}
        param_list = [parent._var_recursive(n) for n in params if n not in cond_names]
        out_list = _found_in(parent, intermediate)
        step_scope = parent.create_var(type=VarType.STEP_SCOPES)
        parent.append_op(
            type="conditional_block",
            inputs={"Cond": self.inputs, "Input": param_list},
            outputs={"Out": out_list, "Scope": [step_scope]},
            attrs={"sub_block": inside, "is_scalar_condition": self.is_scalar_condition},
        )


# 1.x's IfElse ops, split_lod_tensor and merge_lod_tensor, which Paddle
# 3.3.1 dropped: computed in numpy by py_funcs (forward and backward), the
# LoD included, after 1.x's kernels (GetSubLoDAndAbsoluteOffset, AppendLoD).


def _ifelse_sub_lod(lod, k):
    a, b = k, k + 1
    lengths = []
    for level in lod:
        lengths.append([level[i + 1] - level[i] for i in range(a, b)])
        a, b = level[a], level[b]
    return lengths, a, b


def _ifelse_append_lod(lod, lengths):
    if not lod:
        lod.extend([0] for _ in lengths)
    for offsets, lens in zip(lod, lengths):
        for n in lens:
            offsets.append(offsets[-1] + n)


def _ifelse_split(x, lod, mask):
    """(rows, LoD) of the false and the true side."""
    sides = []
    for side in (False, True):
        sub, rows = [], []
        for k, m in enumerate(mask):
            if bool(m) == side:
                lengths, a, b = _ifelse_sub_lod(lod, k)
                _ifelse_append_lod(sub, lengths)
                rows.extend(range(a, b))
        sides.append((x[rows], sub))
    return sides


def _ifelse_merge(ins, mask):
    """The rows and LoD of the false and true sides merged in mask order
    (an empty sequence is taken again, as 1.x's kernel did)."""
    nxt, lod, parts = [0, 0], [], []
    for m in mask:
        side = int(bool(m))
        arr, sub = ins[side]
        lengths, a, b = _ifelse_sub_lod(sub, nxt[side])
        _ifelse_append_lod(lod, lengths)
        if b > a:
            parts.append(arr[a:b])
            nxt[side] += 1
    like = ins[1][0] if ins[1][0].size or not ins[0][0].size else ins[0][0]
    rows = numpy.concatenate(parts) if parts else like[:0]
    return rows, lod


def _ifelse_tensor(arr, lod):
    t = core.DenseTensor()
    t.set(numpy.ascontiguousarray(arr), paddle.CPUPlace())
    if lod:
        t.set_lod(lod)
    return t


def _ifelse_mask(mask):
    m = numpy.array(mask)
    return m.reshape(-1)[:m.shape[0]] if m.ndim else m.reshape(-1)


def split_lod_tensor(input, mask, level=0):
    """1.x's split_lod_tensor layer (`split_lod_tensor_N.tmp_0/1`)."""
    helper = LayerHelper("split_lod_tensor")
    out_true = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_false = helper.create_variable_for_type_inference(dtype=input.dtype)
    _append_split(helper.main_program.current_block(), input, mask, out_true, out_false, level)
    return out_true, out_false


def _append_split(block, x, mask, out_true, out_false, level):
    out_true.desc.set_shape(list(x.shape))
    out_false.desc.set_shape(list(x.shape))

    def forward(xt, mt):
        (f, flod), (t, tlod) = _ifelse_split(numpy.array(xt), list(xt.lod())[level:],
                                             _ifelse_mask(mt))
        return _ifelse_tensor(t, tlod), _ifelse_tensor(f, flod)

    def backward(xt, mt, dt, df):
        arr = numpy.array(xt)
        sides = _ifelse_split(arr, list(xt.lod())[level:], _ifelse_mask(mt))
        grads = [(numpy.array(g).reshape((-1,) + arr.shape[1:]) if g is not None
                  else numpy.zeros_like(side[0]), side[1])
                 for g, side in zip((df, dt), sides)]
        rows, _ = _ifelse_merge(grads, _ifelse_mask(mt))
        return rows.astype(arr.dtype), None

    with _in_block(block):
        paddle.static.py_func(forward, [x, mask], [out_true, out_false],
                              backward_func=backward,
                              skip_vars_in_backward_input=[out_true, out_false])


def merge_lod_tensor(in_true, in_false, x, mask, level=0):
    """1.x's merge_lod_tensor layer (`merge_lod_tensor_N.tmp_0`)."""
    helper = LayerHelper("merge_lod_tensor")
    out = helper.create_variable_for_type_inference(dtype=in_true.dtype)
    out.desc.set_shape(list(in_true.shape))

    def sides(tt, ft):
        # Paddle 3.3.1 hands a side whose block made 0 rows over as None
        # (1.x kept a [0, ...] tensor): no rows, shaped as the other.
        arrs = [None if t is None else numpy.array(t) for t in (ft, tt)]
        like = arrs[1] if arrs[1] is not None else arrs[0]
        return [((a if a is not None else like[:0]), ([] if t is None else list(t.lod())))
                for a, t in zip(arrs, (ft, tt))]

    def forward(xt, mt, tt, ft):
        rows, lod = _ifelse_merge(sides(tt, ft), _ifelse_mask(mt))
        for i in range(level):
            lod.insert(0, list(xt.lod()[i]))
        return _ifelse_tensor(rows, lod)

    def backward(xt, mt, tt, ft, dout):
        d = numpy.array(dout)
        _, sub = _ifelse_merge(sides(tt, ft), _ifelse_mask(mt))
        (f, _), (t, _) = _ifelse_split(d, sub, _ifelse_mask(mt))
        # 1.x's grad (a split_lod_tensor) gives X none; Paddle 3.3.1's
        # py_func wants one when X needs a gradient: zeros add nothing.
        x = numpy.array(xt)
        return (numpy.zeros_like(x) if x.dtype.kind == "f" else None), None, t, f

    paddle.static.py_func(forward, [x, mask, in_true, in_false], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out


@contextlib.contextmanager
def _in_block(block):
    """Appends to `block` (the parent of the current block) meanwhile."""
    program = block.program
    saved = program.current_block_idx
    program.current_block_idx = block.idx
    try:
        yield
    finally:
        program.current_block_idx = saved


class IfElse:
    """1.x's IfElse (1.0-1.5): split_lod_tensor of each input by cond in the
    parent block, a ConditionalBlock per side (cond its input), outputs
    assigned out, merge_lod_tensor of the sides."""
    OUT_IF_ELSE_BLOCKS = 0
    IN_IF_ELSE_TRUE_BLOCKS = 1
    IN_IF_ELSE_FALSE_BLOCKS = 2

    def __init__(self, cond, name=None):
        if not isinstance(cond, Variable):
            raise TypeError("cond must be a Variable")
        self.helper = LayerHelper("ifelse", name=name)
        self.cond = cond
        self.input_table = {}
        self.status = IfElse.OUT_IF_ELSE_BLOCKS
        self.conditional_true_block = ConditionalBlock(inputs=[self.cond])
        self.conditional_false_block = ConditionalBlock(inputs=[self.cond])
        self.output_table = ([], [])

    def input(self, x):
        if self.status == IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("input must in true/false blocks")
        if id(x) not in self.input_table:
            parent = self._parent_block()
            out_true = parent.create_var(
                name=unique_name.generate("ifelse_input" + self.helper.name), dtype=x.dtype)
            out_false = parent.create_var(
                name=unique_name.generate("ifelse_input" + self.helper.name), dtype=x.dtype)
            _append_split(parent, x, self.cond, out_true, out_false, 0)
            self.input_table[id(x)] = (out_true, out_false)
        out_true, out_false = self.input_table[id(x)]
        return out_true if self.status == IfElse.IN_IF_ELSE_TRUE_BLOCKS else out_false

    def _parent_block(self):
        program = self.helper.main_program
        return program.block(program.current_block().parent_idx)

    @contextlib.contextmanager
    def _side(self, is_true):
        if self.status != IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("You cannot invoke IfElse.block() inside a block")
        block = self.conditional_true_block if is_true else self.conditional_false_block
        self.status = IfElse.IN_IF_ELSE_TRUE_BLOCKS if is_true else IfElse.IN_IF_ELSE_FALSE_BLOCKS
        with block.block():
            yield
        if len(self.output_table[1 if is_true else 0]) == 0:
            raise ValueError("Must set output inside block")
        self.status = IfElse.OUT_IF_ELSE_BLOCKS

    def true_block(self):
        return self._side(True)

    def false_block(self):
        return self._side(False)

    def output(self, *outs):
        if self.status == self.OUT_IF_ELSE_BLOCKS:
            raise ValueError("output can only be invoked in the sub-block")
        table = self.output_table[1 if self.status == self.IN_IF_ELSE_TRUE_BLOCKS else 0]
        parent = self._parent_block()
        for each_out in outs:
            if not isinstance(each_out, Variable):
                raise TypeError("Each output should be a variable")
            outside = parent.create_var(
                name=unique_name.generate("_".join([self.helper.name, "output"])),
                dtype=each_out.dtype)
            table.append(outside)
            assign(input=each_out, output=outside)

    def __call__(self):
        if self.status != self.OUT_IF_ELSE_BLOCKS:
            raise ValueError("IfElse::__call__ must be out of sub-block")
        false_len, true_len = map(len, self.output_table)
        if false_len == 0 and true_len == 0:
            raise ValueError("Must invoke true_block/false_block before __call__")
        elif false_len != true_len and false_len != 0 and true_len != 0:
            raise ValueError("The output side must be same")
        elif false_len == 0 or true_len == 0:
            return self.output_table[0 if false_len != 0 else 1]
        return [merge_lod_tensor(in_true=t, in_false=f, mask=self.cond, x=self.cond)
                for f, t in zip(*self.output_table)]


class Switch:
    def __init__(self, name=None):
        self.helper = LayerHelper("switch", name=name)
        self.inside_scope = False
        self.pre_not_conditions = []

    def case(self, condition):
        if not self.inside_scope:
            raise ValueError("case should be called inside with")
        if not self.pre_not_conditions:
            cond_block = ConditionalBlock([condition], is_scalar_condition=True)
            self.pre_not_conditions.append(logical_not(x=condition))
        else:
            pre_not_cond = self.pre_not_conditions[-1]
            new_not_cond = logical_and(x=pre_not_cond, y=logical_not(x=condition))
            self.pre_not_conditions.append(new_not_cond)
            cond_block = ConditionalBlock([logical_and(x=pre_not_cond, y=condition)],
                                          is_scalar_condition=True)
        return cond_block.block()

    def default(self):
        if not self.pre_not_conditions:
            raise ValueError("there should be at least one condition")
        cond_block = ConditionalBlock([self.pre_not_conditions[-1]], is_scalar_condition=True)
        return cond_block.block()

    def __enter__(self):
        self.inside_scope = True
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.inside_scope = False
        return False


def _map_structure(fn, *structures):
    first = structures[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map_structure(fn, *items) for items in zip(*structures))
    return fn(*structures)


def _select_input(inputs, mask):
    helper = LayerHelper("select_input")
    out = helper.create_variable(dtype=inputs[0].dtype, shape=inputs[0].shape)  # `_generated_var_N`
    helper.append_op(type="select_input", inputs={"X": inputs, "Mask": mask},
                     outputs={"Out": out})
    return out


def cond(pred, true_fn=None, false_fn=None, name=None):
    helper = LayerHelper("cond", name=name)

    def copy_to_parent(var):
        program = helper.main_program
        parent = program.block(program.current_block().parent_idx)
        parent_var = parent.create_var(dtype=var.dtype, shape=var.shape, type=var.type)
        assign(var, parent_var)
        return parent_var

    def branch(condition, fn):
        block = ConditionalBlock([condition], is_scalar_condition=True)
        with block.block():
            out = fn()
            return None if out is None else _map_structure(copy_to_parent, out)

    true_output = branch(pred, true_fn) if true_fn is not None else None
    false_output = branch(logical_not(pred), false_fn) if false_fn is not None else None
    if true_output is None and false_output is None:
        return None
    if true_output is None or false_output is None:
        raise ValueError("cond: true_fn and false_fn must both return None or both not")
    mask = cast(pred, dtype="int32")
    return _map_structure(lambda f, t: _select_input([f, t], mask), false_output, true_output)


# ---------------------------------------------------------------- learning-rate schedules
# (1.x layers/learning_rate_scheduler.py)
#
# As 1.x built them (Paddle 1.8's Python, with the shim's 1.x layers and
# Variable operators): a global step `@LR_DECAY_COUNTER@` (int64 [1], an
# `increment` prepended to main, its fill_constant of begin-1 prepended to
# startup), cast to float32, then ops, all with op_role LRSched (16).
# Paddle 3.3.1 still has static versions in paddle.optimizer.lr, but they are
# written with Paddle 3 layers (0-D constants, appended initializers,
# `static.nn.case`/`cond` instead of Switch in linear_lr_warmup and cycling
# polynomial_decay), so the 1.x ones are rebuilt here.


def _decay_step_counter(begin=0):
    global_step = autoincreased_step_counter(counter_name="@LR_DECAY_COUNTER@", begin=begin,
                                             step=1)
    return cast(global_step, "float32")


def _lr_guard():
    return framework.default_main_program()._lr_schedule_guard()


def noam_decay(d_model, warmup_steps, learning_rate=1.0):
    with _lr_guard():
        global_step = _decay_step_counter(1)
        a = global_step ** -0.5
        b = (warmup_steps ** -1.5) * global_step
        return learning_rate * (d_model ** -0.5) * _elementwise("elementwise_min")(a, b)


def exponential_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    with _lr_guard():
        global_step = _decay_step_counter()
        div_res = global_step / decay_steps
        if staircase:
            div_res = _unary("floor")(div_res)
        return learning_rate * (decay_rate ** div_res)


def natural_exp_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    with _lr_guard():
        global_step = _decay_step_counter()
        div_res = global_step / decay_steps
        if staircase:
            div_res = _unary("floor")(div_res)
        return learning_rate * _unary("exp")(-1 * decay_rate * div_res)


def inverse_time_decay(learning_rate, decay_steps, decay_rate, staircase=False):
    with _lr_guard():
        global_step = _decay_step_counter()
        div_res = global_step / decay_steps
        if staircase:
            div_res = _unary("floor")(div_res)
        return learning_rate / (1 + decay_rate * div_res)


def polynomial_decay(learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                     cycle=False):
    with _lr_guard():
        global_step = _decay_step_counter()
        if cycle:
            div_res = _unary("ceil")(global_step / decay_steps)
            zero_var = fill_constant(shape=[1], dtype="float32", value=0.0)
            one_var = fill_constant(shape=[1], dtype="float32", value=1.0)
            with Switch() as switch:
                with switch.case(global_step == zero_var):
                    assign(input=one_var, output=div_res)
            decay_steps = decay_steps * div_res
        else:
            decay_steps_var = fill_constant(shape=[1], dtype="float32", value=float(decay_steps))
            global_step = _elementwise("elementwise_min")(x=global_step, y=decay_steps_var)
        return (learning_rate - end_learning_rate) * \
            ((1 - global_step / decay_steps) ** power) + end_learning_rate


def piecewise_decay(boundaries, values):
    with _lr_guard():
        if len(values) - len(boundaries) != 1:
            raise ValueError("len(values) - len(boundaries) should be 1")
        global_step = _decay_step_counter()
        lr = create_global_var(shape=[1], value=0.0, dtype="float32", persistable=True,
                               name="learning_rate")
        with Switch() as switch:
            for i in range(len(boundaries)):
                boundary_val = fill_constant(shape=[1], dtype="float32",
                                             value=float(boundaries[i]), force_cpu=True)
                with switch.case(global_step < boundary_val):
                    fill_constant(shape=[1], dtype="float32", value=float(values[i]), out=lr)
            with switch.default():
                fill_constant(shape=[1], dtype="float32", value=float(values[-1]), out=lr)
        return lr


def cosine_decay(learning_rate, step_each_epoch, epochs):
    with _lr_guard():
        global_step = _decay_step_counter()
        cur_epoch = _unary("floor")(global_step / step_each_epoch)
        return learning_rate * 0.5 * (_unary("cos")(cur_epoch * math.pi / epochs) + 1)


def linear_lr_warmup(learning_rate, warmup_steps, start_lr, end_lr):
    dtype = learning_rate.dtype if isinstance(learning_rate, Variable) else "float32"
    linear_step = float(end_lr) - float(start_lr)
    with _lr_guard():
        lr = create_global_var(shape=[1], value=0.0, dtype=dtype, persistable=True,
                               name="learning_rate_warmup")
        global_step = _decay_step_counter()
        with Switch() as switch:
            with switch.case(global_step < warmup_steps):
                decayed_lr = start_lr + linear_step * (global_step / float(warmup_steps))
                assign(decayed_lr, lr)
            with switch.default():
                if not isinstance(learning_rate, Variable):
                    learning_rate = fill_constant(shape=[1], dtype=dtype,
                                                  value=float(learning_rate))
                assign(learning_rate, lr)
        return lr


# ---------------------------------------------------------------- regularizers, clipping, backward,
# optimizers
#
# Paddle 3.3.1's own (legacy static mode, paddle.base.backward and
# paddle.optimizer), under their 1.x names and arguments: the ops they append
# are what Paddle 3.3.1 appends (docs/training.md). GradientClipByGlobalNorm alone
# is 1.x's (Paddle 3.3.1's fails in legacy static mode).


class L2DecayRegularizer(paddle.regularizer.L2Decay):
    def __init__(self, regularization_coeff=0.0):
        super().__init__(regularization_coeff)

    def __str__(self):  # 1.x's
        return "L2Decay, regularization_coeff=%f" % self._coeff


class L1DecayRegularizer(paddle.regularizer.L1Decay):
    def __init__(self, regularization_coeff=0.0):
        super().__init__(regularization_coeff)

    def __str__(self):  # 1.x's
        return "L1Decay, regularization_coeff=%f" % self._coeff


def _merged(grad):
    """1.3+: a sparse gradient's norm is its merged rows' value tensor."""
    if grad.type == VarType.SELECTED_ROWS:
        grad = _unary("merge_selected_rows")(grad)
        grad = _unary("get_tensor_from_selected_rows")(grad)
    return grad


class GradientClipByGlobalNorm(paddle.nn.ClipGradByGlobalNorm):
    """1.x's clip by global norm. Paddle 3.3.1's own cannot build in legacy
    static mode (its static path calls paddle.sqrt / stack().sum(), which
    take PIR values only), so this is 1.8's, a subclass so that Paddle 3's
    optimizer and set_gradient_clip accept it: per gradient `square` and
    `reduce_sum` (of a sparse gradient's merged value tensor, 1.3+); then `sum`, `sqrt`, a [1] fill_constant of clip_norm,
    `elementwise_max`, `elementwise_div`; and each gradient
    `elementwise_mul`'d by the scale into a new variable that the optimizer
    then reads (op_role_var corrected to it)."""

    def __init__(self, clip_norm, group_name="default_group", need_clip=None):
        super().__init__(clip_norm, group_name)
        self._need_clip_func = need_clip

    def _skip(self, p):
        return self._need_clip_func is not None and not self._need_clip_func(p)

    def _static_clip(self, params_grads):
        params_and_grads, sum_square_list = [], []
        with framework.name_scope("gradient_clip"):
            for p, g in params_grads:
                if g is None or self._skip(p):
                    continue
                with p.block.program._optimized_guard([p, g]):
                    square = _unary("square")(_merged(g))
                    sum_square_list.append(_reduce("reduce_sum")(input=square))
            if not sum_square_list:
                return params_grads
            with p.block.program._optimized_guard([p, g]):
                global_norm_var = _unary("sqrt")(sums(sum_square_list))
                max_global_norm = fill_constant(shape=[1], dtype="float32",
                                                value=self.clip_norm)
                scale_var = _elementwise("elementwise_div")(
                    x=max_global_norm,
                    y=_elementwise("elementwise_max")(x=max_global_norm, y=global_norm_var))
            new_names = {}
            for p, g in params_grads:
                if g is None:
                    continue
                if self._skip(p):
                    params_and_grads.append((p, g))
                    continue
                with p.block.program._optimized_guard([p, g]):
                    new_grad = _elementwise("elementwise_mul")(x=g, y=scale_var)
                new_names[p.name] = new_grad.name
                params_and_grads.append((p, new_grad))
        paddle.nn.clip._correct_clip_op_role_var(params_and_grads, new_names)
        return params_and_grads

    def _process_context(self, context, param, grad):
        if self.group_name not in context:
            context[self.group_name] = []
            context[self.group_name + "_clip_value"] = self.clip_norm
            context[self.group_name + "_clip"] = fill_constant(
                shape=[1], dtype="float32", value=self.clip_norm)
        elif self.clip_norm != context[self.group_name + "_clip_value"]:
            raise ValueError("All parameters' 'clip_norm' of a same group should be the same")
        square = _unary("square")(_merged(grad))
        context[self.group_name].append(_reduce("reduce_sum")(input=square))
        self.context = context

    def _create_operators(self, param, grad):
        group_scale_name = self.group_name + "_scale"
        if group_scale_name not in self.context:
            group_norm_var = _unary("sqrt")(sums(input=self.context[self.group_name]))
            clip_var = self.context[self.group_name + "_clip"]
            self.context[group_scale_name] = _elementwise("elementwise_div")(
                x=clip_var, y=_elementwise("elementwise_max")(x=clip_var, y=group_norm_var))
        new_grad = _elementwise("elementwise_mul")(x=grad, y=self.context[group_scale_name])
        return param, new_grad


def append_backward(loss, parameter_list=None, no_grad_set=None, callbacks=None,
                    checkpoints=None):
    # 1.6's checkpoints (recompute): Paddle 3.3.1 then also returns the
    # sorted checkpoint names, which 1.6 kept to itself.
    got = paddle.static.append_backward(loss, parameter_list=parameter_list,
                                        no_grad_set=no_grad_set, callbacks=callbacks,
                                        checkpoints=checkpoints)
    return got[0] if isinstance(checkpoints, list) and checkpoints else got


class _LarsMomentum(paddle.incubate.optimizer.LarsMomentumOptimizer):
    """Paddle 3.3.1's LarsMomentumOptimizer taking its regularizer as the
    shim's `_optimizer` passes it (`weight_decay`)."""

    def __init__(self, learning_rate, momentum, weight_decay=None, **kwargs):
        super().__init__(learning_rate, momentum, regularization=weight_decay, **kwargs)


class RecomputeOptimizer(paddle.incubate.optimizer.RecomputeOptimizer):
    """1.6's RecomputeOptimizer is Paddle 3.3.1's (the same recompute
    backward through the checkpoints); 1.6's backward also took
    `checkpoints` and its minimize `grad_clip`, both ignored."""

    def backward(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None, checkpoints=None):
        return super().backward(loss, startup_program, parameter_list, no_grad_set, callbacks)

    def minimize(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 grad_clip=None):
        return super().minimize(loss, startup_program, parameter_list, no_grad_set)


def gradients(targets, inputs, target_gradients=None, no_grad_set=None):
    return paddle.static.gradients(targets, inputs, target_gradients=target_gradients,
                                   no_grad_set=no_grad_set)


def _backward_1x(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 callbacks=None, parameters=None):
    # `parameters` is how Paddle 3's own minimize calls it.
    return type(self).backward(self, loss, startup_program=startup_program,
                               parameters=parameters or parameter_list,
                               no_grad_set=no_grad_set, callbacks=callbacks)


def _minimize_1x(self, loss, startup_program=None, parameter_list=None, no_grad_set=None,
                 grad_clip=None):
    if grad_clip is not None:  # 1.6/1.7: minimize(..., grad_clip=)
        self._grad_clip = grad_clip
    return type(self).minimize(self, loss, startup_program=startup_program,
                               parameters=parameter_list, no_grad_set=no_grad_set)


def _apply_optimize_1x(self, loss, startup_program, params_grads):
    return self._apply_optimize(loss, startup_program, params_grads)


_OPTIMIZER_CLASS = []


def _optimizer_class_1x(name, factory, base):
    """1.x's `fluid.optimizer.<Name>Optimizer` as a class (2018's
    test_optimizer.py subclasses them: `class MockMomentum(
    optimizer.MomentumOptimizer)`): a subclass of the Paddle 3.3.1
    optimizer `factory` makes, whose instances the factory builds."""
    def __new__(klass, *args, **kwargs):
        _OPTIMIZER_CLASS.append(klass)
        try:
            return factory(*args, **kwargs)
        finally:
            _OPTIMIZER_CLASS.pop()

    def __init__(self, *args, **kwargs):
        pass  # built by the factory

    def _create_optimization_pass(self, parameters_and_grads, loss=None,
                                  startup_program=None, **kwargs):
        # 1.0-1.4: (parameters_and_grads, loss, startup_program), in loss's
        # program; 1.5+ and Paddle 3: the default main program.
        if isinstance(loss, Variable):
            with framework.program_guard(loss.block.program, startup_program):
                return base._create_optimization_pass(self, parameters_and_grads, **kwargs)
        if loss is not None:
            kwargs["param_group_idx"] = loss
        return base._create_optimization_pass(self, parameters_and_grads, **kwargs)

    return type(name, (base,), {"__new__": __new__, "__init__": __init__,
                                "_create_optimization_pass": _create_optimization_pass,
                                "__module__": "paddle.fluid.optimizer"})


def _create_global_learning_rate_1x(self):
    """Paddle 3.3.1's, with the main program's `learning_rate_N` declared
    `[1]` as 1.x's `create_global_var(shape=[1])` was, so a script that
    fetches it gets shape (1,)."""
    type(self)._create_global_learning_rate(self)
    lr = self._global_learning_rate()
    if lr is not None and list(lr.shape) == []:
        lr.desc.set_shape([1])


def _optimizer(cls, learning_rate, regularization=None, grad_clip=None, **kwargs):
    """A Paddle 3.3.1 optimizer made from 1.x arguments. A Variable learning
    rate (a schedule) goes where 1.x put it, in `_learning_rate_map` of the
    default main program (Paddle 3's constructor takes floats only)."""
    lr_var = learning_rate if isinstance(learning_rate, Variable) else None
    lr = 0.001 if lr_var is not None else float(learning_rate)
    if regularization is not None:
        kwargs["weight_decay"] = regularization
    if _OPTIMIZER_CLASS:  # a 1.x class (or a script's subclass of one)
        opt = cls.__new__(_OPTIMIZER_CLASS[-1])
        cls.__init__(opt, learning_rate=lr, grad_clip=grad_clip, **kwargs)
    else:
        opt = cls(learning_rate=lr, grad_clip=grad_clip, **kwargs)
    if lr_var is not None:
        opt._learning_rate_map[framework.default_main_program()] = lr_var
    opt._create_global_learning_rate = types.MethodType(_create_global_learning_rate_1x, opt)
    opt.minimize = types.MethodType(_minimize_1x, opt)
    opt.backward = types.MethodType(_backward_1x, opt)
    opt.apply_optimize = types.MethodType(_apply_optimize_1x, opt)
    return opt


def SGD(learning_rate, regularization=None, name=None, parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.SGD, learning_rate, regularization, grad_clip, name=name)


def Momentum(learning_rate, momentum, use_nesterov=False, regularization=None, name=None,
             parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.Momentum, learning_rate, regularization, grad_clip,
                      momentum=momentum, use_nesterov=use_nesterov, name=name)


def Adagrad(learning_rate, epsilon=1.0e-6, regularization=None, name=None,
            initial_accumulator_value=0.0, parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.Adagrad, learning_rate, regularization, grad_clip,
                      epsilon=epsilon, name=name,
                      initial_accumulator_value=initial_accumulator_value)


class _DecayedAdagrad(paddle.optimizer.Adagrad):
    """1.x's DecayedAdagradOptimizer, which Paddle 3.3.1 has no class for
    (it keeps the `decayed_adagrad` op): Adagrad's `<param>_moment_0`
    accumulator, updated by a `decayed_adagrad` op with `decay` and
    `epsilon` (1.6+ passed `decay`; 1.0-1.5 left it at the op's 0.95)."""

    def __init__(self, decay=0.95, **kwargs):
        super().__init__(**kwargs)
        self.type = "decayed_adagrad"
        self._decay = decay

    def _append_optimize_op(self, block, param_and_grad):
        moment = self._get_accumulator_master(self._moment_acc_str, param_and_grad[0])
        return block.append_op(
            type="decayed_adagrad",
            inputs={"Param": param_and_grad[0], "Grad": param_and_grad[1], "Moment": moment,
                    "LearningRate": self._create_param_lr(param_and_grad)},
            outputs={"ParamOut": param_and_grad[0], "MomentOut": moment},
            attrs={"epsilon": self._epsilon, "decay": self._decay}, stop_gradient=True)


def DecayedAdagrad(learning_rate, decay=0.95, epsilon=1.0e-6, regularization=None, name=None,
                   parameter_list=None, grad_clip=None):
    return _optimizer(_DecayedAdagrad, learning_rate, regularization, grad_clip, decay=decay,
                      epsilon=epsilon, name=name)


class _Ftrl(paddle.optimizer.Optimizer):
    """1.x's FtrlOptimizer, which Paddle 3.3.1 has no class for (it keeps
    the `ftrl` op): accumulators `<param>_squared_0` and `<param>_linear_0`
    filled with 0, one `ftrl` op per parameter. 1.x passed `l1` as the op's
    `l2` too (`"l2": self._l1`)."""

    _squared_acc_str = "squared"
    _linear_acc_str = "linear"

    def __init__(self, l1=0.0, l2=0.0, lr_power=-0.5, **kwargs):
        super().__init__(**kwargs)
        self.type = "ftrl"
        self._l1, self._l2, self._lr_power = l1, l2, lr_power

    def _create_accumulators(self, block, parameters):
        for p in parameters:
            self._add_accumulator("squared", p)
            self._add_accumulator("linear", p)

    def _append_optimize_op(self, block, param_and_grad):
        param, grad = param_and_grad
        squared = self._get_accumulator("squared", param)
        linear = self._get_accumulator("linear", param)
        return block.append_op(
            type="ftrl",
            inputs={"Param": param, "Grad": grad, "SquaredAccumulator": squared,
                    "LinearAccumulator": linear,
                    "LearningRate": self._create_param_lr(param_and_grad)},
            outputs={"ParamOut": param, "SquaredAccumOut": squared, "LinearAccumOut": linear},
            attrs={"l1": self._l1, "l2": self._l1, "lr_power": self._lr_power},
            stop_gradient=True)


def Ftrl(learning_rate, l1=0.0, l2=0.0, lr_power=-0.5, regularization=None, name=None,
         parameter_list=None, grad_clip=None):
    return _optimizer(_Ftrl, learning_rate, regularization, grad_clip, l1=l1, l2=l2,
                      lr_power=lr_power, name=name)


def Adam(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, regularization=None,
         name=None, lazy_mode=False, parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.Adam, learning_rate, regularization, grad_clip,
                      beta1=beta1, beta2=beta2, epsilon=epsilon, name=name, lazy_mode=lazy_mode)


def Adamax(learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, regularization=None,
           name=None, parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.Adamax, learning_rate, regularization, grad_clip,
                      beta1=beta1, beta2=beta2, epsilon=epsilon, name=name)


def Adadelta(learning_rate, epsilon=1.0e-6, rho=0.95, regularization=None, name=None,
             parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.Adadelta, learning_rate, regularization, grad_clip,
                      epsilon=epsilon, rho=rho, name=name)


def RMSProp(learning_rate, rho=0.95, epsilon=1.0e-6, momentum=0.0, centered=False,
            regularization=None, name=None, parameter_list=None, grad_clip=None):
    return _optimizer(paddle.optimizer.RMSProp, learning_rate, regularization, grad_clip,
                      rho=rho, epsilon=epsilon, momentum=momentum, centered=centered, name=name)


def Lamb(learning_rate=0.001, lamb_weight_decay=0.01, beta1=0.9, beta2=0.999, epsilon=1e-6,
         regularization=None, exclude_from_weight_decay_fn=None, name=None,
         parameter_list=None, grad_clip=None):
    # Paddle 3's Lamb takes no weight_decay argument; 1.x's `regularization`
    # is set on the optimizer as Paddle's base class would have.
    opt = _optimizer(paddle.optimizer.Lamb, learning_rate, None, grad_clip,
                     lamb_weight_decay=lamb_weight_decay, beta1=beta1, beta2=beta2,
                     epsilon=epsilon, exclude_from_weight_decay_fn=exclude_from_weight_decay_fn,
                     name=name)
    opt.regularization = regularization
    return opt


class ExponentialMovingAverage:
    """1.5-1.6's fluid.optimizer.ExponentialMovingAverage. Paddle 3.3.1's
    paddle.static.ExponentialMovingAverage cannot stand in: its apply
    program is built with `paddle.static.nn.cond`, which fails in legacy
    static mode, and it counts its own steps (`update()` adds an
    `@EMA_STEP_COUNTER@` increment, apply corrects by `1 - decay^t`). 1.x
    added no counter in `update()`; its apply program took
    `@LR_DECAY_COUNTER@` (`_decay_step_counter`, so the apply program
    increments it too) and divided by `1 - decay^(counter + 1)`; its decay
    schedule was a Switch. Same variables: `scheduled_ema_decay_rate`,
    `<param>_ema_N` (0), `<param>.ema_tmp_N`."""

    def __init__(self, decay=0.999, thres_steps=None, name=None):
        self._decay = decay
        self._thres_steps = thres_steps
        self._name = name if name is not None else ""
        self._decay_var = self._get_ema_decay()
        self._params_tmps = []
        for param in framework.default_main_program().global_block().all_parameters():
            if param.do_model_average is not False:
                tmp = param.block.create_var(
                    name=unique_name.generate(".".join([self._name + param.name, "ema_tmp"])),
                    dtype=param.dtype, persistable=False, stop_gradient=True)
                self._params_tmps.append((param, tmp))
        self._ema_vars = {}
        for param, tmp in self._params_tmps:
            with param.block.program._optimized_guard([param, tmp]), \
                    framework.name_scope("moving_average"):
                self._ema_vars[param.name] = create_global_var(
                    name=unique_name.generate(self._name + param.name + "_ema"),
                    shape=param.shape, value=0.0, dtype=param.dtype, persistable=True)
        self.apply_program = Program()
        block = self.apply_program.global_block()
        with program_guard(self.apply_program):
            decay_pow = self._get_decay_pow(block)
            for param, tmp in self._params_tmps:
                param = block._clone_variable(param)
                tmp = block._clone_variable(tmp)
                ema = block._clone_variable(self._ema_vars[param.name])
                assign(param, output=tmp)
                assign(ema / (1.0 - decay_pow), output=param)
        self.restore_program = Program()
        block = self.restore_program.global_block()
        with program_guard(self.restore_program):
            for param, tmp in self._params_tmps:
                tmp = block._clone_variable(tmp)
                param = block._clone_variable(param)
                assign(tmp, output=param)

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        executor.run(self.restore_program)

    def _get_ema_decay(self):
        with framework.default_main_program()._lr_schedule_guard():
            decay_var = create_global_var(shape=[1], value=self._decay, dtype="float32",
                                          persistable=True, name="scheduled_ema_decay_rate")
            if self._thres_steps is not None:
                decay_t = (self._thres_steps + 1.0) / (self._thres_steps + 10.0)
                with Switch() as switch:
                    with switch.case(decay_t < self._decay):
                        assign(decay_t, decay_var)
                    with switch.default():
                        assign(numpy.array([self._decay], dtype=numpy.float32), decay_var)
        return decay_var

    def _get_decay_pow(self, block):
        steps = _decay_step_counter()
        decay_var = block._clone_variable(self._decay_var)
        return _elementwise("elementwise_pow")(decay_var, steps + 1)

    def update(self):
        for param, tmp in self._params_tmps:
            with param.block.program._optimized_guard([param, tmp]), \
                    framework.name_scope("moving_average"):
                param_ema = self._ema_vars[param.name]
                ema_t = param_ema * self._decay_var + param * (1 - self._decay_var)
                assign(ema_t, output=param_ema)


class ModelAverage:
    """1.x's fluid.optimizer.ModelAverage over Paddle 3.3.1's
    average_accumulates op (3.3.1's incubate ModelAverage has 2.x's API:
    a `minimize` of its own, parameters given): per parameter the sums
    `<param>_sum_1/2/3_N` and int64 counts, updated in place by one op
    appended to the main program, and 1.x's apply and restore programs."""

    def __init__(self, average_window_rate, min_average_window=10000,
                 max_average_window=10000, regularization=None, name=None):
        self._name = name
        self._accumulators = {}
        self.params_grads = []
        for param in framework.default_main_program().global_block().all_parameters():
            if param.do_model_average is not False:
                grad = param.block.create_var(
                    name=unique_name.generate(".".join([param.name, "tmp"])),
                    dtype=param.dtype, persistable=False, stop_gradient=True)
                self.params_grads.append((param, grad))
        for param, grad in self.params_grads:
            with param.block.program._optimized_guard([param, grad]), \
                    framework.name_scope("move_average"):
                helper = LayerHelper("average_accumulate")
                acc = {}
                for key, dtype, shape in (("sum_1", None, None), ("sum_2", None, None),
                                          ("sum_3", None, None),
                                          ("num_accumulates", "int64", [1]),
                                          ("old_num_accumulates", "int64", [1]),
                                          ("num_updates", "int64", [1])):
                    var = helper.create_global_variable(
                        name=unique_name.generate(param.name + "_" + key), persistable=True,
                        dtype=dtype or param.dtype, type=param.type,
                        shape=list(param.shape) if shape is None else shape)
                    helper.set_variable_initializer(var, initializer=paddle.nn.initializer.Constant(0.0))
                    acc[key] = var
                self._accumulators[param.name] = acc
                helper.append_op(
                    type="average_accumulates",
                    inputs={"param": param, "in_sum_1": acc["sum_1"], "in_sum_2": acc["sum_2"],
                            "in_sum_3": acc["sum_3"], "in_num_accumulates": acc["num_accumulates"],
                            "in_old_num_accumulates": acc["old_num_accumulates"],
                            "in_num_updates": acc["num_updates"]},
                    outputs={"out_sum_1": acc["sum_1"], "out_sum_2": acc["sum_2"],
                             "out_sum_3": acc["sum_3"], "out_num_accumulates": acc["num_accumulates"],
                             "out_old_num_accumulates": acc["old_num_accumulates"],
                             "out_num_updates": acc["num_updates"]},
                    attrs={"average_window": average_window_rate,
                           "min_average_window": min_average_window,
                           "max_average_window": max_average_window})
        self.apply_program = Program()
        block = self.apply_program.global_block()
        with program_guard(self.apply_program):
            for param, grad in self.params_grads:
                acc = self._accumulators[param.name]
                p = block._clone_variable(param)
                g = block._clone_variable(grad)
                sums = [block._clone_variable(acc[k]) for k in ("sum_1", "sum_2", "sum_3")]
                counts = [block._clone_variable(acc[k])
                          for k in ("num_accumulates", "old_num_accumulates")]
                assign(p, output=g)
                tmp = cast(sum_layer(counts), "float32")
                total = cast(sum_layer(sums), "float32")
                block.append_op(type="elementwise_div", inputs={"X": [total], "Y": [tmp]},
                                outputs={"Out": [p]}, attrs={"axis": -1})
        self.restore_program = Program()
        block = self.restore_program.global_block()
        with program_guard(self.restore_program):
            for param, grad in self.params_grads:
                assign(block._clone_variable(grad), output=block._clone_variable(param))

    @contextlib.contextmanager
    def apply(self, executor, need_restore=True):
        executor.run(self.apply_program)
        try:
            yield
        finally:
            if need_restore:
                self.restore(executor)

    def restore(self, executor):
        executor.run(self.restore_program)


# ---------------------------------------------------------------- the modules


class DataFeeder(paddle.base.DataFeeder):
    """1.x's `fluid.DataFeeder` is Paddle 3.3.1's (the same converters:
    dtype and shape from each variable, a reshape when the ranks differ).
    `feed` gives a DenseTensor per field, as 1.x gave a LoDTensor for
    every `lod_level` (`.shape()`, `.lod()`, `np.array(t)`)."""


def _cached_download(url, module_name, md5sum, save_name=None):
    """1.x's `paddle.dataset.common.download` without the download: the file
    in `~/.cache/paddle/dataset/<module>/` as it is (tests write small files
    whose md5 is not Paddle's; fluidc warns and reads them too). Paddle 1.6
    moved imdb, imikolov and movielens to URLs like `.../imdb%2FaclImdb_v1.tar.gz`;
    the file 1.x saved from its URL (`aclImdb_v1.tar.gz`) stands for them."""
    import importlib

    common = importlib.import_module("paddle.dataset.common")
    name = save_name or url.split('/')[-1]
    path = os.path.join(common.DATA_HOME, module_name, name)
    if name.startswith(module_name + "%2F") and not os.path.exists(path):
        path = os.path.join(common.DATA_HOME, module_name, name[len(module_name) + 3:])
    if not os.path.exists(path):
        raise RuntimeError(f"{path} is missing (Paddle would download {url})")
    return path


class LookaheadOptimizer:
    """1.6's LookaheadOptimizer (3.3.1's LookAhead starts its slow weights
    at the first step, 1.6's in the startup program): `<param>@SLOW`
    assigned the initial parameter in the startup program, and every
    `k`-th run both set to `alpha * param + (1 - alpha) * slow` in a
    Switch, over the shim's layers."""

    def __init__(self, inner_optimizer, alpha=0.5, k=5):
        assert inner_optimizer is not None, "inner optimizer can not be None"
        assert 0.0 <= alpha <= 1.0, \
            "alpha should be larger or equal to 0.0, and less or equal than 1.0"
        assert isinstance(k, int) and k > 0, "k should be a positive integer"
        self.inner_optimizer, self.alpha, self.k = inner_optimizer, alpha, k
        self.type = "lookahead"

    def minimize(self, loss, startup_program=None):
        layers = sys.modules["paddle.fluid.layers"]
        mini_out = self.inner_optimizer.minimize(loss, startup_program=startup_program)
        startup_program = startup_program or framework.default_startup_program()
        main_block, startup_block = loss.block, startup_program.global_block()
        params = [p.name for p in main_block.all_parameters()]
        slow = {}
        for name in params:
            fast = main_block.var(name)
            slow[name] = main_block.create_var(name=name + "@SLOW", shape=fast.shape,
                                               dtype=fast.dtype, persistable=True)
            fast0 = startup_block.var(name)
            slow0 = startup_block.create_var(name=name + "@SLOW", shape=fast0.shape,
                                             dtype=fast0.dtype, persistable=True)
            startup_block.append_op(type="assign", inputs={"X": fast0}, outputs={"Out": slow0})
        k = layers.create_global_var(name="lookahead_k", shape=[1], value=int(self.k),
                                     dtype="int32", persistable=True)
        alpha = layers.create_global_var(name="lookahead_alpha", shape=[1],
                                         value=float(self.alpha), dtype="float32",
                                         persistable=True)
        step = layers.create_global_var(name="lookahead_step", shape=[1], value=0,
                                        dtype="int32", persistable=True)
        layers.increment(x=step, value=1.0, in_place=True)
        zero = layers.fill_constant(shape=[1], dtype="float32", value=0.0)
        one = layers.fill_constant(shape=[1], dtype="float32", value=1.0)
        mod = layers.elementwise_mod(step, k)
        with layers.control_flow.Switch() as switch:
            with switch.case(mod == zero):
                for name in params:
                    fast = main_block.var(name)
                    mixed = layers.elementwise_add(
                        layers.elementwise_mul(fast, alpha),
                        layers.elementwise_mul(slow[name], layers.elementwise_sub(one, alpha)))
                    layers.assign(input=mixed, output=slow[name])
                    layers.assign(input=mixed, output=fast)
            with switch.default():
                pass
        return mini_out


def _module(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


RUN = False


def _pillow_2018():
    """Pillow as 2018-19 scripts saw it (Pillow 5): `Image.ANTIALIAS` is
    LANCZOS (removed in Pillow 10), and `resize` without `resample` is
    NEAREST (Pillow 7 made it BICUBIC)."""
    try:
        from PIL import Image
    except ImportError:
        return
    if not hasattr(Image, "ANTIALIAS"):
        Image.ANTIALIAS = Image.LANCZOS
    resize = Image.Image.resize
    if getattr(resize, "_fluid2018", False):
        return

    def resize_2018(self, size, resample=None, box=None, reducing_gap=None):
        return resize(self, size, Image.NEAREST if resample is None else resample, box,
                      reducing_gap)
    resize_2018._fluid2018 = True
    Image.Image.resize = resize_2018


# Detection's matching layers and the 3-D layers (issue 37), as 1.x's
# layers/detection.py and nn.py built them.
def bipartite_match(dist_matrix, match_type=None, dist_threshold=None, name=None):
    helper = LayerHelper("bipartite_match", name=name)
    idx = helper.create_variable_for_type_inference(dtype="int32")
    dist = helper.create_variable_for_type_inference(dtype=dist_matrix.dtype)
    helper.append_op(type="bipartite_match", inputs={"DistMat": dist_matrix},
                     attrs={"match_type": match_type, "dist_threshold": dist_threshold},
                     outputs={"ColToRowMatchIndices": idx, "ColToRowMatchDist": dist})
    return idx, dist


def _lod_offsets(t, slot):
    lod = t.lod()
    if len(lod) != 1:
        raise ValueError("%s must have 1 level of LoD, it has %d" % (slot, len(lod)))
    return lod[0]


def _np_target_assign(x, matched, neg=None, mismatch_value=0):
    """1.x's target_assign kernel (target_assign_op.h), in numpy."""
    lod = _lod_offsets(x, "X")
    xa, ma = numpy.array(x), numpy.array(matched)
    n, m = ma.shape
    p, k = xa.shape[1], xa.shape[2]
    out = numpy.full((n, m, k), mismatch_value, dtype=xa.dtype)
    weight = numpy.zeros(n * m, dtype="float32")
    for i in range(n):
        for j in range(m):
            if ma[i, j] > -1:
                out[i, j] = xa[lod[i] + ma[i, j], j % p]
                weight[i * m + j] = 1.0
    if neg is not None:
        neg_lod, na = _lod_offsets(neg, "NegIndices"), numpy.array(neg).reshape(-1)
        for i in range(n):
            for nid in na[neg_lod[i]:neg_lod[i + 1]]:
                out[i, nid] = mismatch_value
                # 1.x's NegTargetAssignFunctor: weights at (i M + id) K + k.
                weight[(i * m + nid) * k:(i * m + nid) * k + k] = 1.0
    return out, weight.reshape(n, m, 1)


def _np_mine_hard_examples(cls_loss, matched, dist, loc_loss=None, neg_pos_ratio=1.0,
                           neg_dist_threshold=0.5, sample_size=0, mining_type="max_negative"):
    """1.x's mine_hard_examples kernel (mine_hard_examples_op.cc), in numpy."""
    cls_loss, ma, md = numpy.array(cls_loss), numpy.array(matched), numpy.array(dist)
    dt = cls_loss.dtype.type
    hard = mining_type == "hard_example"
    loss = cls_loss + numpy.array(loc_loss) if hard and loc_loss is not None else cls_loss
    updated, negs, starts = ma.copy(), [], [0]
    for n in range(ma.shape[0]):
        if hard:
            cand = list(range(ma.shape[1]))
            sel = min(sample_size, len(cand))
        else:
            cand = [j for j in range(ma.shape[1])
                    if ma[n, j] == -1 and md[n, j] < dt(numpy.float32(neg_dist_threshold))]
            pos = int(numpy.sum(ma[n] != -1))
            sel = min(int(numpy.float32(pos) * numpy.float32(neg_pos_ratio)), len(cand))
        cand.sort(key=lambda j: -loss[n, j])
        chosen = sorted(cand[:max(sel, 0)])
        if hard:
            for j in range(ma.shape[1]):
                if ma[n, j] > -1 and j not in chosen:
                    updated[n, j] = -1
                elif ma[n, j] <= -1 and j in chosen:
                    negs.append(j)
        else:
            negs.extend(chosen)
        starts.append(len(negs))
    t = core.DenseTensor()
    t.set(numpy.array(negs, dtype="int32").reshape(-1, 1), core.CPUPlace())
    t.set_lod([starts])
    return t, updated


def _numpy_op(op_type, inputs, outputs, attrs):
    """Appends 1.x's `op_type`, which Paddle 3.3.1 dropped, as a py_func
    computing it in numpy (no gradient: 1.x had none)."""
    attrs = {k: v for k, v in (attrs or {}).items() if v is not None}
    one = lambda v: v[0] if isinstance(v, (list, tuple)) else v  # noqa: E731
    if op_type == "target_assign":
        x, mi, neg = one(inputs["X"]), one(inputs["MatchIndices"]), inputs.get("NegIndices")
        out, wt = one(outputs["Out"]), one(outputs["OutWeight"])
        out.desc.set_shape([mi.shape[0], mi.shape[1], x.shape[2]])
        wt.desc.set_shape([mi.shape[0], mi.shape[1], 1])
        ins = [x, mi] + ([one(neg)] if neg is not None else [])
        paddle.static.py_func(lambda *a: _np_target_assign(*a, **attrs), ins, [out, wt])
        return
    if op_type == "mine_hard_examples":
        loc = inputs.get("LocLoss")
        ins = [one(inputs["ClsLoss"]), one(inputs["MatchIndices"]), one(inputs["MatchDist"])]
        ins += [one(loc)] if loc is not None else []
        neg, upd = one(outputs["NegIndices"]), one(outputs["UpdatedMatchIndices"])
        neg.desc.set_shape([-1, 1])
        upd.desc.set_shape(ins[1].shape)
        paddle.static.py_func(lambda *a: _np_mine_hard_examples(*a, **attrs), ins, [neg, upd])
        return
    raise NotImplementedError(op_type)


_NUMPY_OPS = ("target_assign", "mine_hard_examples")


class _LayerHelper1x(LayerHelper):
    """Paddle 3.3.1's LayerHelper, with 1.x's ops it dropped appended as
    numpy py_funcs (`_numpy_op`)."""

    def append_op(self, *args, **kwargs):
        if kwargs.get("type") in _NUMPY_OPS:
            return _numpy_op(kwargs["type"], kwargs.get("inputs") or {},
                             kwargs.get("outputs") or {}, kwargs.get("attrs"))
        return super().append_op(*args, **kwargs)


def target_assign(input, matched_indices, negative_indices=None, mismatch_value=None, name=None):
    helper = _LayerHelper1x("target_assign", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_weight = helper.create_variable_for_type_inference(dtype="float32")
    helper.append_op(type="target_assign",
                     inputs={"X": input, "MatchIndices": matched_indices,
                             "NegIndices": negative_indices},
                     outputs={"Out": out, "OutWeight": out_weight},
                     attrs={"mismatch_value": mismatch_value})
    return out, out_weight


def ssd_loss(location, confidence, gt_box, gt_label, prior_box, prior_box_var=None,
             background_label=0, overlap_threshold=0.5, neg_pos_ratio=3.0, neg_overlap=0.5,
             loc_loss_weight=1.0, conf_loss_weight=1.0, match_type="per_prediction",
             mining_type="max_negative", normalize=True, sample_size=None):
    """1.x's ssd_loss (Paddle 3.3.1 has none), from the shim's own layers:
    IoU matching, a first confidence loss to mine hard negatives by,
    the targets, then the weighted softmax + smooth-L1 sum per image."""
    if mining_type != "max_negative":
        raise ValueError("Only support mining_type == max_negative now.")
    num_prior = prior_box.shape[0]
    iou = iou_similarity(x=gt_box, y=prior_box)
    matched, dist = bipartite_match(iou, match_type, overlap_threshold)
    gt_label = paddle.reshape(gt_label, [0, -1, 1])
    gt_label.stop_gradient = True
    label0, _ = target_assign(gt_label, matched, mismatch_value=background_label)
    logits = flatten(confidence, axis=2)
    label0 = flatten(cast(label0, "int64"), axis=2)
    label0.stop_gradient = True
    first = paddle.reshape(softmax_with_cross_entropy(logits, label0), [-1, num_prior])
    first.stop_gradient = True
    helper = _LayerHelper1x("ssd_loss")
    neg = helper.create_variable_for_type_inference("int32")
    updated = helper.create_variable_for_type_inference(matched.dtype)
    helper.append_op(type="mine_hard_examples",
                     inputs={"ClsLoss": first, "LocLoss": None, "MatchIndices": matched,
                             "MatchDist": dist},
                     outputs={"NegIndices": neg, "UpdatedMatchIndices": updated},
                     attrs={"neg_pos_ratio": neg_pos_ratio, "neg_dist_threshold": neg_overlap,
                            "mining_type": mining_type, "sample_size": sample_size})
    encoded = box_coder(prior_box=prior_box, prior_box_var=prior_box_var, target_box=gt_box,
                        code_type="encode_center_size")
    target_bbox, loc_weight = target_assign(encoded, updated, mismatch_value=background_label)
    label, conf_weight = target_assign(gt_label, updated, negative_indices=neg,
                                       mismatch_value=background_label)
    label = cast(flatten(label, axis=2), "int64")
    for v in (label, conf_weight, target_bbox, loc_weight):
        v.stop_gradient = True
    conf = softmax_with_cross_entropy(logits, label) * flatten(conf_weight, axis=2)
    loc = smooth_l1(flatten(location, axis=2), flatten(target_bbox, axis=2))
    loc = loc * flatten(loc_weight, axis=2)
    loss = paddle.reshape(conf_loss_weight * conf + loc_loss_weight * loc, [-1, num_prior])
    reduce_sum = _reduce("reduce_sum")
    loss = reduce_sum(loss, dim=1, keep_dim=True)
    if normalize:
        loss = loss / reduce_sum(flatten(loc_weight, axis=2))
    return loss


def _padding_3d(padding, data_format, six):
    """1.6's 3-D layers' paddings and padding algorithm: SAME/VALID, 5
    per-dim pairs or 6 values (6), else 3 (6 when `six`, as conv3d)."""
    algorithm = "EXPLICIT"
    if isinstance(padding, str):
        algorithm, padding = padding.upper(), [0] * 6
    if isinstance(padding, (list, tuple)) and len(padding) == 5:
        pairs = padding[2:5] if data_format == "NCDHW" else padding[1:4]
        padding = [p for pair in pairs for p in pair]
    if not (isinstance(padding, (list, tuple)) and len(padding) == 6):
        padding = _to_list(padding, 3, "padding")
        if six:
            padding = [padding[0], padding[0], padding[1], padding[1], padding[2], padding[2]]
    return list(padding), algorithm


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCDHW"):
    helper = LayerHelper("conv3d", act=act, name=name, use_cudnn=use_cudnn)
    channel_last = data_format == "NDHWC"
    num_channels = input.shape[4] if channel_last else input.shape[1]
    num_filter_channels = num_channels if groups is None else num_channels // groups
    filter_size = _to_list(filter_size, 3, "filter_size")
    stride = _to_list(stride, 3, "stride")
    dilation = _to_list(dilation, 3, "dilation")
    padding, algorithm = _padding_3d(padding, data_format, True)
    std = (2.0 / (filter_size[0] * filter_size[1] * filter_size[2] * num_channels)) ** 0.5
    filter_param = _create_parameter(helper, param_attr,
                                     [num_filters, num_filter_channels] + filter_size,
                                     input.dtype, default_initializer=Normal(0.0, std, 0))
    pre_bias = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="conv3d", inputs={"Input": input, "Filter": filter_param},
                     outputs={"Output": pre_bias},
                     attrs={"strides": stride, "paddings": padding, "dilations": dilation,
                            "groups": groups, "use_cudnn": use_cudnn, "use_mkldnn": False,
                            "padding_algorithm": algorithm, "data_format": data_format})
    axis = 4 if channel_last else 1
    pre_act = _append_bias(helper, pre_bias, bias_attr, dim_start=axis, dim_end=axis + 1)
    return helper.append_activation(pre_act)


def pool3d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
           global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
           data_format="NCDHW"):
    helper = LayerHelper("pool3d", name=name)
    padding, algorithm = _padding_3d(pool_padding, data_format, False)
    out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="pool3d", inputs={"X": input}, outputs={"Out": out},
                     attrs={"pooling_type": pool_type, "ksize": _to_list(pool_size, 3, "pool_size"),
                            "global_pooling": global_pooling,
                            "strides": _to_list(pool_stride, 3, "pool_stride"),
                            "paddings": padding, "padding_algorithm": algorithm,
                            "use_cudnn": use_cudnn, "ceil_mode": ceil_mode, "use_mkldnn": False,
                            "exclusive": exclusive, "data_format": data_format})
    return out


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    helper = LayerHelper("conv3d_transpose", act=act, name=name, use_cudnn=use_cudnn)
    channel_last = data_format == "NDHWC"
    input_channel = input.shape[-1] if channel_last else input.shape[1]
    stride = _to_list(stride, 3, "stride")
    dilation = _to_list(dilation, 3, "dilation")
    padding, algorithm = _padding_3d(padding, data_format, True)
    if filter_size is None:
        spatial = input.shape[1:4] if channel_last else input.shape[2:5]
        filter_size = [(output_size[i] - (spatial[i] - 1) * stride[i] + padding[2 * i]
                        + padding[2 * i + 1] - 1) // dilation[i] + 1 for i in range(3)]
    else:
        filter_size = _to_list(filter_size, 3, "conv3d_transpose.filter_size")
    groups = 1 if groups is None else groups
    filter_param = _create_parameter(helper, param_attr,
                                     [input_channel, num_filters // groups] + filter_size,
                                     input.dtype)
    pre_bias = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="conv3d_transpose", inputs={"Input": [input], "Filter": [filter_param]},
                     outputs={"Output": pre_bias},
                     attrs={"strides": stride, "paddings": padding,
                            "padding_algorithm": algorithm, "dilations": dilation,
                            "groups": groups, "use_cudnn": use_cudnn,
                            "data_format": "NHWC" if channel_last else "NCHW"})
    axis = 4 if channel_last else 1
    pre_act = _append_bias(helper, pre_bias, bias_attr, dim_start=axis, dim_end=axis + 1)
    return helper.append_activation(pre_act)


def strided_slice(input, axes, starts, ends, strides):
    """1.6's strided_slice. Its kernel took a negative stride's elements
    counted from the end bound (end + 1, end + 1 + |stride|, ... below
    start + 1, reversed); Paddle 3.3.1 counts from the start as numpy, so
    such an axis gets the start 1.x's first element is at."""
    starts = list(starts)
    for i, (axis, stride) in enumerate(zip(axes, strides)):
        size = input.shape[axis]
        if stride >= 0 or size < 0:
            continue
        s, e = (v + size if v < 0 else v for v in (starts[i], ends[i]))
        if s > e:
            s, e = s + 1, e + 1
        lo, hi = min(max(e, 0), size), min(max(s, 0), size)
        if hi > lo:
            starts[i] = lo + (hi - 1 - lo) // -stride * -stride
    helper = LayerHelper("strided_slice")
    out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="strided_slice", inputs={"Input": input}, outputs={"Out": out},
                     attrs={"axes": list(axes), "starts": starts, "ends": list(ends),
                            "strides": list(strides), "infer_flags": [1] * len(axes)})
    return out


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None):
    helper = LayerHelper("temporal_shift", name=name)
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="temporal_shift", inputs={"X": x}, outputs={"Out": out},
                     attrs={"seg_num": seg_num, "shift_ratio": shift_ratio})
    return out


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    helper = LayerHelper("spectral_norm", name=name)
    h = weight.shape[dim]
    w = int(numpy.prod(weight.shape)) // h
    u = _create_parameter(helper, None, [h], weight.dtype, default_initializer=Normal(0., 1.))
    u.stop_gradient = True
    v = _create_parameter(helper, None, [w], weight.dtype, default_initializer=Normal(0., 1.))
    v.stop_gradient = True
    out = helper.create_variable(dtype=weight.dtype)
    helper.append_op(type="spectral_norm", inputs={"Weight": weight, "U": u, "V": v},
                     outputs={"Out": out},
                     attrs={"dim": dim, "power_iters": power_iters, "eps": eps})
    return out


_DET_B_LAYERS = dict(spectral_norm=spectral_norm, temporal_shift=temporal_shift, bipartite_match=bipartite_match, target_assign=target_assign,
                     ssd_loss=ssd_loss,
                     conv3d=conv3d, pool3d=pool3d, conv3d_transpose=conv3d_transpose,
                     strided_slice=strided_slice)


# issue 37 (ops-c): 1.x layers real programs use.
def roi_pool(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0):
    helper = LayerHelper("roi_pool")
    out = helper.create_variable_for_type_inference(input.dtype)
    argmax = helper.create_variable_for_type_inference("int64")
    helper.append_op(type="roi_pool", inputs={"X": input, "ROIs": rois},
                     outputs={"Out": out, "Argmax": argmax},
                     attrs={"pooled_height": pooled_height, "pooled_width": pooled_width,
                            "spatial_scale": spatial_scale})
    return out


def roi_align(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0,
              sampling_ratio=-1, name=None):
    helper = LayerHelper("roi_align", name=name)
    out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="roi_align", inputs={"X": input, "ROIs": rois}, outputs={"Out": out},
                     attrs={"pooled_height": pooled_height, "pooled_width": pooled_width,
                            "spatial_scale": spatial_scale, "sampling_ratio": sampling_ratio,
                            "aligned": False})
    return out



def data_norm(input, act=None, epsilon=1e-05, param_attr=None, data_layout='NCHW',
              in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
              do_model_average_for_mean_and_var=True):
    """1.x's data_norm, which Paddle 3.3.1 dropped, in numpy (py_func): its
    three trainable statistics, and as their gradients the batch's own
    (N, the column sums, the squared deviations' sums plus N * epsilon)."""
    helper = LayerHelper("data_norm", act=act, name=name)
    if data_layout not in ("NCHW", "NHWC"):
        raise ValueError("unsupported data layout:" + data_layout)
    c = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    defaults = dict(batch_size=1e4, batch_sum=0.0, batch_square=1e4)
    if param_attr and isinstance(param_attr, dict):
        defaults = {k: param_attr.get(k, v) for k, v in defaults.items()}
    stats = [_create_parameter(helper, ParamAttr(name=name + suffix, trainable=True,
                                                 initializer=Constant(value=float(defaults[key]))),
                               [c], input.dtype)
             for suffix, key in ((".batch_size", "batch_size"), (".batch_sum", "batch_sum"),
                                 (".batch_square_sum", "batch_square"))]
    outs = [helper.create_variable_for_type_inference(input.dtype) for _ in range(3)]
    outs[0].desc.set_shape(list(input.shape))
    for v in outs[1:]:
        v.desc.set_shape([c])
        v.stop_gradient = True

    def moments(size, total, square):
        size, total, square = (numpy.array(v) for v in (size, total, square))
        return total / size, numpy.sqrt(size / square)

    def forward(x, size, total, square):
        x = numpy.array(x)
        if x.ndim != 2:
            raise ValueError("The Input dim size should be 2")
        means, scales = moments(size, total, square)
        return (x - means) * scales, means, scales

    def backward(*args):  # X, the statistics, Y@GRAD (py_func names no *args)
        x, size, total, square, dy = args[:5]
        x = numpy.array(x)
        means, scales = moments(size, total, square)
        n = x.shape[0]
        t = x.dtype.type
        dsq = ((x - means) ** 2).sum(axis=0) + t(n) * t(epsilon)
        return (numpy.array(dy) * scales, numpy.full([c], n, x.dtype), x.sum(axis=0), dsq)

    paddle.static.py_func(forward, [input] + stats, outs, backward_func=backward,
                          skip_vars_in_backward_input=outs)
    return helper.append_activation(outs[0])



def unique_with_counts(x, dtype="int32"):
    """1.6's unique_with_counts, which Paddle 3.3.1 dropped, in numpy
    (py_func): the distinct values in the order they first appear, each
    value's place among them and their counts."""
    if not (dtype == 'int32' or dtype == 'int64'):
        raise TypeError("Op unique_with_counts, index dtype must be int32 or int64")
    if x is None or len(x.shape) != 1:
        raise ValueError("Op unique_with_counts, x must not be null and size of dim must be 1")
    helper = LayerHelper("unique_with_counts")
    outs = [helper.create_variable_for_type_inference(d) for d in (x.dtype, dtype, dtype)]
    for v, shape in zip(outs, ([-1], list(x.shape), [-1])):
        v.desc.set_shape(shape)
        v.stop_gradient = True

    def forward(v):
        v = numpy.array(v)
        _, first, index, count = numpy.unique(v, return_index=True, return_inverse=True,
                                              return_counts=True)
        order = numpy.argsort(first, kind="stable")
        place = numpy.empty_like(order)
        place[order] = numpy.arange(order.size)
        return v[numpy.sort(first)], place[index].astype(dtype), count[order].astype(dtype)

    paddle.static.py_func(forward, [x], outs)
    return tuple(outs)



def center_loss(input, label, num_classes, alpha, param_attr, update_center=True):
    """1.6's center_loss, which Paddle 3.3.1 dropped, in numpy (py_func):
    the loss and each sample's difference from its class center, the
    centers moved in place by alpha * (sum of the class's differences) /
    (1 + its samples); X's gradient Loss@GRAD * difference."""
    helper = LayerHelper("center_loss")
    centers = _create_parameter(helper, param_attr, [num_classes, input.shape[1]], input.dtype)
    centers.stop_gradient = True
    if isinstance(alpha, Variable):
        rate = alpha
    else:
        assert isinstance(alpha, float)
        block = framework.default_main_program().current_block()
        rate = block.create_var(name="centerloss_alpha", shape=[1], dtype="float32",
                                type=VarType.DENSE_TENSOR, persistable=True, stop_gradient=True)
        Constant(alpha)(rate, block)
    diff = helper.create_variable_for_type_inference(input.dtype)
    loss = helper.create_variable_for_type_inference(input.dtype)
    diff.desc.set_shape([input.shape[0], input.shape[1]])
    loss.desc.set_shape([input.shape[0], 1])

    def forward(x, y, c, a):
        x, c = numpy.array(x), numpy.array(c)
        y = numpy.array(y).reshape(-1)
        t = x.dtype.type
        d = x - c[y]
        acc = numpy.zeros_like(c)
        numpy.add.at(acc, y, d)
        count = numpy.bincount(y, minlength=num_classes) + 1
        if update_center:
            c = c + acc * (t(numpy.array(a).reshape(-1)[0]) / count.astype(x.dtype))[:, None]
        return d, ((d * d).sum(axis=1, keepdims=True) / t(2)), c

    def backward(*args):  # SampleCenterDiff and the outputs' grads
        d, g = args[0], args[2]
        return numpy.array(d) * numpy.array(g), None, None, None

    paddle.static.py_func(forward, [input, label, centers, rate], [diff, loss, centers],
                          backward_func=backward,
                          skip_vars_in_backward_input=[input, label, centers, rate, loss])
    return loss



def grid_sampler(x, grid, name=None):
    """1.x's grid_sampler on 3.3.1's op (bilinear, zero padding, corners
    aligned, as 1.x's kernel sampled); a non-Variable is returned as a
    ValueError, as 1.x did."""
    helper = LayerHelper("grid_sampler", name=name)
    if not isinstance(x, Variable):
        return ValueError("The x should be a Variable")
    if not isinstance(grid, Variable):
        return ValueError("The grid should be a Variable")
    if x.stop_gradient and not grid.stop_gradient:
        # 3.3.1's grid_sampler_grad crashes without X@GRAD: a copy of x
        # that takes one (unused), as 1.x computed Grid@GRAD alone.
        copy_x = helper.create_variable_for_type_inference(x.dtype)
        helper.append_op(type="scale", inputs={"X": x}, outputs={"Out": copy_x},
                         attrs={"scale": 1.0})
        copy_x.desc.set_shape(list(x.shape))
        copy_x.stop_gradient = False
        x_in = copy_x
    else:
        x_in = x
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="grid_sampler", inputs={"X": x_in, "Grid": grid},
                     outputs={"Output": out},
                     attrs={"mode": "bilinear", "padding_mode": "zeros", "align_corners": True})
    out.desc.set_shape(list(x.shape))  # 1.x's InferShape: X's shape
    return out


def affine_grid(theta, out_shape, name=None):
    helper = LayerHelper("affine_grid")
    if not isinstance(out_shape, (list, tuple, Variable)):
        raise ValueError("The out_shape should be a list, tuple or Variable.")
    if not isinstance(theta, Variable):
        raise ValueError("The theta should be a Variable.")
    out = helper.create_variable_for_type_inference(theta.dtype)
    inputs, attrs = {"Theta": theta}, {"align_corners": True}
    if isinstance(out_shape, Variable):
        inputs["OutputShape"] = out_shape
    else:
        attrs["output_shape"] = list(out_shape)
    helper.append_op(type="affine_grid", inputs=inputs, outputs={"Output": out}, attrs=attrs)
    out.desc.set_shape([theta.shape[0], -1, -1, 2])  # 1.x's InferShape
    return out



def sequence_scatter(input, index, updates, name=None):
    """1.x's sequence_scatter, which Paddle 3.3.1 dropped, in numpy
    (py_func): sequence k of index's LoD adds its updates to row k of
    input at the columns it names; Updates@GRAD reads Out@GRAD there."""
    helper = LayerHelper("sequence_scatter", name=name)
    out = helper.create_variable_for_type_inference(input.dtype)
    out.desc.set_shape(list(input.shape))

    def places(ids, rows):
        offsets = ids.lod()[0]
        cols = numpy.array(ids).reshape(-1)
        seq = numpy.repeat(numpy.arange(len(offsets) - 1), numpy.diff(offsets))
        return seq, cols

    def forward(x, ids, u):
        o = numpy.array(x).copy()
        seq, cols = places(ids, o.shape[0])
        flat = o.reshape(o.shape[0], -1)
        numpy.add.at(flat, (seq, cols), numpy.array(u).reshape(-1))
        return flat.reshape(o.shape)

    def backward(x, ids, u, dout):
        d = numpy.array(dout)
        seq, cols = places(ids, d.shape[0])
        du = d.reshape(d.shape[0], -1)[seq, cols].reshape(numpy.array(u).shape)
        return d, None, du

    paddle.static.py_func(forward, [input, index, updates], out, backward_func=backward,
                          skip_vars_in_backward_input=[out])
    return out



def _lstmp_act(name, plain=False):
    """1.x's LSTM activations (detail::activation: sigmoid's input clipped
    to [-40, 13], tanh through exp(-2x) clipped at 40), or Eigen's plain
    ones (`plain`), each with its gradient from its output."""
    sig = lambda x: 1.0 / (1.0 + numpy.exp(-(x if plain else numpy.clip(x, -40.0, 13.0))))
    tanh = numpy.tanh if plain else (lambda x: 2.0 / (1.0 + numpy.exp(numpy.minimum(-2.0 * x, 40.0))) - 1.0)
    return {"sigmoid": (sig, lambda y, d: d * y * (1.0 - y)),
            "tanh": (tanh, lambda y, d: d * (1.0 - y * y)),
            "relu": (lambda x: numpy.maximum(x, 0.0), lambda y, d: d * (y > 0)),
            "identity": (lambda x: x, lambda y, d: d)}[name]


def dynamic_lstmp(input, size, proj_size, param_attr=None, bias_attr=None,
                  use_peepholes=True, is_reverse=False, gate_activation='sigmoid',
                  cell_activation='tanh', candidate_activation='tanh',
                  proj_activation='tanh', dtype='float32', name=None, h_0=None,
                  c_0=None, cell_clip=None, proj_clip=None):
    """1.6's dynamic_lstmp, whose lstmp op Paddle 3.3.1 dropped, in numpy
    (py_func, in double): 1.x's kernels sequence by sequence, including
    their quirks (the projection takes cell_activation unless
    proj_activation is identity; the state's gradient is zeroed, carried
    part included, where the state sits on cell_clip)."""
    helper = LayerHelper("lstmp", name=name)
    d = size // 4
    p = proj_size
    w = _create_parameter(helper, param_attr, [p, 4 * d], dtype)
    pw = _create_parameter(helper, param_attr, [d, p], dtype)
    b = _create_parameter(helper, bias_attr, [1, 7 * d if use_peepholes else 4 * d], dtype,
                          is_bias=True)
    ins = [input, w, pw, b] + [v for v in (h_0, c_0) if v is not None]
    proj = helper.create_variable_for_type_inference(dtype)
    cell = helper.create_variable_for_type_inference(dtype)
    proj.desc.set_shape([input.shape[0], p])
    cell.desc.set_shape([input.shape[0], d])
    gate, cellf, cand = (_lstmp_act(gate_activation), _lstmp_act(cell_activation),
                         _lstmp_act(candidate_activation))
    pact = None if proj_activation == "identity" else _lstmp_act(cell_activation, plain=True)
    cclip, pclip = float(cell_clip or 0.0), float(proj_clip or 0.0)

    def steps(xs):
        offsets = xs.lod()[0]
        for k in range(len(offsets) - 1):
            rows = list(range(offsets[k], offsets[k + 1]))
            yield k, rows[::-1] if is_reverse else rows

    def unpack(args):
        x, wv, pwv, bv = (numpy.array(a, dtype="float64") for a in args[:4])
        rest = [numpy.array(a, dtype="float64") for a in args[4:4 + len(ins) - 4]]
        h0 = rest[0] if h_0 is not None else None
        c0 = rest[-1] if c_0 is not None else None
        bv = bv.reshape(-1)
        peep = bv[4 * d:] if use_peepholes else numpy.zeros(3 * d)
        return x, wv, pwv, bv, peep, h0, c0

    def run(args):
        x, wv, pwv, bv, peep, h0, c0 = unpack(args)
        t = x.shape[0]
        g_all, c_all, ca_all, h_all, r_all = (numpy.zeros((t, 4 * d)), numpy.zeros((t, d)),
                                              numpy.zeros((t, d)), numpy.zeros((t, d)),
                                              numpy.zeros((t, p)))
        for k, rows in steps(args[0]):
            r_prev = h0[k] if h0 is not None else None
            c_prev = c0[k] if c0 is not None else numpy.zeros(d)
            for r in rows:
                g = x[r] + bv[:4 * d] + (r_prev @ wv if r_prev is not None else 0.0)
                c_in = cand[0](g[:d])
                i = gate[0](g[d:2 * d] + c_prev * peep[:d])
                f = gate[0](g[2 * d:3 * d] + c_prev * peep[d:2 * d])
                c = c_in * i + c_prev * f
                if cclip > 0:
                    c = numpy.clip(c, -cclip, cclip)
                o = gate[0](g[3 * d:] + c * peep[2 * d:])
                ca = cellf[0](c)
                h = o * ca
                rv = h @ pwv
                if pact is not None:
                    rv = pact[0](rv)
                if pclip > 0:
                    rv = numpy.clip(rv, -pclip, pclip)
                g_all[r] = numpy.concatenate([c_in, i, f, o])
                c_all[r], ca_all[r], h_all[r], r_all[r] = c, ca, h, rv
                r_prev, c_prev = rv, c
        return g_all, c_all, ca_all, h_all, r_all

    def forward(*args):
        _, c_all, _, _, r_all = run(args)
        return r_all.astype(dtype), c_all.astype(dtype)

    def backward(*args):  # the inputs, then Projection@GRAD (and Cell@GRAD)
        n_in = len(ins)
        fwd = args[:n_in]
        x, wv, pwv, bv, peep, h0, c0 = unpack(fwd)
        g_all, c_all, ca_all, h_all, r_all = run(fwd)
        dr = numpy.array(args[n_in], dtype="float64").copy()
        dg_all = numpy.zeros_like(g_all)
        dw, dpw, dpeep = numpy.zeros_like(wv), numpy.zeros_like(pwv), numpy.zeros(3 * d)
        dh0 = numpy.zeros_like(h0) if h0 is not None else None
        dc0 = numpy.zeros_like(c0) if c0 is not None else None
        for k, rows in steps(fwd[0]):
            dc = numpy.zeros(d)
            for t in range(len(rows) - 1, -1, -1):
                r = rows[t]
                prev = rows[t - 1] if t > 0 else None
                y = r_all[r]
                g = dr[r]
                if pclip > 0:
                    g = numpy.where((y > -pclip) & (y < pclip), g, 0.0)
                if pact is not None:
                    g = pact[1](y, g)
                dh = pwv @ g
                dpw += numpy.outer(h_all[r], g)
                c_prev = c_all[prev] if prev is not None else (c0[k] if c0 is not None else numpy.zeros(d))
                c_in, i, f, o = (g_all[r][j * d:(j + 1) * d] for j in range(4))
                c, ca = c_all[r], ca_all[r]
                d_o = gate[1](o, dh * ca)
                d_c = dc + cellf[1](ca, dh * o) + d_o * peep[2 * d:]
                if cclip > 0:
                    d_c = numpy.where((c >= cclip) | (c <= -cclip), 0.0, d_c)
                d_in = cand[1](c_in, d_c * i)
                d_i = gate[1](i, d_c * c_in)
                d_f = gate[1](f, d_c * c_prev)
                dc = d_i * peep[:d] + d_f * peep[d:2 * d] + d_c * f
                if use_peepholes:
                    dpeep += numpy.concatenate([d_i * c_prev, d_f * c_prev, d_o * c])
                dg = numpy.concatenate([d_in, d_i, d_f, d_o])
                dg_all[r] = dg
                r_prev = r_all[prev] if prev is not None else (h0[k] if h0 is not None else None)
                if r_prev is not None:
                    back = wv @ dg
                    if prev is not None:
                        dr[prev] += back
                    else:
                        dh0[k] = back
                    dw += numpy.outer(r_prev, dg)
            if dc0 is not None:
                dc0[k] = dc
        db = dg_all.sum(axis=0)
        if use_peepholes:
            db = numpy.concatenate([db, dpeep])
        grads = [dg_all, dw, dpw, db.reshape(1, -1)]
        grads += [v for v in (dh0, dc0) if v is not None]
        return tuple(v.astype(dtype) for v in grads)

    paddle.static.py_func(forward, ins, [proj, cell], backward_func=backward,
                          skip_vars_in_backward_input=[proj, cell])
    outs = []
    for v in (proj, cell):  # 1.x's outputs share the input's LoD
        o = helper.create_variable_for_type_inference(dtype)
        helper.append_op(type="lod_reset", inputs={"X": v, "Y": input}, outputs={"Out": o},
                         attrs={"target_lod": [], "append": False})
        o.desc.set_shape(list(v.shape))
        outs.append(o)
    return tuple(outs)


_OPS_C_LAYERS = dict(roi_pool=roi_pool, roi_align=roi_align, data_norm=data_norm,
                     unique_with_counts=unique_with_counts, center_loss=center_loss,
                     grid_sampler=grid_sampler, affine_grid=affine_grid,
                     sequence_scatter=sequence_scatter, dynamic_lstmp=dynamic_lstmp)


def install(run=False):
    """Installs `paddle.fluid` and its submodules, with fresh default programs
    and a fresh unique-name generator; returns the `paddle.fluid` module.
    With `run`, `Executor.run` runs programs in Paddle."""
    global STATE, RUN
    RUN = run
    paddle.enable_static()
    # 1.x: every Program names through the one global generator.
    Program._name_generator = property(lambda self: unique_name.generator,
                                       lambda self, value: None)
    unique_name.switch()
    framework.switch_main_program(Program())
    framework.switch_startup_program(Program())
    STATE = _State()
    _patch_variable()
    _patch_zero_d()
    paddle.base.libpaddle.DenseTensor.recursive_sequence_lengths = _recursive_sequence_lengths
    _pillow_2018()
    # 1.x's name for a scope variable's tensor array.
    paddle.base.libpaddle.Variable.get_lod_tensor_array = (
        paddle.base.libpaddle.Variable.get_dense_tensor_array)

    layers = _module(
        "paddle.fluid.layers",
        fill_constant=fill_constant,
        fill_constant_batch_size_like=fill_constant_batch_size_like, zeros=zeros, ones=ones, assign=assign,
        data=layers_data, create_global_var=create_global_var, cast=cast,
        increment=increment, scale=scale,
        less_than=_compare("less_than"), less_equal=_compare("less_equal"),
        greater_than=_compare("greater_than"), greater_equal=_compare("greater_equal"),
        equal=_compare("equal"), not_equal=_compare("not_equal"),
        logical_and=logical_and, logical_or=logical_or, logical_xor=logical_xor,
        logical_not=logical_not, mean=_unary("mean"), relu=_unary("relu"),
        sigmoid=_unary("sigmoid"), tanh=_unary("tanh"), softmax=softmax, fc=fc,
        square_error_cost=square_error_cost, log_loss=log_loss, nce=nce, cos_sim=cos_sim,
        smooth_l1=smooth_l1, margin_rank_loss=margin_rank_loss, rank_loss=rank_loss, lrn=lrn,
        mse_loss=mse_loss, dice_loss=dice_loss, npair_loss=npair_loss, rank=rank_layer,
        image_resize=image_resize, resize_bilinear=resize_bilinear,
        resize_nearest=resize_nearest, image_resize_short=image_resize_short, cumsum=cumsum,
        sequence_mask=sequence_mask, unstack=unstack,
        sequence_pad=sequence_pad, sequence_unpad=sequence_unpad,
        sequence_reverse=sequence_reverse, sequence_concat=sequence_concat,
        sequence_slice=sequence_slice, sequence_reshape=sequence_reshape,
        sequence_enumerate=sequence_enumerate, sequence_expand_as=sequence_expand_as,
        row_conv=row_conv, im2sequence=im2sequence,
        scatter=scatter, gather_nd=gather_nd,
        multiplex=multiplex, crop=crop, pad2d=pad2d, pad_constant_like=pad_constant_like,
        maxout=maxout, space_to_depth=space_to_depth, pixel_shuffle=pixel_shuffle,
        shuffle_channel=shuffle_channel, hsigmoid=hsigmoid, hard_swish=hard_swish,
        soft_relu=soft_relu, clip_by_norm=clip_by_norm, kldiv_loss=kldiv_loss,
        affine_channel=affine_channel, expand_as=expand_as, bpr_loss=bpr_loss,
        sampling_id=sampling_id,
        mean_iou=mean_iou,
        bilinear_tensor_product=bilinear_tensor_product,
        scatter_nd_add=scatter_nd_add, scatter_nd=scatter_nd, shard_index=shard_index, hash=hash,
        continuous_value_model=continuous_value_model,
        add_position_encoding=add_position_encoding,
        While=While, ConditionalBlock=ConditionalBlock, Switch=Switch, cond=cond,
        IfElse=IfElse, split_lod_tensor=split_lod_tensor, merge_lod_tensor=merge_lod_tensor,
        leaky_relu=leaky_relu, clip=clip, sign=_unary("sign"), zeros_like=_fill_like(0.0),
        ones_like=_fill_like(1.0), shape=shape, gather=gather, topk=topk, argsort=argsort,
        reverse=reverse, range=range_layer, linspace=linspace, eye=eye, diag=diag,
        warpctc=warpctc, ctc_greedy_decoder=ctc_greedy_decoder, edit_distance=edit_distance,
        isfinite=_whole("isfinite_v2", "reduce_all"), has_inf=_whole("isinf_v2", "reduce_any"),
        has_nan=_whole("isnan_v2", "reduce_any"), slice=slice_layer, split=split,
        argmax=_arg("arg_max"), argmin=_arg("arg_min"),
        squeeze=_squeeze("squeeze", "squeeze2"), unsqueeze=_squeeze("unsqueeze", "unsqueeze2"),
        sequence_pool=sequence_pool,
        sequence_softmax=sequence_softmax,
        sequence_expand=sequence_expand, lod_reset=lod_reset, lod_append=lod_append,
        is_empty=is_empty, beam_search=beam_search, beam_search_decode=beam_search_decode,
        linear_chain_crf=linear_chain_crf, crf_decoding=crf_decoding, chunk_eval=chunk_eval,
        one_hot=one_hot,
        gru_unit=gru_unit,
        dynamic_lstm=dynamic_lstm,
        dynamic_gru=dynamic_gru,
        relu6=_activation("relu6", fixed={"threshold": 6.0}),
        elu=_activation("elu", alpha=1.0), pow=_activation("pow", factor=1.0),
        hard_sigmoid=_activation("hard_sigmoid", slope=0.2, offset=0.5),
        swish=_activation("swish", fixed={"beta": 1.0}),
        softshrink=softshrink, hard_shrink=hard_shrink, thresholded_relu=thresholded_relu,
        selu=selu, brelu=brelu, stanh=stanh,
        stack=stack, expand=expand, flatten=flatten,
        sequence_conv=sequence_conv,
        sequence_first_step=lambda input: sequence_pool(input, "first"),
        sequence_last_step=lambda input: sequence_pool(input, "last"),
        sigmoid_cross_entropy_with_logits=sigmoid_cross_entropy_with_logits,
        uniform_random=_random("uniform_random", min=-1.0, max=1.0),
        uniform_random_batch_size_like=uniform_random_batch_size_like,
        gaussian_random_batch_size_like=gaussian_random_batch_size_like,
        tensor_array_to_tensor=tensor_array_to_tensor,
        size=size_layer, where=where,
        instance_norm=instance_norm, group_norm=group_norm,
        adaptive_pool2d=adaptive_pool2d, adaptive_pool3d=adaptive_pool3d, unique=unique,
        gaussian_random=_random("gaussian_random", mean=0.0, std=1.0),
    )
    layers.__dict__.update(_detection_layers())
    for op in ("add", "sub", "mul", "div", "max", "min", "pow", "mod", "floordiv"):
        setattr(layers, "elementwise_" + op, _elementwise("elementwise_" + op))
    for op in ("exp", "log", "sqrt", "rsqrt", "abs", "ceil", "floor", "cos", "sin", "round",
               "reciprocal", "square", "softplus", "softsign", "logsigmoid", "atan",
               "tanh_shrink"):
        setattr(layers, op, _unary(op))
    for op in ("sum", "mean", "max", "min", "prod", "all", "any"):
        setattr(layers, "reduce_" + op, _reduce("reduce_" + op))
    layers.__dict__.update(_DET_B_LAYERS)
    layers.__dict__.update(_OPS_C_LAYERS)
    # 1.x's py_func (1.3-1.6) is Paddle 3.3.1's: the same op, callable
    # registry, argument passing and grad maker.
    layers.py_func = paddle.static.py_func
    layers.__dict__.update(fsp_matrix=fsp_matrix, unfold=unfold, crop_tensor=crop_tensor,
                           sigmoid_focal_loss=sigmoid_focal_loss,
                           teacher_student_sigmoid_loss=teacher_student_sigmoid_loss)
    schedules = dict(
        exponential_decay=exponential_decay, natural_exp_decay=natural_exp_decay,
        inverse_time_decay=inverse_time_decay, polynomial_decay=polynomial_decay,
        piecewise_decay=piecewise_decay, noam_decay=noam_decay, cosine_decay=cosine_decay,
        linear_lr_warmup=linear_lr_warmup,
    )
    layers.__dict__.update(
        embedding=embedding, conv2d=conv2d, conv2d_transpose=conv2d_transpose, pool2d=pool2d, batch_norm=batch_norm,
        dropout=dropout, cross_entropy=cross_entropy,
        softmax_with_cross_entropy=softmax_with_cross_entropy, accuracy=accuracy, auc=auc,
        topk=topk,
        concat=concat, sums=sums, sum=sum_layer,
        layer_norm=layer_norm, l2_normalize=l2_normalize, prelu=prelu,
        label_smooth=label_smooth, huber_loss=huber_loss, pad=pad, reshape=reshape, transpose=transpose, clip=clip,
        matmul=matmul, merge_selected_rows=_unary("merge_selected_rows"),
        get_tensor_from_selected_rows=_unary("get_tensor_from_selected_rows"),
        StaticRNN=StaticRNN,
        create_parameter=create_parameter,
        autoincreased_step_counter=autoincreased_step_counter,
        # Tensor arrays and create_tensor: Paddle 3's legacy-static Python
        # builds what 1.x's did (same helpers, names and ops).
        create_array=paddle.tensor.create_array, array_write=paddle.tensor.array_write,
        array_read=paddle.tensor.array_read, array_length=paddle.tensor.array_length,
        create_tensor=paddle.tensor.create_tensor,
        learning_rate_scheduler=_module("paddle.fluid.layers.learning_rate_scheduler",
                                        _decay_step_counter=_decay_step_counter,
                                        **schedules),
        **schedules,
    )
    programs = dict(
        Program=Program, program_guard=program_guard, Variable=Variable,
        default_main_program=framework.default_main_program,
        default_startup_program=framework.default_startup_program,
    )
    fluid = _module(
        "paddle.fluid", layers=layers, core=core, unique_name=unique_name, data=data,
        Executor=Executor, CPUPlace=core.CPUPlace, global_scope=paddle.static.global_scope,
        Scope=core.Scope, scope_guard=paddle.static.scope_guard,
        create_lod_tensor=create_lod_tensor, LoDTensor=core.DenseTensor,
        create_random_int_lodtensor=create_random_int_lodtensor,
        **programs,
    )
    fluid.framework = _module("paddle.fluid.framework", **programs)
    fluid.compiler = _module("paddle.fluid.compiler",
                             CompiledProgram=paddle.static.CompiledProgram)
    initializers = dict(
        Initializer=Initializer, Constant=Constant, Uniform=Uniform, Normal=Normal,
        TruncatedNormal=TruncatedNormal, Xavier=Xavier, MSRA=MSRA,
        ConstantInitializer=ConstantInitializer, UniformInitializer=UniformInitializer,
        NormalInitializer=NormalInitializer,
        TruncatedNormalInitializer=TruncatedNormalInitializer,
        XavierInitializer=XavierInitializer, MSRAInitializer=MSRAInitializer,
        NumpyArrayInitializer=NumpyArrayInitializer,
        init_on_cpu=init_on_cpu, force_init_on_cpu=force_init_on_cpu,
    )
    fluid.initializer = _module("paddle.fluid.initializer", **initializers)
    fluid.io = _module(
        "paddle.fluid.io", save_vars=io_save_vars, load_vars=io_load_vars,
        save_params=_io_by(static_io.is_parameter, io_save_vars),
        load_params=_io_by(static_io.is_parameter, io_load_vars),
        save_persistables=_io_by(static_io.is_persistable, io_save_vars),
        load_persistables=_io_by(static_io.is_persistable, io_load_vars),
        save_inference_model=io_save_inference_model,
        load_inference_model=io_load_inference_model,
        is_parameter=static_io.is_parameter, is_persistable=static_io.is_persistable,
        load_program_state=paddle.static.load_program_state,  # 1.6's (1.7's var_list)
        set_program_state=paddle.static.set_program_state,
    )
    # 1.6's fluid.io re-exported paddle.reader's decorators (3.3.1 still has them).
    for name in ("cache", "map_readers", "buffered", "compose", "chain", "shuffle",
                 "ComposeNotAligned", "firstn", "xmap_readers", "multiprocess_reader"):
        setattr(fluid.io, name, getattr(paddle.reader, name))
    fluid.load_program_state = fluid.io.load_program_state
    fluid.set_program_state = fluid.io.set_program_state
    if not hasattr(paddle.static, "_fluidc_shim_io"):
        paddle.static._fluidc_shim_io = True
        for name in ("save_inference_model", "load_inference_model", "save_vars", "load_vars"):
            setattr(paddle.static, name, _unwrapping(getattr(paddle.static, name)))
    fluid.ParamAttr = ParamAttr
    fluid.param_attr = _module("paddle.fluid.param_attr", ParamAttr=ParamAttr)
    fluid.metrics = _module("paddle.fluid.metrics", ChunkEvaluator=MetricChunkEvaluator)
    fluid.evaluator = _module("paddle.fluid.evaluator", ChunkEvaluator=EvaluatorChunkEvaluator)
    fluid.nets = _module("paddle.fluid.nets", simple_img_conv_pool=_simple_img_conv_pool,
                         sequence_conv_pool=_sequence_conv_pool)
    fluid.regularizer = _module(
        "paddle.fluid.regularizer", L1Decay=L1DecayRegularizer, L2Decay=L2DecayRegularizer,
        L1DecayRegularizer=L1DecayRegularizer, L2DecayRegularizer=L2DecayRegularizer,
    )
    fluid.clip = _module(
        "paddle.fluid.clip", GradientClipByValue=paddle.nn.ClipGradByValue,
        GradientClipByNorm=paddle.nn.ClipGradByNorm,
        GradientClipByGlobalNorm=GradientClipByGlobalNorm,
        set_gradient_clip=paddle.nn.clip.set_gradient_clip,
    )
    fluid.backward = _module("paddle.fluid.backward", append_backward=append_backward,
                             gradients=gradients)
    fluid.gradients = gradients
    optimizers = dict(SGD=SGD, Momentum=Momentum, Adagrad=Adagrad, Adam=Adam, Adamax=Adamax,
                      Adadelta=Adadelta, RMSProp=RMSProp, Lamb=Lamb,
                      DecayedAdagrad=DecayedAdagrad, Ftrl=Ftrl)
    bases = dict(SGD=paddle.optimizer.SGD, Momentum=paddle.optimizer.Momentum,
                 Adagrad=paddle.optimizer.Adagrad, Adam=paddle.optimizer.Adam,
                 Adamax=paddle.optimizer.Adamax, Adadelta=paddle.optimizer.Adadelta,
                 RMSProp=paddle.optimizer.RMSProp, Lamb=paddle.optimizer.Lamb,
                 DecayedAdagrad=_DecayedAdagrad, Ftrl=_Ftrl)
    optimizers = {k: _optimizer_class_1x(k + "Optimizer", f, bases[k])
                  for k, f in optimizers.items()}
    fluid.optimizer = _module("paddle.fluid.optimizer", **optimizers,
                              **{k + "Optimizer": v for k, v in optimizers.items()})
    fluid.optimizer.ExponentialMovingAverage = ExponentialMovingAverage
    fluid.optimizer.ModelAverage = ModelAverage
    fluid.optimizer.LookaheadOptimizer = LookaheadOptimizer
    fluid.optimizer.RecomputeOptimizer = RecomputeOptimizer
    # 1.6's LarsMomentum: Paddle 3.3.1's, on the same lars_momentum op.
    def lars_momentum(learning_rate, momentum, lars_coeff=0.001, lars_weight_decay=0.0005,
                      regularization=None, name=None):
        return _optimizer(_LarsMomentum, learning_rate, regularization, momentum=momentum,
                          lars_coeff=lars_coeff, lars_weight_decay=lars_weight_decay, name=name)
    fluid.optimizer.LarsMomentum = fluid.optimizer.LarsMomentumOptimizer = _optimizer_class_1x(
        "LarsMomentumOptimizer", lars_momentum, _LarsMomentum)
    fluid.layer_helper = _module("paddle.fluid.layer_helper", LayerHelper=_LayerHelper1x)
    from paddle.base import executor as base_executor
    fluid.executor = _module("paddle.fluid.executor", Executor=Executor,
                             global_scope=paddle.static.global_scope,
                             scope_guard=paddle.static.scope_guard,
                             _fetch_var=base_executor._fetch_var,
                             as_numpy=base_executor.as_numpy)
    # Readers and datasets (docs/python-package.md): Paddle 3.3.1 still ships 1.x's
    # paddle.batch, paddle.reader and paddle.dataset (same Python); only the
    # download is replaced by the cached file.
    import importlib
    importlib.import_module("paddle.dataset.mnist")
    importlib.import_module("paddle.dataset.uci_housing")
    importlib.import_module("paddle.dataset.common").download = _cached_download
    fluid.DataFeeder = DataFeeder
    fluid.data_feeder = _module("paddle.fluid.data_feeder", DataFeeder=DataFeeder)
    sys.modules["paddle.fluid.core"] = core
    sys.modules["paddle.fluid.unique_name"] = unique_name
    # paddle.compat: Paddle 1.x's Python 2/3 helpers (Paddle 3 has another
    # module by that name).
    paddle.compat = _module("paddle.compat", to_text=_compat_to_text, to_bytes=_compat_to_text,
                            round=_compat_round, floor_division=lambda x, y: x // y,
                            get_exception_message=lambda exc: str(exc))
    _install_1x_extras(fluid, layers)
    _install_1x_highlevel(fluid, layers, optimizers)
    _install_1x_more(fluid, layers)
    _install_1x_readers(fluid, layers)
    _install_0x_program_keywords(layers)
    # 1.5-1.6's Dataset API and fluid.incubate.data_generator: their own file.
    import fluid1x_dataset
    fluid1x_dataset.install(fluid, Executor)
    # 1.0-1.2's RecordIO files and file readers: their own file.
    import fluid1x_recordio
    fluid1x_recordio.install(fluid, layers, Executor, py_reader_1x, RUN)
    paddle.fluid = fluid
    return fluid


def _install_0x_program_keywords(layers):
    """0.x's `main_program=` / `startup_program=` keywords on every layer
    function: the layer is built under `program_guard` of them (fluidc's
    layers/__init__.py does the same)."""
    def takes_programs(layer):
        @functools.wraps(layer)
        def call(*args, **kwargs):
            if "main_program" not in kwargs and "startup_program" not in kwargs:
                return layer(*args, **kwargs)
            main = kwargs.pop("main_program", None) or framework.default_main_program()
            startup = kwargs.pop("startup_program", None)
            with program_guard(main, startup):
                return layer(*args, **kwargs)
        return call

    wrapped = {}
    for name, value in list(vars(layers).items()):
        if not name.startswith("_") and isinstance(value, types.FunctionType):
            wrapped[value] = takes_programs(value)
            setattr(layers, name, wrapped[value])
    # The submodules (`layers.nn`, ...) keep naming the same functions.
    for sub in list(vars(layers).values()):
        if isinstance(sub, types.ModuleType):
            for name, value in list(vars(sub).items()):
                if isinstance(value, types.FunctionType) and value in wrapped:
                    setattr(sub, name, wrapped[value])


# ---------------------------------------------------------------- 1.x extras
# `fluid.layers.<submodule>`, `fluid.average`, `fluid.memory_optimize`,
# `fluid.framework.grad_var_name`, `Program.prune`, as 1.x's Python had them.

# Where 1.x (1.0-1.5) defined each layer: `from paddle.fluid.layers.nn import
# fc` and `fluid.layers.nn.fc` are `fluid.layers.fc`. Only the layers this
# shim has are bound.
_LAYER_HOMES = {
    "nn": (
        "fc", "embedding", "dynamic_lstm", "dynamic_gru", "gru_unit", "cos_sim",
        "cross_entropy", "square_error_cost", "sequence_conv", "conv2d", "conv2d_transpose",
        "sequence_pool",
        "sequence_softmax", "softmax", "pool2d", "batch_norm", "sequence_expand",
        "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_all",
        "reduce_any", "sequence_first_step", "sequence_last_step", "dropout", "split",
        "l2_normalize", "topk", "transpose", "softmax_with_cross_entropy", "one_hot",
        "autoincreased_step_counter", "reshape", "squeeze", "unsqueeze", "pad",
        "label_smooth", "gather", "relu", "selu", "log", "elu", "relu6", "pow", "stanh",
        "hard_sigmoid", "swish", "prelu", "brelu", "leaky_relu", "flatten", "stack",
        "expand", "scale", "elementwise_add", "elementwise_div", "elementwise_sub",
        "elementwise_mul", "elementwise_max", "elementwise_min", "elementwise_pow",
        "elementwise_mod", "elementwise_floordiv", "gaussian_random", "sum", "slice",
        "shape", "logical_and", "logical_or", "logical_xor", "logical_not", "clip", "mean",
        "sigmoid_cross_entropy_with_logits", "log_loss", "huber_loss", "sign", "layer_norm",
        "matmul", "merge_selected_rows", "get_tensor_from_selected_rows", "nce",
        "smooth_l1", "margin_rank_loss", "rank_loss", "lrn", "image_resize",
        "resize_bilinear", "resize_nearest", "image_resize_short", "py_func",
        "bilinear_tensor_product", "scatter_nd_add", "scatter_nd", "shard_index", "hash", "continuous_value_model",
        "add_position_encoding", "lod_reset", "lod_append", "fsp_matrix", "unfold",
        "crop_tensor", "teacher_student_sigmoid_loss",
        # imported by 1.x's nn.py from tensor.py (concat 1.0, assign 1.3,
        # fill_constant 1.5, zeros 1.6)
        "concat", "assign", "fill_constant", "zeros",
    ),
    "tensor": (
        "create_tensor", "create_parameter", "create_global_var", "cast", "concat", "sums",
        "assign", "fill_constant", "fill_constant_batch_size_like", "argmin", "argmax", "ones", "zeros", "zeros_like",
        "ones_like",
    ),
    "control_flow": (
        "While", "Switch", "increment", "array_write", "create_array", "less_than",
        "less_equal", "greater_than", "greater_equal", "equal", "not_equal", "array_read",
        "array_length", "StaticRNN", "ConditionalBlock", "cond", "IfElse",
        "split_lod_tensor", "merge_lod_tensor", "ParallelDo",
    ),
    "io": ("data",),
    "ops": (
        "sigmoid", "logsigmoid", "exp", "tanh", "atan", "tanh_shrink", "softshrink", "sqrt",
        "rsqrt", "abs", "ceil", "floor", "cos", "sin", "round", "reciprocal", "square",
        "softplus", "softsign", "uniform_random", "hard_shrink", "thresholded_relu", "cumsum",
    ),
    "metric_op": ("accuracy", "auc"),
    "detection": ("sigmoid_focal_loss", "prior_box", "density_prior_box", "multi_box_head",
                  "iou_similarity",
                  "box_coder", "anchor_generator", "box_clip", "multiclass_nms",
                  "detection_output", "polygon_box_transform", "roi_perspective_transform",
                  "generate_proposals", "rpn_target_assign", "distribute_fpn_proposals",
                  "collect_fpn_proposals"),
}


def _is_number_1x(value):
    return isinstance(value, (int, float)) or (
        isinstance(value, numpy.ndarray) and value.shape == (1,))


class WeightedAverage:
    """1.x's fluid.average.WeightedAverage (numpy-side; its 1.2+ deprecation
    warning went to stderr and is left out)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.numerator = None
        self.denominator = None

    def add(self, value, weight):
        if not (_is_number_1x(value) or isinstance(value, numpy.ndarray)):
            raise ValueError("The 'value' must be a number(int, float) or a numpy ndarray.")
        if not _is_number_1x(weight):
            raise ValueError("The 'weight' must be a number(int, float).")
        if self.numerator is None or self.denominator is None:
            self.numerator = value * weight
            self.denominator = weight
        else:
            self.numerator += value * weight
            self.denominator += weight

    def eval(self):
        if self.numerator is None or self.denominator is None:
            raise ValueError("There is no data to be averaged in WeightedAverage.")
        return self.numerator / self.denominator


def memory_optimize(input_program, skip_opt_set=None, print_log=False, level=0,
                    skip_grads=False):
    """1.x's memory_optimize reused memory by renaming variables, which
    changes no result; Paddle 3.3.1's executor frees memory itself, so here
    only 1.x's check remains."""
    if level != 0 and level != 1:
        raise ValueError("only support opt_level 0 or 1.")


def release_memory(input_program, skip_opt_set=None):
    """1.x's release_memory inserted delete_var ops, which changes no result."""


def _prune_1x(self, targets):
    """1.x's Program.prune: a Variable (or name) target is the FIRST op of
    the global block that writes it (Paddle 3.3.1's _prune takes the last
    non-optimizer one and skips a variable no op writes)."""
    if not isinstance(targets, list):
        targets = [targets]
    ops = []
    for t in targets:
        if isinstance(t, framework.Operator):
            ops.append(t)
            continue
        if isinstance(t, Variable):
            name = t.name
        elif isinstance(t, str):
            name = t
        else:
            raise ValueError("All targets of prune() can only be Variable or Operator.")
        for op in self.global_block().ops:
            if name in op.output_arg_names:
                ops.append(op)
                break
        else:
            raise ValueError(
                "The target variable must have an associated operator that generates it.")
    return self._prune(ops)


# 1.x's `layers.device.get_places` and `layers.control_flow.ParallelDo`
# (deprecated in 0.15, gone in 1.3). Paddle 3.3.1 has neither a get_places
# nor a parallel_do op; like fluidc (control_flow.ParallelDo there), the
# block runs on ONE place: its ops go into the enclosing block, read_input
# is the variable itself and pd() returns what write_output recorded. That
# is 1.x's program on one place (1.x split the batch over its places).


def get_places(device_count=None, device_type=None):
    """1.x's get_places: its deprecation note on stderr and a PLACE_LIST
    variable; no op writes it (no ParallelDo reads a place list here)."""
    print("API get_places is deprecated since 0.15.0. Please use ParallelExecutor instead.",
          file=sys.stderr)
    helper = LayerHelper("get_places")
    if device_count is not None:
        int(device_count)
    if device_type is not None:
        str(device_type)
    return helper.main_program.current_block().create_var(
        name=unique_name.generate(helper.name + ".out"), type=core.VarDesc.VarType.PLACE_LIST)


class ParallelDo:
    """1.x's ParallelDo on one place (see above), with 1.x's status checks."""

    def __init__(self, places, use_nccl=False, name=None):
        print("API ParallelDo is deprecated since 0.15.0. Please use ParallelExecutor instead.",
              file=sys.stderr)
        if use_nccl:
            raise NotImplementedError("ParallelDo(use_nccl=True): NCCL needs CUDA places")
        self.helper = LayerHelper("parallel_do", name=name)
        self.inputs = []
        self.places = places
        self.outputs = []
        self.status = 0  # 1.x: StaticRNN.BEFORE_RNN_BLOCK, IN_ (1), AFTER_ (2)

    @contextlib.contextmanager
    def do(self):
        self.status = 1
        yield
        self.status = 2

    def __call__(self, *args, **kwargs):
        if self.status != 2:
            raise ValueError("RNN output can only be retrieved after rnn block")
        if not self.outputs:
            raise ValueError("RNN has no output")
        return self.outputs[0] if len(self.outputs) == 1 else self.outputs

    def read_input(self, var):
        self.inputs.append(var)
        return var

    def write_output(self, var):
        self.outputs.append(var)


def _install_1x_extras(fluid, layers):
    layers.ParallelDo = ParallelDo
    layers.device = _module("paddle.fluid.layers.device", get_places=get_places)
    for sub, names in _LAYER_HOMES.items():
        setattr(layers, sub, _module("paddle.fluid.layers." + sub,
                                     **{n: getattr(layers, n) for n in names
                                        if hasattr(layers, n)}))
    fluid.average = _module("paddle.fluid.average", WeightedAverage=WeightedAverage)
    fluid.transpiler = _module("paddle.fluid.transpiler", memory_optimize=memory_optimize,
                               release_memory=release_memory)
    fluid.memory_optimize = memory_optimize
    fluid.release_memory = release_memory
    fluid.framework.grad_var_name = framework.grad_var_name
    Program.prune = _prune_1x


# ---------------------------------------------------------------- 1.x high-level API
# `fluid.contrib.trainer` / `fluid.contrib.inferencer` (1.0-1.2's Trainer and
# Inferencer; `fluid.trainer` and `fluid.inferencer` were empty then),
# `fluid.ParallelExecutor`, `append_regularization_ops`, `calc_gradient`,
# `nets.img_conv_group`, `transpiler.InferenceTranspiler`, written after 1.x's
# Python over this shim. One process on Paddle's CPU place: 1.x's parallel
# and distributed set-ups are refused, as fluidc refuses them.


class BeginEpochEvent:
    def __init__(self, epoch_id):
        self.epoch = epoch_id


class EndEpochEvent:
    def __init__(self, epoch_id):
        self.epoch = epoch_id


class BeginStepEvent:
    def __init__(self, epoch_id, step_id):
        self.epoch = epoch_id
        self.step = step_id
        self.fetch_metrics = True


class EndStepEvent:
    def __init__(self, epoch_id, step_id, metrics):
        self.epoch = epoch_id
        self.step = step_id
        self.metrics = metrics


class CheckpointConfig:
    def __init__(self, checkpoint_dir=None, max_num_checkpoints=3, epoch_interval=1,
                 step_interval=10):
        assert epoch_interval >= 1
        assert step_interval >= 1
        self.checkpoint_dir = checkpoint_dir if checkpoint_dir is not None else os.getcwd()
        self.max_num_checkpoints = max_num_checkpoints
        self.epoch_interval = epoch_interval
        self.step_interval = step_interval
        self.epoch_id = 0
        self.step_id = 0
        self.load_serial = None
        self.pserver_id = None
        self.lookup_table_name = None


def _check_and_get_place(place):
    if place is None:
        return core.CPUPlace()
    if not isinstance(place, (core.CUDAPlace, core.CPUPlace)):
        raise TypeError("Place should be either CUDAPlace or CPUPlace")
    return place


def _feed_var_list(program, feed_order):
    if not isinstance(program, Program):
        raise TypeError("The 'program' should be an object of Program")
    if isinstance(feed_order, list):
        return [program.global_block().var(name) for name in feed_order]
    if not isinstance(feed_order, dict):
        raise TypeError("The 'feed_order' should be either None, list or dict.")
    if not sorted(feed_order.values()) == list(range(len(feed_order))):
        raise ValueError(
            "The values of 'feed_order' should be a permutation of [0, len(feed_order))")
    pairs = sorted(feed_order.items(), key=lambda item: item[1])
    return [program.global_block().var(name) for name, _ in pairs]


def _one_cpu_place(owner):
    """`parallel=True` on one CPU place: 1.x's ParallelExecutor there
    computed what the Executor computes (CPU_NUM unset is one place, as
    Paddle 1.5 made it, and fluidc follows); several are not in this shim."""
    cpu_num = os.environ.setdefault("CPU_NUM", "1")
    if cpu_num.strip() != "1":
        raise NotImplementedError("%s(parallel=True) on CPU_NUM=%s places is not in this shim"
                                  % (owner, cpu_num))


class Trainer:
    def __init__(self, train_func, optimizer_func, param_path=None, place=None,
                 parallel=False, checkpoint_config=None):
        self._stop = False
        if checkpoint_config:
            assert isinstance(checkpoint_config, CheckpointConfig)
            raise NotImplementedError("Trainer(checkpoint_config=...) is not in this shim")
        if parallel:
            _one_cpu_place("Trainer")
        self.scope = core.Scope()
        self.startup_program = Program()
        self.train_program = Program()
        with program_guard(self.train_program, self.startup_program):
            outs = train_func()
            self.train_func_outputs = outs if isinstance(outs, list) else [outs]
            self.test_program = self.train_program.clone(for_test=True)
            optimizer = optimizer_func()
            if not isinstance(optimizer, paddle.optimizer.Optimizer):
                raise TypeError("The optimizer should be an instance of Optimizer")
            optimizer.minimize(self.train_func_outputs[0])
        self.place = _check_and_get_place(place)
        with self._guard():
            exe = Executor(place)
            exe.run(self.startup_program)
        if param_path and os.path.isdir(param_path):
            with self._guard():
                _io_by(static_io.is_persistable, io_load_vars)(
                    exe, param_path, main_program=self.startup_program)

    def stop(self):
        self._stop = True

    def train(self, num_epochs, event_handler, reader=None, feed_order=None):
        with self._guard():
            feeder = DataFeeder(feed_list=_feed_var_list(self.train_program, feed_order),
                                place=self.place)
            exe = Executor(self.place)
            fetch = [v.name for v in self.train_func_outputs]
            for epoch_id in range(num_epochs):
                event_handler(BeginEpochEvent(epoch_id))
                for step_id, data in enumerate(reader()):
                    data = feeder.feed(data)
                    if self._stop:
                        return
                    begin = BeginStepEvent(epoch_id, step_id)
                    event_handler(begin)
                    metrics = exe.run(feed=data, fetch_list=fetch if begin.fetch_metrics else [])
                    event_handler(EndStepEvent(epoch_id, step_id, metrics))
                event_handler(EndEpochEvent(epoch_id))

    def test(self, reader, feed_order):
        fetch_list = self.train_func_outputs
        with paddle.static.scope_guard(self.scope):
            feeder = DataFeeder(feed_list=_feed_var_list(self.test_program, feed_order),
                                place=self.place)
            exe = Executor(self.place)
            accumulated = len(fetch_list) * [0]
            count = 0
            for data in reader():
                outs = exe.run(program=self.test_program, feed=feeder.feed(data),
                               fetch_list=fetch_list)
                accumulated = [x[0] + x[1][0] for x in zip(accumulated, outs)]
                count += 1
            return [x / count for x in accumulated]

    def save_params(self, param_path):
        with self._guard():
            _io_by(static_io.is_persistable, io_save_vars)(Executor(self.place), param_path)

    def save_inference_model(self, param_path, feeded_var_names, target_var_indexes):
        with self._guard():
            targets = [self.train_func_outputs[i] for i in target_var_indexes]
            io_save_inference_model(param_path, feeded_var_names, targets, Executor(self.place))

    @contextlib.contextmanager
    def _guard(self):
        with program_guard(self.train_program, self.startup_program):
            with paddle.static.scope_guard(self.scope):
                yield


class Inferencer:
    def __init__(self, infer_func, param_path, place=None, parallel=False):
        self.param_path = param_path
        self.scope = core.Scope()
        self.place = _check_and_get_place(place)
        if parallel:
            _one_cpu_place("Inferencer")
        self.inference_program = Program()
        with program_guard(self.inference_program):
            with unique_name.guard():
                self.predict_var = infer_func()
        with self._guard():
            _io_by(static_io.is_parameter, io_load_vars)(Executor(self.place), param_path)
        self.exe = Executor(self.place)
        self.inference_program = self.inference_program.clone(for_test=True)

    def infer(self, inputs, return_numpy=True):
        if not isinstance(inputs, dict):
            raise ValueError("inputs should be a map of {'input_name': input_var}")
        with self._guard():
            return self.exe.run(feed=inputs, fetch_list=[self.predict_var.name],
                                return_numpy=return_numpy)

    @contextlib.contextmanager
    def _guard(self):
        with program_guard(self.inference_program):
            with paddle.static.scope_guard(self.scope):
                yield


class ExecutionStrategy:
    """1.x's ExecutionStrategy (Paddle 3.3.1 has none): its settings
    change no values on one CPU place."""

    def __init__(self):
        self.num_threads = 0
        self.num_iteration_per_drop_scope = 1
        self.num_iteration_per_run = 1
        self.allow_op_delay = False
        self.use_experimental_executor = False


class CompiledProgram:
    """1.x's fluid.CompiledProgram on one CPU place (CPU_NUM=1): the shim's
    Executor runs the program it wraps; `with_data_parallel` takes 1.6's
    `places` (a list, or one place)."""

    def __init__(self, program_or_graph, build_strategy=None):
        self._program = program_or_graph
        self._build_strategy = build_strategy
        self._is_data_parallel = False

    def with_data_parallel(self, loss_name=None, build_strategy=None, exec_strategy=None,
                           share_vars_from=None, places=None):
        if self._is_data_parallel:
            raise AssertionError("Already compiled with parallel.")
        if places is not None and not isinstance(places, (list, tuple)):
            places = [places]
        n = len(places) if places is not None else int(os.environ.get("CPU_NUM", "1"))
        if n != 1:
            raise NotImplementedError("one CPU place only")
        self._is_data_parallel = True
        self._loss_name = loss_name
        if build_strategy is not None:
            self._build_strategy = build_strategy
        self._exec_strategy = exec_strategy
        return self


class ParallelExecutor:
    """1.x's ParallelExecutor with one CPU place (CPU_NUM=1): the program
    run by the shim's Executor on the whole batch."""

    def __init__(self, use_cuda, loss_name=None, main_program=None, share_vars_from=None,
                 exec_strategy=None, build_strategy=None, num_trainers=1, trainer_id=0,
                 scope=None):
        if use_cuda:
            raise AttributeError("module 'paddle.fluid.core' has no attribute "
                                 "'get_cuda_device_count'")
        if os.environ.get("CPU_NUM", "1").strip() != "1" or num_trainers != 1:
            raise NotImplementedError("one CPU place only")
        if share_vars_from and not isinstance(share_vars_from, ParallelExecutor):
            raise TypeError("share_vars_from must be ParallelExecutor.")
        self._program = main_program if main_program else framework.default_main_program()
        self.scope = scope if scope is not None else paddle.static.global_scope()
        self._run_scope = share_vars_from._run_scope if share_vars_from else self.scope
        self._exe = Executor(core.CPUPlace())

    def run(self, fetch_list, feed=None, feed_dict=None, return_numpy=True):
        if feed is None and feed_dict is not None:
            feed = feed_dict
            print("`feed_dict` is deprecated. Please use `feed=`", file=sys.stderr)
        if isinstance(feed, (list, tuple)):
            if len(feed) != 1:
                raise ValueError(
                    "Feed a list of tensor, the list should be the same size as places")
            if not isinstance(feed[0], dict):
                raise TypeError("Each element of feed list should be a dict")
            feed = feed[0]
        return self._exe.run(self._program, feed=feed, fetch_list=fetch_list,
                             scope=self._run_scope, return_numpy=return_numpy)

    @property
    def device_count(self):
        return 1


def append_regularization_ops(parameters_and_grads, regularization=None):
    """Paddle 3.3.1's (1.2-1.5's) regularization ops: `sum([grad, term])`."""
    helper = paddle.optimizer.SGD(learning_rate=0.0)
    return helper.append_regularization_ops(list(parameters_and_grads), regularization)


def _img_conv_group(input, conv_num_filter, pool_size, conv_padding=1, conv_filter_size=3,
                    conv_act=None, param_attr=None, conv_with_batchnorm=False,
                    conv_batchnorm_drop_rate=0.0, pool_stride=1, pool_type="max",
                    use_cudnn=True):
    tmp = input
    assert isinstance(conv_num_filter, (list, tuple))

    def extend(obj):
        if not hasattr(obj, "__len__"):
            return [obj] * len(conv_num_filter)
        assert len(obj) == len(conv_num_filter)
        return obj

    conv_padding, conv_filter_size = extend(conv_padding), extend(conv_filter_size)
    param_attr, conv_with_batchnorm = extend(param_attr), extend(conv_with_batchnorm)
    conv_batchnorm_drop_rate = extend(conv_batchnorm_drop_rate)
    for i in range(len(conv_num_filter)):
        act = None if conv_with_batchnorm[i] else conv_act
        tmp = conv2d(input=tmp, num_filters=conv_num_filter[i],
                     filter_size=conv_filter_size[i], padding=conv_padding[i],
                     param_attr=param_attr[i], act=act, use_cudnn=use_cudnn)
        if conv_with_batchnorm[i]:
            tmp = batch_norm(input=tmp, act=conv_act, in_place=True)
            if abs(conv_batchnorm_drop_rate[i]) > 1e-5:
                tmp = dropout(x=tmp, dropout_prob=conv_batchnorm_drop_rate[i])
    return pool2d(input=tmp, pool_size=pool_size, pool_type=pool_type,
                  pool_stride=pool_stride, use_cudnn=use_cudnn)


class InferenceTranspiler:
    """1.x folded batch_norm into conv2d, which changes the results only in
    float rounding; the shim (as fluidc) checks the arguments and keeps the
    program."""

    def transpile(self, program, place, scope=None):
        if not isinstance(program, Program):
            raise TypeError("program should be as Program type")
        if not isinstance(place, (core.CPUPlace, core.CUDAPlace)):
            raise TypeError("place should be as CPUPlace/CUDAPlace type")
        if scope is None:
            scope = paddle.static.global_scope()
        if not isinstance(scope, core._Scope):
            raise TypeError("scope should be as Scope type or None")


def _mul(x, y, x_num_col_dims=1, y_num_col_dims=1, name=None):
    """1.x's layers.mul: a `mul` op."""
    helper = LayerHelper("mul", name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="mul", inputs={"X": [x], "Y": [y]}, outputs={"Out": [out]},
                     attrs={"x_num_col_dims": x_num_col_dims, "y_num_col_dims": y_num_col_dims})
    return out


def _install_1x_highlevel(fluid, layers, optimizers):
    layers.mul = layers.nn.mul = _mul
    trainer_names = dict(Trainer=Trainer, BeginEpochEvent=BeginEpochEvent,
                         EndEpochEvent=EndEpochEvent, BeginStepEvent=BeginStepEvent,
                         EndStepEvent=EndStepEvent, CheckpointConfig=CheckpointConfig)
    fluid.contrib = _module("paddle.fluid.contrib", __all__=[])
    fluid.contrib.trainer = _module("paddle.fluid.contrib.trainer",
                                    __all__=list(trainer_names), **trainer_names)
    fluid.contrib.inferencer = _module("paddle.fluid.contrib.inferencer",
                                       __all__=["Inferencer"], Inferencer=Inferencer)
    # contrib.decoder (1.0-1.5): its own file, imported once fluid is set up.
    import fluid1x_decoder
    fluid.contrib.decoder = _module("paddle.fluid.contrib.decoder",
                                    __all__=list(fluid1x_decoder.__all__),
                                    beam_search_decoder=fluid1x_decoder,
                                    **{n: getattr(fluid1x_decoder, n)
                                       for n in fluid1x_decoder.__all__})
    fluid1x_decoder.__name__ = "paddle.fluid.contrib.decoder.beam_search_decoder"
    sys.modules[fluid1x_decoder.__name__] = fluid1x_decoder
    # contrib's other 1.2-1.6 modules and evaluator.EditDistance: their own file.
    import fluid1x_contrib as extra
    contrib_names = dict(memory_usage=extra.memory_usage,
                         op_freq_statistic=extra.op_freq_statistic, summary=extra.summary,
                         extend_with_decoupled_weight_decay=extra.extend_with_decoupled_weight_decay)
    # 1.x left model_stat's summary out of contrib's __all__.
    fluid.contrib.__all__ = list(fluid1x_decoder.__all__) + [n for n in contrib_names if n != "summary"]
    fluid.contrib.__dict__.update(contrib_names, decoder=fluid.contrib.decoder,
                                  trainer=fluid.contrib.trainer,
                                  inferencer=fluid.contrib.inferencer,
                                  **{n: getattr(fluid1x_decoder, n)
                                     for n in fluid1x_decoder.__all__})
    for sub, names in (("memory_usage_calc", ["memory_usage"]),
                       ("op_frequence", ["op_freq_statistic"]), ("model_stat", ["summary"]),
                       ("extend_optimizer", ["extend_with_decoupled_weight_decay"])):
        setattr(fluid.contrib, sub, _module("paddle.fluid.contrib." + sub, __all__=names,
                                            **{n: contrib_names[n] for n in names}))
    fluid.evaluator.EditDistance = extra.EvaluatorEditDistance
    # 1.x's detection_map and DetectionMAPs (Paddle 3.3.1 has none): their own file.
    import fluid1x_detection as det
    layers.detection_map, layers.yolo_box = det.detection_map, det.yolo_box
    layers.yolov3_loss = det.yolov3_loss
    fluid.metrics.DetectionMAP = det.MetricDetectionMAP
    fluid.evaluator.DetectionMAP = det.EvaluatorDetectionMAP
    import fluid1x_contrib_rnn as rnn_impl
    rnn_impl.__name__ = "paddle.fluid.contrib.layers.rnn_impl"
    sys.modules[rnn_impl.__name__] = rnn_impl
    fluid.contrib.layers = _module("paddle.fluid.contrib.layers", __all__=list(rnn_impl.__all__),
                                   rnn_impl=rnn_impl,
                                   **{n: getattr(rnn_impl, n) for n in rnn_impl.__all__})
    fluid.contrib.__all__ += list(rnn_impl.__all__)
    fluid.contrib.__dict__.update({n: getattr(rnn_impl, n) for n in rnn_impl.__all__})
    # 1.6's contrib.layers nn and metric_op layers fluidc has.
    fluid.contrib.layers.__dict__.update(extra.CONTRIB_LAYERS_1_6)
    fluid.contrib.layers.__all__ += list(extra.CONTRIB_LAYERS_1_6)
    fluid.contrib.__dict__.update(extra.CONTRIB_LAYERS_1_6)
    fluid.contrib.__all__ += list(extra.CONTRIB_LAYERS_1_6)
    fluid.contrib.reader = _module("paddle.fluid.contrib.reader",
                                   __all__=["distributed_batch_reader"],
                                   distributed_batch_reader=extra.distributed_batch_reader)
    fluid.contrib.distributed_batch_reader = extra.distributed_batch_reader
    fluid.contrib.__all__.append("distributed_batch_reader")
    # 1.6's RNN cell API (layers.rnn, GRUCell, BeamSearchDecoder, ...): its own file.
    import fluid1x_rnn_cells
    fluid1x_rnn_cells.install(fluid)
    # 1.6's layers.distributions: their own file.
    import fluid1x_distributions
    fluid1x_distributions.install(fluid)
    extra.EvaluatorEditDistance.__name__ = "EditDistance"
    fluid.trainer = _module("paddle.fluid.trainer", __all__=[])
    fluid.inferencer = _module("paddle.fluid.inferencer", __all__=[])
    fluid.ParallelExecutor = ParallelExecutor
    fluid.parallel_executor = _module("paddle.fluid.parallel_executor",
                                      ParallelExecutor=ParallelExecutor)
    fluid.CompiledProgram = fluid.compiler.CompiledProgram = CompiledProgram
    fluid.BuildStrategy = fluid.compiler.BuildStrategy = paddle.static.BuildStrategy
    fluid.ExecutionStrategy = fluid.compiler.ExecutionStrategy = ExecutionStrategy
    fluid.regularizer.append_regularization_ops = append_regularization_ops
    fluid.optimizer.append_regularization_ops = append_regularization_ops
    fluid.backward.calc_gradient = paddle.base.backward.calc_gradient
    fluid.nets.img_conv_group = _img_conv_group
    fluid.transpiler.InferenceTranspiler = InferenceTranspiler
    # 1.x printed programs, blocks, variables and ops as protobuf text
    # (`to_string(True)`); Paddle 3.3.1 prints its readable form.
    for cls in (Program, framework.Block, Variable, framework.Parameter, framework.Operator):
        cls.__str__ = lambda self: self.to_string(True)
    Variable.__repr__ = Variable.__str__
    framework.Parameter.__repr__ = framework.Parameter.__str__
    framework.Operator.__repr__ = framework.Operator.__str__
    # 1.x's ops had no `op_device` and `with_quant_attr` attributes
    # (Paddle 1.7+ gives every op those); 1.7's one-line form of an op
    # (`_to_readable_code`) lists them.
    attr_names = framework.Operator.attr_names.fget
    framework.Operator.attr_names = property(
        lambda self: attr_names(self) if getattr(self, "_readable", False)
        else [a for a in attr_names(self) if a not in ("op_device", "with_quant_attr")])
    readable = framework.Operator._to_readable_code

    def _to_readable_code(self, *args, **kwargs):
        self._readable = True
        try:
            return readable(self, *args, **kwargs)
        finally:
            self._readable = False
    framework.Operator._to_readable_code = _to_readable_code
    has_attr = framework.Operator.has_attr
    framework.Operator.has_attr = (
        lambda self, name: name not in ("op_device", "with_quant_attr") and has_attr(self, name))


def _compat_to_text(obj, encoding="utf-8", inplace=False):
    # Text is str in Python 3; lists and sets of str stay as they are.
    return obj


def _compat_round(x, d=0):
    # Paddle 1.x: halves away from zero, as Python 2's round.
    p = 10 ** d
    if x > 0.0:
        return float(math.floor((x * p) + math.copysign(0.5, x))) / p
    if x < 0.0:
        return float(math.ceil((x * p) + math.copysign(0.5, x))) / p
    return math.copysign(0.0, x)


# ---------------------------------------------------------------- 1.x extras, continued
# `paddle.fluid.op.Operator` (one op run on a scope, as 1.x's unit tests
# did), `nets.scaled_dot_product_attention`, `io.get_inference_program`,
# `fluid.debugger`, `clip.ErrorClipByValue`, `WeightNormParamAttr`: written
# after 1.x's Python over Paddle 3.3.1's core.

class _SingleOp:
    """1.x's `core.Operator` made by `paddle.fluid.op.Operator(...)`."""

    def __init__(self, desc):
        self._desc = desc
        self._op = core.Operator.create(desc.SerializeToString())

    def run(self, scope, place):
        self._op.run(scope, place)

    def type(self):
        return self._desc.type

    def __str__(self):
        def slots(items):
            return ", ".join("%s[%s]" % (s.parameter, ", ".join(s.arguments))
                             for s in sorted(items, key=lambda s: s.parameter) if s.arguments)
        return "Op(%s), inputs:{%s}, outputs:{%s}." % (
            self._desc.type, slots(self._desc.inputs), slots(self._desc.outputs))


class _OperatorFactory:
    _FRAMEWORK_ATTRS = ("op_role", "op_role_var", "op_namescope", "op_callstack", "op_device",
                        "with_quant_attr")

    def __init__(self):
        from paddle.base.proto import framework_pb2
        self._pb = framework_pb2
        self._protos = {}
        for s in core.get_all_op_protos():
            p = framework_pb2.OpProto.FromString(bytes(s))
            self._protos[p.type] = p

    def __call__(self, *args, **kwargs):
        if "type" in kwargs:
            if args:
                raise ValueError("Except the argument \"type\","
                                 "all of the other arguments should be keyword arguments.")
            t = kwargs.pop("type")
        else:
            if len(args) != 1:
                raise ValueError("Except the argument \"type\","
                                 "all of the other arguments should be keyword arguments.")
            t = args[0]
        if t not in self._protos:
            raise ValueError("The operator: %s is not registered." % t)
        proto, pb = self._protos[t], self._pb
        known = ({v.name for v in proto.inputs} | {v.name for v in proto.outputs}
                 | {a.name for a in proto.attrs if not a.generated})
        # 1.x's protos' kernel choices, which 3.3.1's dropped: no effect on CPU.
        for name in ("use_cudnn", "use_mkldnn", "exhaustive_search", "workspace_size_MB",
                     "fuse_with_relu", "fuse_relu", "fuse_residual_connection"):
            if name in kwargs and name not in known:
                kwargs.pop(name)
        unknown = sorted(k for k in kwargs if k not in known)
        if unknown:
            raise ValueError("Operator %s has no input, output or attribute %s"
                             % (t, ", ".join(unknown)))
        desc = pb.OpDesc()
        desc.type = t
        for decl, dest in ((proto.inputs, desc.inputs), (proto.outputs, desc.outputs)):
            for v in decl:
                names = kwargs.get(v.name, [])
                if isinstance(names, str):
                    names = [names]
                if not v.duplicable and len(names) > 1:
                    raise ValueError("%s expects only one variable, but %d are given."
                                     % (v.name, len(names)))
                slot = dest.add()
                slot.parameter = v.name
                slot.arguments.extend(names)
        setters = {pb.INT: "i", pb.FLOAT: "f", pb.STRING: "s", pb.BOOLEAN: "b", pb.LONG: "l"}
        lists = {pb.INTS: "ints", pb.FLOATS: "floats", pb.STRINGS: "strings",
                 pb.BOOLEANS: "bools", pb.LONGS: "longs"}
        for a in proto.attrs:
            if a.generated or a.name in self._FRAMEWORK_ATTRS:
                continue
            value = kwargs.get(a.name)
            if value is None:
                continue
            if isinstance(value, numpy.ndarray):
                value = value.tolist()
            attr = desc.attrs.add()
            attr.name = a.name
            attr.type = a.type
            if a.type in setters:
                setattr(attr, setters[a.type], value)
            elif a.type in lists:
                getattr(attr, lists[a.type]).extend(value)
            else:
                raise NotImplementedError("A not supported attribute type: %s." % a.type)
        return _SingleOp(desc)


def _scaled_dot_product_attention(queries, keys, values, num_heads=1, dropout_rate=0.):
    """1.0-1.4's nets.scaled_dot_product_attention: softmax(K (Q/sqrt(d))^T) V
    over heads split from fc projections (with more than one head)."""
    layers = paddle.fluid.layers
    if not (len(queries.shape) == len(keys.shape) == len(values.shape) == 3):
        raise ValueError("Inputs quries, keys and values should all be 3-D tensors.")
    if queries.shape[-1] != keys.shape[-1]:
        raise ValueError("The hidden size of queries and keys should be the same.")
    if keys.shape[-2] != values.shape[-2]:
        raise ValueError("The max sequence length in query batch and in key batch "
                         "should be the same.")
    for what, x in (("keys", keys), ("values", values)):
        if x.shape[-1] % num_heads != 0:
            raise ValueError("The hidden size of %s (%d) must be divisible by the number of "
                             "attention heads (%d)." % (what, x.shape[-1], num_heads))
    if num_heads > 1:
        queries, keys, values = [layers.fc(input=x, size=x.shape[-1], num_flatten_dims=2)
                                 for x in (queries, keys, values)]

    def split_heads(x):
        if num_heads == 1:
            return x
        x = layers.reshape(x=x, shape=list(x.shape[:-1]) + [num_heads, x.shape[-1] // num_heads])
        return layers.transpose(x=x, perm=[0, 2, 1, 3])

    q, k, v = split_heads(queries), split_heads(keys), split_heads(values)
    scaled_q = layers.scale(x=q, scale=(keys.shape[-1] // num_heads) ** -0.5)
    product = layers.matmul(x=k, y=scaled_q, transpose_y=True)
    weights = layers.reshape(
        x=layers.reshape(x=product, shape=[-1, product.shape[-1]], act="softmax"),
        shape=product.shape)
    if dropout_rate:
        weights = layers.dropout(weights, dropout_prob=dropout_rate, is_test=False)
    out = layers.matmul(weights, v)
    if len(out.shape) == 3:
        return out
    out = layers.transpose(out, perm=[0, 2, 1, 3])
    return layers.reshape(x=out, shape=[int(out.shape[0]), int(out.shape[1]),
                                        int(out.shape[2] * out.shape[3])])


def _get_inference_program(target_vars, main_program=None):
    """0.11-0.15's io.get_inference_program: the program pruned to the
    targets (an Evaluator's states and metrics), with is_test set."""
    if main_program is None:
        main_program = framework.default_main_program()
    if not isinstance(target_vars, list):
        target_vars = [target_vars]
    targets = []
    for var in target_vars:
        if hasattr(var, "states") and hasattr(var, "metrics"):
            targets.extend(var.states)
            targets.extend(var.metrics)
        else:
            targets.append(var)
    return main_program._prune(targets=targets)._inference_optimize()


_DTYPES_1X = ["bool", "int16", "int32", "int64", "float16", "float32", "float64"]


def _pb_block(block):
    from paddle.base.proto import framework_pb2
    prog = framework_pb2.ProgramDesc.FromString(bytes(block.program.desc.serialize_to_string()))
    return prog.blocks[block.idx]


def _debug_var(v):
    kind = v.type.type
    if kind == 7:  # LOD_TENSOR
        t, level = v.type.dense_tensor.tensor, v.type.dense_tensor.legacy_lod_level
        reprs = "tensor(type=%s, shape=%s)" % (_DTYPES_1X[t.data_type], list(t.dims))
        if level > 0:
            return "LoDTensor %s (level=%d, %s)" % (v.name, level, reprs)
        return "Tensor %s (%s)" % (v.name, reprs)
    if kind == 8:
        t = v.type.selected_rows
        return "SelectedRows %s (tensor(type=%s, shape=%s))" % (
            v.name, _DTYPES_1X[t.data_type], list(t.dims))
    if kind == 13:  # 1.x showed the (unset) lod_tensor field of a tensor array
        return "TensorArray %s (level=%d, tensor(type=bool, shape=[]))" % (
            v.name, v.type.tensor_array.legacy_lod_level)
    return None


def _debug_attr(a):
    from paddle.base.proto import framework_pb2 as pb
    field = {pb.INT: "i", pb.FLOAT: "f", pb.STRING: "s", pb.INTS: "ints", pb.FLOATS: "floats",
             pb.STRINGS: "strings", pb.BOOLEAN: "b", pb.BOOLEANS: "bools", pb.BLOCK: "block_idx",
             pb.LONG: "l", pb.LONGS: "longs", pb.FLOAT64: "float64"}[a.type]
    value = getattr(a, field)
    if not isinstance(value, (int, float, str, bool)):
        value = list(value)
    return value


def _pprint_block_codes(block_desc, show_backward=False):
    b = _pb_block(block_desc)

    def backward_op(op):
        if op.type.endswith("_grad"):
            return True
        return any("@GRAD" in s.parameter or any("@GRAD" in a for a in s.arguments)
                   for s in list(op.inputs) + list(op.outputs))

    var_reprs = [_debug_var(v) for v in b.vars if show_backward or "@GRAD" not in v.name]
    op_reprs = []
    for op in b.ops:
        if not show_backward and backward_op(op):
            continue

        def value(args):
            return args[0] if len(args) == 1 else str(list(args))

        ins = ["%s=%s" % (s.parameter, value(s.arguments))
               for s in sorted(op.inputs, key=lambda s: s.parameter)]
        outs = [value(s.arguments) for s in sorted(op.outputs, key=lambda s: s.parameter)]
        attrs = {a.name: _debug_attr(a) for a in op.attrs}
        if op.type == "fill_constant":
            op_reprs.append("%s = %s [shape=%s]" % (",".join(outs), attrs["value"], attrs["shape"]))
            continue
        text = ",".join("%s=%s" % (k, _DTYPES_1X[v] if k == "dtype" else v)
                        for k, v in attrs.items())
        op_reprs.append("%s = %s(%s) [{%s}]" % (", ".join(outs), op.type, ", ".join(ins), text))
    return "// block-%d  parent-%d\n// variables\n%s\n\n// operators\n%s\n" % (
        b.idx, b.parent_idx, "\n".join(var_reprs), "\n".join(op_reprs))


def _pprint_program_codes(program):
    return "\n".join(_pprint_block_codes(program.block(i)) for i in range(program.num_blocks))


class _DotNode:
    counter = 1

    def __init__(self, label, prefix, description, attrs):
        self.label, self.description, self.attrs = label, description, attrs
        self.name = "%s_%d" % (prefix, _DotNode.counter)
        _DotNode.counter += 1

    def __str__(self):
        return "%s [label=%s ,%s ];" % (self.name, self.label, ",".join(
            '%s="%s"' % kv for kv in self.attrs))


def _draw_block_graphviz(block, highlights=None, path="./temp.dot"):
    import random
    import re
    import subprocess
    import logging
    b = _pb_block(block)
    nodes, edges, by_name = [], [], {}

    def hl(name):
        return highlights is not None and any(re.match(p, name) for p in highlights)

    def arg(name):
        node = _DotNode('"%s"' % name, "arg", name, [
            ("shape", "box"), ("style", "rounded,filled,bold"), ("fontname", "Arial"),
            ("fontcolor", "#999999"), ("color", "orange" if hl(name) else "#dddddd")])
        nodes.append(node)
        return node

    for v in b.vars:
        if v.persistable:
            label = "\n".join(['<<table cellpadding="5">', "  <tr>", '    <td bgcolor="#2b787e">',
                               "    <b>", v.name, "    </b>", "    </td>", "  </tr>", "  <tr>",
                               "    <td>", str(v.type).replace("\n", "<br />", 1),
                               "    </td>  </tr>", "</table>>"])
            node = _DotNode(label, "param", v.name, [
                ("shape", "none"), ("style", "rounded,filled,bold"), ("width", "1.3"),
                ("color", "orange" if hl(v.name) else "#148b97"), ("fontcolor", "#ffffff"),
                ("fontname", "Arial")])
            nodes.append(node)
        else:
            node = arg(v.name)
        by_name[v.name] = node
    for op in b.ops:
        opn = _DotNode("<<B>%s</B>>" % op.type, "op", op.type, [
            ("shape", "box"), ("style", "rounded, filled, bold"),
            ("color", "orange" if hl(op.type) else "#303A3A"), ("fontname", "Arial"),
            ("fontcolor", "#ffffff"), ("width", "1.3"), ("height", "0.84")])
        nodes.append(opn)
        for slots, out in ((op.inputs, False), (op.outputs, True)):
            for s in sorted(slots, key=lambda s: s.parameter):
                for a in s.arguments:
                    if a not in by_name:
                        by_name[a] = arg(a)
                    color = "orange" if hl(op.type) or hl(a) else "#00000"
                    src, dst = (opn, by_name[a]) if out else (by_name[a], opn)
                    edges.append('%s -> %s [color="%s"]' % (src.name, dst.name, color))
    random.shuffle(nodes)
    text = "\n".join(['digraph G {', 'title = "some graph"', 'layout="dot";',
                      'concentrate="true";', 'rankdir="TB";', "\n\n\n"]
                     + [str(n) for n in nodes] + edges + ["}"])
    with open(path, "w") as f:
        f.write(text)
    pdf = os.path.join(os.path.dirname(path), path[:-3] + "pdf")
    subprocess.Popen(["dot", "-Tpdf", path, "-o", pdf], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    logging.warning("write block debug graph to {}".format(pdf))


class WeightNormParamAttr(ParamAttr):
    """1.x's WeightNormParamAttr; the parameters and ops are Paddle 3.3.1's
    own LayerHelperBase._create_weight_normalize (1.x's code)."""
    params_with_weight_norm = []

    def __init__(self, dim=None, name=None, initializer=None, learning_rate=1.0,
                 regularizer=None, trainable=True, gradient_clip=None, do_model_average=False):
        super().__init__(name=name, initializer=initializer, learning_rate=learning_rate,
                         regularizer=regularizer, trainable=trainable,
                         gradient_clip=gradient_clip, do_model_average=do_model_average)
        self.dim = dim


def _weight_norm_parameter(helper, attr, shape, dtype):
    """1.0-1.5's LayerHelper._create_weight_normalize, with reshape2 and
    transpose2 for 1.x's reshape and transpose. (Paddle 3.3.1's own
    version gives every reshape2 one shared `Xshape` output, which breaks
    reshape2_grad for dim=0 and dim=-1, and it adds a reshape of g.)"""
    def var(block, what):
        return block.create_var(name=unique_name.generate(helper.name + ".weight_norm_" + what),
                                dtype=dtype, persistable=False)

    def norm(block, x, out=None, dim=None):
        out = out if out is not None else var(block, "norm")
        a, p, s = var(block, "abs"), var(block, "pow"), var(block, "sum")
        block.append_op(type="abs", inputs={"X": x}, outputs={"Out": a})
        block.append_op(type="pow", inputs={"X": a}, outputs={"Out": p}, attrs={"factor": 2.0})
        block.append_op(type="reduce_sum", inputs={"X": p}, outputs={"Out": s},
                        attrs={"dim": [0] if dim is None else [dim], "keep_dim": False,
                               "reduce_all": dim is None})
        block.append_op(type="pow", inputs={"X": s}, outputs={"Out": out},
                        attrs={"factor": 0.5})
        return out

    def reshape(block, x, new_shape, out=None):
        out = out if out is not None else var(block, "reshape")
        block.append_op(type="reshape2", inputs={"X": x},
                        outputs={"Out": out, "XShape": var(block, "reshape_xshape")},
                        attrs={"shape": new_shape})
        return out

    def transpose(block, x, perm, out=None):
        out = out if out is not None else var(block, "transpose")
        block.append_op(type="transpose2", inputs={"X": x},
                        outputs={"Out": out, "XShape": var(block, "transpose_xshape")},
                        attrs={"axis": perm})
        return out

    def norm_except_dim(block, x, out=None, dim=None):
        out = out if out is not None else var(block, "norm")
        if dim is None:
            norm(block, x, out)
        elif dim == 0:
            n = norm(block, reshape(block, x, [x.shape[0], -1]), dim=1)
            reshape(block, n, [x.shape[0]] + [1] * (len(x.shape) - 1), out)
        elif dim == len(x.shape) - 1:
            n = norm(block, reshape(block, x, [-1, x.shape[-1]]), dim=0)
            reshape(block, n, [1] * (len(x.shape) - 1) + [x.shape[-1]], out)
        else:
            perm = list(range(len(x.shape)))
            perm[0], perm[dim] = dim, 0
            n = norm(block, transpose(block, x, perm), dim=0)
            transpose(block, n, perm, out)
        return out

    g_attr, v_attr = copy.deepcopy(attr), copy.deepcopy(attr)
    g_attr.name, v_attr.name = attr.name + "_g", attr.name + "_v"
    g_shape = [1] * len(shape)
    if attr.dim is not None:
        g_shape[attr.dim] = shape[attr.dim]
    startup = helper.startup_program.global_block()
    g = startup.create_parameter(dtype=dtype, shape=g_shape,
                                 **g_attr._to_kwargs(with_initializer=False))
    v = startup.create_parameter(dtype=dtype, shape=shape,
                                 **v_attr._to_kwargs(with_initializer=True))
    norm_except_dim(startup, v, g, attr.dim)
    main = helper.main_program.global_block()
    g = main.create_parameter(dtype=dtype, shape=g_shape, **g_attr._to_kwargs())
    v = main.create_parameter(dtype=dtype, shape=shape, **v_attr._to_kwargs())
    n = norm_except_dim(helper.main_program.current_block(), v, dim=attr.dim)
    layers = paddle.fluid.layers
    scale = layers.elementwise_div(x=g, y=n)
    if attr.dim is not None:
        scale = layers.reshape(x=scale, shape=[v.shape[attr.dim]])
    param = layers.elementwise_mul(x=v, y=scale, axis=-1 if attr.dim is None else attr.dim)
    WeightNormParamAttr.params_with_weight_norm.append(param)
    return param



def _glu(input, dim=-1):
    """1.x's nets.glu: a * sigmoid(b), a and b the halves of `input` along `dim`."""
    layers = paddle.fluid.layers
    a, b = layers.split(input, num_or_sections=2, dim=dim)
    return layers.elementwise_mul(x=a, y=layers.sigmoid(x=b))


class MetricAuc:
    """1.x's fluid.metrics.Auc over Paddle 3.3.1's paddle.metric.Auc (the
    same bucketed counts and trapezoids): 1.x's numpy-only inputs, `eval`
    giving a Python float, and 1.x's `reset`/`get_config`, which see no
    states (the counts are private attributes)."""

    def __init__(self, name, curve='ROC', num_thresholds=4095):
        self._name = str(name) if name is not None else "Auc"
        self._auc = paddle.metric.Auc(curve=curve, num_thresholds=num_thresholds)

    def __str__(self):
        return self._name

    def update(self, preds, labels):
        if not isinstance(labels, (numpy.ndarray, numpy.generic)):
            raise ValueError("The 'labels' must be a numpy ndarray.")
        if not isinstance(preds, (numpy.ndarray, numpy.generic)):
            raise ValueError("The 'predictions' must be a numpy ndarray.")
        self._auc.update(preds, labels)

    trapezoid_area = staticmethod(paddle.metric.Auc.trapezoid_area)

    def eval(self):
        return float(self._auc.accumulate())

    def reset(self):
        pass

    def get_config(self):
        return {"name": self._name, "states": {}}

def _install_1x_more(fluid, layers):
    if not hasattr(fluid, "Tensor"):
        fluid.Tensor = core.DenseTensor  # 1.x's fluid.Tensor was core.LoDTensor
    fluid.WeightNormParamAttr = WeightNormParamAttr
    fluid.param_attr.WeightNormParamAttr = WeightNormParamAttr
    fluid.clip.ErrorClipByValue = paddle.nn.clip.ErrorClipByValue
    fluid.clip.BaseErrorClipAttr = paddle.nn.clip.BaseErrorClipAttr
    fluid.clip.error_clip_callback = paddle.nn.clip.error_clip_callback
    fluid.debugger = _module("paddle.fluid.debugger", pprint_program_codes=_pprint_program_codes,
                             pprint_block_codes=_pprint_block_codes,
                             draw_block_graphviz=_draw_block_graphviz)
    fluid.io.get_inference_program = _get_inference_program
    _install_1x_small_helpers(fluid)
    fluid.op = _module("paddle.fluid.op", Operator=_OperatorFactory())
    fluid.nets.scaled_dot_product_attention = _scaled_dot_product_attention
    fluid.nets.glu = _glu
    fluid.metrics.Auc = MetricAuc
    fluid.io.batch = paddle.batch  # 1.6's fluid.io.batch (3.3.1 still ships paddle.batch)
    fluid.cpu_places = paddle.static.cpu_places  # 1.5's
    if not hasattr(fluid, "CUDAPlace"):
        fluid.CUDAPlace = paddle.CUDAPlace


def _clone_var_in_block_1x(block, var):
    """1.x io.py's helper: a persistable variable of `block` declared as `var`."""
    if var.desc.type() == core.VarDesc.VarType.DENSE_TENSOR:
        return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                                type=var.type, lod_level=var.lod_level, persistable=True)
    return block.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                            type=var.type, persistable=True)


def _get_parameter_value(para, executor):
    """1.0-1.5's fluid.io.get_parameter_value: runs a program that only
    fetches the parameter."""
    assert static_io.is_parameter(para)
    get_program = Program()
    new_var = _clone_var_in_block_1x(get_program.global_block(), para)
    return executor.run(get_program, feed={}, fetch_list=[new_var])[0]


def _get_parameter_value_by_name(name, executor, program=None):
    if program is None:
        program = framework.default_main_program()
    return _get_parameter_value(program.global_block().var(name), executor)


def _as_lodtensor(data, place):
    """1.0-1.6's fluid.executor._as_lodtensor (Paddle 3.3.1's takes a list
    too)."""
    if isinstance(data, list):
        raise RuntimeError("Some of your feed data hold LoD information. "
                           "                They can not be completely cast from a list of Python "
                           "                ndarray to LoDTensor. Please convert data to LoDTensor "
                           "                directly before feeding the data."
                           "                ")
    tensor = core.DenseTensor()
    tensor.set(data, place)
    return tensor


def _install_1x_small_helpers(fluid):
    """io.get_parameter_value(_by_name), executor._as_lodtensor,
    framework's special names, default_scope_funcs and
    distribute_transpiler.slice_variable: 1.x's, Paddle 3.3.1's where it
    still has them."""
    import importlib
    fluid.io.get_parameter_value = _get_parameter_value
    fluid.io.get_parameter_value_by_name = _get_parameter_value_by_name
    fluid.executor._as_lodtensor = _as_lodtensor
    for name in ("EMPTY_VAR_NAME", "TEMP_VAR_NAME", "GRAD_VAR_SUFFIX", "ZERO_VAR_SUFFIX",
                 "CONTROL_DEP_VAR_PREFIX"):
        setattr(fluid.framework, name, getattr(framework, name))
    scope_funcs = importlib.import_module("paddle.base.default_scope_funcs")
    fluid.default_scope_funcs = scope_funcs
    sys.modules["paddle.fluid.default_scope_funcs"] = scope_funcs
    dist = importlib.import_module("paddle.distributed.transpiler.distribute_transpiler")
    fluid.transpiler.distribute_transpiler = _module(
        "paddle.fluid.transpiler.distribute_transpiler", slice_variable=dist.slice_variable)


# ---------------------------------------------------------------- readers (1.x)
# `layers.py_reader` / `create_py_reader_by_data` / `double_buffer` /
# `read_file` as 1.5's Python built them (a queue in the scope, the
# create_py_reader op in the startup program, create_double_buffer_reader
# and read in the main program, a daemon thread pushing the decorated
# generator's batches) over Paddle 3.3.1's core, whose executor runs those
# ops and raises core.EOFException; `fluid.io.PyReader` is Paddle 3.3.1's
# own (1.6's signature); `Executor.run` takes 1.5's one-item feed list.

def _reader_io():
    from paddle.base.layers import io as base_io
    return base_io


def _py_reader_1x(capacity, shapes, dtypes, lod_levels=None, name=None, use_double_buffer=True,
                  feed_list=None):
    import threading
    base_io = _reader_io()
    if feed_list is not None:
        if not isinstance(feed_list, list):
            raise TypeError("feed_list should be a list of Variable"
                            " instead of " + str(type(feed_list)))
        dtypes = [v.dtype for v in feed_list]
        shapes = [list(v.shape) for v in feed_list]
        lod_levels = [v.lod_level for v in feed_list]
    else:
        dtypes = [_dtype(dt) for dt in dtypes]
        if lod_levels is None:
            lod_levels = [0] * len(shapes)
    shape_concat, ranks = [], []
    for shape in shapes:
        shape_concat.extend(shape)
        ranks.append(len(shape))
    if name is None:
        queue_name = unique_name.generate("lod_tensor_blocking_queue")
        reader_name = unique_name.generate("create_py_reader")
        double_buffer_name = unique_name.generate("double_buffer")
    else:
        queue_name = "_".join([name, "queue"])
        reader_name = "_".join([name, "reader"])
        double_buffer_name = "_".join([name, "double_buffer"])
    var = paddle.static.global_scope().var(queue_name)
    feed_queue = core.init_dense_tensor_blocking_queue(var, capacity, False)
    startup_blk = framework.default_startup_program().current_block()
    startup_var = startup_blk.create_var(name=reader_name)
    startup_blk.append_op(
        type="create_py_reader", inputs={"blocking_queue": [queue_name]},
        outputs={"Out": [startup_var]},
        attrs={"shape_concat": shape_concat, "lod_levels": list(lod_levels),
               "dtypes": [int(t) for t in dtypes], "need_check_feed": [0] * len(dtypes),
               "ranks": ranks})
    startup_var.desc.set_dtypes(dtypes)
    startup_var.persistable = True
    main_var = base_io._copy_reader_var_(framework.default_main_program().current_block(),
                                         startup_var)
    reader = base_io.monkey_patch_reader_methods(main_var)
    if use_double_buffer:
        double = _double_buffer_1x(reader, name=double_buffer_name)
        double.reset = reader.reset
        reader = double

    reader.queue = feed_queue
    current_reset_method = reader.reset
    reader.thread = None
    reader.tensor_provider = None
    reader.exited = False

    def start_provide_thread(func):
        def provider_thread():
            try:
                for tensors in func():
                    array = core.DenseTensorArray()
                    for item in tensors:
                        if not isinstance(item, core.DenseTensor):
                            tmp = core.DenseTensor()
                            tmp.set(numpy.asarray(item), core.CPUPlace())
                            item = tmp
                        array.append(item)
                    if reader.exited:
                        break
                    feed_queue.push(array)
                    if reader.exited:
                        break
                feed_queue.close()
            except Exception:
                feed_queue.close()
                raise

        reader.thread = threading.Thread(target=provider_thread)
        reader.thread.daemon = True
        reader.thread.start()

    def set_tensor_provider(func):
        reader.tensor_provider = func

    def set_paddle_reader(paddle_reader):
        with framework.program_guard(Program(), Program()):
            actual_feed_list = feed_list
            if actual_feed_list is None:
                actual_feed_list = [
                    layers_data(name=str(i), dtype=dt, shape=sh, lod_level=ll)
                    for i, (dt, sh, ll) in enumerate(zip(dtypes, shapes, lod_levels))]
            data_names = [v.name for v in actual_feed_list]
            feeder = paddle.base.DataFeeder(feed_list=actual_feed_list, place=core.CPUPlace())

        def tensor_provider():
            # 1.x's feeder.decorate_reader(paddle_reader, multi_devices=False)
            for batch in paddle_reader():
                slots = feeder.feed(batch)
                yield [slots[n] for n in data_names]

        set_tensor_provider(tensor_provider)

    def reset():
        current_reset_method()
        if reader.thread is not None and reader.tensor_provider is not None:
            reader.exited = True
            reader.thread.join()
            reader.exited = False

    def start():
        start_provide_thread(reader.tensor_provider)

    reader.reset = reset
    reader.decorate_tensor_provider = set_tensor_provider
    reader.decorate_paddle_reader = set_paddle_reader
    reader.decorate_batch_generator = set_tensor_provider
    reader.decorate_sample_list_generator = set_paddle_reader
    reader.start = start
    return reader


def py_reader_1x(capacity, shapes, dtypes, lod_levels=None, name=None, use_double_buffer=True):
    return _py_reader_1x(capacity, shapes, dtypes, lod_levels, name, use_double_buffer)


def create_py_reader_by_data_1x(capacity, feed_list, name=None, use_double_buffer=True):
    return _py_reader_1x(capacity, None, None, None, name, use_double_buffer, feed_list)


def _double_buffer_1x(reader, place=None, name=None):
    attrs = {}
    if place is not None:
        attrs["place"] = str(place).upper()
    make = getattr(_reader_io(), "__create_unshared_decorated_reader__")
    return make("create_double_buffer_reader", reader, attrs, name=name)


def read_file_1x(reader):
    helper = LayerHelper("read_file")
    out = [helper.create_variable_for_type_inference(stop_gradient=True, dtype="float32")
           for _ in range(len(reader.desc.shapes()))]
    helper.append_op(type="read", inputs={"Reader": [reader]}, outputs={"Out": out})
    return out[0] if len(out) == 1 else out


def _install_1x_readers(fluid, layers):
    from paddle.base import reader as base_reader
    layers.py_reader = py_reader_1x
    layers.create_py_reader_by_data = create_py_reader_by_data_1x
    layers.double_buffer = _double_buffer_1x
    layers.read_file = read_file_1x
    io_layers = sys.modules.get("paddle.fluid.layers.io")
    if io_layers is not None:
        for n in ("py_reader", "create_py_reader_by_data", "double_buffer", "read_file"):
            setattr(io_layers, n, getattr(layers, n))
    fluid.io.PyReader = PyReader_1x
    fluid.io.DataLoader = DataLoader_1x
    fluid.reader = _module("paddle.fluid.reader", PyReader=PyReader_1x, DataLoader=DataLoader_1x)
    if not hasattr(fluid, "LoDTensorArray"):
        fluid.LoDTensorArray = core.DenseTensorArray


class DataLoader_1x(object):
    """1.6's fluid.io.DataLoader: from_generator is Paddle 3.3.1's, its
    reader made in the startup program as PyReader_1x's."""

    @staticmethod
    def from_generator(feed_list=None, capacity=None, use_double_buffer=True, iterable=True,
                       return_list=False):
        from paddle.base import reader as base_reader
        old = base_reader.keep_data_loader_order()
        base_reader.keep_data_loader_order(False)
        try:
            return base_reader.DataLoader.from_generator(feed_list, capacity, use_double_buffer,
                                                         iterable, return_list)
        finally:
            base_reader.keep_data_loader_order(old)


def PyReader_1x(feed_list=None, capacity=None, use_double_buffer=True, iterable=True,
                return_list=False):
    """Paddle 3.3.1's PyReader (1.6's), its reader made in the startup
    program as 1.x's (3.3.1 by default makes it in the main program, to
    keep the data's order over several devices)."""
    from paddle.base import reader as base_reader
    old = base_reader.keep_data_loader_order()
    base_reader.keep_data_loader_order(False)
    try:
        return base_reader.PyReader(feed_list, capacity, use_double_buffer, iterable,
                                    return_list)
    finally:
        base_reader.keep_data_loader_order(old)
