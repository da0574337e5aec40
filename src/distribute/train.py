"""Data-parallel trainer for programs written by `fluidc distribute`.

`fluidc distribute MAIN.pb --startup STARTUP.pb --nranks N -o DIR` writes
DIR/main.pb and DIR/startup.pb, the programs of one trainer as Paddle's
collective GradAllReduce transform writes them, and this file as DIR/train.py.
PaddlePaddle 3.3.1 (CPU, gloo) runs the trainers. On one machine:

    python -m paddle.distributed.launch --nproc_per_node N DIR/train.py \\
        --steps S --feed x=x.npy --feed y=y.npy --out result

On two machines (run the same command on each; the first IP is rank 0's):

    python -m paddle.distributed.launch --ips IP0,IP1 --nproc_per_node 1 \\
        DIR/train.py --steps S --feed x=x.npy --out result

Each of the N ranks loads main.pb and startup.pb from the directory this file
is in, connects to the others (a gloo communicator over a TCPStore that rank 0
serves at the launcher's master address; the store listens on all interfaces,
0.0.0.0, whatever address it is given), takes its shard of every feed (rank r
of N gets rows [r*B/N, (r+1)*B/N) of the B rows, so the N ranks together see
the batch one process would see), runs the startup program (whose broadcasts
give every rank rank 0's parameters), then S steps of the main program on the
same shard (whose all-reduces sum the gradients, scaled by 1/N). It writes
PREFIX.RANK.json:

    {"loss": [the loss of each step], "params": {name: [flat values]},
     "loss_name": ..., "rank": r, "nranks": N}

The mean of the ranks' losses at a step is the loss `fluidc run main.pb
--startup startup.pb --steps S` prints for the whole batch (the untransformed
programs), and all ranks end with the same parameters.

Only paddle and numpy are needed. Exit status: 0 on success, 2 for bad
arguments or programs that do not fit the launch (for example a batch that N
does not divide, or programs transformed for another number of ranks).
"""

import argparse
import json
import os
import sys
import warnings

os.environ["FLAGS_enable_pir_api"] = "0"  # ProgramDesc programs: must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402

OP_ROLE_BACKWARD = 0x0001
OP_ROLE_LOSS = 0x0100
# Ops the collective transform inserts for GPU streams: no CPU kernel, and
# nothing to wait for on CPU.
STREAM_SYNC_OPS = ("c_sync_calc_stream", "c_sync_comm_stream")
COLLECTIVE_OPS = ("all_reduce", "broadcast", "c_allreduce_sum", "c_broadcast")

HERE = os.path.dirname(os.path.abspath(__file__))


class UsageError(Exception):
    """Arguments or programs that cannot be trained: exit status 2."""


def read_feeds(items, error):
    """{name: ndarray} from NAME=FILE.npy strings; `error(message)` does not return."""
    feeds = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            error(f"--feed {item!r}: expected NAME=FILE.npy")
        if not path.endswith(".npy"):
            error(f"--feed {item!r}: the value must be a .npy file")
        if name in feeds:
            error(f"--feed {name}: given twice")
        try:
            feeds[name] = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as e:
            error(f"--feed {item!r}: cannot read {path}: {e}")
    return feeds


class Job:
    """One training run: programs directory, steps, feeds, output prefix."""

    def __init__(self, programs, steps, feeds, out):
        self.programs, self.steps, self.feeds, self.out = programs, steps, feeds, out


