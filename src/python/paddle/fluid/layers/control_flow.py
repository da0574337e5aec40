"""Control flow, comparisons and logic layers (1.x's `layers/control_flow.py`).

Blocks: `While`, `ConditionalBlock`, `Switch` and `cond` open a sub-block
with `program._create_block()` and leave it with `program._rollback()`, as
1.x's `BlockGuard` did. Leaving a block cleanly appends its op to the
enclosing block while the sub-block is still current (`while`,
`conditional_block`), so the op's `op_callstack` ends at the user's `with`
line. The op's slots come from what the block reads and writes, as 1.x's
`While._complete` and `ConditionalBlock.complete` computed them: walking
the block's ops in order (each op's slots in name order), a name read
before any op of the block wrote it is an input, a name written is an
output; of both, only the names the enclosing blocks declare are listed.
(1.x iterated Python sets, so its order varied; this keeps first-seen
order, which is stable.)

Tensor arrays (`create_array`, `array_write`, `array_read`,
`array_length`) and the LoD-table ops (`lod_rank_table`,
`max_sequence_len`, `lod_tensor_to_array`, `array_to_lod_tensor`,
`shrink_memory`, `reorder_lod_tensor_by_rank`) are 1.x's. `StaticRNN` and
`DynamicRNN` live in `rnn_builders.py` and are re-exported here.

`IfElse` is refused: its `split_lod_tensor`/`merge_lod_tensor` ops are gone
from Paddle 3, and fluidc writes programs Paddle 3.3.1 loads.
"""

from .. import core
from .. import unique_name
from ..framework import Program, Variable, convert_dtype
from ..initializer import force_init_on_cpu
from ..layer_helper import LayerHelper
from . import tensor as _tensor

VarType = core.VarDesc.VarType

__all__ = [
    "While", "Switch", "increment", "array_write", "create_array", "less_than",
    "less_equal", "greater_than", "greater_equal", "equal", "not_equal", "array_read",
    "array_length", "cond", "IfElse", "DynamicRNN", "StaticRNN",
    "reorder_lod_tensor_by_rank", "Print", "ConditionalBlock", "lod_rank_table",
    "max_sequence_len", "lod_tensor_to_array", "array_to_lod_tensor", "shrink_memory",
    "logical_and", "logical_or", "logical_xor", "logical_not", "is_empty",
]

_COMPARE_PARAMS = ("x", "y", "force_cpu", "cond", "name")


def _closest(name, choices):
    import difflib
    found = difflib.get_close_matches(name, choices, n=1)
    return found[0] if found else None


def _compare(op_type, x, y, force_cpu=None, cond=None, name=None, **ignored):
    """A comparison: Paddle takes unknown keywords (`**ignored`) and so does
    fluidc, but each is a warning naming what it probably meant (a
    misspelt `cond=` leaves a While condition that never changes)."""
    for key in ignored:
        hint = _closest(key, _COMPARE_PARAMS)
        import warnings  # on first use: importing it costs start-up
        warnings.warn("%s() ignores the keyword argument `%s`%s" % (
            op_type, key, "; did you mean `%s`?" % hint if hint else ""), stacklevel=3)
    _check_type(x, "x", Variable, op_type)
    _check_type(y, "y", Variable, op_type)
    if cond is not None:
        _check_type(cond, "cond", Variable, op_type)
    helper = LayerHelper(op_type, name=name)
    if cond is None:
        cond = helper.create_variable_for_type_inference(dtype="bool")
        cond.stop_gradient = True
    # The attributes as fluidc has always written them (Paddle 3.3.1's
    # compare ops declare `axis` and `force_cpu`); as in 1.x, less_than
    # inside `init_on_cpu()` keeps its result on the CPU.
    if force_cpu is None and op_type == "less_than":
        force_cpu = force_init_on_cpu()
    attrs = {"axis": -1, "force_cpu": bool(force_cpu) if force_cpu is not None else False}
    helper.append_op(type=op_type, inputs={"X": [x], "Y": [y]}, outputs={"Out": [cond]},
                     attrs=attrs)
    return cond


def less_than(x, y, force_cpu=None, cond=None, name=None, **ignored):
    return _compare("less_than", x, y, force_cpu, cond, name, **ignored)


def less_equal(x, y, cond=None, name=None, **ignored):
    return _compare("less_equal", x, y, None, cond, name, **ignored)


