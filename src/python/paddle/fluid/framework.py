"""paddle.fluid.framework: Program, Block, Variable, Parameter, Operator.

As in Paddle 1.x, these are Python objects over the native program model
(`core.ProgramDesc`): a `Program` holds its desc, a `Block` is one block of
it, a `Variable` names a declaration in a block, and `Block.append_op`
appends through the desc, which completes the op from its definition,
infers its outputs' shapes and dtypes and records the user's call stack
in `op_callstack`.
"""
import contextlib

import numpy as np

from . import _proto_text
from . import core
from .reader_core import READER_OPS
from . import unique_name

VarType = core.VarDesc.VarType
_VARTYPE = core._VarTypeValue
_VAR_TYPES = core._BY_VALUE

# dtype names as numpy and Paddle 1.x spell them, and their VarType numbers.
_DTYPE_BY_NAME = {
    "bool": 0, "int16": 1, "int32": 2, "int64": 3, "float16": 4,
    "float32": 5, "float64": 6, "uint8": 20, "int8": 21, "bfloat16": 22,
    "complex64": 23, "complex128": 24,
    # 1.x aliases
    "int": 3, "float": 5, "double": 6, "fp32": 5, "fp64": 6, "fp16": 4,
}
_NAME_BY_DTYPE = {0: "bool", 1: "int16", 2: "int32", 3: "int64", 4: "float16",
                  5: "float32", 6: "float64", 20: "uint8", 21: "int8",
                  22: "uint16", 23: "complex64", 24: "complex128"}

_TENSOR_KINDS = (7, 8, 13)  # LOD_TENSOR, SELECTED_ROWS, LOD_TENSOR_ARRAY


def _dtype_number(dtype):
    """A dtype as its VarType number: a VarType, a name ('float32',
    'int'), a numpy type or dtype, or a Python type (int, float, bool)."""
    if isinstance(dtype, core._VarTypeValue):
        return dtype.value
    if isinstance(dtype, bool):
        raise TypeError("a dtype cannot be a bool")
    if isinstance(dtype, int):
        return dtype
    if isinstance(dtype, str):
        n = _DTYPE_BY_NAME.get(dtype)
        if n is None:
            raise TypeError("Data type %s is not supported" % dtype)
        return n
    if dtype is float:
        return 6
    if dtype is int:
        return 3
    if dtype is bool:
        return 0
    try:
        name = np.dtype(dtype).name
    except TypeError:
        raise TypeError("Data type %r is not supported" % (dtype,))
    n = _DTYPE_BY_NAME.get(name)
    if n is None:
        raise TypeError("Data type %s is not supported" % name)
    return n


def convert_np_dtype_to_dtype_(np_dtype):
    """1.x's conversion of a numpy dtype (or name) to a VarType."""
    return core._var_type_of(_dtype_number(np_dtype))


def convert_dtype(dtype):
    """A dtype as its name ('float32'), as 1.x's `data_feeder.convert_dtype`."""
    n = _dtype_number(dtype)
    name = _NAME_BY_DTYPE.get(n)
    if name is None:
        raise TypeError("Data type %r is not supported" % (dtype,))
    return name


def dtype_is_floating(dtype):
    return _dtype_number(dtype) in (4, 5, 6, 22)


EMPTY_VAR_NAME = core.kEmptyVarName()
TEMP_VAR_NAME = core.kTempVarName()
GRAD_VAR_SUFFIX = core.kGradVarSuffix()
ZERO_VAR_SUFFIX = core.kZeroVarSuffix()
CONTROL_DEP_VAR_PREFIX = core.kControlDepVarName()


def grad_var_name(var_name):
    """The name of `var_name`'s gradient, as backward names it (`x@GRAD`)."""
    return var_name + GRAD_VAR_SUFFIX


def require_version(min_version, max_version=None):
    """1.6's `fluid.require_version`: raises unless the installed version
    (`paddle.version`) is in [min_version, max_version] (versions of up to
    four numbers, missing ones 0; `max_version` None: no upper bound)."""
    import re
    import warnings
    from .. import version as fluid_version
    if not isinstance(min_version, str):
        raise TypeError(
            "The type of 'min_version' in require_version must be str, but received %s."
            % (type(min_version)))
    if not isinstance(max_version, (str, type(None))):
        raise TypeError(
            "The type of 'max_version' in require_version must be str or type(None), "
            "but received %s." % (type(max_version)))
    for arg, value in (("min_version", min_version), ("max_version", max_version)):
        if value is None:
            continue
        matched = re.match(r'\d+(\.\d+){0,3}', value)
        if matched is None or matched.group() != value:
            raise ValueError(
                "The value of '%s' in require_version must be in format '\\d+(\\.\\d+){0,3}', "
                "like '1.5.2.0', but received %s" % (arg, value))

    installed = [fluid_version.major, fluid_version.minor, fluid_version.patch, fluid_version.rc]
    zero = ['0', '0', '0', '0']

    def compare(a, b):
        for x, y in zip(a, b):
            if int(x) != int(y):
                return 1 if int(x) > int(y) else -1
        return 0

    if compare(installed, zero) == 0:
        # a develop build (version 0.0.0): 1.x warned and accepted it
        if max_version is not None:
            warnings.warn(
                "PaddlePaddle version in [%s, %s] required, but %s installed. "
                "Maybe you are using a develop version, "
                "please make sure the version is good with your code."
                % (min_version, max_version, fluid_version.full_version))
        else:
            warnings.warn(
                "PaddlePaddle version %s or higher is required, but %s installed, "
                "Maybe you are using a develop version, "
                "please make sure the version is good with your code."
                % (min_version, fluid_version.full_version))
        return

    def padded(version):
        parts = version.split('.')
        return parts + zero[len(parts):]

    if max_version is not None:
        if (compare(installed, padded(max_version)) > 0
                or compare(installed, padded(min_version)) < 0):
            raise Exception(
                "VersionError: PaddlePaddle version in [%s, %s] required, but %s installed."
                % (min_version, max_version, fluid_version.full_version))
    elif compare(installed, padded(min_version)) < 0:
        raise Exception(
            "VersionError: PaddlePaddle version %s or higher is required, but %s installed, "
            "please upgrade your PaddlePaddle to %s or other higher version."
            % (min_version, fluid_version.full_version, min_version))


