"""paddle.fluid.concurrency: the CSP API of 2018 Fluid (seeds 000 and 002):
channels, goroutines (`Go`) and `Select`.

A `Go` block is a sub-block run by a `go` op whose `X` lists what the
block reads from outside it. A `Select` appends ONE op, fluidc's select
node (`fluidc_select`), whose `cases` and `case_blocks` attributes give
each case (`"<index>,<kind>,<channel>,<value>"`, kind 0 default, 1 send,
2 receive) and its body block; the `lower_select` pass turns it into
Paddle's `select` op and its cases block (docs/programs.md), so the node's own
slots only have to tell enclosing blocks what the select reads and writes.

The early-2018 forms (docs/python-package.md) are kept: `make_channel(dtype=int|float|
bool|<VarType>, capacity, name=)`, `channel_send(ch, <Python number>)`,
`channel_send(ch, value, dtype=)`, `channel_recv(ch)` and
`channel_recv(ch, dtype=)`.

What `channel_recv` returns changed during 2018, and scripts of both kinds
exist; the call's form chooses, as it did in the version it was written for:
- `channel_recv(ch, return_value)`, `return_value` a Variable to receive
  into (the released form): the pair `(value, status)`, `status` a bool
  that is false once the channel is closed and drained;
- `channel_recv(ch, dtype=<a variable kind>)`, i.e. `core.VarDesc.VarType.
  LOD_TENSOR` or `LOD_TENSOR_ARRAY` (March 2018, `result, status =
  fluid.channel_recv(ch, dtype=core.VarDesc.VarType.LOD_TENSOR)`): the pair
  too, the value a new variable that takes whatever tensor is sent (so its
  dtype is known only when it runs: fetch it or send it on; to compute with
  it, receive with an element type or into a Variable of the right dtype);
- `channel_recv(ch)` or `channel_recv(ch, dtype=<an element type>)`
  (`'int32'`, `int`, `VarType.FP32`; the dtype may also stand where
  `return_value` does): the value alone, a new `[1]` variable of that type
  (`fluid.channel_send(left, 1 + fluid.channel_recv(right, dtype='int32'))`).
"""
import operator

from . import core
from . import unique_name
from .framework import Variable, _dtype_number, default_main_program
from .layer_helper import LayerHelper
from .layers.tensor import fill_constant

__all__ = ["Go", "make_channel", "channel_send", "channel_recv", "channel_close", "Select"]

_VarType = core.VarDesc.VarType
_CHANNEL = int(_VarType.CHANNEL)
# A channel made with one of these element types carries any tensor.
_UNTYPED_ELEMENTS = (int(_VarType.LOD_TENSOR), int(_VarType.LOD_TENSOR_ARRAY))
_INT_MAX = 2 ** 31 - 1

# The case kinds of a select node's case strings.
_DEFAULT, _SEND, _RECEIVE = 0, 1, 2


def _check_channel(channel, api):
    """`channel` must be a channel variable (one `make_channel` made)."""
    if not isinstance(channel, Variable):
        raise TypeError("%s() needs a channel Variable, not %s; create channels with "
                        "fluid.make_channel(dtype=..., capacity=...)"
                        % (api, type(channel).__name__))
    if int(channel.type) != _CHANNEL:
        raise TypeError("%s() needs a channel, but `%s` is a %s variable; create channels with "
                        "fluid.make_channel(dtype=..., capacity=...)"
                        % (api, channel.name, channel.type.name))


def _check_value(value, api):
    if not isinstance(value, Variable):
        raise TypeError("%s() needs a Variable as its value, not %s" % (api, type(value).__name__))


def _element_dtype(channel):
    """The element dtype a channel was made with, or None for a channel of
    2018's `LOD_TENSOR` (which carries any dtype)."""
    dtype = channel._get("dtype")
    return None if dtype in _UNTYPED_ELEMENTS else dtype


