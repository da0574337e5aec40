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


def _name(name):
    """A variable name as pybind11's `std::string` caster takes it: a str
    or bytes (1.x's tests pass `six.b(name)`)."""
    if isinstance(name, bytes):
        return name.decode("utf-8")
    if not isinstance(name, str):
        raise TypeError("incompatible function arguments: a variable name (str or bytes), "
                        "not %s" % type(name).__name__)
    return name


def _byte_name(method, name):
    """A variable name a BlockDesc method takes: 1.x's binding declared
    `pybind11::bytes` (its tests pass `six.b(name)`); a str does not
    convert."""
    if not isinstance(name, bytes):
        raise TypeError("%s(): incompatible function arguments. The following argument "
                        "types are supported:\n    1. (self: paddle.fluid.core.BlockDesc, "
                        "arg0: bytes)\n\nInvoked with: %r" % (method, name))
    return name.decode("utf-8")


def _names(names):
    if isinstance(names, (str, bytes)) or not hasattr(names, "__iter__"):
        raise TypeError("incompatible function arguments: a list of variable names, not %s"
                        % type(names).__name__)
    return [_name(n) for n in names]


class _AttrTypeValue(_VarTypeValue):
    __slots__ = ()

    def __repr__(self):
        return "AttrType." + self.name

    __str__ = __repr__


class AttrType(object):
    """1.x's `core.AttrType`: the type of an op's attribute."""


_ATTR_TYPES = {}
for _value, _name_ in enumerate(
        ("INT", "FLOAT", "STRING", "INTS", "FLOATS", "STRINGS", "BOOLEAN", "BOOLEANS",
         "BLOCK", "LONG", "BLOCKS", "LONGS")):
    _ATTR_TYPES[_value] = _AttrTypeValue(_name_, _value)
    setattr(AttrType, _name_, _ATTR_TYPES[_value])


class VarDesc(object):
    """1.x's `core.VarDesc`: the declaration of variable `name` in one
    block of a ProgramDesc (`BlockDesc.var(name)`), and `VarDesc.VarType`."""
    VarType = _VarTypes

    def __init__(self, desc, block, name):
        self._desc = desc
        self._block = block
        self._name = name

    def _get(self, field):
        return self._desc.var_get(self._block, self._name, field)

    def name(self):
        return self._name

    def set_name(self, name):
        name = _name(name)
        self._desc.rename_var(self._block, self._name, name)
        self._name = name

    def type(self):
        return _var_type_of(self._get("type"))

    def set_type(self, var_type):
        """Changes the kind of variable (a LoDTensor's dtype, shape and
        LoD level stay)."""
        if int(self._get("type")) == int(var_type):
            return
        keep = dict(dtype=self._get("dtype"), shape=self._get("shape"),
                    lod_level=self._get("lod_level"))
        persistable = self._get("persistable")
        self._desc.var_remove(self._block, self._name)
        self._desc.var_create(self._block, self._name, int(var_type), **keep)
        if persistable is not None:
            self._desc.var_set(self._block, self._name, "persistable", persistable)

    def shape(self):
        dims = self._get("shape")
        return [] if dims is None else list(dims)

    def set_shape(self, dims):
        self._desc.var_set(self._block, self._name, "shape", [int(d) for d in dims])

    def dtype(self):
        d = self._get("dtype")
        return None if d is None else _var_type_of(d)

    def set_dtype(self, dtype):
        self._desc.var_set(self._block, self._name, "dtype", int(dtype))

    def lod_level(self):
        return self._get("lod_level")

    def set_lod_level(self, lod_level):
        self._desc.var_set(self._block, self._name, "lod_level", int(lod_level))

    def shapes(self):
        """A READER's tensors' dims."""
        return self._get("shapes")

    def set_shapes(self, shapes):
        self._desc.var_set(self._block, self._name, "shapes", [list(s) for s in shapes])

    def dtypes(self):
        return [_var_type_of(d) for d in self._get("dtypes")]

    def set_dtypes(self, dtypes):
        self._desc.var_set(self._block, self._name, "dtypes", [int(d) for d in dtypes])

    def lod_levels(self):
        return self._get("lod_levels")

    def set_lod_levels(self, lod_levels):
        self._desc.var_set(self._block, self._name, "lod_levels", [int(l) for l in lod_levels])

    def persistable(self):
        return bool(self._get("persistable"))

    def set_persistable(self, persistable):
        self._desc.var_set(self._block, self._name, "persistable", bool(persistable))

    def need_check_feed(self):
        return bool(self._get("need_check_feed"))

    def set_need_check_feed(self, need):
        self._desc.var_set(self._block, self._name, "need_check_feed", bool(need))

    def __eq__(self, other):
        return (isinstance(other, VarDesc) and self._desc.same(other._desc)
                and (self._block, self._name) == (other._block, other._name))

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((self._block, self._name))


