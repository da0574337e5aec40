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
        if isinstance(attr, WeightNormParamAttr):
            # 1.x made it two parameters (g and v) and the ops of
            # w = g * v / ||v||; fluidc builds neither.
            raise NotImplementedError(
                "fluidc does not support WeightNormParamAttr (weight normalization) yet; "
                "pass a fluid.ParamAttr for %s" % self.layer_type)
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
        self.startup_program.global_block().create_parameter(
            dtype=dtype, shape=shape, **attr._to_kwargs(with_initializer=True))
        return self.main_program.global_block().create_parameter(
            dtype=dtype, shape=shape, **attr._to_kwargs())

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
