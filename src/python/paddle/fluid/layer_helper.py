"""paddle.fluid.layer_helper: what every layer uses to name its outputs,
create its parameters and append its ops, as 1.x's LayerHelper."""
import copy

from . import framework
from . import unique_name
from .framework import Variable
from .param_attr import ParamAttr, WeightNormParamAttr
from . import initializer as _init

VarType = framework.VarType


class LayerHelper(object):
    # Every layer call goes through here: the common paths avoid calls
    # (a Python call costs the VM several thousand instructions).
    def __init__(self, layer_type, **kwargs):
        self.kwargs = kwargs
        self.layer_type = layer_type
        name = kwargs.get("name")
        if name is None:
            name = kwargs["name"] = unique_name.generator(layer_type)
        self.name = name

    @property
    def main_program(self):
        return framework._main_program_

    @property
    def startup_program(self):
        return framework._startup_program_

    def append_op(self, type=None, inputs=None, outputs=None, attrs=None, **kwargs):
        program = framework._main_program_
        return program.blocks[program.current_block_idx]._add_op(
            None, type, inputs, outputs, attrs)

    def multiple_input(self, input_param_name="input"):
        inputs = self.kwargs.get(input_param_name, [])
        if isinstance(inputs, Variable):
            return [inputs]
        if isinstance(inputs, (list, tuple)):
            for x in inputs:
                if not isinstance(x, Variable):
                    raise TypeError("%s of %s must be Variables, not %s"
                                    % (input_param_name, self.layer_type, type(x).__name__))
            return list(inputs)
        raise TypeError("%s of %s must be a Variable or a list of Variables, not %s"
                        % (input_param_name, self.layer_type, type(inputs).__name__))

    def input(self, input_param_name="input"):
        inputs = self.multiple_input(input_param_name)
        if len(inputs) != 1:
            raise ValueError("%s layer only takes one input" % self.layer_type)
        return inputs[0]

    @property
    def param_attr(self):
        return ParamAttr._to_attr(self.kwargs.get("param_attr", None))

    @property
    def bias_attr(self):
        return ParamAttr._to_attr(self.kwargs.get("bias_attr", None))

    def multiple_param_attr(self, length):
        param_attr = self.param_attr
        if isinstance(param_attr, ParamAttr):
            param_attr = [param_attr]
        if len(param_attr) != 1 and len(param_attr) != length:
            raise ValueError("parameter number mismatch")
        elif len(param_attr) == 1 and length != 1:
            tmp = [None] * length
            for i in range(length):
                tmp[i] = copy.deepcopy(param_attr[0])
            param_attr = tmp
        return param_attr

    def iter_inputs_and_params(self, input_param_name="input"):
        inputs = self.multiple_input(input_param_name)
        param_attrs = self.multiple_param_attr(len(inputs))
        for ipt, param_attr in zip(inputs, param_attrs):
            yield ipt, param_attr

    def input_dtype(self, input_param_name="input"):
        inputs = self.multiple_input(input_param_name)
        dtype = None
        for each in inputs:
            if dtype is None:
                dtype = each.dtype
            elif dtype != each.dtype:
                raise ValueError("Data Type mismatch: %d to %d" % (int(dtype), int(each.dtype)))
        return dtype

    def create_parameter(self, attr, shape, dtype, is_bias=False, default_initializer=None):
        """The parameter `attr` describes (`<layer>.w_N`/`.b_N` by
        default), declared in the startup program with its initializer op
        prepended there, then in the main program."""
        if attr is False:
            return None
        attr = copy.deepcopy(attr)
        if default_initializer is None:
            if is_bias:
                attr._set_default_bias_initializer()
            else:
                attr._set_default_param_initializer()
        else:
            attr._set_default_initializer(default_initializer)
        if attr.name is None:
            attr.name = unique_name.generate(".".join([self.name, "b" if is_bias else "w"]))
        shape = [int(d) for d in shape]
        if isinstance(attr, WeightNormParamAttr):
            param = self._create_weight_normalize(attr, shape, dtype)
            WeightNormParamAttr.params_with_weight_norm.append(param)
            return param
        self.startup_program.global_block().create_parameter(
            dtype=dtype, shape=shape, **attr._to_kwargs(with_initializer=True))
        return self.main_program.global_block().create_parameter(
            dtype=dtype, shape=shape, **attr._to_kwargs())

    def _wn_var(self, block, dtype, what):
        return block.create_var(
            name=unique_name.generate(".".join([self.name, "weight_norm_" + what])),
            dtype=dtype, persistable=False)

    def _wn_norm(self, block, x, dtype, out=None, p=2, dim=None, keep_dim=False):
        """(sum |x|^p over `dim`, all dims for None) ^ (1/p), into `out`."""
        if out is None:
            out = self._wn_var(block, dtype, "norm")
        abs_out = self._wn_var(block, dtype, "abs")
        block.append_op(type="abs", inputs={"X": x}, outputs={"Out": abs_out})
        pow_out = self._wn_var(block, dtype, "pow")
        block.append_op(type="pow", inputs={"X": abs_out}, outputs={"Out": pow_out},
                        attrs={"factor": float(p)})
        sum_out = self._wn_var(block, dtype, "sum")
        block.append_op(type="reduce_sum", inputs={"X": pow_out}, outputs={"Out": sum_out},
                        attrs={"dim": [0] if dim is None else [dim], "keep_dim": keep_dim,
                               "reduce_all": dim is None})
        block.append_op(type="pow", inputs={"X": sum_out}, outputs={"Out": out},
                        attrs={"factor": 1. / p})
        return out

    def _wn_reshape(self, block, x, dtype, shape, out=None):
        # 1.x appended a `reshape` op, which Paddle 3 and fluidc have as
        # `reshape2` (the same values, with an XShape output).
        if out is None:
            out = self._wn_var(block, dtype, "reshape")
        xshape = block.create_var(
            name=unique_name.generate(".".join([self.name, "weight_norm_reshape_xshape"])),
            dtype=dtype, persistable=False)
        block.append_op(type="reshape2", inputs={"X": x}, outputs={"Out": out, "XShape": xshape},
                        attrs={"shape": shape})
        return out

    def _wn_transpose(self, block, x, dtype, axis, out=None):
        # 1.x's `transpose` op, as `transpose2` (with an XShape output).
        if out is None:
            out = self._wn_var(block, dtype, "transpose")
        xshape = block.create_var(
            name=unique_name.generate(".".join([self.name, "weight_norm_transpose_xshape"])),
            dtype=dtype, persistable=False)
        block.append_op(type="transpose2", inputs={"X": x},
                        outputs={"Out": out, "XShape": xshape}, attrs={"axis": axis})
        return out

    def _wn_norm_except_dim(self, block, x, dtype, out=None, dim=None):
        """The norm of `x` over every dimension but `dim`, as 1.x computed
        it (for a `dim` neither the first nor the last, 1.x's ops do not
        fit together, and building them fails as it did there)."""
        if out is None:
            out = self._wn_var(block, dtype, "norm")
        if dim is None:
            self._wn_norm(block, x, dtype, out, dim=dim)
        elif dim == 0:
            out_shape = [x.shape[0]] + [1] * (len(x.shape) - 1)
            reshape = self._wn_reshape(block, x, dtype, shape=[x.shape[0], -1])
            norm = self._wn_norm(block, reshape, dtype, dim=1)
            self._wn_reshape(block, norm, dtype, out=out, shape=out_shape)
        elif dim == len(x.shape) - 1:
            out_shape = [1] * (len(x.shape) - 1) + [x.shape[-1]]
            reshape = self._wn_reshape(block, x, dtype, shape=[-1, x.shape[-1]])
            norm = self._wn_norm(block, reshape, dtype, dim=0)
            self._wn_reshape(block, norm, dtype, out=out, shape=out_shape)
        else:
            perm = list(range(len(x.shape)))
            perm[0], perm[dim] = dim, 0
            transpose = self._wn_transpose(block, x, dtype, perm)
            norm = self._wn_norm(block, transpose, dtype, dim=0)
            self._wn_transpose(block, norm, dtype, perm, out=out)
        return out

    def _create_weight_normalize(self, attr, shape, dtype):
        """1.x's weight normalization: parameters g (`<name>_g`, the dims of
        `attr.dim`, 1 elsewhere) and v (`<name>_v`, `shape`); in the
        startup program v gets the initializer and g the norm of v; in the
        main program W = v * (g / ||v||)."""
        from .layers import elementwise_div, elementwise_mul, reshape
        g_param_attr = copy.deepcopy(attr)
        g_param_attr.name = attr.name + "_g"
        g_param_shape = [1] * len(shape)
        if attr.dim is not None:
            g_param_shape[attr.dim] = shape[attr.dim]
        v_param_attr = copy.deepcopy(attr)
        v_param_attr.name = attr.name + "_v"
        v_param_shape = shape

        startup_block = self.startup_program.global_block()
        g_param = startup_block.create_parameter(
            dtype=dtype, shape=g_param_shape, **g_param_attr._to_kwargs(with_initializer=False))
        v_param = startup_block.create_parameter(
            dtype=dtype, shape=v_param_shape, **v_param_attr._to_kwargs(with_initializer=True))
        self._wn_norm_except_dim(startup_block, v_param, dtype, out=g_param, dim=attr.dim)

        main_block = self.main_program.global_block()
        g_param = main_block.create_parameter(dtype=dtype, shape=g_param_shape,
                                              **g_param_attr._to_kwargs())
        v_param = main_block.create_parameter(dtype=dtype, shape=v_param_shape,
                                              **v_param_attr._to_kwargs())
        dim = attr.dim
        norm = self._wn_norm_except_dim(self.main_program.current_block(), v_param, dtype,
                                        dim=dim)
        scale = elementwise_div(x=g_param, y=norm)
        return elementwise_mul(x=v_param,
                               y=scale if dim is None else reshape(x=scale,
                                                                   shape=[v_param.shape[dim]]),
                               axis=-1 if dim is None else dim)

    def get_parameter(self, name):
        param = self.main_program.global_block().var(name)
        if not isinstance(param, framework.Parameter):
            raise ValueError("no Parameter name %s found" % name)
        return param

    def create_variable_for_type_inference(self, dtype, stop_gradient=False):
        """The layer's next temporary, `<layer>.tmp_N`."""
        program = framework._main_program_
        return Variable(program.blocks[program.current_block_idx],
                        name=unique_name.generator(self.name + ".tmp"), dtype=dtype,
                        persistable=False, stop_gradient=stop_gradient)

    create_tmp_variable = create_variable_for_type_inference

    def create_named_output(self, name, dtype):
        """The output of a layer whose `name` names the output itself, as
        1.1-1.6's scale, elementwise_*, mean, mul, clip, the logical ops
        and others named it: the variable `name` (so `fetch_list=[name]`
        finds it), or the layer's next temporary without one."""
        if name is None:
            return self.create_variable_for_type_inference(dtype=dtype)
        return self.create_variable(name=name, dtype=dtype, persistable=False)

    def create_variable(self, *args, **kwargs):
        return self.main_program.current_block().create_var(*args, **kwargs)

    def create_global_variable(self, persistable=False, *args, **kwargs):
        return self.main_program.global_block().create_var(*args, persistable=persistable, **kwargs)

    def create_or_get_global_variable(self, name, *args, **kwargs):
        block = self.main_program.global_block()
        if block.has_var(name):
            return block.var(name), False
        return self.create_global_variable(name=name, *args, **kwargs), True

    def set_variable_initializer(self, var, initializer):
        """Declares `var` in the startup program and initializes it there."""
        self.startup_program.global_block().create_var(
            name=var.name, type=var.type, dtype=var.dtype, shape=var.shape,
            persistable=True, initializer=None)
        initializer(self.startup_program.global_block().var(var.name),
                    self.startup_program.global_block())

    def append_bias_op(self, input_var, dim_start=1, dim_end=None):
        """`input_var + b` over dims `dim_start:dim_end`, b a new bias."""
        size = list(input_var.shape[dim_start:dim_end])
        bias_attr = self.bias_attr
        if not bias_attr:
            return input_var
        b = self.create_parameter(attr=bias_attr, shape=size, dtype=input_var.dtype, is_bias=True)
        tmp = self.create_variable_for_type_inference(dtype=input_var.dtype)
        self.append_op(type="elementwise_add", inputs={"X": [input_var], "Y": [b]},
                       outputs={"Out": [tmp]}, attrs={"axis": dim_start})
        return tmp

    def append_activation(self, input_var):
        """The layer's `act` (a name, or a dict with `type` and attributes)
        applied to `input_var`."""
        act = self.kwargs.get("act")
        if act is None:
            return input_var
        if isinstance(act, str):
            act = {"type": act}
        elif not isinstance(act, dict):
            raise TypeError("act should be a str or a dict, not %s" % type(act).__name__)
        act = dict(act)
        # As 1.x's helper: the layer's use_cudnn / use_mkldnn, when set,
        # are the activation op's attributes too.
        if self.kwargs.get("use_cudnn"):
            act["use_cudnn"] = self.kwargs["use_cudnn"]
        if self.kwargs.get("use_mkldnn"):
            act["use_mkldnn"] = self.kwargs["use_mkldnn"]
        act_type = act.pop("type")
        tmp = self.create_variable_for_type_inference(dtype=input_var.dtype)
        self.append_op(type=act_type, inputs={"X": [input_var]}, outputs={"Out": [tmp]},
                       attrs=act)
        return tmp

    def is_instance(self, param_name, cls):
        param = self.kwargs.get(param_name, None)
        if not isinstance(param, cls):
            raise TypeError("The input {0} parameter of method {1} must be {2}".format(
                param_name, self.layer_type, cls.__name__))


_ = _init