def greater_than(x, y, cond=None, name=None, **ignored):
    return _compare("greater_than", x, y, None, cond, name, **ignored)


def greater_equal(x, y, cond=None, name=None, **ignored):
    return _compare("greater_equal", x, y, None, cond, name, **ignored)


def equal(x, y, cond=None, name=None, **ignored):
    return _compare("equal", x, y, None, cond, name, **ignored)


def not_equal(x, y, cond=None, name=None, **ignored):
    return _compare("not_equal", x, y, None, cond, name, **ignored)


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


def increment(x, value=1.0, in_place=True):
    _check_variable_and_dtype(x, "x", ["float32", "float64", "int32", "int64"], "increment")
    helper = LayerHelper("increment", **locals())
    if not in_place:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = x
    helper.append_op(type="increment", inputs={"X": [x]}, outputs={"Out": [out]},
                     attrs={"step": float(value)})
    return out


# ---------------------------------------------------------------- checks (1.x's data_feeder)


def _check_type(value, name, expected, op_name):
    if not isinstance(value, expected):
        raise TypeError("The type of '%s' in %s must be %s, but received %s. "
                        % (name, op_name, expected, type(value)))


def _check_variable_and_dtype(value, name, dtypes, op_name):
    _check_type(value, name, Variable, op_name)
    got = convert_dtype(value.dtype)
    if got not in dtypes:
        raise TypeError("The data type of '%s' in %s must be %s, but received %s. "
                        % (name, op_name, dtypes, got))


def _shaped_like(out, src):
    """Gives `out` the shape of `src` when the op's inference gave it none
    (fluidc's front end always declared these as Paddle's InferShape
    would at run time, so later layers can check their inputs' ranks)."""
    if not out.shape and src.shape:
        out.shape = src.shape
    return out


def _is_array(var):
    return isinstance(var, Variable) and int(var.type) == int(VarType.LOD_TENSOR_ARRAY)


# ---------------------------------------------------------------- sub-blocks


def _block_io(block, written):
    """What the ops of `block` read before any of them wrote it, and what
    they write (seeded with `written`), each in first-seen order; each
    op's slots are taken in name order, as 1.x's `op.input_names`."""
    produced = list(written)
    seen_out = set(produced)
    reads = []
    seen_in = set()
    for op in block.ops:
        ins = op._slots(False)
        for slot in sorted(ins):
            for name in ins[slot]:
                if name and name not in seen_out and name not in seen_in:
                    seen_in.add(name)
                    reads.append(name)
        for name in _select_reads(op):
            if name not in seen_out and name not in seen_in:
                seen_in.add(name)
                reads.append(name)
        outs = op._slots(True)
        names = [n for slot in sorted(outs) for n in outs[slot]] + _select_writes(op)
        for name in names:
            if name and name not in seen_out:
                seen_out.add(name)
                produced.append(name)
    return reads, produced


def _select_cases(op):
    """The cases of a select op (index, kind, channel, value), which name
    the channels it reads and the values it sends and receives."""
    if op.type not in ("select", "fluidc_select") or not op.has_attr("cases"):
        return []
    cases = []
    for c in op.attr("cases") or []:
        parts = c.split(",", 3)
        while len(parts) < 4:
            parts.append("")
        try:
            cases.append((int(parts[0]), int(parts[1]), parts[2], parts[3]))
        except ValueError:
            continue
    return cases


def _select_reads(op):
    names = []
    for _, kind, channel, value in _select_cases(op):
        if channel:
            names.append(channel)
        if kind == 1 and value:
            names.append(value)
    return names


def _select_writes(op):
    return [value for _, kind, _, value in _select_cases(op) if kind == 2 and value]


def _visible(block, names):
    """Of `names`, those `block` or its ancestors declare, in order."""
    desc = block.desc
    return [n for n in names if desc.var_find(block.idx, n) >= 0]


def _parent_block(program):
    block = program.current_block()
    return program.block(block.parent_idx)


class BlockGuard(object):
    """A `with` statement that builds a sub-block of `main_program`:
    entering creates it and makes it current, leaving makes its parent
    current again (1.x's BlockGuard)."""

    def __init__(self, main_program):
        if not isinstance(main_program, Program):
            raise TypeError("BlockGuard takes a program")
        self.main_program = main_program

    def __enter__(self):
        self.main_program._create_block()

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.main_program._rollback()
        if exc_type is not None:
            return False  # re-raise exception
        return True


