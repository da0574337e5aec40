"""Interop test of data-parallel training (issue 39): fluidc's programs on
PaddlePaddle 3.3.1's collective engine, 2 trainer processes on one machine.

    run_case.py --fluidc target/debug/fluidc [--control] [CASE.py ...]

Run it with the interop venv (target/interop-venv/bin/python): it needs
Paddle. CASEs default to the five of CASES below. For each case:

1. `fluidc compile CASE.py -o main.pb --startup-out startup.pb`;
2. the script's feed: the script runs with the fluid2018 shim until its first
   `exe.run` of the main program, whose feed dict is saved as NAME.npy;
3. the trainer programs: `fluidc distribute main.pb --startup startup.pb
   --nranks N -o dist`, whose output must be op for op Paddle's
   GradAllReduce less the stream-sync ops (oracle.py, compare_ops.py), with
   src/distribute/train.py; `fluidc run dist/main.pb --nranks N` must give
   the losses Paddle's trainers give;
4. `python -m paddle.distributed.launch --nproc_per_node N --log_dir LOG
   dist/train.py ... --vary-init`: ONE launch trains every case in turn
   (train.py --jobs), a second launch trains the first case with the issue's
   command line (--steps/--feed/--out), which must give the same numbers;
   --vary-init gives rank r > 0 other initial values, so only the startup
   program's broadcasts make the ranks agree;
5. the check: at every step the mean of the ranks' losses equals what
   `fluidc run main.pb --startup startup.pb --steps S --format json` prints
   for the whole batch (the untransformed programs, one process) within 1e-5
   relative, and the ranks end with bit-identical parameters.

Prints one line per case; exit 0 when every case passes. With --control the
trainers run the UNtransformed programs, and each case must FAIL the check
(exit 0 only then): the proof that the check can tell a wrong setup.
"""

import argparse
import json
import math
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
TRAIN_PY = REPO / "src" / "distribute" / "train.py"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "fluid2018"))

import numpy as np  # noqa: E402

import compare_ops  # noqa: E402
import oracle  # noqa: E402
import paddle_fluid_shim as shim  # noqa: E402

RTOL = 1e-5

# The models the issue names, each a training script whose batch 2 divides
# and whose startup program is seeded: SGD, Adam, a weight shared by two
# layers (its gradient from `sum`), an embedding with Adagrad, and a
# While-loop RNN (parameter gradients from while_grad).
CASES = [
    "distribute/sgd_regression.py",
    "train/mlp_adam.py",
    "train/fan_in.py",
    "train/embed_adagrad.py",
    "distribute/while_rnn.py",
]


class Failed(Exception):
    pass


def run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise Failed(f"`{' '.join(map(str, cmd))}` exited {p.returncode}:\n{p.stdout}{p.stderr}")
    return p.stdout


def capture_feeds(script, outdir):
    """The feed of the script's first run of a non-startup program, as NAME.npy files."""
    shim.install(run=False)
    captured = {}

    def recording_run(self, program=None, feed=None, fetch_list=None, *args, **kwargs):
        if feed:
            captured.update({k: np.asarray(v) for k, v in feed.items()})
            raise shim.StopBuild()
        return []  # the startup program

    saved = shim.Executor.run
    shim.Executor.run = recording_run
    argv = sys.argv
    try:
        sys.argv = [str(script)]
        runpy.run_path(str(script), run_name="__main__")
    except shim.StopBuild:
        pass
    finally:
        shim.Executor.run = saved
        sys.argv = argv
    if not captured:
        raise Failed(f"{script}: no exe.run with a feed")
    feeds = {}
    for name, arr in captured.items():
        path = outdir / f"{name}.npy"
        np.save(path, arr)
        feeds[name] = str(path)
    return feeds


def op_diff(a, b):
    """compare_ops' differences between two program files, as text ('' if none)."""
    x, y = compare_ops.program_ops(a), compare_ops.program_ops(b)
    lines = []
    for bi in range(max(len(x), len(y))):
        xo = x[bi] if bi < len(x) else []
        yo = y[bi] if bi < len(y) else []
        for i in range(max(len(xo), len(yo))):
            u = xo[i] if i < len(xo) else None
            v = yo[i] if i < len(yo) else None
            if u != v:
                lines.append(f"block {bi} op {i}: fluidc {compare_ops.show(u) if u else '(none)'}"
                             f" / Paddle {compare_ops.show(v) if v else '(none)'}")
    return "\n".join(lines)


