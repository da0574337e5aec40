"""Compare the program fluidc built with the one real Paddle built.

    compare.py FLUIDC.json PADDLE.json [--ignore-attr OP.ATTR]...

Both files are `fluidc dump --format json` output: FLUIDC.json from the script,
PADDLE.json from build_with_paddle.py. fluidc promises the program Paddle's
Python would have built (ARCHITECTURE.md); this checks it, block by block:
- the same number of blocks, with the same parent_idx;
- the same sequence of op types;
- per op, the same input/output slots and argument lists (Paddle's Operator
  writes every slot its proto declares, so an empty slot equals a missing one;
  the X/Out of `while` and Input/Out of `conditional_block` are compared as
  sets, because Paddle 1.x collected them in Python sets);
- both ops have the same attributes with the same types and values (fluidc
  fills the proto's defaults as Paddle's Python does), except `op_callstack`;
- the same variable names per block, and for each the same variable type,
  persistable and need_check_feed flags, dtype and dims (where fluidc declares
  a tensor). stop_gradient is not compared: 1.x kept it in Python only, and
  Paddle 3's append_op rewrites it (pass_stop_gradient).
Prints every difference and exits 1, or prints OK and exits 0.
"""

import argparse
import difflib
import json
import sys

UNORDERED = {("while", "X"), ("while", "Out"),
             ("conditional_block", "Input"), ("conditional_block", "Out")}
# The field of Attr that holds the value, per AttrType.
VALUE_FIELD = {
    "INT": "i", "FLOAT": "f", "STRING": "s", "INTS": "ints", "FLOATS": "floats",
    "STRINGS": "strings", "BOOLEAN": "b", "BOOLEANS": "bools", "BLOCK": "block_idx",
    "LONG": "l", "BLOCKS": "blocks_idx", "LONGS": "longs", "FLOAT64S": "float64s",
    "VAR": "var_name", "VARS": "vars_name", "FLOAT64": "float64", "SCALAR": "scalar",
    "SCALARS": "scalars",
}
DEFAULTS = {"i": 0, "f": 0, "s": "", "b": False, "block_idx": 0, "l": "0", "float64": 0}


def attr_value(attr):
    field = VALUE_FIELD.get(attr.get("type"), "?")
    return attr.get(field, DEFAULTS.get(field, []))


def slots(op, key):
    """{parameter: arguments}, empty slots left out."""
    return {s["parameter"]: s.get("arguments", []) for s in op.get(key, []) if s.get("arguments")}


def describe(op):
    outs = [a for s in op.get("outputs", []) for a in s.get("arguments", [])]
    return f"{op['type']} -> {', '.join(outs) or '()'}"


def compare_op(where, a, b, ignore, out):
    for key in ("inputs", "outputs"):
        sa, sb = slots(a, key), slots(b, key)
        for param in sorted(set(sa) | set(sb)):
            xa, xb = sa.get(param, []), sb.get(param, [])
            if (a["type"], param) in UNORDERED:
                xa, xb = sorted(xa), sorted(xb)
            if xa != xb:
                out.append(f"{where}: {key[:-1]} {param}: fluidc {xa} vs paddle {xb}")
    attrs_b = {x["name"]: x for x in b.get("attrs", [])}
    for attr in a.get("attrs", []):
        name = attr["name"]
        if name == "op_callstack" or f"{a['type']}.{name}" in ignore:
            continue
        other = attrs_b.get(name)
        if other is None:
            out.append(f"{where}: attr {name}: fluidc {attr['type']} {attr_value(attr)!r}, paddle has none")
        elif (attr["type"], attr_value(attr)) != (other["type"], attr_value(other)):
            out.append(f"{where}: attr {name}: fluidc {attr['type']} {attr_value(attr)!r} "
                       f"vs paddle {other['type']} {attr_value(other)!r}")
    # fluidc fills every default as Paddle's Python does, so an attribute
    # only Paddle has is a difference too.
    # Paddle's runtime-only extras (use_mkldnn, ...) are not in the op proto,
    # and Paddle fills them on load: they are not compared.
    names_a = {x["name"] for x in a.get("attrs", [])}
    for name in sorted(set(attrs_b) - names_a - runtime_extras(a["type"])):
        if name != "op_callstack" and f"{a['type']}.{name}" not in ignore:
            out.append(f"{where}: attr {name}: paddle has it, fluidc has none")


