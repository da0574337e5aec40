#!/usr/bin/env python3
"""Dumps Paddle 3.3.1's gradient makers for the ops fluidc knows, as JSON.

`append_backward` (docs/training.md) must build exactly the grad ops Paddle's
legacy `paddle.base.backward` builds. Paddle builds them in C++ (each op's
GradOpMaker, reached through `core.get_grad_op_desc`), so fluidc takes the
makers' shape from Paddle instead of restating it: for every op in
transpiler/data/op_protos.json this script builds one forward op with every
slot bound (two arguments in duplicable slots) and every attribute at its
default, asks Paddle for its grad ops, and records how each grad op's slots
map back to the forward op. The committed output is
transpiler/data/grad_makers.json; the interop test `grad_makers_match_paddle`
re-runs this script and fails on drift.

Usage (the interop venv's python, see scripts/setup-interop.sh):
    dump-grad-makers.py > transpiler/data/grad_makers.json

Per forward op, one of:
- "none": Paddle has no grad maker (the op cannot be on a gradient path);
- "blocks": the op runs sub-blocks; its grad (while_grad, ...) is built
  with the grads of its blocks, not recorded here;
- "empty": the maker makes nothing (the op stops gradients: fill_constant,
  accuracy, ...); `_find_op_path_` leaves such ops out;
- "py_func": py_func's maker, which reads the op's attributes (no grad op
  while backward_callable_id < 0, else one py_func calling that callable,
  whose X leaves out backward_skip_vars), so fluidc restates it
  (transpiler/src/backward.rs); this script checks that Paddle's still
  makes what that restatement makes;
- a list of grad ops, each {"type", "inputs", "outputs", "attrs"}: a slot
  maps to a list of references, each `[kind, forward slot]` standing for all
  arguments of that slot, where kind is "in" (a forward input), "out" (a
  forward output), "in@GRAD" or "out@GRAD" (their gradients); "attrs" holds
  the attributes the maker sets besides the forward op's (which every grad
  op copies), and "drops" the forward attributes it leaves out; "keeps_empty"
  (when there are any) lists the output slots where the maker keeps an
  `@EMPTY@` for an input whose gradient is not wanted (`InputGrad(name,
  false)`: concat's X@GRAD stays position for position), where other makers
  leave the name out.
"""

import json
import os
import sys
import warnings

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402,F401
from paddle.base import core  # noqa: E402
from paddle.base.proto import framework_pb2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROTOS = os.path.join(HERE, "..", "transpiler", "data", "op_protos.json")
GRAD = core.grad_var_suffix()


# Distinct values for required attributes, by AttrType, so that a maker that
# moves one attribute into another (cast swaps in_dtype and out_dtype) shows.
DUMMIES = {
    framework_pb2.INT: lambda k: 2 + k,
    framework_pb2.LONG: lambda k: 2 + k,
    framework_pb2.FLOAT: lambda k: 0.5 + k,
    framework_pb2.BOOLEAN: lambda k: False,
    framework_pb2.STRING: lambda k: f"s{k}",
    framework_pb2.INTS: lambda k: [2 + k],
    framework_pb2.LONGS: lambda k: [2 + k],
    framework_pb2.FLOATS: lambda k: [0.5 + k],
}


PERTURB = {
    framework_pb2.INT: lambda v: v + 3,
    framework_pb2.LONG: lambda v: v + 3,
    framework_pb2.FLOAT: lambda v: v + 0.25,
    framework_pb2.BOOLEAN: lambda v: not v,
}
FRAMEWORK = {"op_role", "op_role_var", "op_namescope", "op_callstack", "op_device",
             "with_quant_attr", "use_mkldnn", "use_cudnn"}


def args_of(kind, slot, duplicable):
    return [f"{kind}.{slot}.{k}" for k in range(2 if duplicable else 1)]


def json_value(value):
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return value


def refs(args, table):
    """The references `[kind, slot]` whose arguments, concatenated, are `args`."""
    out, i = [], 0
    while i < len(args):
        hit = None
        for (kind, slot), names in table.items():
            if args[i:i + len(names)] == names:
                hit = (kind, slot, names)
                break
        if hit is None:  # one argument of a duplicable slot (sum's maker)
            for (kind, slot), names in table.items():
                if args[i] in names and len(names) > 1:
                    hit = (kind, slot, [args[i]])
                    out.append([kind, slot, names.index(args[i])])
                    break
            if hit is None:
                return None
            i += 1
            continue
        out.append([hit[0], hit[1]])
        i += len(hit[2])
    return out


def py_func_maker():
    """Paddle's py_func grad maker, asked with and without a backward
    callable; exits when it no longer makes what "py_func" stands for."""
    desc = core.OpDesc()
    desc.set_type("py_func")
    desc.set_input("X", ["a", "b"])
    desc.set_output("Out", ["c", "d"])
    for name, value in core.get_op_attrs_default_value(b"py_func").items():
        desc._set_attr(name, value)
    none, _ = core.get_grad_op_desc(desc, set(), [])
    desc._set_attr("backward_callable_id", 3)
    desc._set_attr("backward_skip_vars", ["a", "d"])
    made, _ = core.get_grad_op_desc(desc, {"b@GRAD"}, [])
    got = [(g.type(), {s: g.input(s) for s in g.input_names()},
            {s: g.output(s) for s in g.output_names()},
            {n: g.attr(n) for n in g.attr_names()}) for g in made]
    want = [("py_func", {"X": ["b", "c", "c@GRAD", "d@GRAD"]},
             {"Out": ["a@GRAD", "@EMPTY@"]},
             {"forward_callable_id": 3, "backward_callable_id": -1})]
    if none or got != want:
        sys.exit(f"py_func: Paddle's grad maker changed: {got}")
    return "py_func"


