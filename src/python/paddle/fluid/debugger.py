"""paddle.fluid.debugger (1.x): a program as pseudo code
(`pprint_program_codes`, `pprint_block_codes`) and a block as a Graphviz
graph (`draw_block_graphviz`).

The code lists a block's variables, then its ops, as 1.x wrote them:

    // block-0  parent--1
    // variables
    Tensor mul.x (tensor(type=float32, shape=[5, 10]))
    LoDTensor words (level=1, tensor(type=int64, shape=[-1, 1]))

    // operators
    mul.out = mul(X=mul.x, Y=mul.y) [{x_num_col_dims=1,...}]
    fill_constant_0.tmp_0 = 1.0 [shape=[1]]

Backward variables and ops (a name with `@GRAD`, a `*_grad` op) are left
out unless `show_backward`. As in 1.x, a variable that is not a tensor,
SelectedRows or tensor array has no line and makes the join fail
(TypeError), and a tensor array's line shows an empty tensor (1.x read
its description from the wrong field). 1.x listed variables and
attributes in the order of C++ hash maps; fluidc lists them in the
program's order.
"""
import re

from . import core
from .graphviz import GraphPreviewGenerator

_vartype2str_ = [
    "UNK", "LoDTensor", "SelectedRows", "FeedMinibatch", "FetchList", "StepScopes",
    "LodRankTable", "LoDTensorArray", "PlaceList",
]
_dtype2str_ = ["bool", "int16", "int32", "int64", "float16", "float32", "float64"]

_LOD_TENSOR = int(core.VarDesc.VarType.LOD_TENSOR)
_SELECTED_ROWS = int(core.VarDesc.VarType.SELECTED_ROWS)
_LOD_TENSOR_ARRAY = int(core.VarDesc.VarType.LOD_TENSOR_ARRAY)

reprtpl = "{ttype} {name} ({reprs})"


def repr_data_type(type):
    return _dtype2str_[type]


class _VarInfo(object):
    """What a variable's declaration says (1.x read it from the VarDesc
    proto)."""

    def __init__(self, block, name):
        desc, idx = block.program.desc, block.idx
        self.name = name
        self.type = desc.var_get(idx, name, "type")
        self.dtype = desc.var_get(idx, name, "dtype")
        self.shape = desc.var_get(idx, name, "shape") or []
        self.lod_level = desc.var_get(idx, name, "lod_level") or 0
        self.persistable = bool(desc.var_get(idx, name, "persistable"))


def repr_tensor(dtype, shape):
    return "tensor(type={}, shape={})".format(_dtype2str_[int(dtype or 0)], str(list(shape)))


def repr_lodtensor(var):
    if var.type != _LOD_TENSOR:
        return None
    level = var.lod_level
    reprs = repr_tensor(var.dtype, var.shape)
    return reprtpl.format(ttype="LoDTensor" if level > 0 else "Tensor", name=var.name,
                          reprs="level=%d, %s" % (level, reprs) if level > 0 else reprs)


def repr_selected_rows(var):
    if var.type != _SELECTED_ROWS:
        return None
    return reprtpl.format(ttype="SelectedRows", name=var.name,
                          reprs=repr_tensor(var.dtype, var.shape))


def repr_tensor_array(var):
    if var.type != _LOD_TENSOR_ARRAY:
        return None
    return reprtpl.format(ttype="TensorArray", name=var.name,
                          reprs="level=%d, %s" % (var.lod_level, repr_tensor(0, [])))


type_handlers = [repr_lodtensor, repr_selected_rows, repr_tensor_array]


def repr_var(var):
    for handler in type_handlers:
        res = handler(var)
        if res:
            return res


def _op_slots(block, index, outputs):
    """(slot, names) pairs, slots sorted by name (1.x's std::map)."""
    slots = block.program.desc.op_slots(block.idx, index, outputs)
    return [(k, list(slots[k])) for k in sorted(slots)]


def _is_op_backward(op_type, inputs, outputs):
    if op_type.endswith("_grad"):
        return True
    for slot, args in inputs + outputs:
        if "@GRAD" in slot or any("@GRAD" in a for a in args):
            return True
    return False


def _repr_op_fill_constant(optype, inputs, outputs, attrs):
    if optype == "fill_constant":
        return "{output} = {data} [shape={shape}]".format(
            output=",".join(outputs), data=attrs["value"], shape=str(attrs["shape"]))


op_repr_handlers = [_repr_op_fill_constant]