def runtime_extras(op_type):
    """The attributes Paddle adds to an op at run time (not in its proto)."""
    if op_type not in _EXTRAS:
        try:
            from paddle.base import core
            _EXTRAS[op_type] = set(core.get_op_extra_attrs(op_type))
        except Exception:  # an op Paddle does not know (2018 CSP ops)
            _EXTRAS[op_type] = set()
    return _EXTRAS[op_type]


_EXTRAS = {}


def compare_ops(idx, ops_a, ops_b, ignore, out):
    types_a, types_b = [o["type"] for o in ops_a], [o["type"] for o in ops_b]
    matcher = difflib.SequenceMatcher(a=types_a, b=types_b, autojunk=False)
    if types_a != types_b:
        out.append(f"block {idx}: op sequences differ (- fluidc, + paddle):")
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                out += [f"    - [{i}] {describe(ops_a[i])}" for i in range(i1, i2)]
                out += [f"    + [{j}] {describe(ops_b[j])}" for j in range(j1, j2)]
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                where = f"block {idx} op {i} ({describe(ops_a[i])})"
                compare_op(where, ops_a[i], ops_b[j], ignore, out)


def var_facts(var):
    ty = var.get("type", {})
    facts = {"type": ty.get("type"), "persistable": bool(var.get("persistable", False)),
             "need_check_feed": bool(var.get("need_check_feed", False))}
    tensor = (ty.get("dense_tensor") or {}).get("tensor")
    if tensor is not None:
        facts["dtype"] = tensor.get("data_type")
        facts["dims"] = [int(d) for d in tensor.get("dims", [])]
    return facts


def compare_vars(idx, vars_a, vars_b, out):
    va = {v["name"]: v for v in vars_a}
    vb = {v["name"]: v for v in vars_b}
    only_a, only_b = sorted(set(va) - set(vb)), sorted(set(vb) - set(va))
    if only_a:
        out.append(f"block {idx}: vars only fluidc declares: {only_a}")
    if only_b:
        out.append(f"block {idx}: vars only paddle declares: {only_b}")
    for name in sorted(set(va) & set(vb)):
        fa, fb = var_facts(va[name]), var_facts(vb[name])
        for key, value in fa.items():
            # fluidc infers no shape for outputs of a raw append_op: [] there
            # means "not inferred", while Paddle runs its C++ InferShape.
            if key == "dims" and value == []:
                continue
            if fb.get(key) != value:
                out.append(f"block {idx} var {name}: {key}: fluidc {value} vs paddle {fb.get(key)}")


def compare(a, b, ignore):
    out = []
    blocks_a, blocks_b = a.get("blocks", []), b.get("blocks", [])
    if len(blocks_a) != len(blocks_b):
        out.append(f"block count: fluidc {len(blocks_a)} vs paddle {len(blocks_b)}")
    for ba, bb in zip(blocks_a, blocks_b):
        idx = ba.get("idx", 0)
        if ba.get("parent_idx") != bb.get("parent_idx"):
            out.append(f"block {idx}: parent_idx fluidc {ba.get('parent_idx')} vs paddle {bb.get('parent_idx')}")
        compare_ops(idx, ba.get("ops", []), bb.get("ops", []), ignore, out)
        compare_vars(idx, ba.get("vars", []), bb.get("vars", []), out)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fluidc_json")
    parser.add_argument("paddle_json")
    parser.add_argument("--ignore-attr", action="append", default=[], metavar="OP.ATTR",
                        help="do not check this attribute of this op type")
    args = parser.parse_args()
    with open(args.fluidc_json) as fa, open(args.paddle_json) as fb:
        diffs = compare(json.load(fa), json.load(fb), set(args.ignore_attr))
    for line in diffs:
        print(line)
    if diffs:
        print(f"MISMATCH: {len(diffs)} difference(s)")
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