def prepare(case, args, work):
    """Compile, capture the feed, write the trainer programs; a dict describing the case."""
    name = case.stem
    d = work / name
    d.mkdir(parents=True)
    main, startup = d / "main.pb", d / "startup.pb"
    run([args.fluidc, "compile", case, "-o", main, "--startup-out", startup])
    feeds = capture_feeds(case, d)
    for path in feeds.values():
        rows = np.load(path).shape[0] if np.load(path).ndim else 0
        if rows % args.nranks:
            raise Failed(f"{case}: feed {path} has {rows} rows, not a multiple of {args.nranks}")
    dist = d / ("control" if args.control else "dist")
    if args.control:
        dist.mkdir()
        shutil.copy(main, dist / "main.pb")
        shutil.copy(startup, dist / "startup.pb")
        shutil.copy(TRAIN_PY, dist / "train.py")
    else:
        paddle_main, paddle_startup = oracle.transform(main.read_bytes(), startup.read_bytes(),
                                                       args.nranks)
        ref = d / "oracle"
        ref.mkdir()
        (ref / "main.pb").write_bytes(paddle_main.desc.serialize_to_string())
        (ref / "startup.pb").write_bytes(paddle_startup.desc.serialize_to_string())
        run([args.fluidc, "distribute", main, "--startup", startup,
             "--nranks", args.nranks, "-o", dist])
        for f in ("main.pb", "startup.pb"):
            diff = op_diff(dist / f, ref / f)
            if diff:
                raise Failed(f"fluidc distribute's {f} is not Paddle's:\n{diff}")
        if (dist / "train.py").read_bytes() != TRAIN_PY.read_bytes():
            raise Failed("fluidc distribute's train.py is not src/distribute/train.py")
    reference = run([args.fluidc, "run", main, "--startup", startup, "--steps", args.steps,
                     "--format", "json"] + [a for n, p in feeds.items() for a in ("--feed", f"{n}={p}")])
    threads = None
    if not args.control:
        out = run([args.fluidc, "run", dist / "main.pb", "--startup", dist / "startup.pb",
                   "--nranks", args.nranks, "--steps", args.steps, "--format", "json"]
                  + [a for n, p in feeds.items() for a in ("--feed", f"{n}={p}")])
        threads = [json.loads(line) for line in out.splitlines() if line.strip()]
    return {"name": name, "dir": d, "dist": dist, "feeds": feeds, "threads": threads,
            "reference": [json.loads(line) for line in reference.splitlines() if line.strip()]}


def launch(args, work, tag, train_py, train_args):
    log = work / f"log-{tag}"
    cmd = [sys.executable, "-m", "paddle.distributed.launch", "--nproc_per_node", args.nranks,
           "--log_dir", log, train_py] + train_args + ["--vary-init"]
    start = time.time()
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                       timeout=args.timeout, cwd=work)
    took = time.time() - start
    if p.returncode != 0:
        logs = "".join(f"--- {f.name}\n{f.read_text()[-3000:]}" for f in sorted(log.glob("workerlog.*")))
        raise Failed(f"launch {tag} exited {p.returncode}:\n{p.stdout[-2000:]}{p.stderr[-2000:]}\n{logs}")
    return took