def maker(op, proto):
    if op == "py_func":
        return py_func_maker()
    if any(a.type in (framework_pb2.BLOCK, framework_pb2.BLOCKS) for a in proto.attrs):
        return "blocks"
    if core.has_empty_grad_op_maker(op):
        return "empty"
    if not core.has_grad_op_maker(op):
        return "none"
    desc = core.OpDesc()
    desc.set_type(op)
    table = {}
    for kind, slots in (("in", proto.inputs), ("out", proto.outputs)):
        for s in slots:
            # Extra outputs (dropout's Mask, transpose2's XShape) are bound:
            # Paddle's Python writes them and their grad makers read them.
            if s.extra and kind == "in":
                continue
            names = args_of(kind, s.name, s.duplicable)
            table[(kind, s.name)] = names
            table[(kind + "@GRAD", s.name)] = [n + GRAD for n in names]
            (desc.set_input if kind == "in" else desc.set_output)(s.name, names)
    defaults = core.get_op_attrs_default_value(op.encode())
    required = {}
    for k, a in enumerate(proto.attrs):  # required attributes: distinct dummies
        if a.name not in defaults and a.type in DUMMIES:
            required[a.name] = DUMMIES[a.type](k)
    made = grad_ops(desc, proto, {**defaults, **required}, table, required, op)
    keeps_empty(desc, table, made)
    # Again with every plain attribute moved off its default: an attribute
    # whose grad value follows the forward one is copied, else it is the
    # maker's constant (scale's grad sets bias 0 whatever the forward's).
    moved = {a.name: PERTURB[a.type](defaults[a.name]) for a in proto.attrs
             if a.name in defaults and a.type in PERTURB and not a.extra
             and a.name not in FRAMEWORK}
    try:
        again = grad_ops(desc, proto, {**defaults, **required, **moved}, table, required, op)
    except Exception:
        again = None
    if again is not None and [g["type"] for g in again] == [g["type"] for g in made]:
        for g, h in zip(made, again):
            for n, v in h["attrs"].items():
                if n in moved and n not in g["attrs"]:
                    g["attrs"][n] = v  # constant, hidden by the default before
            for n, v in h["attrs"].items():
                if n in moved and g["attrs"].get(n) not in (None, v) and v == -moved[n]:
                    g["attrs"][n] = {"neg": n}  # increment's grad steps back
            for n in list(g["attrs"]):
                if n in moved and n not in h["attrs"]:
                    del g["attrs"][n]
    return per_argument(op, made)


def keeps_empty(desc, table, made):
    """Marks the output slots that keep `@EMPTY@`: asked again with the
    first argument of every input in the no-grad set, the maker writes
    `@EMPTY@` there instead of leaving the name out."""
    no_grad = {names[0] for (kind, _), names in table.items() if kind == "in@GRAD"}
    grads, _ = core.get_grad_op_desc(desc, no_grad, [])
    for g, entry in zip(grads, made):
        kept = sorted(slot for slot in g.output_names() if "@EMPTY@" in g.output(slot))
        if kept:
            entry["keeps_empty"] = kept


def grad_ops(desc, proto, attrs, table, required, op):
    for name, value in attrs.items():
        desc._set_attr(name, value)
    forward_attrs = {n: desc.attr(n) for n in desc.attr_names()}
    grads, _ = core.get_grad_op_desc(desc, set(), [])
    made = []
    for g in grads:
        entry = {"type": g.type(), "inputs": {}, "outputs": {}, "attrs": {}, "drops": []}
        for key, names_of in (("inputs", g.input), ("outputs", g.output)):
            for slot in (g.input_names() if key == "inputs" else g.output_names()):
                r = refs(list(names_of(slot)), table)
                if r is None:
                    sys.exit(f"{op}: grad op {g.type()} slot {slot} = {names_of(slot)} "
                             "does not map to whole forward slots")
                entry[key][slot] = r
        names = set(g.attr_names())
        for n in sorted(names):
            if n not in forward_attrs or g.attr(n) != forward_attrs[n]:
                source = [m for m, v in required.items() if m != n and v == g.attr(n)]
                entry["attrs"][n] = {"from": source[0]} if source else json_value(g.attr(n))
        entry["drops"] = sorted(n for n in forward_attrs if n not in names)
        made.append(entry)
    return made


def per_argument(op, made):
    """A maker that makes one grad op per argument of a duplicable slot
    (sum: one `scale` per input) is recorded once, with "each": the slot,
    and references `[kind, slot, "each"]` for the argument at hand."""
    indexed = [e for e in made if any(len(r) == 3 for rs in list(e["inputs"].values()) +
                                      list(e["outputs"].values()) for r in rs)]
    if not indexed:
        return made
    first = json.loads(json.dumps(indexed[0]))
    slot = None
    for rs in list(first["inputs"].values()) + list(first["outputs"].values()):
        for r in rs:
            if len(r) == 3:
                slot, r[2] = r[1], "each"
    if len(indexed) != len(made) or len(made) != 2:
        sys.exit(f"{op}: a per-argument maker fluidc cannot describe")
    first["each"] = slot
    return [first]


def main():
    with open(PROTOS) as f:
        ops = json.load(f)["ops"]
    protos = {}
    for raw in core.get_all_op_protos():
        p = framework_pb2.OpProto.FromString(raw)
        protos[p.type] = p
    out = {"paddle": paddle.__version__, "ops": {op: maker(op, protos[op]) for op in sorted(ops)}}
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