def read_jobs(path, error):
    """Jobs from a --jobs JSON file (see --help)."""
    try:
        with open(path) as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        error(f"--jobs {path}: {e}")
    if not isinstance(spec, list) or not spec:
        error(f"--jobs {path}: expected a non-empty JSON list of objects")
    jobs = []
    for i, item in enumerate(spec):
        where = f"--jobs {path}: item {i}"
        if not isinstance(item, dict):
            error(f"{where}: expected an object")
        unknown = set(item) - {"programs", "steps", "feed", "out"}
        if unknown:
            error(f"{where}: unknown key(s) {sorted(unknown)}")
        for key in ("programs", "steps", "out"):
            if key not in item:
                error(f"{where}: missing {key!r}")
        steps, feed = item["steps"], item.get("feed", {})
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            error(f"{where}: steps must be an integer >= 1")
        if not isinstance(feed, dict) or not all(isinstance(v, str) for v in feed.values()):
            error(f"{where}: feed must map names to .npy paths")
        if not isinstance(item["programs"], str) or not isinstance(item["out"], str):
            error(f"{where}: programs and out must be strings")
        feeds = read_feeds([f"{k}={v}" for k, v in feed.items()],
                           lambda m, w=where: error(f"{w}: {m}"))
        jobs.append(Job(item["programs"], steps, feeds, item["out"]))
    return jobs


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="train.py",
        description=(
            "One rank of data-parallel training of the programs beside this "
            "file (main.pb, startup.pb, as `fluidc distribute` writes them) on "
            "PaddlePaddle 3.3.1's collective engine. Start it with "
            "`python -m paddle.distributed.launch --nproc_per_node N train.py ...` "
            "(one machine) or `... --ips IP0,IP1 ...` (several); the launcher "
            "tells each rank its rank, the number of ranks and the master address."
        ),
        epilog=(
            "Rank r of N feeds rows [r*B/N, (r+1)*B/N) of each feed's B rows, "
            "every step, and writes PREFIX.r.json: {\"loss\": [per step], "
            "\"params\": {name: [flat values]}, \"loss_name\", \"rank\", \"nranks\"}. "
            "Exit status 2: bad arguments, or programs that do not fit the launch."
        ),
    )
    parser.add_argument(
        "--steps", type=int, metavar="S",
        help="training steps: runs of the main program (S >= 1; required)",
    )
    parser.add_argument(
        "--feed", action="append", default=[], metavar="NAME=FILE.npy",
        help="feed variable NAME from a .npy file, sharded along axis 0 over "
        "the ranks (B rows, B divisible by the number of ranks); repeat for "
        "each input the program reads",
    )
    parser.add_argument(
        "--out", metavar="PREFIX",
        help="write the results to PREFIX.RANK.json (RANK = this trainer's "
        "rank; required)",
    )
    parser.add_argument(
        "--programs", default=HERE, metavar="DIR",
        help="the directory holding main.pb and startup.pb (default: the "
        "directory this file is in)",
    )
    parser.add_argument(
        "--vary-init", action="store_true",
        help="rank r adds r to every nonzero `seed` attribute of the startup "
        "program, so the ranks draw different initial values: a check that the "
        "startup program's broadcasts give every rank rank 0's parameters",
    )
    parser.add_argument(
        "--jobs", metavar="FILE.json",
        help="instead of --steps/--feed/--out/--programs: a JSON list of "
        "trainings run one after the other by the same trainers (one launch, "
        "one communicator), each {\"programs\": DIR, \"steps\": S, "
        "\"feed\": {NAME: FILE.npy}, \"out\": PREFIX}, in a fresh scope",
    )
    args = parser.parse_args(argv)
    if args.jobs is not None:
        given = [opt for opt, v in (("--steps", args.steps), ("--feed", args.feed),
                                    ("--out", args.out)) if v]
        if args.programs != HERE:
            given.append("--programs")
        if given:
            parser.error(f"--jobs replaces {', '.join(given)}: give one or the other")
        args.job_list = read_jobs(args.jobs, parser.error)
        return args
    if args.steps is None or args.out is None:
        parser.error("--steps and --out are required (or --jobs)")
    if args.steps < 1:
        parser.error(f"--steps must be at least 1, not {args.steps}")
    args.job_list = [Job(args.programs, args.steps, read_feeds(args.feed, parser.error), args.out)]
    return args


def launch_env():
    """(rank, nranks, master "host:port" or None) from paddle.distributed.launch's variables."""
    def number(var, default):
        text = os.environ.get(var)
        if text is None:
            return default
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"environment variable {var}={text!r} is not an integer")

    rank = number("PADDLE_TRAINER_ID", None)
    nranks = number("PADDLE_TRAINERS_NUM", None)
    if rank is None and nranks is None:
        rank, nranks = 0, 1  # started by hand, without the launcher: one rank
    elif rank is None or nranks is None:
        raise UsageError(
            "PADDLE_TRAINER_ID and PADDLE_TRAINERS_NUM must both be set "
            "(start train.py with python -m paddle.distributed.launch)"
        )
    if nranks < 1 or not 0 <= rank < nranks:
        raise UsageError(f"rank {rank} of {nranks} ranks: not a valid rank")
    # The master address as Paddle's own init_parallel_env finds it.
    addr, port = os.environ.get("MASTER_ADDR"), os.environ.get("MASTER_PORT")
    master = f"{addr}:{port}" if addr and port else os.environ.get("PADDLE_MASTER")
    if not master and os.environ.get("PADDLE_TRAINER_ENDPOINTS"):
        master = os.environ["PADDLE_TRAINER_ENDPOINTS"].split(",")[0]
    return rank, nranks, master or None