def in_dygraph_mode():
    """fluidc builds static programs only (1.x's default mode)."""
    return False


_dygraph_tracer_ = None


def _cpu_num():
    """The number of CPU places ParallelExecutor and
    `DataFeeder.feed_parallel` split over: `CPU_NUM`. Unset, it is 1 and
    `CPU_NUM` is set to "1", with Paddle 1.5's note on stderr when the
    machine has more CPUs: 1.0-1.4 used every CPU, so their results
    depended on the machine (docs/choices.md)."""
    import os
    cpu_num = os.environ.get("CPU_NUM")
    if cpu_num is None:
        import multiprocessing
        import sys
        count = multiprocessing.cpu_count()
        if count > 1:
            sys.stderr.write(
                "!!! The CPU_NUM is not specified, you should set CPU_NUM in the environment "
                "variable list.\nCPU_NUM indicates that how many CPUPlace are used in the "
                "current task.\nAnd if this parameter are set as N (equal to the number of "
                "physical CPU core) the program may be faster.\n\nexport CPU_NUM={} # for "
                "example, set CPU_NUM as number of physical CPU core which is {}.\n\n!!! The "
                "default number of CPU_NUM=1.\n".format(count, count))
        os.environ["CPU_NUM"] = cpu_num = "1"
    n = int(cpu_num)
    if n < 1:
        raise ValueError("CPU_NUM=%s: the number of CPU places must be at least 1" % cpu_num)
    return n


def cpu_places(device_count=None):
    """1.5's `fluid.cpu_places`: `device_count` CPU places (default:
    `CPU_NUM`, see `_cpu_num`)."""
    if device_count is None:
        device_count = _cpu_num()
    return [core.CPUPlace() for _ in range(device_count)]


def _cuda_ids():
    import os
    gpus = os.getenv("FLAGS_selected_gpus")
    if gpus:
        return [int(s) for s in gpus.split(",")]
    return list(range(core.get_cuda_device_count()))


def cuda_places(device_ids=None):
    """1.5's `fluid.cuda_places`: CUDAPlaces of `device_ids` (default:
    `FLAGS_selected_gpus`, or every GPU). fluidc is a CPU-only build, on
    which 1.x failed its assertion."""
    assert core.is_compiled_with_cuda(), "Not compiled with CUDA"
    if device_ids is None:
        device_ids = _cuda_ids()
    elif not isinstance(device_ids, (list, tuple)):
        device_ids = [device_ids]
    return [core.CUDAPlace(i) for i in device_ids]


def cuda_pinned_places(device_count=None):
    """1.5's `fluid.cuda_pinned_places`: `device_count` CUDAPinnedPlaces
    (default: `CPU_NUM`). Like `cuda_places`, an assertion on fluidc's
    CPU-only build, as in 1.x's."""
    assert core.is_compiled_with_cuda(), "Not compiled with CUDA"
    if device_count is None:
        device_count = _cpu_num()
    return [core.CUDAPinnedPlace() for _ in range(device_count)]


def _current_expected_place():
    return core.CPUPlace()


def _check_redeclared(block, name, kind, shape, dtype, lod_level, persistable):
    """1.x's Variable.__init__ on a name the block already declares: the
    type, and the shape, dtype, LoD level and persistable flag given, must
    be the declared ones (else ValueError, 1.x's messages)."""
    def get(field):
        return block.program.desc.var_get(block.idx, name, field)
    old = get("type")
    if old != kind:
        raise ValueError("Variable {0} has been created before. The previous type is {1}; "
                         "the new type is {2}. They are not matched".format(
                             name, core._var_type_of(old), core._var_type_of(kind)))
    if shape is not None:
        old = tuple(get("shape") or ())
        if tuple(shape) != old:
            raise ValueError("Variable {0} has been created before. the previous shape is {1}; "
                             "the new shape is {2}. They are not matched.".format(
                                 name, old, tuple(shape)))
    if dtype is not None:
        old = get("dtype")
        if old is not None and old != dtype:
            raise ValueError("Variable {0} has been created before. The previous data type is "
                             "{1}; the new data type is {2}. They are not matched.".format(
                                 name, core._var_type_of(old), core._var_type_of(dtype)))
    if lod_level is not None:
        old = get("lod_level")
        if old is not None and old != lod_level:
            raise ValueError("Variable {0} has been created before. The previous lod_level is "
                             "{1}; the new lod_level is {2}. They are not matched".format(
                                 name, old, lod_level))
    if persistable is not None:
        old = bool(get("persistable"))
        if old != bool(persistable):
            raise ValueError("Variable {0} has been created before.The previous persistable is "
                             "{1}; the new persistable is {2}. They are not matched".format(
                                 name, old, persistable))