# The OpDesc objects handed out for each block of a ProgramDesc, by the
# ops' positions: an op keeps its OpDesc while BlockDesc methods insert
# and remove others (1.x's OpDescs were the ops themselves).
_OP_VIEWS = {}


def _op_views(desc, block):
    entry = _OP_VIEWS.get(id(desc))
    if entry is None or entry[0] is not desc:
        entry = _OP_VIEWS[id(desc)] = (desc, {})
    views = entry[1].get(block)
    if views is None or len(views) != desc.op_count(block):
        # Ops added or removed another way: the positions are all we know.
        views = entry[1][block] = [None] * desc.op_count(block)
    return views


def _op_view(desc, block, index):
    views = _op_views(desc, block)
    if views[index] is None:
        views[index] = OpDesc(desc, block, index)
    return views[index]


def _insert_op(desc, block, at):
    views = _op_views(desc, block)
    at = len(views) if at is None else min(at, len(views))
    desc.op_append_empty(block, at)
    views.insert(at, None)
    for i in range(at + 1, len(views)):
        if views[i] is not None:
            views[i]._index = i
    return _op_view(desc, block, at)


def _remove_ops(desc, block, start, end):
    views = _op_views(desc, block)
    desc.op_remove(block, start, end)
    del views[start:end]
    for i in range(start, len(views)):
        if views[i] is not None:
            views[i]._index = i


class OpDesc(object):
    """1.x's `core.OpDesc`: an op of one block of a ProgramDesc
    (`BlockDesc.append_op()`, `BlockDesc.op(i)`)."""

    def __init__(self, desc, block, index):
        self._desc = desc
        self._block = block
        self._index = index

    def type(self):
        return self._desc.op_type(self._block, self._index)

    def set_type(self, op_type):
        self._desc.op_set_type(self._block, self._index, _name(op_type))

    def _slots(self, outputs):
        return self._desc.op_slots(self._block, self._index, outputs)

    def input(self, name):
        return list(self._slots(False).get(_name(name), []))

    def output(self, name):
        return list(self._slots(True).get(_name(name), []))

    def input_names(self):
        return list(self._slots(False))

    def output_names(self):
        return list(self._slots(True))

    def input_arg_names(self):
        return [a for args in self._slots(False).values() for a in args]

    def output_arg_names(self):
        return [a for args in self._slots(True).values() for a in args]

    def set_input(self, name, args):
        self._desc.op_set_slot(self._block, self._index, False, _name(name), _names(args))

    def set_output(self, name, args):
        self._desc.op_set_slot(self._block, self._index, True, _name(name), _names(args))

    def _rename(self, outputs, old, new):
        old, new = _name(old), _name(new)
        for slot, args in self._slots(outputs).items():
            if old in args:
                self._desc.op_set_slot(self._block, self._index, outputs, slot,
                                       [new if a == old else a for a in args])

    def _rename_input(self, old, new):
        self._rename(False, old, new)

    def _rename_output(self, old, new):
        self._rename(True, old, new)

    def attr_names(self):
        return list(self._desc.op_attr_names(self._block, self._index))

    def has_attr(self, name):
        return name in self.attr_names()

    def attr(self, name):
        if name not in self.attr_names():
            raise EnforceNotMet("Attribute %s is not found" % name)
        return self._desc.op_attr(self._block, self._index, name)

    def attr_type(self, name):
        t = self._desc.op_attr_type(self._block, self._index, name)
        if t is None:
            raise EnforceNotMet("Attribute %s is not found" % name)
        return _ATTR_TYPES.get(t) or _AttrTypeValue("UNKNOWN_%d" % t, t)

    def _set_attr(self, name, value):
        self._desc.op_set_attr(self._block, self._index, name, value)

    set_attr = _set_attr  # 1.0's name

    def set_block_attr(self, name, block):
        self._desc.op_set_attr(self._block, self._index, name, _fluidc.BlockAttr(block.id))

    def _block_attr_id(self, name):
        return self.attr(name)

    def check_attrs(self):
        self._desc.op_check_attrs(self._block, self._index)

    def copy_from(self, other):
        """Makes this op a copy of `other` (type, slots and attributes)."""
        where = _op_location(other)
        if where is None:
            raise TypeError("copy_from(): incompatible function arguments: an OpDesc, "
                            "not %s" % type(other).__name__)
        self._desc.op_copy_from(self._block, self._index, *where)

    def _infer(self, what, block):
        """Runs native inference `what` of this op over `block`'s variables;
        an op of another program (`get_grad_op_desc`'s) is inferred through a
        copy appended to `block` for the while, as 1.x's C++ took any block."""
        if not isinstance(block, BlockDesc):
            raise TypeError("%s(): incompatible function arguments: a BlockDesc, not %s"
                            % (what, type(block).__name__))
        if block._desc.same(self._desc) and block.id == self._block:
            getattr(self._desc, "op_" + what)(self._block, self._index)
            return
        at = block._desc.op_append_empty(block.id)
        try:
            block._desc.op_copy_from(block.id, at, self._desc, self._block, self._index)
            getattr(block._desc, "op_" + what)(block.id, at)
        finally:
            _remove_ops(block._desc, block.id, at, at + 1)

    def infer_shape(self, block):
        """1.x's InferShape: the outputs' dims and dtypes."""
        self._infer("infer_shape", block)

    def infer_var_type(self, block):
        """1.x's InferVarType: the outputs' dtypes (and sparse kinds)."""
        self._infer("infer_var_type", block)

    def block(self):
        return BlockDesc(self._desc, self._block)


