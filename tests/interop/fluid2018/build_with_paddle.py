"""Build a fluid model.py with real Paddle and write it as fluidc's dump JSON.

    build_with_paddle.py SCRIPT OUT.json [--fluidc PATH] [--pb OUT.pb]
                         [--startup-out STARTUP.json [--startup-pb STARTUP.pb]]

The Paddle side of fluidc's differential check: SCRIPT runs with the
`paddle.fluid` shim (paddle_fluid_shim.py) installed, in legacy static mode,
until its first `exe.run` of a program other than its startup program
(README, "Run mode"). That program (else the default main program) is then finished
exactly as fluidc's front end finishes its output (src/front/mod.rs `finish`
and `add_feed_fetch`), so the two can be compared op by op:
- the startup program's variables and ops go first into block 0 (with
  --startup-out it is written apart instead, untouched);
- one `feed` op per fed name (attribute `col` = position) goes before them,
  last column first, as Paddle's executor prepends them one by one;
- one `fetch` op per fetch target goes last; `feed`/`fetch` are persistable
  FEED_MINIBATCH / FETCH_LIST holder variables.
The bytes are printed with `fluidc dump - --format json --stage parsed`, so both
sides of the comparison go through the same JSON writer.
"""

import argparse
import os
import runpy
import subprocess
import sys
import warnings
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paddle_fluid_shim as shim  # noqa: E402
from paddle.base.proto import framework_pb2 as pb  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
FLUIDC = REPO / "target" / "debug" / "fluidc"


def holder(name, var_type):
    var = pb.VarDesc(name=name, persistable=True)
    var.type.type = var_type
    return var


def io_op(op_type, x, out, col):
    op = pb.OpDesc(type=op_type)
    op.inputs.add(parameter="X", arguments=[x])
    op.outputs.add(parameter="Out", arguments=[out])
    op.attrs.add(name="col", type=pb.INT, i=col)
    return op


def finished_program(main, startup, feed, fetch, merge=True):
    """The ProgramDesc bytes fluidc would write for this run (no passes);
    without `merge` (`--startup-out`), the startup program stays apart."""
    program = pb.ProgramDesc.FromString(main.desc.serialize_to_string())
    init = pb.ProgramDesc.FromString(startup.desc.serialize_to_string())
    if merge and len(init.blocks) > 1:
        raise SystemExit("error: the startup program has control flow; fluidc merges only a flat one")
    block = program.blocks[0]
    if merge:
        declared = {v.name for v in block.vars}
        for var in init.blocks[0].vars:
            if var.name not in declared:
                block.vars.add().CopyFrom(var)
    # Paddle's executor prepends each feed op in turn: the last column first.
    ops = [io_op("feed", "feed", name, col) for col, name in reversed(list(enumerate(feed)))]
    ops += (list(init.blocks[0].ops) if merge else []) + list(block.ops)
    ops += [io_op("fetch", name, "fetch", col) for col, name in enumerate(fetch)]
    del block.ops[:]
    block.ops.extend(ops)
    if feed:
        block.vars.append(holder("feed", pb.VarType.FEED_MINIBATCH))
    if fetch:
        block.vars.append(holder("fetch", pb.VarType.FETCH_LIST))
    return program.SerializeToString()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("script")
    parser.add_argument("out")
    parser.add_argument("--fluidc", default=str(FLUIDC))
    parser.add_argument("--pb", help="also write the program bytes here")
    parser.add_argument("--startup-out", metavar="STARTUP.json",
                        help="write the startup program here, apart (as `fluidc dump "
                             "--startup-out` does), instead of merging it into block 0")
    parser.add_argument("--startup-pb", help="with --startup-out, also write its bytes here")
    args = parser.parse_args()

    shim.install()
    script = str(Path(args.script).resolve())
    sys.path.insert(0, str(Path(script).parent))
    sys.argv = [script]
    try:
        runpy.run_path(script, run_name="__main__")
    except shim.StopBuild:
        pass

    main_program, startup, feed, fetch = shim.result()
    split = args.startup_out is not None
    data = finished_program(main_program, startup, feed, fetch, merge=not split)
    if args.pb:
        Path(args.pb).write_bytes(data)
    Path(args.out).write_bytes(to_json(args.fluidc, data))
    if split:
        init = startup.desc.serialize_to_string()
        if args.startup_pb:
            Path(args.startup_pb).write_bytes(init)
        Path(args.startup_out).write_bytes(to_json(args.fluidc, init))


def to_json(fluidc, data):
    dump = subprocess.run(
        [fluidc, "dump", "-", "--format", "json", "--stage", "parsed"],
        input=data, capture_output=True,
    )
    if dump.returncode != 0:
        sys.stderr.write(dump.stderr.decode())
        raise SystemExit(f"error: fluidc could not read the program Paddle built ({dump.returncode})")
    return dump.stdout


if __name__ == "__main__":
    main()
