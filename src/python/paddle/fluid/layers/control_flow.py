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

`IfElse` and its ops `split_lod_tensor`/`merge_lod_tensor` are 1.x's; Paddle
3 dropped the ops, so a program with them runs in fluidc only (docs/ops.md).

`ParallelDo` (deprecated in 0.15) runs its block on one place: no sub-block
and no `parallel_do` op (fluidc has one CPU place and Paddle 3.3.1 has no
such op), its ops go into the enclosing block. That is 1.x's program on
one place; with several 1.x split the batch over them (docs/choices.md).
"""

from ... import _stack
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
    "split_lod_tensor", "merge_lod_tensor",
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
            op_type, key, "; did you mean `%s`?" % hint if hint else ""),
            stacklevel=_stack.user_stacklevel())
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
        out = helper.create_named_output(name, x.dtype)
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
    desc = block.program.desc
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


def split_lod_tensor(input, mask, level=0):
    """The sequences of `input`'s LoD level `level` (its rows without LoD)
    whose `mask` entry is true, and the others: `(out_true, out_false)`."""
    helper = LayerHelper("split_lod_tensor", **locals())
    out_true = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_false = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="split_lod_tensor", inputs={"X": input, "Mask": mask},
                     outputs={"OutTrue": out_true, "OutFalse": out_false},
                     attrs={"level": level})
    return out_true, out_false


def merge_lod_tensor(in_true, in_false, x, mask, level=0):
    """`in_true` and `in_false` merged back in `mask`'s order (the inverse
    of `split_lod_tensor`), `x` giving the LoD levels above `level`."""
    helper = LayerHelper("merge_lod_tensor", **locals())
    out = helper.create_variable_for_type_inference(dtype=in_true.dtype)
    helper.append_op(type="merge_lod_tensor",
                     inputs={"X": x, "Mask": mask, "InTrue": in_true, "InFalse": in_false},
                     outputs={"Out": out}, attrs={"level": level})
    return out


class IfElseBlockGuard(object):
    def __init__(self, is_true, ifelse):
        if not isinstance(ifelse, IfElse):
            raise TypeError("ifelse must be an instance of IfElse class")
        if ifelse.status != IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("You cannot invoke IfElse.block() inside a block")
        self.is_true = is_true
        self.ie = ifelse
        if is_true:
            self.cond_block = ifelse.conditional_true_block
        else:
            self.cond_block = ifelse.conditional_false_block
        if not isinstance(self.cond_block, ConditionalBlock):
            raise TypeError("Unexpected situation")
        self.cond_block = self.cond_block.block()

    def __enter__(self):
        self.ie.status = (IfElse.IN_IF_ELSE_TRUE_BLOCKS if self.is_true
                          else IfElse.IN_IF_ELSE_FALSE_BLOCKS)
        self.cond_block.__enter__()

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.cond_block.__exit__(exc_type, exc_val, exc_tb):
            # re-raise inside exception
            return False
        if len(self.ie.output_table[1 if self.is_true else 0]) == 0:
            raise ValueError("Must set output inside block")
        self.ie.status = IfElse.OUT_IF_ELSE_BLOCKS


class IfElse(object):
    """1.x's if-else over the rows of a batch: `cond` (a bool column, one
    entry per row or sequence) splits each `ie.input(x)` into the rows of
    the true block and of the false block (`split_lod_tensor`), each block
    runs on its rows (a `conditional_block` that runs when the batch is
    not empty), and `ie()` merges the outputs back in the rows' order
    (`merge_lod_tensor`)::

        ie = layers.IfElse(cond)
        with ie.true_block():
            ie.output(layers.fc(input=ie.input(x), size=10))
        with ie.false_block():
            ie.output(layers.scale(ie.input(x), scale=2.0))
        out = ie()[0]
    """
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
        self.output_table = ([], [])  # (false_outs, true_outs)

    def input(self, x):
        if self.status == IfElse.OUT_IF_ELSE_BLOCKS:
            raise ValueError("input must in true/false blocks")
        if id(x) not in self.input_table:
            parent_block = self._parent_block()
            out_true = parent_block.create_var(
                name=unique_name.generate("ifelse_input" + self.helper.name), dtype=x.dtype)
            out_false = parent_block.create_var(
                name=unique_name.generate("ifelse_input" + self.helper.name), dtype=x.dtype)
            parent_block.append_op(type="split_lod_tensor",
                                   inputs={"X": x, "Mask": self.cond},
                                   outputs={"OutTrue": out_true, "OutFalse": out_false},
                                   attrs={"level": 0})
            self.input_table[id(x)] = (out_true, out_false)
        else:
            out_true, out_false = self.input_table[id(x)]
        if self.status == IfElse.IN_IF_ELSE_TRUE_BLOCKS:
            return out_true
        return out_false

    def _parent_block(self):
        current_block = self.helper.main_program.current_block()
        return self.helper.main_program.block(current_block.parent_idx)

    def true_block(self):
        return IfElseBlockGuard(True, self)

    def false_block(self):
        return IfElseBlockGuard(False, self)

    def output(self, *outs):
        if self.status == self.OUT_IF_ELSE_BLOCKS:
            raise ValueError("output can only be invoked in the sub-block")
        out_table = self.output_table[1 if self.status == self.IN_IF_ELSE_TRUE_BLOCKS else 0]
        parent_block = self._parent_block()
        for each_out in outs:
            if not isinstance(each_out, Variable):
                raise TypeError("Each output should be a variable")
            # create outside tensor
            outside_out = parent_block.create_var(
                name=unique_name.generate("_".join([self.helper.name, "output"])),
                dtype=each_out.dtype)
            out_table.append(outside_out)
            # assign local var to outside
            _tensor.assign(input=each_out, output=outside_out)

    def __call__(self):
        if self.status != self.OUT_IF_ELSE_BLOCKS:
            raise ValueError("IfElse::__call__ must be out of sub-block")
        false_len, true_len = list(map(len, self.output_table))
        if false_len == 0 and true_len == 0:
            raise ValueError("Must invoke true_block/false_block before __call__")
        elif false_len != true_len and false_len != 0 and true_len != 0:
            raise ValueError("The output side must be same")
        elif false_len == 0 or true_len == 0:
            return self.output_table[0 if false_len != 0 else 1]
        # else none of false_len/true_len is zero: merge together
        rlist = []
        for false_var, true_var in zip(*self.output_table):
            rlist.append(merge_lod_tensor(in_true=true_var, in_false=false_var, mask=self.cond,
                                          x=self.cond, level=0))
        return rlist


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
    """1.x's ParallelDo (deprecated since 0.15), on ONE place::

        places = fluid.layers.device.get_places()
        pd = fluid.layers.control_flow.ParallelDo(places)
        with pd.do():
            img_ = pd.read_input(img)
            label_ = pd.read_input(label)
            loss = fluid.layers.mean(fluid.layers.cross_entropy(
                input=fluid.layers.fc(input=img_, size=10, act="softmax"),
                label=label_))
            pd.write_output(loss)
        avg_loss = fluid.layers.mean(pd())

    1.x made a sub-block and a `parallel_do` op that split each
    `read_input` along dim 0 (by top-level LoD sequences) over `places`,
    ran the block on each part, concatenated the `write_output` variables
    along dim 0 and summed the parameters' gradients. fluidc has one CPU
    place and no `parallel_do` op: the block's ops go straight into the
    enclosing block, `read_input(v)` is `v`, `write_output(v)` records `v`
    and `pd()` returns it (several: the list), which is what 1.x computed
    with one place. With k places 1.x's numbers differed only through the
    split (a written per-part mean had k rows; batch_norm used per-part
    statistics); docs/choices.md says more. The checks are 1.x's: `pd()`
    before the block ended, or with nothing written, is a ValueError.
    `use_nccl=True` is a NotImplementedError (NCCL needs CUDA places;
    1.x on the CPU failed when the backward was appended)."""

    def __init__(self, places, use_nccl=False, name=None):
        import warnings  # on first use: importing it costs start-up
        warnings.warn("API ParallelDo is deprecated since 0.15.0. Please use ParallelExecutor "
                      "instead.", Warning)
        if use_nccl:
            raise NotImplementedError(
                "ParallelDo(use_nccl=True) is not supported by fluidc: NCCL reduces gradients "
                "over CUDA places, and fluidc runs on one CPU place (Paddle 1.x on the CPU "
                "failed in append_backward: Operator ncclInit has not been registered). Use "
                "use_nccl=False")
        self.helper = LayerHelper("parallel_do", name=name)
        self.inputs = []
        self.places = places
        self.outputs = []
        self.status = StaticRNN.BEFORE_RNN_BLOCK
        self.use_nccl = use_nccl

    def do(self):
        """The `with` block run on each place (here: once, inline)."""
        return _ParallelDoBlock(self)

    def __call__(self, *args, **kwargs):
        if self.status != StaticRNN.AFTER_RNN_BLOCK:
            raise ValueError("RNN output can only be retrieved after rnn block")
        if len(self.outputs) == 0:
            raise ValueError("RNN has no output")
        elif len(self.outputs) == 1:
            return self.outputs[0]
        else:
            return self.outputs

    def read_input(self, var):
        """A variable split over the places: on one place, `var` itself."""
        self.inputs.append(var)
        return var

    def write_output(self, var):
        """A variable concatenated over the places: on one place, `var`."""
        self.outputs.append(var)


class _ParallelDoBlock(object):
    """`ParallelDo.do()`: 1.x's block guard (status in the block, then
    after it) without the sub-block; the ops stay in the current block."""

    def __init__(self, pd):
        self.pd = pd

    def __enter__(self):
        self.pd.status = StaticRNN.IN_RNN_BLOCK

    def __exit__(self, exc_type, exc_val, exc_tb):
        if exc_type is not None:
            return False
        self.pd.status = StaticRNN.AFTER_RNN_BLOCK
        return False


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