class Variable(object):
    """A variable of a block: a name and its declaration in the program.

    Its shape, dtype, LoD level and flags live in the program (read back
    on each access); attributes a layer sets in Python (`error_clip`,
    `is_data`, ...) live on the object, which its block keeps in `vars`.
    """

    def __init__(self, block, type=VarType.LOD_TENSOR, name=None, shape=None,
                 dtype=None, lod_level=None, capacity=None, persistable=None,
                 error_clip=None, stop_gradient=None, is_data=False,
                 need_check_feed=None, **kwargs):
        self.block = block
        if name is None:
            name = unique_name.generate("_generated_var")
        elif name.__class__ is not str:
            raise TypeError("a variable's name must be a str, not %s" % type_name(name))
        self.name = name
        # The common cases first, without a call: a VarType value.
        kind = 7 if type is None else (type.value if type.__class__ is _VARTYPE else int(type))
        if dtype is not None:
            dtype = dtype.value if dtype.__class__ is _VARTYPE else _dtype_number(dtype)
        if shape is not None:
            shape = [(-1 if d is None else int(d)) for d in shape]
        if block.program.desc.var_has(block.idx, name):
            _check_redeclared(block, name, kind, shape, dtype, lod_level, persistable)
        block.program.desc.var_create(
            block.idx, name, kind, dtype, shape, lod_level, persistable, stop_gradient,
            need_check_feed, kwargs.get("_is_parameter"), capacity)
        _edited()
        self.error_clip = error_clip
        self.is_data = is_data
        self.op = None
        block.vars[name] = self

    # The declaration, read from the program.
    def _get(self, field):
        return self.block.program.desc.var_get(self.block.idx, self.name, field)

    def _set(self, field, value):
        self.block.program.desc.var_set(self.block.idx, self.name, field, value)
        _edited()

    @property
    def shape(self):
        s = self._get("shape")
        return () if s is None else s

    @shape.setter
    def shape(self, value):
        self._set("shape", [int(d) for d in value])

    @property
    def dtype(self):
        d = self.block.program.desc.var_get(self.block.idx, self.name, "dtype")
        return None if d is None else _VAR_TYPES.get(d) or core._var_type_of(d)

    @property
    def type(self):
        return core._var_type_of(self._get("type"))

    @property
    def lod_level(self):
        return self._get("lod_level")

    @lod_level.setter
    def lod_level(self, value):
        self._set("lod_level", int(value))

    @property
    def persistable(self):
        return bool(self._get("persistable"))

    @persistable.setter
    def persistable(self, value):
        self._set("persistable", bool(value))

    @property
    def stop_gradient(self):
        return bool(self._get("stop_gradient"))

    @stop_gradient.setter
    def stop_gradient(self, value):
        self._set("stop_gradient", bool(value))

    @property
    def desc(self):
        """The variable's `core.VarDesc` (1.x libraries read and set its
        declaration through it: `var.desc.set_shape(...)`)."""
        return core.VarDesc(self.block.program.desc, self.block.idx, self.name)

    @property
    def program(self):
        return self.block.program

    def __str__(self):
        return self.to_string(True)

    __repr__ = __str__

    def to_string(self, throw_on_error, with_details=False):
        """1.x: the protobuf text of the variable's VarDesc; with details,
        then `error_clip: ...` and `stop_gradient: ...` lines, each value
        through `bytes()` as 1.x's `six.binary_type` (so under Python 3
        an unset error_clip raises TypeError, as it did in 1.x).
        `throw_on_error` raised for unset required fields, which fluidc's
        descs always set."""
        assert isinstance(throw_on_error, bool) and isinstance(with_details, bool)
        res_str = _proto_text.var_text(self.block.program.desc.var_proto_text(self.block.idx, self.name))
        if with_details:
            for attr_name in ("error_clip", "stop_gradient"):
                res_str += "%s: %s\n" % (attr_name, bytes(getattr(self, attr_name)))
        return res_str

    def _to_readable_code(self):
        """Paddle 1.7+'s one-line form (`var x : LOD_TENSOR.shape(...)`)."""
        return self.block.program.desc.var_line(self.block.idx, self.name)

    def __bool__(self):
        # 1.x's Variable had no __bool__, so every Variable was true, and
        # 2019 programs test optional inputs so (the transformer's `if
        # attn_bias:`). A bool Variable (a comparison, a While's
        # condition) under Python's if/while is the mistake SPEC 1.1 makes
        # an error (README, "Run mode").
        if self.block.program.desc.var_get(self.block.idx, self.name, "dtype") != 0:
            return True
        raise TypeError(
            "a Variable's value is known only when the program runs, so Python's "
            "if/while cannot test it; build the branch or loop into the program "
            "with fluid.layers.While, fluid.layers.cond or fluid.layers.Switch")

    __nonzero__ = __bool__

    def __hash__(self):
        return id(self)

    def __iter__(self):
        raise TypeError("'Variable' object is not iterable")

    def astype(self, dtype):
        from .layers import tensor
        return tensor.cast(self, dtype)

    def _set_error_clip(self, error_clip):
        """The error clip (`fluid.clip.ErrorClipByValue`) the backward
        applies to this variable's gradient."""
        self.error_clip = error_clip


def type_name(value):
    return type(value).__name__


