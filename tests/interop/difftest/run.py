"""Differential tester: random Paddle 1.x training programs (gen.py) run in
fluidc and in CPython + Paddle 3.3.1 through the fluid2018 shim, their
printed numbers compared (issue 38).

    run.py --seeds 1..40,57 [--fluidc PATH] [--keep DIR] [--batch N] [--jobs N]
           [--rtol R] [--atol A] [--quiet]

Run it with the interop venv's python (target/interop-venv/bin/python): that
python runs the peer (tests/interop/fluid2018/run_with_paddle.py). The seeds'
programs are written `--batch` to a script (Paddle's start-up, about 2 s,
is paid once a script), each script is run by `fluidc run` and by the peer,
`--jobs` processes at a time, and each seed's output section (gen.py's
`== begin seed N` .. `== end seed N`) is compared with
compare_numbers.compare: numbers within max(rtol * max(|a|, |b|), atol),
all other text equal. A run cut short in a seed's section (the process
died or timed out) goes on in a new run from that seed; a run that dies in
its first seed's section gives that seed's verdict: one crash costs one
seed, not its batch.

A seed agrees when both sections are complete, neither raised, and they
compare equal. The per-seed verdict, then a summary, are printed; the exit
status is 1 when any seed does not agree. fluidc is run with the caller's
environment (set FLUIDC_PYTHON_DIR=src/python to try package edits with no
Rust build).

gen.py pins the programs: a seed's program changes only when gen.py
changes, and then the CI set in tests/difftest.rs must be checked again
(README.md).
"""

import argparse
import concurrent.futures
import itertools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "fluid2018"))
import gen  # noqa: E402
from compare_numbers import compare  # noqa: E402

BEGIN = re.compile(r"^== begin seed (\d+)$")
END = re.compile(r"^== end seed (\d+)$")
RAISED = re.compile(r"^== raised seed (\d+) (\S+)$")
MAX_SHOWN = 6


def parse_seeds(spec):
    """'1..5,9,12..13' -> [1, 2, 3, 4, 5, 9, 12, 13] (order kept, no repeats)."""
    seeds = []
    for part in spec.split(","):
        part = part.strip()
        if not part:
            continue
        if ".." in part:
            a, b = part.split("..")
            seeds += range(int(a), int(b) + 1)
        else:
            seeds.append(int(part))
    out, seen = [], set()
    for s in seeds:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def sections(text):
    """{seed: (lines, raised type or None, complete)} of a script's stdout."""
    out, cur, lines, raised = {}, None, [], None
    for line in text.splitlines():
        m = BEGIN.match(line)
        if m:
            cur, lines, raised = int(m.group(1)), [], None
            continue
        if cur is None:
            continue
        m = RAISED.match(line)
        if m and int(m.group(1)) == cur:
            raised = m.group(2)
            continue
        m = END.match(line)
        if m and int(m.group(1)) == cur:
            out[cur] = ("\n".join(lines) + "\n", raised, True)
            cur = None
            continue
        lines.append(line)
    if cur is not None:
        out[cur] = ("\n".join(lines) + "\n", raised, False)
    return out


def error_of(stderr, seed):
    """The error line of seed's traceback in a script's stderr (gen.py
    writes `== seed N` before it): its last line naming an error, else its
    last line."""
    lines = stderr.splitlines()
    start = None
    for i, line in enumerate(lines):
        if line == "== seed %d" % seed:
            start = i
    chunk = lines[start + 1:] if start is not None else lines
    for j, line in enumerate(chunk):
        if line.startswith("== seed "):
            chunk = chunk[:j]
            break
    chunk = [ln.strip() for ln in chunk if ln.strip()]
    errors = [ln for ln in chunk if re.match(r"[\w.]*(Error|Exception|Fault)\b", ln)]
    return (errors or chunk or [""])[-1]


class Runner:
    def __init__(self, args, workdir):
        self.args, self.dir = args, workdir

    def command(self, side, script):
        if side == "fluidc":
            return [self.args.fluidc, "run", str(script)]
        return [self.args.python, str(HERE.parent / "fluid2018" / "run_with_paddle.py"),
                str(script)]

    def run(self, side, script):
        """(stdout, stderr, status) of one side on one script."""
        try:
            p = subprocess.run(self.command(side, script), cwd=str(script.parent),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, timeout=self.args.timeout)
            out, err, status = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out, err, status = e.stdout or b"", (e.stderr or b"") + b"\n(timed out)\n", "timeout"
        except OSError as e:
            out, err, status = b"", ("OSError: %s\n" % e).encode(), "not started"
        out = out.decode("utf-8", "replace")
        err = err.decode("utf-8", "replace")
        stem = script.with_suffix("")
        Path(str(stem) + "." + side + ".out").write_text(out)
        Path(str(stem) + "." + side + ".err").write_text(err)
        return out, err, status

    def script(self, name, seeds):
        path = self.dir / (name + ".py")
        path.write_text(gen.script(seeds))
        return path


