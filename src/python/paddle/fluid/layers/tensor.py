"""Tensor layers (1.x's `layers/tensor.py`): constants, assignment, casts,
concatenation and sums, global variables and parameters."""
import numpy as np

from .. import core
from .. import framework
from .. import unique_name
from ..framework import Variable, convert_np_dtype_to_dtype_
from ..initializer import Constant, force_init_on_cpu
from ..layer_helper import LayerHelper
from ..param_attr import ParamAttr

__all__ = [
    "create_tensor", "create_parameter", "create_global_var", "cast", "concat",
    "sums", "assign", "fill_constant_batch_size_like", "fill_constant", "argmin",
    "argmax", "argsort", "ones", "zeros", "reverse", "has_inf", "has_nan",
    "isfinite", "range", "linspace", "zeros_like", "ones_like", "diag", "eye",
    "tensor_array_to_tensor",
]

_INTS = ("int8", "int16", "int32", "int64", "uint8")


def _check_var(x, name, layer):
    if not isinstance(x, Variable):
        raise TypeError("The type of '%s' in %s must be Variable, but received %s"
                        % (name, layer, type(x).__name__))


def create_tensor(dtype, name=None, persistable=False):
    helper = LayerHelper("create_tensor", **locals())
    return helper.create_variable(name=helper.name, dtype=dtype, persistable=persistable)


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False,
                     default_initializer=None):
    helper = LayerHelper("create_parameter", **locals())
    if attr is None:
        attr = ParamAttr(name=name)
    return helper.create_parameter(attr, shape, convert_np_dtype_to_dtype_(dtype), is_bias,
                                   default_initializer)


def create_global_var(shape, value, dtype, persistable=False, force_cpu=False, name=None):
    """A variable of the global block (`name` or `_generated_var_N`) that
    the startup program sets to `value` with a `fill_constant`."""
    helper = LayerHelper("global_var", **locals())
    var = helper.create_global_variable(
        dtype=dtype, shape=shape, persistable=persistable,
        name=name if name is not None else unique_name.generate("_generated_var"),
        stop_gradient=True)
    helper.set_variable_initializer(var, initializer=Constant(value=float(value), force_cpu=force_cpu))
    return var


def cast(x, dtype):
    _check_var(x, "x", "cast")
    helper = LayerHelper("cast", **locals())
    dtype = convert_np_dtype_to_dtype_(dtype)
    out = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="cast", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"in_dtype": x.dtype, "out_dtype": out.dtype})
    return out


def concat(input, axis=0, name=None):
    helper = LayerHelper("concat", **locals())
    if isinstance(input, Variable):
        input = [input]
    if not input:
        raise ValueError("concat needs at least one input Variable")
    out = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    helper.append_op(type="concat", inputs={"X": list(input)}, outputs={"Out": [out]},
                     attrs={"axis": axis})
    return out


def sums(input, out=None):
    """The `sum` op of the Variables in `input` (into `out` or a new
    `sum_N.tmp_0`)."""
    helper = LayerHelper("sum", **locals())
    if isinstance(input, Variable):
        input = [input]
    if not input:
        raise ValueError("sums() needs at least one Variable")
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    helper.append_op(type="sum", inputs={"X": list(input)}, outputs={"Out": out},
                     attrs={"use_mkldnn": False})
    return out


def _flatten_values(value):
    """A number or (nested, rectangular) list as flat values and a shape."""
    if isinstance(value, (bool, int, float)):
        return [value], [1]
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, (bool, int, float)) for v in value):
            return list(value), [len(value)]
        flat, inner = [], None
        for item in value:
            f, s = _flatten_values(item)
            if inner is not None and s != inner:
                raise ValueError("assign() needs a rectangular list")
            inner = s
            flat.extend(f)
        return flat, [len(value)] + (inner or [])
    raise TypeError(
        "assign() needs a Variable, a number, a numpy array or a (nested, rectangular) "
        "list of numbers, not %s" % type(value).__name__)