class Parameter(Variable):
    """A trainable variable of the global block: persistable, with what
    the optimizer reads (trainable, learning rate, regularizer, clip)."""

    def __init__(self, block, shape, dtype, **kwargs):
        if shape is None:
            raise ValueError("The shape of Parameter should not be None")
        if dtype is None:
            raise ValueError("The dtype of Parameter should not be None")
        for each in shape:
            if each < 0:
                # 1.x's words (3.3.1 says "Each dimension of shape for
                # Parameter must be greater than 0").
                raise ValueError("Parameter shape should not be related with batch-size")
        self.trainable = kwargs.pop("trainable", True)
        self.optimize_attr = kwargs.pop("optimize_attr", {"learning_rate": 1.0})
        self.regularizer = kwargs.pop("regularizer", None)
        self.gradient_clip_attr = kwargs.pop("gradient_clip_attr", None)
        self.do_model_average = kwargs.pop("do_model_average", None)
        kwargs.pop("initializer", None)
        Variable.__init__(self, block, persistable=True, shape=shape, dtype=dtype,
                          stop_gradient=not self.trainable, _is_parameter=True, **kwargs)

    def to_string(self, throw_on_error, with_details=False):
        """1.x: the variable's text; with details, also its `trainable`,
        `optimize_attr`, `regularizer`, `gradient_clip_attr` and
        `do_model_average` lines (through `bytes()`, as 1.x)."""
        assert isinstance(throw_on_error, bool) and isinstance(with_details, bool)
        if not with_details:
            return Variable.to_string(self, throw_on_error, False)
        res_str = Variable.to_string(self, throw_on_error, True)
        for attr_name in ("trainable", "optimize_attr", "regularizer", "gradient_clip_attr",
                          "do_model_average"):
            res_str += "%s: %s\n" % (attr_name, bytes(getattr(self, attr_name)))
        return res_str


# The attributes Paddle 1.7+ gives every op, which 1.x's scripts never saw.
_NEW_OP_ATTRS = ("op_device", "with_quant_attr")


class Operator(object):
    """Op `idx` of a block, as `block.ops` lists them (a view by position:
    take `block.ops` again after changing the block)."""

    def __init__(self, block, idx):
        self.block = block
        self.idx = idx

    @property
    def desc(self):
        """The op's `core.OpDesc` (`op.desc.type()`, `op.desc.attr(name)`)."""
        return core._op_view(self.block.program.desc, self.block.idx, self.idx)

    @property
    def type(self):
        return self.block.program.desc.op_type(self.block.idx, self.idx)

    def _slots(self, outputs):
        return self.block.program.desc.op_slots(self.block.idx, self.idx, outputs)

    def input(self, name):
        slots = self._slots(False)
        if name not in slots:
            raise ValueError("Operator %s has no input %s" % (self.type, name))
        return slots[name]

    def output(self, name):
        slots = self._slots(True)
        if name not in slots:
            raise ValueError("Operator %s has no output %s" % (self.type, name))
        return slots[name]

    @property
    def input_names(self):
        return sorted(self._slots(False))

    @property
    def output_names(self):
        return sorted(self._slots(True))

    @property
    def input_arg_names(self):
        slots = self._slots(False)
        return [n for k in sorted(slots) for n in slots[k]]

    @property
    def output_arg_names(self):
        slots = self._slots(True)
        return [n for k in sorted(slots) for n in slots[k]]

    @property
    def attr_names(self):
        """The op's attributes, as 1.x listed them: the op's desc has
        Paddle 3's `op_device` and `with_quant_attr` too (what Paddle loads
        from a .pb), which 1.x's ops did not have."""
        return [a for a in self.block.program.desc.op_attr_names(self.block.idx, self.idx)
                if a not in _NEW_OP_ATTRS]

    def has_attr(self, name):
        return name in self.attr_names

    def attr(self, name):
        if not self.has_attr(name):
            raise ValueError("Operator %s has no attribute %s" % (self.type, name))
        return self.block.program.desc.op_attr(self.block.idx, self.idx, name)

    def attr_type(self, name):
        """1.x's: the attribute's `core.AttrType`."""
        if not self.has_attr(name):
            raise ValueError("Operator %s has no attribute %s" % (self.type, name))
        from . import core
        t = self.block.program.desc.op_attr_type(self.block.idx, self.idx, name)
        return core._ATTR_TYPES.get(t) or core._AttrTypeValue("UNKNOWN_%d" % t, t)

    def _block_attr_id(self, name):
        return self.attr(name)

    def infer_var_type(self, block_desc):
        """1.x's `OpDesc.infer_var_type`: fluidc infers the outputs' types
        when the op is appended (and when its inputs change), so this has
        nothing left to do."""

    def infer_shape(self, block_desc):
        """1.x's `OpDesc.infer_shape` (see `infer_var_type`)."""

    def _set_attr(self, name, value):
        self.block.program.desc.op_set_attr(self.block.idx, self.idx, name, value)
        _edited()

    _update_desc_attr = _set_attr

    def _rename_input(self, old, new):
        for slot, names in self._slots(False).items():
            if old in names:
                self.block.program.desc.op_set_slot(self.block.idx, self.idx, False, slot,
                                            [new if n == old else n for n in names])
                _edited()

    def _rename_output(self, old, new):
        for slot, names in self._slots(True).items():
            if old in names:
                self.block.program.desc.op_set_slot(self.block.idx, self.idx, True, slot,
                                            [new if n == old else n for n in names])
                _edited()

    def __str__(self):
        return self.to_string(True)

    __repr__ = __str__

    def to_string(self, throw_on_error):
        """1.x: the protobuf text of the op's OpDesc."""
        return _proto_text.op_text(self.block.program.desc.op_proto_text(self.block.idx, self.idx))

    def _to_readable_code(self, skip_op_callstack=True):
        """Paddle 1.7+'s one-line form (`{Out=[...]} = type(inputs=...)`)."""
        return self.block.program.desc.op_line(self.block.idx, self.idx)