def _op_location(op):
    """(program desc, block, index) of an op desc: a `core.OpDesc`, or the
    fluid package's `Operator`, which is its own desc; None for others."""
    if isinstance(op, OpDesc):
        return op._desc, op._block, op._index
    block, idx = getattr(op, "block", None), getattr(op, "idx", None)
    if isinstance(idx, int) and hasattr(block, "idx") and hasattr(block, "desc"):
        return block.program.desc, block.idx, idx
    return None


def get_grad_op_desc(op_desc, no_grad_set, grad_sub_block_list):
    """1.x's `core.get_grad_op_desc`: the grad ops of `op_desc` (ops of
    a program of their own, to `copy_from` into a block) and the
    `{input gradient: forward variable}` of what they write. Gradients
    named in `no_grad_set` are not bound; ops with a sub-block get theirs
    from `append_backward`."""
    where = _op_location(op_desc)
    if where is None:
        raise TypeError("get_grad_op_desc(): incompatible function arguments: an OpDesc, "
                        "not %s" % type(op_desc).__name__)
    if grad_sub_block_list:
        raise EnforceNotMet("get_grad_op_desc of an op with a sub-block (%s): use "
                            "append_backward" % op_desc.type())
    desc, block, index = where
    desc, grad_to_var = desc.op_grad_descs(block, index, [_name(n) for n in no_grad_set])
    ops = [OpDesc(desc, 0, i) for i in range(desc.op_count(0))]
    return ops, grad_to_var


class BlockDesc(object):
    """1.x's `core.BlockDesc`: block `id` of a ProgramDesc
    (`ProgramDesc.block(i)`, `ProgramDesc.append_block(parent)`)."""

    def __init__(self, desc, idx):
        self._desc = desc
        self.id = idx

    @property
    def parent(self):
        return self._desc.block_parent(self.id)

    def var(self, name):
        """The block's variable `name`, declared (a LoDTensor) if the
        block has none."""
        name = _byte_name("var", name)
        if not self._desc.var_has(self.id, name):
            self._desc.var_create(self.id, name, int(_VarTypes.LOD_TENSOR))
        return VarDesc(self._desc, self.id, name)

    def has_var(self, name):
        return self._desc.var_has(self.id, _byte_name("has_var", name))

    def has_var_recursive(self, name):
        return self._desc.var_find(self.id, _byte_name("has_var_recursive", name)) >= 0

    def find_var(self, name):
        name = _byte_name("find_var", name)
        if not self._desc.var_has(self.id, name):
            return None
        return VarDesc(self._desc, self.id, name)

    def find_var_recursive(self, name):
        name = _byte_name("find_var_recursive", name)
        b = self._desc.var_find(self.id, name)
        return None if b < 0 else VarDesc(self._desc, b, name)

    def _remove_var(self, name):
        self._desc.var_remove(self.id, _byte_name("_remove_var", name))

    def _rename_var(self, old, new):
        self._desc.rename_var(self.id, _byte_name("_rename_var", old), _name(new))

    def all_vars(self):
        return [VarDesc(self._desc, self.id, n) for n in self._desc.var_names(self.id)]

    def append_op(self):
        return _insert_op(self._desc, self.id, None)

    def _prepend_op(self):
        return _insert_op(self._desc, self.id, 0)

    def _insert_op(self, index):
        return _insert_op(self._desc, self.id, int(index))

    def _remove_op(self, start, end):
        _remove_ops(self._desc, self.id, int(start), int(end))

    def op_size(self):
        return self._desc.op_count(self.id)

    def op(self, index):
        index = int(index)
        if not 0 <= index < self.op_size():
            raise EnforceNotMet("block %d has no op %d" % (self.id, index))
        return _op_view(self._desc, self.id, index)

    def get_forward_block_idx(self):
        return self._desc.forward_block(self.id)

    def _set_forward_block_idx(self, idx):
        self._desc.set_forward_block(self.id, int(idx))

    def __eq__(self, other):
        return isinstance(other, BlockDesc) and self._desc.same(other._desc) and self.id == other.id

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self.id)