def assign(input, output=None):
    """A Variable is copied with `assign`; a number, list or numpy array
    becomes an `assign_value` constant."""
    helper = LayerHelper("assign", **locals())
    if isinstance(input, Variable):
        if output is None:
            output = helper.main_program.current_block().create_var(
                name=unique_name.generate_with_ignorable_key(".".join([helper.name, "tmp"])),
                type=input.type, dtype=input.dtype, shape=input.shape,
                persistable=False, capacity=_capacity(input))
        helper.append_op(type="assign", inputs={"X": [input]}, outputs={"Out": [output]})
        return output
    if isinstance(input, np.ndarray):
        name = input.dtype.name
        shape = [int(d) for d in input.shape] or [1]
        flat = input.flatten().tolist()
        if name == "bool":
            values = [bool(v) for v in flat]
        elif name in _INTS:
            values = [int(v) for v in flat]
        else:
            values = [float(v) for v in flat]
        dtype = convert_np_dtype_to_dtype_(name)
    else:
        flat, shape = _flatten_values(input)
        if all(isinstance(v, bool) for v in flat):
            dtype, values = core.VarDesc.VarType.BOOL, [bool(v) for v in flat]
        elif all(isinstance(v, (bool, int)) for v in flat):
            dtype, values = core.VarDesc.VarType.INT64, [int(v) for v in flat]
        else:
            dtype, values = core.VarDesc.VarType.FP32, [float(v) for v in flat]
    if output is None:
        # The helper made above names it (`assign_N.tmp_0`), as 1.x's.
        output = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="assign_value", outputs={"Out": [output]},
                     attrs={"dtype": dtype, "shape": shape, "values": values})
    return output


def _capacity(var):
    if int(var.type) == int(core.VarDesc.VarType.CHANNEL):
        return var.block.program.desc.var_get(var.block.idx, var.name, "capacity")
    return None


def _str_value(value, dtype):
    if framework.convert_dtype(dtype) in _INTS:
        return str(int(value))
    return str(float(value))


def fill_constant(shape, dtype, value, force_cpu=False, out=None, name=None):
    """A tensor of `shape` filled with `value` (`fill_constant_N.tmp_0`,
    or `out`)."""
    helper = LayerHelper("fill_constant", **locals())
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        if isinstance(value, np.ndarray) or hasattr(value, "__float__"):
            value = float(value)
        elif not isinstance(value, bool):
            raise TypeError("fill_constant's value must be a number, not %s" % type(value).__name__)
    if not isinstance(shape, (list, tuple)):
        if isinstance(shape, int):
            shape = [shape]
        else:
            raise TypeError("fill_constant's shape must be a list or tuple, not %s"
                            % type(shape).__name__)
    dtype = convert_np_dtype_to_dtype_(dtype)
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="fill_constant", inputs={}, outputs={"Out": [out]},
                     attrs={"shape": [int(d) for d in shape], "dtype": dtype,
                            "value": float(value), "str_value": _str_value(value, dtype),
                            "force_cpu": bool(force_cpu or force_init_on_cpu())})
    out.stop_gradient = True
    return out


def fill_constant_batch_size_like(input, shape, dtype, value, input_dim_idx=0,
                                  output_dim_idx=0, force_cpu=False):
    """A tensor of `shape` filled with `value`, whose dim `output_dim_idx`
    is `input`'s dim `input_dim_idx` when the op runs (the batch size).
    As 1.x, the op gets no `str_value`: the kernel then fills `value`."""
    helper = LayerHelper("fill_constant_batch_size_like", **locals())
    dtype = convert_np_dtype_to_dtype_(dtype)
    out = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="fill_constant_batch_size_like", inputs={"Input": input},
                     outputs={"Out": [out]},
                     attrs={"shape": [int(d) for d in shape], "dtype": dtype,
                            "value": float(value), "input_dim_idx": input_dim_idx,
                            "output_dim_idx": output_dim_idx, "force_cpu": force_cpu})
    out.stop_gradient = True
    return out


def _arg_layer(op, x, axis):
    helper = LayerHelper(op, **locals())
    out = helper.create_variable_for_type_inference(core.VarDesc.VarType.INT64)
    helper.append_op(type=op, inputs={"X": x}, outputs={"Out": [out]}, attrs={"axis": axis})
    out.stop_gradient = True
    return out


def argmin(x, axis=0):
    return _arg_layer("arg_min", x, axis)


def argmax(x, axis=0):
    return _arg_layer("arg_max", x, axis)


def argsort(input, axis=-1, name=None):
    helper = LayerHelper("argsort", **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype, stop_gradient=True)
    ids = helper.create_variable_for_type_inference(core.VarDesc.VarType.INT64, stop_gradient=True)
    helper.append_op(type="argsort", inputs={"X": input}, outputs={"Out": out, "Indices": ids},
                     attrs={"axis": axis})
    return out, ids


def ones(shape, dtype, force_cpu=False):
    return fill_constant(value=1.0, shape=shape, dtype=dtype, force_cpu=force_cpu)


def zeros(shape, dtype, force_cpu=False):
    return fill_constant(value=0.0, shape=shape, dtype=dtype, force_cpu=force_cpu)