class Block(object):
    """One block of a program: its variables (`vars`, in declaration order)
    and its ops (`ops`)."""

    def __init__(self, program, idx):
        self.program = program
        self.idx = idx
        # Variables in declaration order (a dict keeps it).
        self.vars = {}
        # What an op attribute holding this block becomes (`sub_block`).
        self._block_attr = core._fluidc.BlockAttr(idx)

    @property
    def desc(self):
        """1.x's `core.BlockDesc` of the block (`block.program.desc.append_op()`,
        `.var(name)`, `.find_var(name)` as 1.x's op tests build grad ops)."""
        return core.BlockDesc(self.program.desc, self.idx)

    @property
    def parent_idx(self):
        return self.program.desc.block_parent(self.idx)

    @property
    def forward_block_idx(self):
        return -1

    @property
    def ops(self):
        return [Operator(self, i) for i in range(self.program.desc.op_count(self.idx))]

    def __str__(self):
        return self.to_string(True)

    def to_string(self, throw_on_error, with_details=False):
        """1.x: the protobuf text of the BlockDesc; with details, 1.x's
        own layout of the block's variables (each with its details) and
        ops."""
        assert isinstance(throw_on_error, bool) and isinstance(with_details, bool)
        if not with_details:
            return _proto_text.block_text(self.program.desc.block_proto_text(self.idx))
        import re  # on first use: importing it costs start-up
        re_add_indent = re.compile(r"\n(.)")
        res_str = "blocks {\n  idx: %d\n  parent_idx: %d" % (self.idx, self.parent_idx)
        for var in list(self.vars.values()):
            res_str += "\n  vars {\n    %s  }" % re_add_indent.sub(
                r"\n    \1", var.to_string(throw_on_error, with_details))
        for op in self.ops:
            res_str += "\n  ops {\n    %s  }" % re_add_indent.sub(
                r"\n    \1", op.to_string(throw_on_error))
        res_str += "\n}"
        return res_str

    def _to_readable_code(self):
        """Paddle 1.7+'s readable form of the block (and those nested in it)."""
        return self.program.desc.pretty(self.idx)

    def var(self, name):
        if not isinstance(name, str):
            raise TypeError("var require string as parameter, but get %s instead." % type_name(name))
        v = self.vars.get(name)
        if v is None:
            raise ValueError("var %s not in this block" % name)
        return v

    def has_var(self, name):
        return name in self.vars

    def _find_var_recursive(self, name):
        b = self
        while True:
            v = b.vars.get(name)
            if v is not None:
                return v
            if b.idx == 0 or b.parent_idx < 0:
                return None
            b = self.program.block(b.parent_idx)

    def _var_recursive(self, name):
        v = self._find_var_recursive(name)
        if v is None:
            raise ValueError("Var %s is not found recursively" % name)
        return v

    def create_var(self, *args, **kwargs):
        """A new variable of this block; an `initializer` given initializes
        it here (its op in this block), as 1.x's `create_var` did."""
        var = Variable(self, *args, **kwargs)
        initializer = kwargs.get("initializer")
        if initializer is not None:
            initializer(var, self)
        return var

    def _clone_variable(self, var, force_persistable=True):
        """A variable of this block declared as `var` is (its name, shape,
        dtype, type and LoD level), persistable unless `force_persistable`
        is False, as 1.x's: another program (ExponentialMovingAverage's
        apply and restore programs) reads and writes the same scope
        variable."""
        if not isinstance(var, Variable):
            raise TypeError("_clone_variable needs a Variable, not %s" % type_name(var))
        persistable = True if force_persistable else var.persistable
        kind = int(var.type)
        if kind in (11, 17):  # STEP_SCOPES, RAW: no shape nor dtype
            return self.create_var(name=var.name, persistable=var.persistable, type=var.type)
        if kind == 8:  # SELECTED_ROWS
            return self.create_var(name=var.name, shape=var.shape, dtype=var.dtype,
                                   type=var.type, persistable=persistable, is_data=var.is_data)
        return self.create_var(name=var.name, shape=var.shape, dtype=var.dtype, type=var.type,
                               lod_level=var.lod_level, persistable=persistable,
                               is_data=var.is_data)

    def create_parameter(self, *args, **kwargs):
        """A parameter of the global block; its `initializer` writes it
        here unless an op of the global block already does (a parameter
        shared by name is initialized once), as 1.x's did. Other
        variables (`create_var(initializer=)`) get their op every time."""
        global_block = self.program.global_block()
        initializer = kwargs.get("initializer")
        param = Parameter(global_block, *args, **kwargs)
        if initializer is not None:
            init_ops = [op for op in global_block.ops if param.name in op.output_arg_names]
            if len(init_ops) > 1:
                raise RuntimeError("param %s is inited by multiple init ops %s"
                                   % (param.name, [op.type for op in init_ops]))
            if not init_ops:
                initializer(param, self)
        return param

    def all_parameters(self):
        return [v for v in self.vars.values() if isinstance(v, Parameter)]

    def iter_parameters(self):
        return iter(self.all_parameters())

    def append_op(self, type=None, inputs=None, outputs=None, attrs=None, **kwargs):
        return self._add_op(None, type, inputs, outputs, attrs)

    def _prepend_op(self, type=None, inputs=None, outputs=None, attrs=None, **kwargs):
        return self._add_op(0, type, inputs, outputs, attrs)

    def _insert_op(self, index, type=None, inputs=None, outputs=None, attrs=None, **kwargs):
        return self._add_op(index, type, inputs, outputs, attrs)

    def _add_op(self, at, type, inputs, outputs, attrs):
        """Appends (or inserts at `at`) through the desc: slots are
        Variables, names or lists of them; attributes take the op's
        declared types natively (a Block becomes its index, a VarType its
        number). The program's guards (op role, name scope) add theirs."""
        if type is None:
            # 1.x's message, its spelling included.
            raise ValueError("`type` to initilized an Operator can not be None.")
        if not core._fluidc.has_op(type) and type not in READER_OPS:
            raise ValueError("Operator \"%s\" has not been registered." % type)
        prog = self.program
        if prog._op_role is not None or prog._op_role_var or _name_scope_stack:
            attrs = dict(attrs) if attrs else {}
            if "op_role" not in attrs and prog._op_role is not None:
                attrs["op_role"] = prog._op_role
            if "op_role_var" not in attrs and prog._op_role_var:
                attrs["op_role_var"] = list(prog._op_role_var)
            if "op_namescope" not in attrs and _name_scope_stack:
                attrs["op_namescope"] = "/" + "/".join(_name_scope_stack) + "/"
        _declare_foreign_vars(self, inputs)
        _declare_foreign_vars(self, outputs)
        idx = prog.desc.op_append(self.idx, type, inputs, outputs, attrs, at)
        _edited()
        if type == "write_to_array":
            _array_takes_shape(self, inputs, outputs)
        op = Operator(self, idx)
        # 1.x's Operator set each output Variable's `op` (one given bare
        # or in a list).
        for slot in (outputs or {}).values():
            for arg in (slot if isinstance(slot, (list, tuple)) else [slot]):
                if isinstance(arg, Variable):
                    arg.op = op
        return op

    def _remove_op(self, index):
        self.program.desc.op_remove(self.idx, index, index + 1)
        _edited()

    def _remove_var(self, name):
        self.program.desc.var_remove(self.idx, name)
        _edited()
        self.vars.pop(name, None)

    def _rename_var(self, name, new_name):
        self.program.desc.rename_var(self.idx, name, new_name)
        _edited()
        v = self.vars.pop(name)
        v.name = new_name
        self.vars[new_name] = v
        return v

    def _sync_with_cpp(self):
        """Wraps the declarations native code added (backward's gradients)."""
        for name in self.program.desc.var_names(self.idx):
            if name not in self.vars:
                _wrap_existing(self, name)


