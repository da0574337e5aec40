"""The protobuf text 1.x printed for programs, blocks, variables and ops.

1.x's `to_string` printed its framework.proto's messages in protobuf text
format. fluidc's descs are Paddle 3's messages (they are what fluidc
writes), whose native text (`program_proto_text()` and the others) spells
some fields differently; this module rewrites that text into 1.0-1.5's
fields:

- a variable's type is `LOD_TENSOR` with a `lod_tensor { tensor {...}
  lod_level: N }` (`LOD_TENSOR_ARRAY` with `tensor_array {...}`), where
  Paddle 3 says `DENSE_TENSOR`, `dense_tensor` and `legacy_lod_level`;
- a VarDesc has `name`, `type` and `persistable` only (Paddle 3 added
  `need_check_feed`, `is_parameter`, `stop_gradient` and `attrs`);
- a block's variables come sorted by name (see below);
- an op has no `op_device` and `with_quant_attr` attributes (Paddle
  1.7+ gives every op those);
- a program ends with `version { version: 0 }`, as 1.0-1.5's
  `ProgramDesc()` set it.

What stays Paddle 3's: the other slots and attributes Paddle 3 gives an
op (an op's text lists the slots and attributes fluidc's op has), the
`op_callstack` lines, and whether `lod_level` and `persistable` are
printed (1.x printed each only when the Python side or the op's
InferShape had set it). 1.x's BlockDesc and OpDesc kept variables and
attributes in `std::unordered_map`s, so 1.x printed them in libstdc++'s
hash order; a block's variables print sorted by name here (as Paddle 3
prints them), its attributes in fluidc's order.
"""

_VAR_TYPES = {"DENSE_TENSOR": "LOD_TENSOR", "DENSE_TENSOR_ARRAY": "LOD_TENSOR_ARRAY"}
_VAR_FIELDS = ("name", "type", "persistable")
_NEW_OP_ATTRS = ('"op_device"', '"with_quant_attr"')


def _parse(text):
    """The text as a list of `[key, value]` nodes: value is the scalar's
    text, or the list of a message's nodes."""
    root = []
    stack = [root]
    for line in text.split("\n"):
        t = line.strip()
        if not t:
            continue
        if t == "}":
            if len(stack) > 1:
                stack.pop()
            continue
        if t.endswith(" {") and t[:-2].isidentifier():
            node = [t[:-2], []]
            stack[-1].append(node)
            stack.append(node[1])
            continue
        key, _, value = t.partition(": ")
        stack[-1].append([key, value])
    return root


def _emit(nodes, depth, out):
    pad = "  " * depth
    for key, value in nodes:
        if isinstance(value, list):
            out.append("%s%s {\n" % (pad, key))
            _emit(value, depth + 1, out)
            out.append("%s}\n" % pad)
        else:
            out.append("%s%s: %s\n" % (pad, key, value))


def _text(nodes):
    out = []
    _emit(nodes, 0, out)
    return "".join(out)


def _lod_desc(nodes):
    """A DenseTensorDesc / DenseTensorArrayDesc as 1.x's LoDTensorDesc."""
    return [["lod_level", v] if k == "legacy_lod_level" else [k, v] for k, v in nodes]


def _var_type(nodes):
    out = []
    for key, value in nodes:
        if key == "type":
            value = _VAR_TYPES.get(value, value)
        elif key == "dense_tensor":
            key, value = "lod_tensor", _lod_desc(value)
        elif key == "tensor_array":
            value = _lod_desc(value)
        elif key == "reader":
            value = [["lod_tensor", _lod_desc(v)] if k == "dense_tensor" else [k, v]
                     for k, v in value]
        out.append([key, value])
    return out


def _var(nodes):
    return [[k, _var_type(v) if k == "type" else v] for k, v in nodes if k in _VAR_FIELDS]


def _op(nodes):
    out = []
    for key, value in nodes:
        if key == "attrs" and any(k == "name" and v in _NEW_OP_ATTRS for k, v in value):
            continue
        out.append([key, value])
    return out


def _var_name(node):
    for key, value in node[1]:
        if key == "name":
            return value
    return ""


def _block(nodes):
    out = []
    vars_at = None
    variables = []
    for key, value in nodes:
        if key == "vars":
            if vars_at is None:
                vars_at = len(out)
            variables.append(["vars", _var(value)])
            continue
        out.append([key, _op(value) if key == "ops" else value])
    if vars_at is not None:
        variables.sort(key=_var_name)
        out[vars_at:vars_at] = variables
    return out


def _program(nodes):
    out = [[k, _block(v) if k == "blocks" else v] for k, v in nodes
           if k not in ("version", "op_version_map")]
    out.append(["version", [["version", "0"]]])
    return out


def program_text(text):
    """1.x's text of a ProgramDesc from fluidc's native text."""
    return _text(_program(_parse(text)))


def block_text(text):
    return _text(_block(_parse(text)))


def var_text(text):
    return _text(_var(_parse(text)))


def op_text(text):
    return _text(_op(_parse(text)))