def reverse(x, axis):
    if isinstance(axis, int):
        axis = [axis]
    helper = LayerHelper("reverse", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reverse", inputs={"X": x}, outputs={"Out": [out]}, attrs={"axis": axis})
    return out


def _bool_layer(op, x):
    helper = LayerHelper(op, **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type=op, inputs={"X": x}, outputs={"Out": out})
    return out


def has_inf(x):
    return _bool_layer("isinf", x)


def has_nan(x):
    return _bool_layer("isnan", x)


def isfinite(x):
    helper = LayerHelper("isfinite", **locals())
    out = helper.create_variable_for_type_inference(dtype="bool")
    helper.append_op(type="isfinite", inputs={"X": x}, outputs={"Out": out})
    return out


def range(start, end, step, dtype):
    helper = LayerHelper("range", **locals())
    if not isinstance(start, Variable):
        start = fill_constant([1], dtype, start)
    if not isinstance(end, Variable):
        end = fill_constant([1], dtype, end)
    if not isinstance(step, Variable):
        step = fill_constant([1], dtype, step)
    out = helper.create_variable_for_type_inference(dtype=start.dtype)
    helper.append_op(type="range", inputs={"Start": start, "End": end, "Step": step},
                     outputs={"Out": [out]})
    out.stop_gradient = True
    return out


def linspace(start, stop, num, dtype):
    helper = LayerHelper("linspace", **locals())
    if not isinstance(start, Variable):
        start = fill_constant([1], dtype, start)
    if not isinstance(stop, Variable):
        stop = fill_constant([1], dtype, stop)
    if not isinstance(num, Variable):
        num = fill_constant([1], "int32", num)
    out = helper.create_variable_for_type_inference(dtype=start.dtype)
    helper.append_op(type="linspace", inputs={"Start": start, "Stop": stop, "Num": num},
                     outputs={"Out": [out]}, attrs={"dtype": convert_np_dtype_to_dtype_(dtype)})
    return out


def zeros_like(x, out=None):
    helper = LayerHelper("zeros_like", **locals())
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="fill_any_like", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"value": 0.0, "dtype": -1})
    out.stop_gradient = True
    return out


def ones_like(x, out=None):
    helper = LayerHelper("ones_like", **locals())
    if out is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="fill_any_like", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"value": 1.0})
    return out


def diag(diagonal):
    helper = LayerHelper("diag", **locals())
    if not isinstance(diagonal, Variable):
        diagonal = assign(diagonal)
    out = helper.create_variable_for_type_inference(dtype=diagonal.dtype)
    helper.append_op(type="diag", inputs={"Diagonal": [diagonal]}, outputs={"Out": [out]})
    out.stop_gradient = True
    return out


def eye(num_rows, num_columns=None, batch_shape=None, dtype="float32"):
    """A `[num_rows, num_columns]` identity; with `batch_shape`, repeated
    to `batch_shape + [num_rows, num_columns]` (a reshape and an expand,
    as 1.x's)."""
    helper = LayerHelper("eye", **locals())
    if num_columns is None:
        num_columns = num_rows
    out = helper.create_variable_for_type_inference(dtype=dtype)
    helper.append_op(type="eye", inputs={}, outputs={"Out": [out]},
                     attrs={"num_rows": num_rows, "num_columns": num_columns,
                            "dtype": convert_np_dtype_to_dtype_(dtype)})
    # What the eye op's shape inference gives (fluidc has no definition
    # of the op to infer it).
    out.shape = [num_rows, num_columns]
    if batch_shape is not None:
        if not isinstance(batch_shape, list):
            raise TypeError("batch_shape should be a list")
        for batch_val in batch_shape:
            if batch_val <= 0:
                raise TypeError("batch_shape should be a positive int list")
        from .manipulation import expand, reshape
        out = reshape(x=out, shape=[1] * len(batch_shape) + [num_rows, num_columns])
        out = expand(x=out, expand_times=batch_shape + [1, 1])
    out.stop_gradient = True
    return out


def tensor_array_to_tensor(input, axis=1, name=None, use_stack=False):
    """1.5-1.6's: the tensors of the tensor array `input` concatenated
    along `axis` (stacked along a new one with `use_stack`), and an int32
    tensor of each one's size along it."""
    helper = LayerHelper("tensor_array_to_tensor", **locals())
    out = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    out_index = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="tensor_array_to_tensor", inputs={"X": input},
                     outputs={"Out": [out], "OutIndex": [out_index]},
                     attrs={"axis": axis, "use_stack": use_stack})
    if input.shape:
        # 1.6's InferShape: the array's shape (what was written to it)
        # with -1 for the dim the steps join along.
        dims = list(input.shape)
        if use_stack:
            dims.insert(axis, -1)
        else:
            dims[axis] = -1
        out.shape = dims
    return out, out_index