def _declare_foreign_vars(block, slots):
    """Declares in `block`'s program (its global block) each Variable of
    `slots` that belongs to another program and that `block` cannot see,
    as that program declares it: 1.x's op desc only named its arguments
    and the executor found them in the scope, so an op of one program could
    read and write another's variables (DQN's sync program assigns the
    policy network's parameters to the target network's)."""
    prog = block.program
    for slot in (slots or {}).values():
        for arg in (slot if isinstance(slot, (list, tuple)) else [slot]):
            if isinstance(arg, Variable) and arg.block.program is not prog \
                    and block._find_var_recursive(arg.name) is None:
                prog.global_block()._clone_variable(arg, force_persistable=False)


def _one_var(block, slot):
    """The Variable a slot of `append_op` names (a Variable, a name, or a
    one-element list of either), or None."""
    if isinstance(slot, (list, tuple)):
        if len(slot) != 1:
            return None
        slot = slot[0]
    if isinstance(slot, str):
        return block._find_var_recursive(slot)
    return slot if isinstance(slot, Variable) else None


def _array_takes_shape(block, inputs, outputs):
    """1.x's compile-time InferShape of `write_to_array`: the array takes
    the shape of what was written (an `array_read` then declares it), also
    for a raw `block.append_op` (contrib.decoder writes arrays so)."""
    x = _one_var(block, (inputs or {}).get("X"))
    array = _one_var(block, (outputs or {}).get("Out"))
    if x is not None and array is not None and x.shape:
        array.shape = x.shape


def _wrap_existing(block, name):
    v = Variable.__new__(Variable)
    v.block = block
    v.name = name
    v.error_clip = None
    v.is_data = False
    v.op = None
    block.vars[name] = v
    return v