class _CompletingGuard(BlockGuard):
    """A block guard that, on a clean exit, calls `complete()` while the
    sub-block is still current (so the op it appends records the user's
    `with` line), then leaves the block."""

    def __init__(self, main_program, complete):
        super(_CompletingGuard, self).__init__(main_program)
        self._complete = complete

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is not None:
            self.main_program._rollback()
            return False
        try:
            self._complete()
        except BaseException:
            self.main_program._rollback()
            raise
        return super(_CompletingGuard, self).__exit__(exc_type, exc_val, exc_tb)


def _step_scopes(block):
    """A new STEP_SCOPES variable (`_generated_var_N`) of `block`."""
    return block.create_var(type=VarType.STEP_SCOPES)


# ---------------------------------------------------------------- While


class While(object):
    """`while cond: <block>`, the condition one bool Variable the block
    updates (1.x's `layers.While`)::

        cond = layers.less_than(x=i, y=limit)
        loop = layers.While(cond=cond)
        with loop.block():
            ...
            layers.less_than(x=i, y=limit, cond=cond)
    """

    BEFORE_WHILE_BLOCK = 0
    IN_WHILE_BLOCK = 1
    AFTER_WHILE_BLOCK = 2

    def __init__(self, cond, is_test=False, name=None):
        self.helper = LayerHelper("while", name=name)
        self.status = While.BEFORE_WHILE_BLOCK
        _check_variable_and_dtype(cond, "cond", ["bool"], "fluid.layers.While")
        shape = list(cond.shape)
        # 1.x refused any shape whose product is not 1; a declared -1 is
        # let through, as Paddle 3.3.1 runs it when it holds one value.
        if all(d >= 0 for d in shape):
            n = 1
            for d in shape:
                n *= d
            if n != 1:
                raise TypeError("condition expected shape as [1], but given shape as %s."
                                % shape)
        self.cond_var = cond
        self.is_test = is_test

    def block(self):
        return WhileGuard(self)

    def _complete(self):
        program = self.helper.main_program
        while_block = program.current_block()
        parent = program.block(while_block.parent_idx)
        reads, produced = _block_io(while_block, [self.cond_var.name])
        step_scope = _step_scopes(parent)
        parent.append_op(
            type="while",
            inputs={"X": _visible(parent, reads), "Condition": [self.cond_var]},
            outputs={"Out": _visible(parent, produced), "StepScopes": [step_scope]},
            attrs={"sub_block": while_block, "is_test": bool(self.is_test)})


class WhileGuard(_CompletingGuard):
    def __init__(self, while_op):
        if not isinstance(while_op, While):
            raise TypeError("WhileGuard takes a while op")
        super(WhileGuard, self).__init__(while_op.helper.main_program, self._done)
        self.while_op = while_op

    def __enter__(self):
        self.while_op.status = While.IN_WHILE_BLOCK
        return super(WhileGuard, self).__enter__()

    def _done(self):
        self.while_op.status = While.AFTER_WHILE_BLOCK
        self.while_op._complete()


# ---------------------------------------------------------------- conditional blocks


class ConditionalBlock(object):
    """A block that runs when its condition holds (`is_scalar_condition`:
    one bool; otherwise when every input is non-empty)."""

    def __init__(self, inputs, is_scalar_condition=False, name=None):
        for each_input in inputs:
            if not isinstance(each_input, Variable):
                raise TypeError("Each input should be variable")
        self.inputs = list(inputs)
        self.is_scalar_condition = is_scalar_condition
        self.helper = LayerHelper("conditional_block", name=name)

    def block(self):
        return ConditionalBlockGuard(self)

    def complete(self):
        program = self.helper.main_program
        inside = program.current_block()
        parent = program.block(inside.parent_idx)
        reads, produced = _block_io(inside, [])
        cond_names = set(v.name for v in self.inputs)
        params = _visible(parent, [n for n in reads if n not in cond_names])
        step_scope = _step_scopes(parent)
        parent.append_op(
            type="conditional_block",
            inputs={"Cond": self.inputs, "Input": params},
            outputs={"Out": _visible(parent, produced), "Scope": [step_scope]},
            attrs={"sub_block": inside, "is_scalar_condition": bool(self.is_scalar_condition)})


class ConditionalBlockGuard(_CompletingGuard):
    def __init__(self, block):
        if not isinstance(block, ConditionalBlock):
            raise TypeError("block should be conditional block")
        super(ConditionalBlockGuard, self).__init__(block.helper.main_program, block.complete)
        self.block = block


