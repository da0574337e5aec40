"""A fake `paddle.fluid` (the 2018-2020 API) built on Paddle 3.3.1, for tests only.

fluidc compiles fluid `model.py` scripts without running Python, promising the
program Paddle's own Python would have built (SPEC §1). Paddle 3.3.1 no longer
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

`Executor.run` runs nothing: it records the program, the feed names and the
fetch targets (fluidc turns the last run into feed/fetch ops the same way).

Channels, Go and Select are not here: Paddle 3 has no such ops.
"""

import contextlib
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


class Executor:
    """Records `exe.run(program, feed, fetch_list)`; with `install(run=True)`
    it also runs the program in Paddle 3.3.1's executor (run_with_paddle.py)."""

    def __init__(self, place=None):
        self.place = place
        self.real = paddle.static.Executor(paddle.CPUPlace()) if RUN else None

    def run(self, program=None, feed=None, fetch_list=None, feed_var_name="feed",
            fetch_var_name="fetch", scope=None, return_numpy=True, use_program_cache=False):
        program = framework.default_main_program() if program is None else program
        if self.real is not None:
            return self.real.run(program, feed=feed, fetch_list=fetch_list,
                                 return_numpy=return_numpy)
        if STATE.is_startup(program):
            return []
        fetch = [v if isinstance(v, str) else v.name for v in (fetch_list or [])]
        STATE.runs.append((program, list(feed or {}), fetch))
        return [None] * len(fetch)

    def close(self):
        pass


def result():
    """(main, startup, feed names, fetch names) of the program the script ran
    last, else of the default main program with no feeds or fetches."""
    if STATE.runs:
        program, feed, fetch = STATE.runs[-1]
    else:
        program, feed, fetch = STATE.main, [], []
    return program, STATE.startup_of(program), feed, fetch


# ---------------------------------------------------------------- tensor layers


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
            "force_cpu": force_cpu,
        },
        stop_gradient=True,
    )
    out.stop_gradient = True
    return out


def zeros(shape, dtype, force_cpu=False, name=None):
    return fill_constant(shape, dtype, 0.0, force_cpu=force_cpu)


def ones(shape, dtype, force_cpu=False, name=None):
    return fill_constant(shape, dtype, 1.0, force_cpu=force_cpu)


def assign(input, output=None):
    helper = LayerHelper("assign")
    if isinstance(input, Variable):
        if output is None:
            output = helper.create_variable_for_type_inference(dtype=input.dtype)
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
               "force_cpu": force_cpu},
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


def softmax(input, use_cudnn=False, name=None, axis=-1):
    helper = LayerHelper("softmax", name=name)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="softmax", inputs={"X": input}, outputs={"Out": out},
                     attrs={"axis": axis, "use_cudnn": use_cudnn})
    return out


def _parameter(helper, suffix, shape, dtype, init_type, init_attrs):
    """1.x LayerHelper.create_parameter: `<layer>_N.<w|b>_0`, created in the
    startup program first (its initializer *prepended* there), then in main."""
    name = unique_name.generate(helper.name + "." + suffix)
    startup_block = helper.startup_program.global_block()
    init_var = startup_block.create_parameter(name=name, shape=shape, dtype=dtype)
    startup_block._prepend_op(type=init_type, outputs={"Out": init_var},
                              attrs=dict(shape=shape, dtype=int(init_var.dtype), **init_attrs),
                              stop_gradient=True)
    return helper.main_program.global_block().create_parameter(name=name, shape=shape, dtype=dtype)


def fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None, name=None):
    """1.x fc with default attributes: Xavier-uniform weight, zero bias; its
    temporaries are all `fc_N.tmp_K` (mul, bias add, activation)."""
    helper = LayerHelper("fc", act=act, name=name)
    fan_in = 1
    for dim in input.shape[num_flatten_dims:]:
        fan_in *= dim
    limit = (6.0 / (fan_in + size)) ** 0.5
    w = _parameter(helper, "w", [fan_in, size], input.dtype, "uniform_random",
                   {"min": -limit, "max": limit, "seed": 0})
    product = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="mul", inputs={"X": input, "Y": w}, outputs={"Out": product},
                     attrs={"x_num_col_dims": num_flatten_dims, "y_num_col_dims": 1})
    b = _parameter(helper, "b", [size], input.dtype, "fill_constant",
                   {"value": 0.0, "force_cpu": False})
    biased = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="elementwise_add", inputs={"X": [product], "Y": [b]},
                     outputs={"Out": [biased]}, attrs={"axis": num_flatten_dims})
    return helper.append_activation(biased)


def square_error_cost(input, label):
    helper = LayerHelper("square_error_cost")
    minus_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="elementwise_sub", inputs={"X": [input], "Y": [label]},
                     outputs={"Out": [minus_out]})
    square_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="square", inputs={"X": [minus_out]}, outputs={"Out": [square_out]})
    return square_out


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


# ---------------------------------------------------------------- the modules


def _module(name, **attrs):
    module = types.ModuleType(name)
    module.__dict__.update(attrs)
    sys.modules[name] = module
    return module


RUN = False


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

    layers = _module(
        "paddle.fluid.layers",
        fill_constant=fill_constant, zeros=zeros, ones=ones, assign=assign,
        data=layers_data, create_global_var=create_global_var, cast=cast,
        increment=increment, scale=scale,
        less_than=_compare("less_than"), less_equal=_compare("less_equal"),
        greater_than=_compare("greater_than"), greater_equal=_compare("greater_equal"),
        equal=_compare("equal"), not_equal=_compare("not_equal"),
        logical_and=logical_and, logical_or=logical_or, logical_xor=logical_xor,
        logical_not=logical_not, mean=_unary("mean"), relu=_unary("relu"),
        sigmoid=_unary("sigmoid"), tanh=_unary("tanh"), softmax=softmax, fc=fc,
        square_error_cost=square_error_cost,
        While=While, ConditionalBlock=ConditionalBlock, Switch=Switch, cond=cond,
    )
    for op in ("add", "sub", "mul", "div", "max", "min", "pow", "mod", "floordiv"):
        setattr(layers, "elementwise_" + op, _elementwise("elementwise_" + op))
    programs = dict(
        Program=Program, program_guard=program_guard, Variable=Variable,
        default_main_program=framework.default_main_program,
        default_startup_program=framework.default_startup_program,
    )
    fluid = _module(
        "paddle.fluid", layers=layers, core=core, unique_name=unique_name, data=data,
        Executor=Executor, CPUPlace=core.CPUPlace, global_scope=paddle.static.global_scope,
        **programs,
    )
    fluid.framework = _module("paddle.fluid.framework", **programs)
    fluid.layer_helper = _module("paddle.fluid.layer_helper", LayerHelper=LayerHelper)
    from paddle.base import executor as base_executor
    fluid.executor = _module("paddle.fluid.executor", Executor=Executor,
                             global_scope=paddle.static.global_scope,
                             _fetch_var=base_executor._fetch_var)
    sys.modules["paddle.fluid.core"] = core
    sys.modules["paddle.fluid.unique_name"] = unique_name
    paddle.fluid = fluid
    return fluid