class Program(object):
    """A program: its blocks, built through `program_guard` and the layers."""

    def __init__(self, _desc=None):
        self.desc = _desc if _desc is not None else core.ProgramDesc()
        self.blocks = [Block(self, i) for i in range(self.desc.num_blocks())]
        self.current_block_idx = 0
        self._seed = 0
        self._op_role = None
        self._op_role_var = []
        # The startup program `program_guard` paired this one with, and
        # whether this is a startup program (build mode records a run of
        # any other program).
        self._startup = None
        self._is_startup = False
        self._is_test = False
        if _desc is not None:
            for b in self.blocks:
                b._sync_with_cpp()

    @contextlib.contextmanager
    def _optimized_guard(self, param_and_grads):
        """Ops appended inside are optimizer ops for `param_and_grads`
        (`op_role` Optimize, `op_role_var` their names), as 1.x's."""
        old = (self._op_role, self._op_role_var)
        self._op_role = 2  # OpRole.Optimize
        self._op_role_var = [v.name if isinstance(v, Variable) else v for v in param_and_grads]
        try:
            yield
        finally:
            self._op_role, self._op_role_var = old

    @contextlib.contextmanager
    def _lr_schedule_guard(self, is_with_opt=False):
        """Ops appended inside compute the learning rate (`op_role`
        LRSched, with Optimize too if `is_with_opt`), as 1.x's."""
        old = (self._op_role, self._op_role_var)
        self._op_role = 16 | 2 if is_with_opt else 16  # OpRole.LRSched (| Optimize)
        self._op_role_var = []
        try:
            yield
        finally:
            self._op_role, self._op_role_var = old

    @property
    def random_seed(self):
        return self._seed

    @random_seed.setter
    def random_seed(self, seed):
        if not isinstance(seed, int):
            raise ValueError("Program.random_seed's input seed must be an integer, but received %s."
                             % type_name(seed))
        self._seed = seed

    @property
    def num_blocks(self):
        return self.desc.num_blocks()

    def global_block(self):
        return self.blocks[0]

    def block(self, index):
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self.blocks):
            raise IndexError("the program has %d blocks; block(%r) is not one of them"
                             % (len(self.blocks), index))
        return self.blocks[index]

    def current_block(self):
        return self.blocks[self.current_block_idx]

    def _create_block(self, parent_idx=None):
        parent = self.current_block() if parent_idx is None else self.block(parent_idx)
        idx = self.desc.append_block(parent.idx)
        self.blocks.append(Block(self, idx))
        self.current_block_idx = idx
        return self.current_block()

    def _rollback(self):
        self.current_block_idx = self.current_block().parent_idx

    def list_vars(self):
        for b in self.blocks:
            for v in list(b.vars.values()):
                yield v

    def all_parameters(self):
        return self.global_block().all_parameters()

    def _sync_with_cpp(self):
        for i in range(len(self.blocks), self.desc.num_blocks()):
            self.blocks.append(Block(self, i))
        for b in self.blocks:
            b._sync_with_cpp()

    def clone(self, for_test=False):
        """A copy. For a test (1.x's `prune_backward` and
        `_inference_optimize`): backward and optimizer ops and gradient
        variables are left out, and every op with `is_test` gets it set."""
        desc = self.desc.clone_for_test() if for_test else self.desc.clone()
        p = Program(desc)
        p._seed = self._seed
        p._startup = self._startup
        p._is_test = for_test
        for b, nb in zip(self.blocks, p.blocks):
            for name, v in b.vars.items():
                if name not in nb.vars:
                    continue
                if isinstance(v, Parameter):
                    w = Parameter.__new__(Parameter)
                    w.__dict__.update(v.__dict__)
                    w.block = nb
                    nb.vars[name] = w
                else:
                    # 1.x's clone remade the other variables from the desc:
                    # an error clip is not copied.
                    nb.vars[name].__dict__.update(
                        dict((k, x) for k, x in v.__dict__.items()
                             if k not in ("block", "error_clip")))
                    nb.vars[name].block = nb
        return p

    def _prune(self, targets):
        """1.x's `Program.prune` (`_prune` from 1.2): a new program with
        only the ops `targets` need. A target Operator stands for itself; a
        target Variable (or, from 1.5, a name) for the first op of the
        global block that writes it. Those ops stay, and, walking back, each
        op that writes something a kept op reads (inside a kept op's block,
        what the op reads or writes); every other op, every block no kept
        op runs and every variable no kept op names go. This program is
        left as it is."""
        if not isinstance(targets, list):
            targets = [targets]
        target_ops = []
        for t in targets:
            if isinstance(t, Operator):
                target_ops.append([t.block.idx, t.idx])
                continue
            if isinstance(t, Variable):
                name = t.name
            elif isinstance(t, str):
                name = t
            else:
                raise ValueError("All targets of prune() can only be Variable or Operator.")
            block = self.global_block()
            for op in block.ops:
                if name in op.output_arg_names:
                    target_ops.append([0, op.idx])
                    break
            else:
                raise ValueError(
                    "The target variable must have an associated operator that generates it.")
        p = Program(self.desc.prune(target_ops))
        p._seed = self._seed
        p._startup = self._startup
        p._copy_param_info_from(self)
        for name, v in p.global_block().vars.items():
            old = self.global_block().vars.get(name)
            if old is not None and not isinstance(v, Parameter):
                v.is_data = old.is_data
        return p

    prune = _prune

    def _inference_optimize(self, prune_read_op=True):
        """The program for inference; with `prune_read_op`, as 1.x, without
        the global block's ops up to its first `read` op (the reader ops
        and the read) nor its READER variables."""
        desc = self.desc.clone_for_test()
        if prune_read_op:
            n = desc.op_count(0)
            read_idx = 0
            while read_idx < n and desc.op_type(0, read_idx) != "read":
                read_idx += 1
            if read_idx < n:
                desc.op_remove(0, 0, read_idx + 1)
            for name in desc.var_names(0):
                if desc.var_get(0, name, "type") == int(VarType.READER):
                    desc.var_remove(0, name)
        return Program(desc)

    def __str__(self):
        """1.x: `to_string(True)`, the protobuf text of the ProgramDesc
        (`blocks {\n  idx: 0\n  parent_idx: -1\n  vars {...`)."""
        return self.to_string(True)

    def to_string(self, throw_on_error, with_details=False):
        """1.x: the protobuf text of the ProgramDesc; with details, each
        block's `to_string(throw_on_error, True)`. `throw_on_error` raised
        for unset required fields, which fluidc's descs always set."""
        assert isinstance(throw_on_error, bool) and isinstance(with_details, bool)
        if with_details:
            return "".join(b.to_string(throw_on_error, with_details) for b in self.blocks)
        return _proto_text.program_text(self.desc.program_proto_text())

    def _to_readable_code(self):
        """Paddle 1.7+'s (and 3.3.1's `print(program)`) readable form."""
        return self.desc.program_text()

    @staticmethod
    def parse_from_string(binary_str):
        return Program(core.ProgramDesc.parse_from_string(binary_str))

    def serialize_to_string(self):
        return self.desc.serialize_to_string()

    def _copy_param_info_from(self, other):
        for name, v in other.global_block().vars.items():
            if isinstance(v, Parameter) and name in self.global_block().vars:
                mine = self.global_block().vars[name]
                w = Parameter.__new__(Parameter)
                w.__dict__.update(v.__dict__)
                w.block = mine.block
                self.global_block().vars[name] = w