def _name_layer(layer_type):
    """Paddle's LayerHelper named each of these layers (`channel_send_N`)
    without using the name: its counter still advances, as it did there."""
    unique_name.generate(layer_type)


def make_channel(dtype, capacity=0, name=None):
    """A channel of `dtype` elements, unbuffered (capacity 0) or buffered,
    named `name` or `channel_N`, made by a `channel_create` op."""
    dtype = _dtype_number(dtype)
    try:
        capacity = operator.index(capacity)
    except TypeError:
        raise TypeError("make_channel()'s capacity must be an int, not %s"
                        % type(capacity).__name__) from None
    if capacity < 0:
        raise ValueError("a channel's capacity must be 0 (unbuffered) or more, not %d" % capacity)
    if capacity > _INT_MAX:
        raise ValueError("a channel's capacity must fit 32 bits, not %d" % capacity)
    if name is not None and not isinstance(name, str):
        raise TypeError("make_channel()'s name must be a str, not %s" % type(name).__name__)
    _name_layer("channel_create")
    block = default_main_program().current_block()
    # Paddle made every channel persistable, and persistable variables live
    # in the root scope; a channel made inside a block (a While body) must
    # be a fresh one in each iteration, as in Go (docs/programs.md), so only a
    # channel of the global block is persistable.
    channel = block.create_var(
        name=name if name is not None else unique_name.generate("channel"),
        type=_VarType.CHANNEL, dtype=dtype, capacity=capacity,
        persistable=block.idx == 0)
    block.append_op(type="channel_create", outputs={"Out": [channel]},
                    attrs={"data_type": dtype, "capacity": capacity})
    return channel


def _copy_for_send(value):
    """With `is_copy`, Paddle sends a fresh `<name>_copy_N` made by `assign`."""
    block = default_main_program().current_block()
    copy = block.create_var(
        name=unique_name.generate(value.name + "_copy"), type=value.type,
        dtype=value._get("dtype"), shape=value._get("shape"), lod_level=value.lod_level,
        capacity=value._get("capacity"), persistable=False,
        stop_gradient=value._get("stop_gradient"))
    block.append_op(type="assign", inputs={"X": [value]}, outputs={"Out": [copy]})
    return copy


def _send_value(channel, value, dtype=None):
    """What `channel_send` sends: a Variable, or (early 2018) a Python bool,
    int or float as a `[1]` `fill_constant` of `dtype` if given, else of
    the channel's element dtype (of the number's own dtype on a
    `LOD_TENSOR` channel)."""
    if dtype in _UNTYPED_ELEMENTS:
        dtype = None
    if isinstance(value, bool):
        own = _VarType.BOOL
    elif isinstance(value, int):
        own = _VarType.INT64
    elif isinstance(value, float):
        own = _VarType.FP64
    else:
        _check_value(value, "channel_send")
        if dtype is not None and dtype != value._get("dtype"):
            raise TypeError("channel_send() was given dtype=%s, but `%s`'s dtype is %s"
                            % (core._var_type_of(dtype).name, value.name, value.dtype.name))
        return value
    if dtype is None:
        dtype = _element_dtype(channel)
    return fill_constant(shape=[1], dtype=own if dtype is None else dtype, value=value)


def channel_send(channel, value, is_copy=False, dtype=None):
    """Sends `value` (a Variable, or a Python number) on `channel`; with
    `is_copy`, a copy of it. `dtype` (2018) says what `value` is: a Python
    number is sent as a tensor of that type, and a Variable must be of it
    (a variable kind, `VarType.LOD_TENSOR`, fits any tensor)."""
    _check_channel(channel, "channel_send")
    value = _send_value(channel, value, None if dtype is None else _dtype_number(dtype))
    _name_layer("channel_send")
    if is_copy:
        value = _copy_for_send(value)
    default_main_program().current_block().append_op(
        type="channel_send", inputs={"Channel": [channel], "X": [value]})