class Switch(object):
    """Cases tried in order, the first whose condition holds runs (each a
    scalar conditional block), else the default::

        with layers.Switch() as switch:
            with switch.case(step < warmup):
                layers.assign(warm_lr, lr)
            with switch.default():
                layers.assign(base_lr, lr)
    """

    def __init__(self, name=None):
        self.helper = LayerHelper("switch", name=name)
        self.inside_scope = False
        self.pre_not_conditions = []
        self._has_default = False

    def case(self, condition):
        if not self.inside_scope:
            raise ValueError("case should be called inside with")
        _check_variable_and_dtype(condition, "condition", ["bool"],
                                  "the member function case of fluid.layers.Switch")
        if self._has_default:
            raise ValueError("no case may follow the default case of a Switch")
        if not self.pre_not_conditions:
            cond_block = ConditionalBlock([condition], is_scalar_condition=True)
            self.pre_not_conditions.append(logical_not(x=condition))
        else:
            pre_not_cond = self.pre_not_conditions[-1]
            new_not_cond = logical_and(x=pre_not_cond, y=logical_not(x=condition))
            self.pre_not_conditions.append(new_not_cond)
            cond_block = ConditionalBlock([logical_and(x=pre_not_cond, y=condition)],
                                          is_scalar_condition=True)
        return ConditionalBlockGuard(cond_block)

    def default(self):
        if not self.inside_scope:
            raise ValueError("default should be called inside with")
        if not self.pre_not_conditions:
            raise ValueError("there should be at least one condition")
        self._has_default = True
        cond_block = ConditionalBlock([self.pre_not_conditions[-1]], is_scalar_condition=True)
        return ConditionalBlockGuard(cond_block)

    def __enter__(self):
        self.inside_scope = True
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.inside_scope = False
        if exc_type is not None:
            return False  # re-raise exception
        return True


def _map_structure(fn, *structures):
    """`fn` over the Variables of nested lists and tuples of one shape."""
    first = structures[0]
    if isinstance(first, (list, tuple)):
        return type(first)(_map_structure(fn, *items) for items in zip(*structures))
    return fn(*structures)


def _same_structure(a, b):
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))):
            return False
        if len(a) != len(b):
            return False
        return all(_same_structure(x, y) for x, y in zip(a, b))
    return True


def _copy_var_to_parent_block(var, helper):
    """As 1.x: an unnamed variable of the enclosing block with `var`'s
    dtype, shape and type, filled by `assign`."""
    if var is None:
        return None
    if not isinstance(var, Variable):
        raise TypeError("a branch of cond must return Variables (or None), not %s"
                        % type(var).__name__)
    parent = _parent_block(helper.main_program)
    parent_var = parent.create_var(dtype=var.dtype, shape=var.shape, type=var.type)
    _tensor.assign(var, parent_var)
    return parent_var


def select_input(inputs, mask):
    """The input `mask` picks (an int32 of one value), as a new unnamed
    variable shaped like the last input."""
    helper = LayerHelper("select_input", **locals())
    like = inputs[-1] if isinstance(inputs, (list, tuple)) else inputs
    out = helper.create_variable(dtype=like.dtype, shape=like.shape, type=like.type,
                                 lod_level=like.lod_level, persistable=False)
    helper.append_op(type="select_input", inputs={"X": inputs, "Mask": mask},
                     outputs={"Out": out})
    out.shape = like.shape
    return out


