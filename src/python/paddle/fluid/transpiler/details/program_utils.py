"""1.x's `transpiler.details.program_utils`: a program printed as
pseudo-code (`program_to_code`: one `{ // block N ... }` per block, its
variables sorted by name, then its ops as `{outputs} = type(inputs={...},
attrs)`), and the op lookups the transpilers used."""
from __future__ import print_function

from ...framework import Block, Parameter
from ... import core

__all__ = ["delete_ops", "find_op_by_input_arg", "find_op_by_output_arg", "get_indent_space",
           "variable_to_code", "op_to_code", "block_to_code", "program_to_code"]


def delete_ops(block, ops):
    """Removes each of `ops` from `block` (printing why one cannot be, as
    1.x did)."""
    for op in ops:
        try:
            block._remove_op(list(block.ops).index(op))
        except Exception as e:
            print(e)


def find_op_by_input_arg(block, arg_name):
    """The index of the first op of `block` reading `arg_name`, or -1."""
    for index, op in enumerate(block.ops):
        if arg_name in op.input_arg_names:
            return index
    return -1


def find_op_by_output_arg(block, arg_name, reverse=False):
    """The index of the first (with `reverse`, the last) op of `block`
    writing `arg_name`, or -1."""
    indices = range(len(block.ops))
    for index in (reversed(indices) if reverse else indices):
        if arg_name in block.ops[index].output_arg_names:
            return index
    return -1


def get_indent_space(indent, space_num=4):
    return " " * (indent * space_num)


def variable_to_code(var):
    """`[persist ][trainable ]parameter|var NAME : fluid.TYPE.shape(...).astype(DTYPE)`
    (tensors and selected rows; other variables without shape and dtype)."""
    if var.type in (core.VarDesc.VarType.SELECTED_ROWS, core.VarDesc.VarType.LOD_TENSOR):
        text = "%s : fluid.%s.shape%s.astype(%s)" % (var.name, var.type, tuple(var.shape), var.dtype)
    else:
        text = "%s : fluid.%s)" % (var.name, var.type)
    if type(var) is Parameter:
        text = ("trainable parameter " if var.trainable else "parameter ") + text
    else:
        text = "var " + text
    if var.persistable:
        text = "persist " + text
    return text


# The block attributes of Paddle's ops (`sub_block` of while,
# conditional_block, recurrent and the CSP ops; the others' lists of
# blocks), which 1.x printed as `block[i]` / `blocks[i, ...]`: fluidc's
# `op.attr` gives their block indices.
_BLOCK_ATTRS = {"sub_block": "block", "sub_blocks": "blocks", "optimize_blocks": "blocks"}


def _slots(names, values):
    return "{" + ", ".join("%s=%s" % (n, values(n)) for n in names) + "}"


def op_to_code(op, skip_op_callstack=True):
    """`{OUT=[...], ...} = TYPE(inputs={IN=[...], ...}, ATTR = VALUE, ...)`,
    the attributes sorted by name, a block attribute as `block[i]`."""
    outputs = _slots(op.output_names, op.output)
    inputs = _slots(op.input_names, op.input)
    names = sorted(op.attr_names)
    attrs = ""
    for i, name in enumerate(names):
        if skip_op_callstack and name == "op_callstack":
            continue
        value = op.attr(name)
        kind = _BLOCK_ATTRS.get(name)
        if kind is not None:
            ids = [b.idx if isinstance(b, Block) else b for b in
                   (value if isinstance(value, (list, tuple)) else [value])]
            attrs += "%s = %s%s" % (name, kind, ids if kind == "blocks" else ids[:1])
        else:
            attrs += "%s = %s" % (name, value)
        # 1.x put the separator by position among all the names, so a
        # skipped op_callstack last leaves one behind.
        if i != len(names) - 1:
            attrs += ", "
    if outputs != "{}":
        return "%s = %s(inputs=%s, %s)" % (outputs, op.type, inputs, attrs)
    return "%s(inputs=%s, %s)" % (op.type, inputs, attrs)


def block_to_code(block, block_idx, fout=None, skip_op_callstack=False):
    """Prints `block` (to `fout`, stdout by default)."""
    print("{ // block %d" % block_idx, file=fout)
    indent = get_indent_space(1)
    variables = sorted(block.vars.items(), key=lambda item: item[0])
    for _, var in variables:
        print(indent + variable_to_code(var), file=fout)
    if variables:
        print("", file=fout)
    for op in block.ops:
        print(indent + op_to_code(op, skip_op_callstack), file=fout)
    print("}", file=fout)


def program_to_code(prog, fout=None, skip_op_callstack=True):
    """Prints every block of `prog`."""
    for idx, block in enumerate(prog.blocks):
        block_to_code(block, idx, fout, skip_op_callstack)