# The default programs (program_guard switches them).
_main_program_ = Program()
_startup_program_ = Program()
_startup_program_._is_startup = True
_main_program_._startup = _startup_program_


def default_main_program():
    return _main_program_


def default_startup_program():
    return _startup_program_


def switch_main_program(program):
    global _main_program_
    prev = _main_program_
    _main_program_ = program
    return prev


def switch_startup_program(program):
    global _startup_program_
    prev = _startup_program_
    _startup_program_ = program
    return prev


@contextlib.contextmanager
def program_guard(main_program, startup_program=None):
    """Layers inside append to `main_program` (and their initializers to
    `startup_program`)."""
    if not isinstance(main_program, Program):
        raise TypeError("main_program should be Program, but received %s" % type_name(main_program))
    if startup_program is not None and not isinstance(startup_program, Program):
        raise TypeError("startup_program should be Program, but received %s"
                        % type_name(startup_program))
    main_program = main_program
    if startup_program is not None:
        startup_program._is_startup = True
        main_program._startup = startup_program
    elif main_program._startup is None:
        main_program._startup = _startup_program_
    main_program = switch_main_program(main_program)
    if startup_program is not None:
        startup_program = switch_startup_program(startup_program)
    try:
        yield
    finally:
        switch_main_program(main_program)
        if startup_program is not None:
            switch_startup_program(startup_program)


_name_scope_stack = []


@contextlib.contextmanager
def name_scope(prefix=None):
    """Ops appended inside get `op_namescope` `/prefix/` (nested scopes
    join; a prefix used again gets `_1`, `_2`, as 1.x named them)."""
    if prefix is None:
        prefix = ""
    key = "/".join(_name_scope_stack + [prefix])
    n = _name_scope_counts.get(key, 0)
    _name_scope_counts[key] = n + 1
    _name_scope_stack.append(prefix if n == 0 else "%s_%d" % (prefix, n))
    try:
        yield
    finally:
        _name_scope_stack.pop()


_name_scope_counts = {}


def _host_programs():
    """The default main and startup programs' descs (what the command
    line writes for a script that runs none), without reader ops (which
    the runtime does not run: a `read` op's outputs are fed)."""
    from . import reader_core
    return (reader_core.runnable_desc(_main_program_),
            reader_core.runnable_desc(_startup_program_))


# How many edits this package has made to programs: a cache of something
# made from a program (the executor's reader-free copy, `reader_core.plan`)
# is good while this has not changed.
_edits = 0


def _edited():
    global _edits
    _edits += 1


class _ProtoSlot(object):
    def __init__(self, name, duplicable, dispensable, intermediate):
        self.name = name
        self.duplicable = duplicable
        self.dispensable = dispensable
        self.intermediate = intermediate


class _ProtoAttr(object):
    def __init__(self, name, generated):
        self.name = name
        self.generated = generated


class _OpProto(object):
    """An op's declaration as 1.x's `framework_pb2.OpProto` gave it to
    Python: its type, its input and output slots (`name`, `duplicable`,
    `dispensable`) and its attributes (`name`, `generated`)."""

    def __init__(self, op_type):
        self.type = op_type
        self.inputs = [_ProtoSlot(*s) for s in core._fluidc.op_slot_names(op_type, False)]
        self.outputs = [_ProtoSlot(*s) for s in core._fluidc.op_slot_names(op_type, True)]
        generated = OpProtoHolder.generated_op_attr_names()
        self.attrs = [_ProtoAttr(a, a in generated) for a in core._fluidc.op_attr_names(op_type)]


class OpProtoHolder(object):
    """1.x's holder of every op's proto (`OpProtoHolder.instance()
    .get_op_proto(type)`), which op tests read their op's slots from."""

    @classmethod
    def instance(cls):
        if not hasattr(cls, "_instance"):
            cls._instance = cls()
        return cls._instance

    def __init__(self):
        assert not hasattr(self.__class__, "_instance"), \
            "Please use `instance()` to get OpProtoHolder object!"
        self.op_proto_map = {}

    def get_op_proto(self, type):
        proto = self.op_proto_map.get(type)
        if proto is None:
            if not core._fluidc.has_op(type):
                raise ValueError("Operator \"%s\" has not been registered." % type)
            proto = self.op_proto_map[type] = _OpProto(type)
        return proto

    @staticmethod
    def generated_op_attr_names():
        return {"op_role", "op_role_var", "op_namescope"}