def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` else `false_fn()`, each built in a scalar
    conditional block; their results (Variables, or lists and tuples of
    them, of one structure) are merged with `select_input`."""
    _check_variable_and_dtype(pred, "pred", ["bool"], "fluid.layers.cond")
    _check_type(name, "name", (str, type(None)), "fluid.layers.cond")
    helper = LayerHelper("cond", **locals())
    true_output = None
    false_output = None

    def copy_to_parent(var):
        return _copy_var_to_parent_block(var, helper)

    if true_fn is not None:
        if not callable(true_fn):
            raise TypeError("The true_fn in cond must be callable, but received %s"
                            % type(true_fn).__name__)
        true_cond_block = ConditionalBlock([pred], is_scalar_condition=True)
        with true_cond_block.block():
            origin_true_output = true_fn()
            if origin_true_output is not None:
                true_output = _map_structure(copy_to_parent, origin_true_output)
    if false_fn is not None:
        if not callable(false_fn):
            raise TypeError("The false_fn in cond must be callable, but received %s"
                            % type(false_fn).__name__)
        false_cond_block = ConditionalBlock([logical_not(pred)], is_scalar_condition=True)
        with false_cond_block.block():
            origin_false_output = false_fn()
            if origin_false_output is not None:
                false_output = _map_structure(copy_to_parent, origin_false_output)

    if true_output is None and false_output is None:
        return None
    if true_output is None:
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         "true_fn returns None while false_fn returns non-None")
    if false_output is None:
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         "true_fn returns non-None while false_fn returns None")
    if not _same_structure(true_output, false_output):
        raise ValueError("Incompatible return values of true_fn and false_fn in cond: "
                         "The two structures don't have the same nested structure.")
    mask = _tensor.cast(pred, dtype="int32")
    return _map_structure(lambda false_var, true_var: select_input([false_var, true_var], mask),
                          false_output, true_output)


class IfElse(object):
    """1.x's IfElse is not supported: its `split_lod_tensor` and
    `merge_lod_tensor` ops are gone from Paddle 3.3.1, which loads what
    fluidc writes. `layers.cond(pred, true_fn, false_fn)` or `layers.Switch`
    build the same choice for a scalar condition."""

    def __init__(self, cond, name=None):
        raise NotImplementedError(
            "layers.IfElse is not supported by fluidc: its split_lod_tensor/merge_lod_tensor "
            "ops are gone from Paddle 3; write layers.cond(pred, true_fn, false_fn) or use "
            "layers.Switch")


# ---------------------------------------------------------------- tensor arrays


def create_array(dtype):
    """An empty tensor array (`array_N.out`) of `dtype`; no op."""
    helper = LayerHelper("array", **locals())
    return helper.create_variable(name="%s.out" % helper.name,
                                  type=VarType.LOD_TENSOR_ARRAY, dtype=dtype)


def array_write(x, i, array=None):
    """`array[i] = x` (`write_to_array`); makes the array
    (`array_write_N.out`, of x's dtype) when none is given."""
    _check_type(x, "x", Variable, "array_write")
    _check_variable_and_dtype(i, "i", ["int64"], "array_write")
    if array is not None and not _is_array(array):
        raise TypeError("array should be tensor array vairable")
    helper = LayerHelper("array_write", **locals())
    if array is None:
        array = helper.create_variable(name="%s.out" % helper.name,
                                       type=VarType.LOD_TENSOR_ARRAY, dtype=x.dtype)
    helper.append_op(type="write_to_array", inputs={"X": [x], "I": [i]},
                     outputs={"Out": [array]})
    # Paddle's InferShape gives the array the shape of what was written
    # last (an `array_read` then declares that shape).
    array.shape = x.shape
    return array


def array_read(array, i):
    """`array[i]` (`read_from_array`) into `array_read_N.tmp_0`."""
    _check_variable_and_dtype(i, "i", ["int64"], "array_read")
    if not _is_array(array):
        raise TypeError("array should be tensor array vairable")
    helper = LayerHelper("array_read", **locals())
    out = helper.create_variable_for_type_inference(dtype=array.dtype)
    helper.append_op(type="read_from_array", inputs={"X": [array], "I": [i]},
                     outputs={"Out": [out]})
    return _shaped_like(out, array)


def array_length(array):
    """The number of elements of a tensor array, an int64 `[1]`."""
    if not _is_array(array):
        raise TypeError("array should be tensor array vairable")
    helper = LayerHelper("array_length", **locals())
    tmp = helper.create_variable_for_type_inference(dtype="int64")
    tmp.stop_gradient = True
    helper.append_op(type="lod_array_length", inputs={"X": [array]}, outputs={"Out": [tmp]})
    return tmp


# ---------------------------------------------------------------- LoD rank tables
# (ops Paddle 3.3.1 dropped, which fluidc's runtime runs itself)


def lod_rank_table(x, level=0):
    """The sequences of `x`'s LoD level `level`, longest first."""
    _check_type(x, "x", Variable, "lod_rank_table")
    helper = LayerHelper("lod_rank_table", **locals())
    table = helper.create_variable(type=VarType.LOD_RANK_TABLE,
                                   name=unique_name.generate("lod_rank_table"))
    table.stop_gradient = True
    helper.append_op(type="lod_rank_table", inputs={"X": x}, outputs={"Out": table},
                     attrs={"level": level})
    return table


def max_sequence_len(rank_table):
    """The longest sequence's length, an int64 `[1]`."""
    helper = LayerHelper("max_seqence_len", **locals())
    res = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="max_sequence_len", inputs={"RankTable": rank_table},
                     outputs={"Out": res})
    return res


def lod_tensor_to_array(x, table):
    """`x` split by time step into a tensor array, in the table's order."""
    helper = LayerHelper("lod_tensor_to_array", **locals())
    array = helper.create_variable(name=unique_name.generate("lod_tensor_to_array"),
                                   type=VarType.LOD_TENSOR_ARRAY, dtype=x.dtype)
    helper.append_op(type="lod_tensor_to_array", inputs={"X": x, "RankTable": table},
                     outputs={"Out": array})
    return _shaped_like(array, x)


def array_to_lod_tensor(x, table):
    """A tensor array of time steps back into one LoD tensor."""
    helper = LayerHelper("array_to_lod_tensor", **locals())
    tmp = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="array_to_lod_tensor", inputs={"X": x, "RankTable": table},
                     outputs={"Out": tmp})
    return _shaped_like(tmp, x)


def shrink_memory(x, i, table):
    """The rows of `x` whose sequences are longer than `i`."""
    helper = LayerHelper("shrink_memory", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="shrink_rnn_memory",
                     inputs={"X": [x], "I": [i], "RankTable": [table]},
                     outputs={"Out": [out]}, attrs={})
    return _shaped_like(out, x)


def reorder_lod_tensor_by_rank(x, rank_table):
    """`x`'s sequences in the rank table's order."""
    helper = LayerHelper("reorder_lod_tensor_by_rank", **locals())
    helper.is_instance("x", Variable)
    helper.is_instance("rank_table", Variable)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reorder_lod_tensor_by_rank",
                     inputs={"X": [x], "RankTable": [rank_table]}, outputs={"Out": [out]})
    return _shaped_like(out, x)


# ---------------------------------------------------------------- Print


def Print(input, first_n=-1, message=None, summarize=20, print_tensor_name=True,
          print_tensor_type=True, print_tensor_shape=True, print_tensor_lod=True,
          print_phase="both", print_tensor_layout=True):
    """A `print` op: `input` as it passes (and its gradient, by
    `print_phase`), on stderr; returns the printed copy."""
    _check_variable_and_dtype(input, "input",
                              ["float32", "float64", "int32", "int64", "bool"],
                              "fluid.layers.Print")
    helper = LayerHelper("print" + "_" + input.name, **locals())
    output = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(
        type="print", inputs={"In": input}, outputs={"Out": output},
        attrs={"first_n": first_n, "summarize": summarize, "message": message or "",
               "print_tensor_name": print_tensor_name, "print_tensor_type": print_tensor_type,
               "print_tensor_shape": print_tensor_shape,
               "print_tensor_layout": print_tensor_layout,
               "print_tensor_lod": print_tensor_lod, "print_phase": print_phase.upper()})
    return output


from .rnn_builders import StaticRNN, DynamicRNN  # noqa: E402


class ParallelDo(object):
    """1.x's ParallelDo (deprecated since 0.15): ran a block on each of a
    `get_places` list of devices, splitting the batch, and merged the
    outputs and gradients. fluidc has no parallel_do op: it raises, naming
    what replaced it."""

    def __init__(self, places, use_nccl=False, name=None):
        raise NotImplementedError(
            "ParallelDo is not supported by fluidc (Paddle deprecated it in 0.15). Build the "
            "network without it and train with fluid.Executor, or with fluid.ParallelExecutor "
            "/ CompiledProgram(...).with_data_parallel(), which fluidc runs on its one CPU "
            "place")


def is_empty(x, cond=None):
    """A bool [1]: whether `x` has no elements (a beam search whose
    sources all ended selects none)."""
    if not isinstance(x, Variable):
        raise TypeError("The type of 'x' in is_empty must be Variable, but received %s"
                        % type(x).__name__)
    helper = LayerHelper("is_empty", **locals())
    if cond is None:
        cond = helper.create_variable_for_type_inference(dtype="bool")
        cond.stop_gradient = True
    elif not isinstance(cond, Variable):
        raise TypeError("cond of is_empty must be a Variable, not %s" % type(cond).__name__)
    helper.append_op(type="is_empty", inputs={"X": [x]}, outputs={"Out": [cond]})
    return cond