def load_program(paddle, path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}")
    try:
        return paddle.static.Program.parse_from_string(data)
    except Exception as e:  # Paddle raises its own error types for bad bytes
        raise UsageError(f"{path} is not a Paddle ProgramDesc: {e}")


def op_role(op):
    return int(op.attr("op_role")) if op.has_attr("op_role") else 0


def fetch_targets(block):
    """Names the block's own fetch ops target, in `col` order."""
    ops = [op for op in block.ops if op.type == "fetch"]
    return [op.input("X")[0] for op in sorted(ops, key=lambda op: op.attr("col"))]


def strip_ops(program, types):
    """Remove the ops of these types from every block; return how many."""
    removed = 0
    for block in program.blocks:
        for idx in reversed(range(len(block.ops))):
            if block.ops[idx].type in types:
                block._remove_op(idx)
                removed += 1
    program.desc.flush()
    return removed


def loss_grad_info(block):
    """(loss name, ranks the program was transformed for or None).

    The loss-gradient op has the Backward and Loss role bits (op_role 257);
    the transform puts `scale(1/N)` on its output right after it.
    """
    loss, nranks = None, None
    ops = block.ops
    for idx, op in enumerate(ops):
        role = op_role(op)
        if role & OP_ROLE_BACKWARD and role & OP_ROLE_LOSS and op.output_arg_names:
            grad = op.output_arg_names[0]
            if grad.endswith("@GRAD"):
                loss = grad[: -len("@GRAD")]
            nxt = ops[idx + 1] if idx + 1 < len(ops) else None
            if (nxt is not None and nxt.type == "scale"
                    and nxt.input("X") == [grad] and nxt.output("Out") == [grad]):
                scale = float(nxt.attr("scale"))
                if scale > 0:
                    nranks = int(round(1.0 / scale))
            break
    return loss, nranks


def ring_ids(programs):
    ids = set()
    for program in programs:
        for block in program.blocks:
            for op in block.ops:
                if op.type in COLLECTIVE_OPS:
                    ids.add(int(op.attr("ring_id")) if op.has_attr("ring_id") else 0)
    return sorted(ids) or [0]


def shard(feeds, rank, nranks):
    out = {}
    for name, arr in feeds.items():
        if arr.ndim == 0:
            raise UsageError(f"--feed {name}: a scalar has no rows to shard over {nranks} ranks")
        rows = arr.shape[0]
        if rows % nranks:
            raise UsageError(
                f"--feed {name}: {rows} rows do not split evenly over {nranks} ranks "
                f"(the batch must be a multiple of the number of ranks)"
            )
        per = rows // nranks
        out[name] = np.ascontiguousarray(arr[rank * per:(rank + 1) * per])
    return out


class Prepared:
    """A job's programs, loaded and checked, ready to train."""