def channel_recv(channel, return_value=None, dtype=None):
    """Receives from `channel` into `return_value` and returns it with the
    receive's status (a bool, false once the channel is closed and
    drained). Early 2018: without `return_value`, or with a dtype in its
    place or as `dtype=`, it receives into a new variable and returns just
    that, or, for a variable kind (`VarType.LOD_TENSOR`), that variable
    and the status (see the module's doc for how a script chooses)."""
    _check_channel(channel, "channel_recv")
    if isinstance(return_value, Variable):
        if dtype is not None:
            raise ValueError("channel_recv() takes a dtype only when it makes the variable it "
                             "receives into, not with a return_value")
        made_dtype = None
    elif return_value is not None:
        made_dtype = _dtype_number(return_value)
    elif dtype is not None:
        made_dtype = _dtype_number(dtype)
    else:
        made_dtype = _element_dtype(channel)
        if made_dtype is None:
            raise ValueError(
                "channel_recv() cannot tell what channel `%s` carries: it was made with a "
                "LOD_TENSOR dtype; pass the element type, e.g. fluid.channel_recv(ch, "
                "dtype='int64'), or a variable to receive into" % channel.name)
    helper = LayerHelper("channel_recv")
    block = helper.main_program.current_block()
    out = return_value
    if made_dtype is not None:
        out = block.create_var(
            name=unique_name.generate_with_ignorable_key(helper.name + ".tmp"),
            dtype=made_dtype, shape=[1], stop_gradient=False)
    status = block.create_var(name=unique_name.generate("status"), dtype=_VarType.BOOL,
                              shape=[1])
    block.append_op(type="channel_recv", inputs={"Channel": [channel]},
                    outputs={"Out": [out], "Status": [status]})
    if made_dtype is not None and made_dtype not in _UNTYPED_ELEMENTS:
        return out
    return out, status


def channel_close(channel):
    """Closes `channel` (closing one twice is a runtime error, as in Go)."""
    _check_channel(channel, "channel_close")
    _name_layer("channel_close")
    default_main_program().current_block().append_op(
        type="channel_close", inputs={"Channel": [channel]})


def _block_io(block):
    """The names `block`'s ops read before any of them writes them, and the
    names they write, in first-seen order (each op's slots in name order,
    as Paddle's `op.input_names` lists them)."""
    desc, idx = block.program.desc, block.idx
    reads, written = [], []
    for i in range(desc.op_count(idx)):
        inputs = desc.op_slots(idx, i, False)
        for slot in sorted(inputs):
            for name in inputs[slot]:
                if name and name not in written and name not in reads:
                    reads.append(name)
        outputs = desc.op_slots(idx, i, True)
        for slot in sorted(outputs):
            for name in outputs[slot]:
                if name and name not in written:
                    written.append(name)
    return reads, written


def _visible(block, names):
    """Of `names`, those declared in `block` or its ancestors."""
    return [n for n in names if block.program.desc.var_find(block.idx, n) >= 0]


class Go(object):
    """`with fluid.Go():` builds a goroutine: a sub-block that a `go` op,
    appended when the block ends, starts with what the block reads from
    enclosing blocks as its `X`."""

    def __init__(self, name=None):
        # `name` is 2018's parameter; the go op has nothing it would name.
        self._program = None

    def __enter__(self):
        self._program = default_main_program()
        self._program._create_block()

    def __exit__(self, exc_type, exc_val, exc_tb):
        program = self._program
        go_block = program.current_block()
        program._rollback()
        if exc_type is not None:
            return False
        parent = program.current_block()
        reads, _ = _block_io(go_block)
        parent.append_op(type="go", inputs={"X": _visible(parent, reads)}, outputs={},
                         attrs={"sub_block": go_block})
        return False