def verdict(seed, ours, theirs, args):
    """(agrees, message lines) for one seed: ours/theirs are
    (section text, raised, complete, error line, status)."""
    o_text, o_raised, o_done, o_err, o_status = ours
    t_text, t_raised, t_done, t_err, t_status = theirs
    problems = []
    if not o_done:
        problems.append("fluidc did not finish (exit %s): %s" % (o_status, o_err))
    elif o_raised:
        problems.append("fluidc raised %s: %s" % (o_raised, o_err))
    if not t_done:
        problems.append("paddle did not finish (exit %s): %s" % (t_status, t_err))
    elif t_raised:
        problems.append("paddle raised %s: %s" % (t_raised, t_err))
    if problems:
        return False, problems
    diffs, compared, worst = compare(o_text, t_text, args.rtol, args.atol, "fluidc", "paddle")
    if diffs:
        return False, diffs[:MAX_SHOWN] + (
            ["... and %d more" % (len(diffs) - MAX_SHOWN)] if len(diffs) > MAX_SHOWN else [])
    return True, ["%d numbers agree (largest relative difference %.3g)" % (compared, worst)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", required=True, help="e.g. 1..40 or 3,7,10..12")
    parser.add_argument("--fluidc", default=str(REPO / "target" / "debug" / "fluidc"),
                        help="the fluidc binary (default target/debug/fluidc)")
    parser.add_argument("--python", default=sys.executable,
                        help="the python that has Paddle 3.3.1 (default: this one)")
    parser.add_argument("--keep", help="keep the scripts and outputs in this directory")
    parser.add_argument("--batch", type=int, default=25, help="programs per script (25)")
    parser.add_argument("--jobs", type=int, default=2, help="processes at a time (2)")
    parser.add_argument("--rtol", type=float, default=1e-4)
    parser.add_argument("--atol", type=float, default=1e-5)
    parser.add_argument("--timeout", type=float, default=600, help="seconds per process")
    parser.add_argument("--quiet", action="store_true", help="print only what does not agree")
    args = parser.parse_args()
    seeds = parse_seeds(args.seeds)
    if not seeds:
        parser.error("no seeds")
    if not os.path.exists(args.fluidc):
        parser.error("%s does not exist" % args.fluidc)
    # the processes run in the scripts' directory
    args.fluidc = os.path.abspath(args.fluidc)
    start = time.time()
    if args.keep:
        workdir = Path(args.keep).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
    else:
        workdir = Path(tempfile.mkdtemp(prefix="difftest-"))
    runner = Runner(args, workdir)
    try:
        results = run_all(runner, seeds, args)
    finally:
        if not args.keep:
            shutil.rmtree(str(workdir), ignore_errors=True)
    bad = []
    for seed in seeds:
        ok, lines = verdict(seed, results[seed]["fluidc"], results[seed]["paddle"], args)
        if not ok:
            bad.append(seed)
        if ok and args.quiet:
            continue
        print("seed %d: %s" % (seed, "agree" if ok else "DIFFER"))
        for line in lines if not ok else []:
            for sub in line.splitlines():
                print("    " + sub)
    elapsed = time.time() - start
    print("difftest: %d seed(s), %d agree, %d differ%s; %.0f s (batch %d, jobs %d%s)" % (
        len(seeds), len(seeds) - len(bad), len(bad),
        (": " + ",".join(str(s) for s in bad)) if bad else "", elapsed, args.batch, args.jobs,
        ", kept in %s" % workdir if args.keep else ""))
    sys.exit(1 if bad else 0)


def run_all(runner, seeds, args):
    """{seed: {side: (text, raised, complete, error, status)}}. A run cut
    short at seed c (its section unfinished) goes on in a new run from c;
    a run that dies on its first seed gives that seed's verdict."""
    results = {s: {} for s in seeds}
    count = itertools.count(1)

    def task(side, batch):
        name = "run%03d_seed%d" % (next(count), batch[0])
        script = runner.script(name, batch)
        return side, batch, runner.run(side, script)

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        pending = set()
        for i in range(0, len(seeds), args.batch):
            for side in ("paddle", "fluidc"):
                pending.add(pool.submit(task, side, seeds[i:i + args.batch]))
        while pending:
            finished, pending = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for f in finished:
                side, batch, (out, err, status) = f.result()
                got = sections(out)
                for k, seed in enumerate(batch):
                    text, raised, done = got.get(seed, ("", None, False))
                    if not done and k > 0:
                        pending.add(pool.submit(task, side, batch[k:]))
                        break
                    results[seed][side] = (text, raised, done, error_of(err, seed), status)
    return results


if __name__ == "__main__":
    main()
