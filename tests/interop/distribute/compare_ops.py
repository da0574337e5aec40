"""Op-for-op comparison of two ProgramDesc files (issue 39: fluidc distribute
against Paddle's GradAllReduce, tests/interop/distribute/oracle.py).

    compare_ops.py A.pb B.pb

For every block, op by op: the type, each input and output slot with its
variable names, and the attributes the collective transform sets or reads
(ring_id, root, scale, reduce_type, op_role, op_role_var). Prints each
difference and exits 1 if there is any, else prints "same" and exits 0.
"""

import os
import sys
import warnings
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402

paddle.enable_static()

ATTRS = ("ring_id", "root", "scale", "reduce_type", "op_role", "op_role_var")


def describe(op):
    """A comparable, printable summary of one OpDesc."""
    inputs = {slot: list(op.input(slot)) for slot in sorted(op.input_names())}
    outputs = {slot: list(op.output(slot)) for slot in sorted(op.output_names())}
    attrs = {}
    for name in ATTRS:
        if op.has_attr(name):
            value = op.attr(name)
            attrs[name] = list(value) if isinstance(value, (list, tuple)) else value
    return (op.type(), inputs, outputs, attrs)


def program_ops(path):
    desc = paddle.static.Program.parse_from_string(Path(path).read_bytes()).desc
    return [
        [describe(desc.block(b).op(i)) for i in range(desc.block(b).op_size())]
        for b in range(desc.num_blocks())
    ]


def show(d):
    kind, inputs, outputs, attrs = d
    return f"{kind} in={inputs} out={outputs} attrs={attrs}"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare_ops.py A.pb B.pb")
    a_path, b_path = sys.argv[1:]
    a, b = program_ops(a_path), program_ops(b_path)
    diffs = 0
    if len(a) != len(b):
        print(f"blocks: {a_path} has {len(a)}, {b_path} has {len(b)}")
        diffs += 1
    for bi, (a_ops, b_ops) in enumerate(zip(a, b)):
        if len(a_ops) != len(b_ops):
            print(f"block {bi}: {len(a_ops)} ops in A, {len(b_ops)} in B")
            diffs += 1
        for i in range(max(len(a_ops), len(b_ops))):
            x = a_ops[i] if i < len(a_ops) else None
            y = b_ops[i] if i < len(b_ops) else None
            if x != y:
                diffs += 1
                print(f"block {bi} op {i}:")
                print(f"  A: {show(x) if x else '(none)'}")
                print(f"  B: {show(y) if y else '(none)'}")
    if diffs:
        print(f"{diffs} difference(s)")
        sys.exit(1)
    print("same")


if __name__ == "__main__":
    main()