def check(case, prefix, args):
    """'' if the case passes, else what is wrong."""
    ranks = [json.loads(Path(f"{prefix}.{r}.json").read_text()) for r in range(args.nranks)]
    loss_name = ranks[0]["loss_name"]
    problems = []
    worst, off = 0.0, 0
    for step, line in enumerate(case["reference"]):
        want = [f for f in line["fetch"] if f["name"] == loss_name]
        if not want:
            return f"fluidc run fetches no {loss_name}"
        want = float(want[0]["data"][0])
        got = sum(r["loss"][step] for r in ranks) / len(ranks)
        rel = abs(got - want) / max(abs(want), 1e-30)
        worst = max(worst, rel)
        if not math.isclose(got, want, rel_tol=RTOL, abs_tol=0.0):
            if not off:
                first = f"step {step}: mean loss {got!r}, one process {want!r}"
            off += 1
    if off:
        problems.append(f"{off} of {len(case['reference'])} steps off (worst rel {worst:.1e}; {first})")
    if case.get("threads") is not None:
        # fluidc run --nranks N on the same trainer programs: each step's
        # line is the mean over its ranks, as Paddle's trainers give it.
        for step, line in enumerate(case["threads"]):
            ours = [f for f in line["fetch"] if f["name"] == loss_name]
            theirs = sum(r["loss"][step] for r in ranks) / len(ranks)
            if not ours or not math.isclose(float(ours[0]["data"][0]), theirs, rel_tol=RTOL):
                problems.append(f"fluidc run --nranks {args.nranks}, step {step}: "
                                f"{ours[0]['data'][0] if ours else 'no ' + loss_name} vs "
                                f"Paddle's trainers {theirs!r}")
                break
        case["threads_checked"] = True
    for r in ranks[1:]:
        names = sorted(set(r["params"]) | set(ranks[0]["params"]))
        differ = [n for n in names if r["params"].get(n) != ranks[0]["params"].get(n)]
        if differ:
            problems.append(f"rank {r['rank']}'s parameters differ from rank 0's "
                            f"({len(differ)} of {len(names)}: {', '.join(differ[:3])})")
    case["worst"] = worst
    case["nparams"] = len(ranks[0]["params"])
    return "; ".join(problems)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fluidc", required=True, help="the fluidc binary")
    parser.add_argument("--control", action="store_true",
                        help="train the untransformed programs: every case must fail")
    parser.add_argument("--steps", type=int, default=4, help="training steps (default 4)")
    parser.add_argument("--nranks", type=int, default=2, help="trainer processes (default 2)")
    parser.add_argument("--work", help="working directory (default: a new temporary one, "
                        "removed when every case passes)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per launch")
    parser.add_argument("cases", nargs="*", help="scripts (default: the five CASES)")
    args = parser.parse_args()
    args.fluidc = str(Path(args.fluidc).resolve())
    cases = [Path(c).resolve() for c in args.cases] or [REPO / "testdata" / c for c in CASES]
    work = Path(args.work).resolve() if args.work else Path(tempfile.mkdtemp(prefix="fluidc-distribute-"))
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    print("CONTROL: trainers on the untransformed programs" if args.control else
          "trainer programs from fluidc distribute, checked against Paddle's GradAllReduce")
    try:
        prepared = [prepare(c, args, work) for c in cases]
    except Failed as e:
        print(f"FAIL (preparing): {e}")
        return 1
    t_prep = time.time() - t0

    def train_args(case, out):
        return (["--programs", case["dist"], "--steps", args.steps, "--out", out]
                + [a for n, p in case["feeds"].items() for a in ("--feed", f"{n}={p}")])

    launches = []
    try:
        train_py = prepared[0]["dist"] / "train.py"
        jobs = [{"programs": str(c["dist"]), "steps": args.steps, "feed": c["feeds"],
                 "out": str(work / "out" / c["name"])} for c in prepared]
        (work / "jobs.json").write_text(json.dumps(jobs, indent=1))
        launches.append(launch(args, work, "jobs", train_py, ["--jobs", work / "jobs.json"]))
        for c in prepared:
            c["prefix"] = work / "out" / c["name"]
        if not args.control:
            # The command line (train.py beside its programs), first case.
            first = prepared[0]
            out = work / "plain" / first["name"]
            launches.append(launch(args, work, "plain", first["dist"] / "train.py",
                                   train_args(first, out)[2:]))
            for r in range(args.nranks):
                a = json.loads(Path(f"{out}.{r}.json").read_text())
                b = json.loads(Path(f"{first['prefix']}.{r}.json").read_text())
                if a != b:
                    print(f"FAIL: {first['name']}: rank {r}: the --jobs launch and the "
                          "plain command line give different results")
                    return 1
    except (Failed, subprocess.TimeoutExpired) as e:
        print(f"FAIL (launch): {e}")
        print(f"work directory kept: {work}")
        return 1

    bad = 0
    for case in prepared:
        problem = check(case, case["prefix"], args)
        if args.control:
            if problem:
                print(f"{case['name']}: control fails as expected: {problem}")
            else:
                bad += 1
                print(f"{case['name']}: FAIL: the untransformed programs passed the check")
        elif problem:
            bad += 1
            print(f"{case['name']}: FAIL: {problem}")
        else:
            print(f"{case['name']}: ok: {args.steps} steps, mean loss of {args.nranks} ranks "
                  f"within {case['worst']:.1e} of one process, {case['nparams']} parameters "
                  f"identical on every rank"
                  + ("; fluidc run --nranks gives the same losses" if case.get("threads_checked") else ""))
    total = time.time() - t0
    print(f"time: {total:.1f}s (compile, feeds and transform {t_prep:.1f}s; launches "
          + ", ".join(f"{t:.1f}s" for t in launches) + ")")
    if bad:
        print(f"work directory kept: {work}")
    elif not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