def _block(self, index):
    """1.x's `ProgramDesc.block(i)`."""
    index = int(index)
    if not 0 <= index < self.num_blocks():
        raise EnforceNotMet("the program has no block %d" % index)
    return BlockDesc(self, index)


_append_block_index = ProgramDesc.append_block


def _append_block(self, parent):
    """1.x's `ProgramDesc.append_block(parent)`: a new block whose parent
    is the BlockDesc `parent` (fluid's Program passes the index)."""
    if isinstance(parent, BlockDesc):
        return BlockDesc(self, _append_block_index(self, parent.id))
    return _append_block_index(self, parent)


# The desc-level API 1.x's pybind gave ProgramDesc (protobuf.cc), over
# the native program model.
ProgramDesc.block = _block
ProgramDesc.append_block = _append_block


class CPUPlace(object):
    def __repr__(self):
        return "Place(cpu)"

    def _type(self):
        """1.4-1.5's place kind: its index in `Place`'s variant (CUDAPlace 0,
        CPUPlace 1, CUDAPinnedPlace 2)."""
        return 1

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

    def _type(self):
        return 0

    __str__ = __repr__


class CUDAPinnedPlace(object):
    def __repr__(self):
        return "Place(gpu_pinned)"

    def _type(self):
        return 2


def _set_eager_deletion_mode(threshold_gb, fraction, fast_mode):
    """1.4-1.5's switch for freeing variables as soon as no op reads them
    (a memory setting, not a result): fluidc's runtime manages its memory
    itself, so the setting changes nothing; the arguments are checked."""
    for name, value in (("threshold_gb", threshold_gb), ("fraction", fraction)):
        if not isinstance(value, (int, float)):
            raise TypeError("_set_eager_deletion_mode(): %s must be a number, not %s"
                            % (name, type(value).__name__))


class Place(object):
    """1.x's `core.Place`, what a tensor's `_place()` gives: one of the
    places above, the CPU's unless `set_place` makes it another."""

    def __init__(self):
        self._p = CPUPlace()

    def set_place(self, place):
        self._p = place._p if isinstance(place, Place) else place

    def is_cpu_place(self):
        return isinstance(self._p, CPUPlace)

    def _type(self):
        return self._p._type()

    def is_gpu_place(self):
        return isinstance(self._p, CUDAPlace)

    def is_cuda_pinned_place(self):
        return isinstance(self._p, CUDAPinnedPlace)

    def gpu_device_id(self):
        if not self.is_gpu_place():
            raise TypeError("gpu_device_id() of %r, which is not a GPU place" % (self._p,))
        return self._p.device_id

    def _equals(self, other):
        other = other._p if isinstance(other, Place) else other
        return type(other) is type(self._p) and \
            getattr(other, "device_id", 0) == getattr(self._p, "device_id", 0)

    def __repr__(self):
        return repr(self._p)

    __str__ = __repr__


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


def _append_python_callable_object_and_return_id(callable_object):
    """Registers a `py_func` callable (a `layers.nn.PyFuncRegistry`) and
    returns the id a `py_func` op names it by."""
    return HOST.append_python_callable(callable_object)


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

from .recordio_core import RecordIOWriter  # noqa: E402,F401

Tensor = LoDTensor
DenseTensor = LoDTensor
