"""The reference for `fluidc distribute` (issue 39): Paddle 3.3.1's own
collective transform of a compiled training program.

    oracle.py MAIN.pb STARTUP.pb NRANKS OUTDIR

Parses the two programs with Paddle, applies
`paddle.distributed.transpiler.collective.GradAllReduce(nrings=1)` as rank 0
of NRANKS trainers (endpoints 127.0.0.1:6170, 127.0.0.1:6171, ...;
wait_port=False), removes the stream-sync ops the transform inserts
(`c_sync_calc_stream`, `c_sync_comm_stream`: no CPU kernel, nothing to do
on CPU) and writes OUTDIR/main.pb and OUTDIR/startup.pb as
`program.desc.serialize_to_string()` bytes.

Paddle's transform gives (nrings=1):
- a `scale` (scale 1/NRANKS, op_role 1) right after each op whose op_role
  has both the Backward and the Loss bit (257), in place on its output;
- an `all_reduce` (ring_id 0, reduce_type 0 = SUM, op_role 1), in place on
  the grad, after each backward op (op_role & 1) with a non-empty
  op_role_var, one per [param, grad] pair. All of one op's all_reduces are
  inserted at the same index, so they come out in REVERSE pair order:
  while_grad's [b, b@GRAD, w1, w1@GRAD, w0, w0@GRAD] gives all_reduce
  w0@GRAD, w1@GRAD, b@GRAD;
- at the end of the startup program a `broadcast` (ring_id 0, root 0,
  op_role 0), in place, per parameter in `block.iter_parameters()` order:
  for a parsed program that is the order of the C++ BlockDesc's std::map,
  the parameter names sorted bytewise (fc_0.b_0 before fc_0.w_0), whatever
  the order of the file.
"""

import os
import sys
import warnings
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

import paddle  # noqa: E402
from paddle.distributed.transpiler.collective import GradAllReduce  # noqa: E402

paddle.enable_static()

SYNC_OPS = ("c_sync_calc_stream", "c_sync_comm_stream")


def load(path):
    return paddle.static.Program.parse_from_string(Path(path).read_bytes())


def drop_sync_ops(program):
    for block in program.blocks:
        for idx in reversed(range(len(block.ops))):
            if block.ops[idx].type in SYNC_OPS:
                block._remove_op(idx)
    program.desc.flush()


def transform(main_bytes, startup_bytes, nranks):
    """(main, startup) Programs as GradAllReduce(nrings=1) leaves them, less the sync ops."""
    main = paddle.static.Program.parse_from_string(main_bytes)
    startup = paddle.static.Program.parse_from_string(startup_bytes)
    endpoints = ["127.0.0.1:%d" % (6170 + i) for i in range(nranks)]
    GradAllReduce(nrings=1).transpile(
        startup_program=startup,
        main_program=main,
        rank=0,
        endpoints=endpoints,
        current_endpoint=endpoints[0],
        wait_port=False,
    )
    drop_sync_ops(main)
    drop_sync_ops(startup)
    return main, startup


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: oracle.py MAIN.pb STARTUP.pb NRANKS OUTDIR")
    main_path, startup_path, nranks, outdir = sys.argv[1:]
    try:
        nranks = int(nranks)
    except ValueError:
        sys.exit(f"oracle.py: NRANKS must be an integer, not {nranks!r}")
    if nranks < 2:
        sys.exit("oracle.py: NRANKS must be at least 2 (GradAllReduce refuses one endpoint)")
    main_prog, startup_prog = transform(
        Path(main_path).read_bytes(), Path(startup_path).read_bytes(), nranks
    )
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "main.pb").write_bytes(main_prog.desc.serialize_to_string())
    (out / "startup.pb").write_bytes(startup_prog.desc.serialize_to_string())


if __name__ == "__main__":
    main()