def _repr_value(key, value):
    if key == "dtype":
        value = repr_data_type(value)
    return str(value)


def _repr_op(block, index, inputs, outputs):
    desc, idx = block.program.desc, block.idx
    op_type = desc.op_type(idx, index)

    def args2value(args):
        return args[0] if len(args) == 1 else str(list(args))

    in_reprs = ["%s=%s" % (slot, args2value(args)) for slot, args in inputs]
    out_reprs = [args2value(args) for _, args in outputs]
    attrs, attr_dict = [], {}
    for name in desc.op_attr_names(idx, index):
        value = desc.op_attr(idx, index, name)
        attrs.append("%s=%s" % (name, _repr_value(name, value)))
        attr_dict[name] = value
    for handler in op_repr_handlers:
        res = handler(op_type, in_reprs, out_reprs, attr_dict)
        if res:
            return res
    return "{outputs} = {optype}({inputs}) [{attrs}]".format(
        outputs=", ".join(out_reprs), optype=op_type, inputs=", ".join(in_reprs),
        attrs="{%s}" % ",".join(attrs))


def pprint_program_codes(program_desc):
    """Each block of the program (a fluid.Program) as code."""
    return "\n".join(pprint_block_codes(program_desc.block(i))
                     for i in range(program_desc.desc.num_blocks()))


def pprint_block_codes(block_desc, show_backward=False):
    """One block (a fluid Block) as code."""
    block = block_desc
    var_reprs, op_reprs = [], []
    for name in block.program.desc.var_names(block.idx):
        if not show_backward and "@GRAD" in name:
            continue
        var_reprs.append(repr_var(_VarInfo(block, name)))
    for i in range(block.program.desc.op_count(block.idx)):
        inputs = _op_slots(block, i, False)
        outputs = _op_slots(block, i, True)
        if not show_backward and _is_op_backward(block.program.desc.op_type(block.idx, i), inputs,
                                                 outputs):
            continue
        op_reprs.append(_repr_op(block, i, inputs, outputs))
    tpl = "// block-{idx}  parent-{pidx}\n// variables\n{vars}\n\n// operators\n{ops}\n"
    return tpl.format(idx=block.idx, pidx=block.parent_idx, vars="\n".join(var_reprs),
                      ops="\n".join(op_reprs))


def _var_type_text(block, name):
    """The variable's type as protobuf text (`str(var.type)` in 1.x): the
    `type { ... }` part of its VarDesc text, unindented."""
    var = block.vars.get(name)
    if var is not None:
        text = var.to_string(True)
    else:
        text = block.program.desc.var_proto_text(block.idx, name)
    lines = text.split("\n")
    out, inside = [], False
    for line in lines:
        if not inside:
            if line == "type {":
                inside = True
            continue
        if line == "}":
            break
        out.append(line[2:])
    return "\n".join(out) + "\n"


def draw_block_graphviz(block, highlights=None, path="./temp.dot"):
    """Writes the block's graph to `path` (and starts `dot` to render it,
    as 1.x did). Names matching a regex of `highlights` are drawn orange."""
    graph = GraphPreviewGenerator("some graph")

    def need_highlight(name):
        if highlights is None:
            return False
        for pattern in highlights:
            assert type(pattern) is str
            if re.match(pattern, name):
                return True
        return False

    nodes = {}
    for name in block.program.desc.var_names(block.idx):
        if block.program.desc.var_get(block.idx, name, "persistable"):
            nodes[name] = graph.add_param(
                name, _var_type_text(block, name).replace("\n", "<br />", 1),
                highlight=need_highlight(name))
        else:
            nodes[name] = graph.add_arg(name, highlight=need_highlight(name))

    def link(op_node, args, op2var):
        for arg in args:
            if arg not in nodes:
                nodes[arg] = graph.add_arg(arg, highlight=need_highlight(arg))
            var_node = nodes[arg]
            highlight = need_highlight(op_node.description) or need_highlight(
                var_node.description)
            if op2var:
                graph.add_edge(op_node, var_node, highlight=highlight)
            else:
                graph.add_edge(var_node, op_node, highlight=highlight)

    for i in range(block.program.desc.op_count(block.idx)):
        op_type = block.program.desc.op_type(block.idx, i)
        op_node = graph.add_op(op_type, highlight=need_highlight(op_type))
        for _, args in _op_slots(block, i, False):
            link(op_node, args, False)
        for _, args in _op_slots(block, i, True):
            link(op_node, args, True)
    graph(path, show=False)
