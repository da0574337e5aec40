"""paddle.fluid.core: what 1.x's pybind module gave scripts.

The program model, the runtime sessions and the op definitions are the
native module `_fluidc`; this module gives them 1.x's names
(`core.VarDesc.VarType.FP32`, `core.CPUPlace()`, `core.LoDTensor()`,
`core.Scope()`, `core.EnforceNotMet`).
"""
import _fluidc
from _fluidc import ProgramDesc, EnforceNotMet

HOST = _fluidc.HOST


class _VarTypeValue(object):
    """One value of `VarDesc.VarType`, as pybind11's enum gave it: it prints
    as `VarType.FP32`, converts with int(), and compares with its peers (and
    with ints, as the values are)."""

    __slots__ = ("name", "value")

    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __int__(self):
        return self.value

    def __index__(self):
        return self.value

    def __hash__(self):
        return hash(self.value)

    def __eq__(self, other):
        if isinstance(other, _VarTypeValue):
            return self.value == other.value
        if isinstance(other, int) and not isinstance(other, bool):
            return self.value == other
        return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __repr__(self):
        return "VarType." + self.name

    __str__ = __repr__

    def __reduce__(self):
        return (_var_type_of, (self.value,))


_TYPES = [
    ("BOOL", 0), ("INT16", 1), ("INT32", 2), ("INT64", 3), ("FP16", 4),
    ("FP32", 5), ("FP64", 6), ("LOD_TENSOR", 7), ("SELECTED_ROWS", 8),
    ("FEED_MINIBATCH", 9), ("FETCH_LIST", 10), ("STEP_SCOPES", 11),
    ("LOD_RANK_TABLE", 12), ("LOD_TENSOR_ARRAY", 13), ("PLACE_LIST", 14),
    ("READER", 15), ("CHANNEL", 16), ("RAW", 17), ("TUPLE", 18),
    ("SIZE_T", 19), ("UINT8", 20), ("INT8", 21), ("BF16", 22),
    ("COMPLEX64", 23), ("COMPLEX128", 24),
]


class _VarTypes(object):
    """`core.VarDesc.VarType`."""


_BY_VALUE = {}
for _name, _value in _TYPES:
    _v = _VarTypeValue(_name, _value)
    setattr(_VarTypes, _name, _v)
    _BY_VALUE.setdefault(_value, _v)
# Paddle 3 names of the same values.
_VarTypes.DENSE_TENSOR = _VarTypes.LOD_TENSOR
_VarTypes.DENSE_TENSOR_ARRAY = _VarTypes.LOD_TENSOR_ARRAY


def _var_type_of(value):
    """The `VarType` of a number."""
    v = _BY_VALUE.get(int(value))
    if v is None:
        v = _VarTypeValue("UNKNOWN_%d" % value, int(value))
    return v


class VarDesc(object):
    VarType = _VarTypes


class CPUPlace(object):
    def __repr__(self):
        return "Place(cpu)"

    __str__ = __repr__

    def __eq__(self, other):
        return isinstance(other, CPUPlace)

    def __hash__(self):
        return 0


class CUDAPlace(object):
    """A GPU place: fluidc runs on the CPU, so programs given one run there."""

    def __init__(self, device_id=0):
        self.device_id = device_id

    def __repr__(self):
        return "Place(gpu:%d)" % self.device_id

    __str__ = __repr__


class CUDAPinnedPlace(object):
    def __repr__(self):
        return "Place(gpu_pinned)"


def is_compiled_with_cuda():
    """fluidc runs on the CPU only: tests that need a GPU skip themselves."""
    return False


def is_compiled_with_mkldnn():
    return False


def get_cuda_device_count():
    return 0


def op_support_gpu(op_type):
    return False


def has_op(op_type):
    return _fluidc.has_op(op_type)


# 1.x's names of the special variables (framework/operator.h, ir/node.h).
def kEmptyVarName():
    return "@EMPTY@"


def kTempVarName():
    return "@TEMP@"


def kGradVarSuffix():
    return "@GRAD"


def kZeroVarSuffix():
    return "@ZERO"


def kControlDepVarName():
    return "__control_var"


class _OpRole(object):
    """1.x's `OpRole`: what an op's `op_role` attribute says it does."""
    Forward = 0
    Backward = 1
    Optimize = 2
    RPC = 4
    Dist = 8
    LRSched = 16
    Loss = 256


class op_proto_and_checker_maker(object):
    """1.x's names of the attributes every op has."""
    OpRole = _OpRole

    @staticmethod
    def kOpRoleAttrName():
        return "op_role"

    @staticmethod
    def kOpRoleVarAttrName():
        return "op_role_var"

    @staticmethod
    def kOpNameScopeAttrName():
        return "op_namescope"

    @staticmethod
    def kOpCreationCallstackAttrName():
        return "op_callstack"


from .lod_tensor_core import (  # noqa: E402
    LoDRankTable, LoDTensor, LoDTensorArray, Scope, SelectedRows, get_fetch_variable,
    set_feed_variable)

from .reader_core import (  # noqa: E402,F401
    EOFException, LoDTensorBlockingQueue, init_lod_tensor_blocking_queue)

Tensor = LoDTensor
DenseTensor = LoDTensor