def prepare(paddle, job, rank, nranks, vary_init):
    """Load and check one job's programs before any rank talks to another
    (every check gives every rank the same answer, so all stop together)."""
    main = load_program(paddle, os.path.join(job.programs, "main.pb"))
    startup = load_program(paddle, os.path.join(job.programs, "startup.pb"))
    block = main.global_block()

    loss, program_nranks = loss_grad_info(block)
    if program_nranks is not None and program_nranks != nranks:
        raise UsageError(
            f"the programs in {job.programs} were transformed for {program_nranks} "
            f"ranks (scale 1/{program_nranks} on the loss gradient), but the launch "
            f"has {nranks}: run `fluidc distribute --nranks {nranks}` again or "
            f"launch {program_nranks} trainers"
        )
    if program_nranks is None and nranks > 1:
        print(f"train.py: warning: {job.programs}/main.pb has no scale(1/N) after "
              "the loss gradient: not a program `fluidc distribute` wrote; each "
              "rank trains on its own shard", file=sys.stderr)

    feed = shard(job.feeds, rank, nranks)
    targets = fetch_targets(block)
    if loss in targets or (loss and not targets):
        fetch = loss
    elif targets:
        fetch = targets[0]
    else:
        raise UsageError(f"{job.programs}/main.pb has no fetch target and no "
                         "loss-gradient op (op_role 257): not a training program")
    strip_ops(main, ("feed", "fetch"))
    strip_ops(startup, ("feed", "fetch"))
    for prog, name in ((main, "main.pb"), (startup, "startup.pb")):
        if strip_ops(prog, STREAM_SYNC_OPS):
            print(f"train.py: removed the stream-sync ops of {job.programs}/{name} "
                  "(no CPU kernel, nothing to do on CPU)", file=sys.stderr)
    for name in feed:
        if not block.has_var(name):
            raise UsageError(f"--feed {name}: {job.programs}/main.pb has no variable {name!r}")

    if vary_init and rank:
        for op in startup.global_block().ops:
            if op.has_attr("seed") and int(op.attr("seed")) != 0:
                op._set_attr("seed", int(op.attr("seed")) + rank)

    p = Prepared()
    p.job, p.main, p.startup, p.feed, p.fetch = job, main, startup, feed, fetch
    return p


def connect(core, master, rank, nranks, rings):
    """A TCPStore served by rank 0 and one gloo communicator per ring the
    programs use (the collective ops find it by ring_id)."""
    if master is None:
        if nranks > 1:
            raise UsageError("no master address: set PADDLE_MASTER (or MASTER_ADDR "
                             "and MASTER_PORT), or start with paddle.distributed.launch")
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            master = f"127.0.0.1:{s.getsockname()[1]}"
    host, _, port = master.rpartition(":")
    if not host or not port.isdigit():
        raise UsageError(f"master address {master!r} is not HOST:PORT")
    timeout = int(os.environ.get("FLAGS_stop_check_timeout", "900"))
    store = core.TCPStore(host, int(port), rank == 0, nranks, timeout)
    for ring in rings:
        core.CommContextManager.create_gloo_comm_context(store, str(ring), rank, nranks)
    return store, timeout


def run_job(paddle, p, rank, nranks):
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(p.startup, scope=scope)
    losses = []
    for step in range(p.job.steps):
        value, = exe.run(p.main, feed=p.feed, fetch_list=[p.fetch], scope=scope)
        value = np.asarray(value)
        if value.size != 1:
            raise UsageError(f"the loss {p.fetch!r} has {value.size} values, not one")
        losses.append(float(value.reshape(-1)[0]))
        print(f"rank {rank} step {step}: {p.fetch} = {losses[-1]!r}", flush=True)

    params = {}
    for param in sorted(p.main.global_block().all_parameters(), key=lambda v: v.name):
        var = scope.find_var(param.name)
        if var is None:
            continue
        params[param.name] = np.asarray(var.get_tensor()).astype(np.float64).reshape(-1).tolist()

    path = f"{p.job.out}.{rank}.json"
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump({"loss": losses, "params": params, "loss_name": p.fetch,
                   "rank": rank, "nranks": nranks}, f)
    os.replace(path + ".tmp", path)


def train(args):
    rank, nranks, master = launch_env()

    import paddle
    from paddle.base import core

    paddle.enable_static()
    prepared = [prepare(paddle, job, rank, nranks, args.vary_init) for job in args.job_list]
    rings = ring_ids([prog for p in prepared for prog in (p.main, p.startup)])
    store, timeout = connect(core, master, rank, nranks, rings)
    for p in prepared:
        run_job(paddle, p, rank, nranks)

    # Rank 0 serves the store: it stays until every rank is done with it.
    store.add("train.py/done", 1)
    if rank == 0:
        import time
        deadline = time.time() + timeout
        while store.add("train.py/done", 0) < nranks and time.time() < deadline:
            time.sleep(0.05)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        train(args)
    except UsageError as e:
        print(f"train.py: error: {e}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