class SelectCase(object):
    """One case of a Select: its kind, channel and value, and (once its
    `with` block ran) its body block."""

    def __init__(self, select, index, kind, channel=None, value=None):
        self.select = select
        self.index = index
        self.kind = kind
        self.channel = channel
        self.value = value
        self.body = None

    def __enter__(self):
        self.select._check_open()
        if self.body is not None:
            raise ValueError("this select case was already entered once")
        self.body = self.select._program._create_block()

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.select._program._rollback()
        if exc_type is None:
            self.select._cases.append(self)
        return False

    def _string(self):
        return "%d,%d,%s,%s" % (self.index, self.kind,
                                self.channel.name if self.channel is not None else "",
                                self.value.name if self.value is not None else "")


class Select(object):
    """`with fluid.Select() as select:` with `with select.case(
    fluid.channel_send | fluid.channel_recv, channel, value):` cases and at
    most one `with select.default():`. Go's select: a case that can proceed
    runs (one chosen at random when several can), else the default."""

    def __init__(self, name=None):
        # `name` is 2018's parameter; the select node has nothing it would name.
        self._program = None
        self._block = None
        self._entered = False
        self._closed = False
        self._has_default = False
        self._next_index = 0
        self._cases = []

    def __enter__(self):
        if self._entered:
            raise ValueError("this Select was already used in a `with` statement")
        self._entered = True
        self._program = default_main_program()
        self._block = self._program.current_block()
        return self

    def _check_open(self):
        if not self._entered or self._closed:
            raise ValueError(
                "a select case must be inside `with fluid.Select() as select:`; put "
                "`with select.case(...):` and `with select.default():` in the Select's "
                "`with` block")
        if default_main_program() is not self._program or \
                self._program.current_block_idx != self._block.idx:
            raise ValueError("a select case must be directly inside its `with fluid.Select()` "
                             "block, not nested in another block")

    def _take_index(self):
        self._next_index += 1
        return self._next_index - 1

    def case(self, channel_action_fn, channel, value, is_copy=False):
        """A case that sends `value` on `channel` (`fluid.channel_send`) or
        receives into it (`fluid.channel_recv`); with `is_copy`, a send
        sends a copy made before the select."""
        self._check_open()
        if channel_action_fn is channel_send:
            kind = _SEND
        elif channel_action_fn is channel_recv:
            kind = _RECEIVE
        else:
            raise ValueError("the first argument of select.case must be fluid.channel_send or "
                             "fluid.channel_recv")
        _check_channel(channel, "select.case")
        _check_value(value, "select.case")
        if kind == _SEND and is_copy:
            value = _copy_for_send(value)
        return SelectCase(self, self._take_index(), kind, channel, value)

    def default(self):
        """The case that runs when no other can proceed."""
        self._check_open()
        if self._has_default:
            raise ValueError("a Select can have only one default case; merge the two default "
                             "bodies into one")
        self._has_default = True
        return SelectCase(self, self._take_index(), _DEFAULT)

    def __exit__(self, exc_type, exc_val, exc_tb):
        self._closed = True
        if exc_type is not None:
            return False
        cases = sorted(self._cases, key=lambda c: c.index)
        block = self._block
        # Like Paddle's select op, the node lists what the case bodies read
        # from and write to enclosing blocks, so an enclosing While sees them.
        sent = [c.value.name for c in cases if c.kind == _SEND]
        received = [c.value.name for c in cases if c.kind == _RECEIVE]
        for c in cases:
            reads, writes = _block_io(c.body)
            for name in _visible(block, reads):
                if name not in sent:
                    sent.append(name)
            for name in _visible(block, writes):
                if name not in received:
                    received.append(name)
        block.append_op(
            type="fluidc_select",
            inputs={"Channel": [c.channel for c in cases if c.channel is not None],
                    "X": sent},
            outputs={"Out": received},
            attrs={"cases": [c._string() for c in cases],
                   "case_blocks": [c.body for c in cases]})
        return False
