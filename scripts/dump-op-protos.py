#!/usr/bin/env python3
"""Dumps Paddle 3.3.1's op protos for the ops fluidc knows, as JSON.

fluidc's op definitions (transpiler/src/ops/) take each op's input and
output slots and its attributes, with their types and defaults, from this
data instead of restating them, so that there is one definition per op and
it is Paddle's. The committed output is transpiler/data/op_protos.json; the
interop test `op_protos_match_paddle` re-runs this script against the venv
and fails when the data drifts from what Paddle reports.

Usage (with the interop venv's python, see scripts/setup-interop.sh):
    dump-op-protos.py [--add OP]... > transpiler/data/op_protos.json
The op list is the committed file's (so the data is refreshed in place);
--add puts more ops in it.

Per op: "inputs"/"outputs" as Paddle's OpProto lists them (name, duplicable,
dispensable, intermediate, extra), "attrs" in proto order with their AttrType
name, whether Paddle marks them extra (the framework's own: op_role,
op_callstack, ...), and their default from the op's attribute checker
(`core.get_op_attrs_default_value`), or no "default" when the attribute is
required.
"""

import argparse
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

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "transpiler", "data", "op_protos.json")


def slot(s):
    return {
        "name": s.name,
        "duplicable": s.duplicable,
        "dispensable": s.dispensable,
        "intermediate": s.intermediate,
        "extra": s.extra,
    }


def default_json(value):
    """Paddle's default as JSON: numbers, bools, strings and lists of them."""
    if isinstance(value, float) and value != value:
        return "nan"
    if isinstance(value, (list, tuple)):
        return [default_json(v) for v in value]
    return value


def dump(op, proto):
    defaults = core.get_op_attrs_default_value(op.encode())
    attrs = []
    for a in proto.attrs:
        entry = {
            "name": a.name,
            "type": framework_pb2.AttrType.Name(a.type),
            "extra": a.extra,
        }
        if a.name in defaults:
            entry["default"] = default_json(defaults[a.name])
        attrs.append(entry)
    return {
        "inputs": [slot(s) for s in proto.inputs],
        "outputs": [slot(s) for s in proto.outputs],
        "attrs": attrs,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--add", action="append", default=[], metavar="OP")
    args = parser.parse_args()
    with open(DATA) as f:
        names = set(json.load(f)["ops"])
    names.update(args.add)
    protos = {}
    for raw in core.get_all_op_protos():
        p = framework_pb2.OpProto.FromString(raw)
        protos[p.type] = p
    missing = sorted(n for n in names if n not in protos)
    if missing:
        sys.exit(f"Paddle {paddle.__version__} has no op proto for: {', '.join(missing)}")
    out = {"paddle": paddle.__version__, "ops": {n: dump(n, protos[n]) for n in sorted(names)}}
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
