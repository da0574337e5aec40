"""fluidc's benchmarks, side by side with PaddlePaddle 3.3.1 and Go.

Each workload runs the same program on both sides, alternating fluidc and
the peer in every repetition, and reports medians and ratios:

- executor: While-loop Fibonacci (.pb compiled by fluidc) run by `fluidc run`
  and by Paddle's executor on the very same file. Cost per op is the
  difference between two sizes divided by the difference in ops executed,
  so start-up (and Paddle's import) cancel out.
- compile: generated scripts of K ops compiled by fluidc (the whole
  process), against Paddle building the same ops through its own static
  API and serializing them, timed in process (bench/paddle_build.py: no
  Python start, no `import paddle`, no shim).
- scripts: a whole script on the VM, `fluidc run` against CPython + Paddle
  3.3.1 running it through the fluid2018 shim (seed 003's linear
  regression), and start-up (`print(1)`) against CPython's; ratios per
  alternating pair, their min and max.
- gemm: `mul` and `matmul` of square float32 matrices (64, 256, 1024) in a
  While loop, the same .pb in `fluidc run` and in Paddle's executor; time
  per product by difference of iteration counts, as GFLOP/s (2 N^3 / t),
  against the machine's FMA peak measured in the same run
  (examples/fma_peak.rs on every core, before and after the products).
- training: one step of an MLP (784-256-256-10, relu,
  softmax_with_cross_entropy, Adam) at batch 1, 64 and 512, from the same
  main.pb + startup.pb: `fluidc run --startup --steps N` against Paddle's
  executor running them in process (bench/paddle_train.py); time per step
  by difference of step counts; peak RSS of each whole process.
- channels: ping-pong, buffered throughput, select fan-in, select Fibonacci
  and the daisy chain as fluidc DSL programs and as Go programs, both with
  the same number of worker threads; per-item cost by difference of sizes,
  peak RSS per parked goroutine from the daisy chain.

Usage: bench/run.py [--quick] [--reps N] [--write BENCHMARKS.md]
"""

import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
FLUIDC = os.path.join(ROOT, "target", "release", "fluidc")
# rustpython_parser::parse alone (examples/parse_time.rs).
PARSE_TIME = os.path.join(ROOT, "target", "release", "examples", "parse_time")
# The bytes a batch-1 training step must move, alone (examples/stream_floor.rs).
STREAM_FLOOR = os.path.join(ROOT, "target", "release", "examples", "stream_floor")
# The machine's float32 multiply-add peak, measured (examples/fma_peak.rs).
FMA_PEAK = os.path.join(ROOT, "target", "release", "examples", "fma_peak")
VENV_PY = os.path.join(os.environ.get("FLUIDC_VENV", os.path.join(ROOT, "target", "interop-venv")), "bin", "python")
WORK = os.path.join(ROOT, "target", "bench")
WORKERS = "2"


def timed(cmd, env=None):
    """Runs cmd; returns (seconds, peak RSS in KiB, stdout). Fails loudly.

    Peak RSS comes from GNU time: wait4's ru_maxrss for a child of this
    Python starts at the size of the forked Python, which hides small
    programs' memory."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    err = proc.stderr.decode()
    if proc.returncode != 0:
        sys.exit(f"benchmark command failed: {' '.join(cmd)}\n{err}")
    rss_kib = int(err.strip().splitlines()[-1])
    return elapsed, rss_kib, proc.stdout.decode()


def instantiate(template, **values):
    with open(os.path.join(ROOT, "bench", "workloads", template + ".py")) as f:
        text = f.read()
    for k, v in values.items():
        text = text.replace(f"@{k}@", str(v))
    name = template + "_" + "_".join(f"{v}" for v in values.values())
    path = os.path.join(WORK, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    return path


def compile_pb(script):
    pb = script[:-3] + ".pb"
    timed([FLUIDC, "compile", script, "-o", pb])
    return pb


def median_pair(reps, run_a, run_b):
    """Alternates two measurements reps times; returns their medians."""
    a, b = [], []
    for _ in range(reps):
        a.append(run_a())
        b.append(run_b())
    return statistics.median(a), statistics.median(b)


def pair_ratios(reps, run_a, run_b):
    """Alternates two measurements reps times; returns (median a, median b,
    min and max of the per-pair ratios b / a)."""
    a, b = [], []
    for _ in range(reps):
        a.append(run_a())
        b.append(run_b())
    ratios = [y / x for x, y in zip(a, b)]
    return statistics.median(a), statistics.median(b), min(ratios), max(ratios)


def scripts_bench(reps):
    """Scripts on the VM (issue 36): a training script end to end and the
    interpreter's start-up, each against CPython (+ Paddle 3.3.1)."""
    rows = []
    seed003 = os.path.join(ROOT, "testdata", "run", "seed003_feeds.py")
    shim = os.path.join(ROOT, "tests", "interop", "fluid2018", "run_with_paddle.py")
    o, t, lo, hi = pair_ratios(max(reps, 3), lambda: timed([FLUIDC, "run", seed003])[0],
                               lambda: timed([VENV_PY, shim, seed003])[0])
    rows.append(("`fluidc run` seed 003's linear regression script, end to end (CPython + Paddle 3.3.1 through the shim)",
                 f"{o * 1000:.0f} ms", f"{t * 1000:.0f} ms", f"{lo:.1f}–{hi:.1f}×", "≥ 10× faster"))
    hello = os.path.join(WORK, "print1.py")
    with open(hello, "w") as f:
        f.write("print(1)\n")
    o, t, lo, hi = pair_ratios(max(reps, 5), lambda: timed([FLUIDC, "run", hello])[0],
                               lambda: timed([VENV_PY, hello])[0])
    rows.append(("start-up: `print(1)` (CPython 3 alone)", f"{o * 1000:.0f} ms", f"{t * 1000:.0f} ms",
                 f"{lo:.2f}–{hi:.2f}×", "≤ 100 ms (fluidc)"))
    return rows


def ops_executed(pb, n):
    """Ops a While-loop program executes for n iterations (body ops x n, plus
    the conditional block's body on half of them)."""
    _, _, out = timed([FLUIDC, "dump", pb, "--format", "pretty"])
    depth_ops = {}
    depth = 0
    for line in out.splitlines():
        stripped = line.strip()
        if stripped.startswith("{ // block"):
            depth += 1
        elif stripped == "}":
            depth -= 1
        elif " = " in stripped:
            depth_ops[depth] = depth_ops.get(depth, 0) + 1
    body = depth_ops.get(2, 0)
    cond_body = depth_ops.get(3, 0)
    return n * body + (n // 2) * cond_body


def executor(reps, sizes):
    rows = []
    for w in ["while_fib", "while_fib_cond"]:
        pbs = {n: compile_pb(instantiate(w, N=n)) for n in sizes}
        ours, theirs = {}, {}
        for n in sizes:
            ours[n], theirs[n] = median_pair(
                reps,
                lambda: timed([FLUIDC, "run", pbs[n]])[0],
                lambda: float(timed([VENV_PY, os.path.join(ROOT, "bench", "paddle_time.py"), pbs[n], "1"])[2]),
            )
        lo, hi = sizes
        dops = ops_executed(pbs[hi], hi) - ops_executed(pbs[lo], lo)
        us_ours = (ours[hi] - ours[lo]) / dops * 1e6
        us_theirs = (theirs[hi] - theirs[lo]) / dops * 1e6
        rows.append((f"executor {w}", f"{us_ours:.3f} µs/op", f"{us_theirs:.3f} µs/op", us_theirs / us_ours, "≥ 100× faster"))
    return rows


def generated_script(k):
    lines = [
        "import paddle.fluid as fluid",
        "from paddle.fluid import layers",
        "x = layers.fill_constant(shape=[1], dtype='float32', value=1.0)",
    ]
    for i in range(k - 2):
        lines.append(f"x = layers.elementwise_add(x, x)" if i % 2 else f"x = layers.scale(x, scale=0.5, bias={i % 7})")
    lines.append("exe = fluid.Executor(fluid.CPUPlace())")
    lines.append("exe.run(fetch_list=[x])")
    path = os.path.join(WORK, f"generated_{k}.py")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def compile_bench(reps, sizes):
    build = os.path.join(ROOT, "bench", "paddle_build.py")
    times = {}
    rss = {}
    for k in sizes:
        script = generated_script(k)
        out = os.path.join(WORK, f"generated_{k}.pb")
        rss[k] = [0, 0]

        def ours():
            t, m, _ = timed([FLUIDC, "compile", script, "--passes", "lower_select", "-o", out])
            rss[k][0] = max(rss[k][0], m)
            return t

        def theirs():
            _, m, out_text = timed([VENV_PY, build, str(k)])
            rss[k][1] = max(rss[k][1], m)
            return float(out_text.split()[0])

        # Paddle's Python needs minutes at 100k ops: one run is enough there.
        times[k] = median_pair(reps if k <= 10_000 else 1, ours, theirs)
    rows = []
    for k in sizes:
        o, t = times[k]
        rows.append((f"compile {k} ops", f"{o * 1000:.1f} ms", f"{t * 1000:.1f} ms", t / o,
                     "≥ 5× faster" if k == 10_000 else "report"))
    big = sizes[-1]
    o_rss, t_rss = rss[big]
    rows.append((f"compile {big} ops: peak RSS per op (whole process ÷ ops)", f"{o_rss * 1024 / big:.0f} B",
                 f"{t_rss * 1024 / big:.0f} B", t_rss / o_rss, "≤ 1 KiB"))
    for k in sizes:
        parse = float(timed([PARSE_TIME, generated_script(k), str(max(reps, 3))])[2])
        o = times[k][0]
        rows.append((f"compile {k} ops ÷ parser alone", f"{o / parse:.2f}× ({parse * 1000:.1f} ms parse)", "",
                     float("nan"), "≤ 1.25×"))
    lo, hi = sizes[-2], sizes[-1]
    slope = (times[hi][0] - times[lo][0]) / (hi - lo) * 1e6
    rows.append(("compile slope (fluidc)", f"{slope:.2f} µs/op", "", float("nan"), "linear"))
    return rows


LOAD_OPS = 20_000


def load_bench(reps):
    """Decode + verify + load + run of a straight-line .pb: fluidc's whole
    process against Paddle's parse and first run in process."""
    script = generated_script(LOAD_OPS)
    pb = os.path.join(WORK, f"generated_{LOAD_OPS}.pb")
    timed([FLUIDC, "compile", script, "--passes", "lower_select", "-o", pb])
    size = os.path.getsize(pb) / 1e6
    ours = statistics.median(timed([FLUIDC, "run", pb])[0] for _ in range(max(reps, 3)))
    # Paddle takes about a minute and well over 10 GB to prepare it: one
    # run, and a machine without the memory gets a row that says so.
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", VENV_PY, os.path.join(ROOT, "bench", "paddle_load.py"), pb],
                          capture_output=True, text=True)
    name = f"load and run a {LOAD_OPS}-op straight-line .pb ({size:.1f} MB)"
    if proc.returncode != 0:
        peak = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else "?"
        return [(name, f"{ours * 1000:.1f} ms", f"failed (exit {proc.returncode}, peak RSS {peak} KiB)",
                 float("nan"), "≤ 20 ms (fluidc)")]
    theirs = float(proc.stdout)
    return [(name, f"{ours * 1000:.1f} ms", f"{theirs * 1000:.0f} ms", theirs / ours, "≤ 20 ms (fluidc)")]


# Functions whose inclusive instruction counts (callgrind) split a command
# into phases; a function missing from the profile (inlined) reads as 0.
LOAD_PHASES = [
    ("decode (prost and the model)", "fluidc_transpiler::codec::decode_program"),
    ("verify", "fluidc_transpiler::verify::check"),
    ("load (layout, kernels, op info)", "fluidc_runtime::load::Runnable::load"),
    ("run", "fluidc_runtime::scheduler::Sched::run"),
    ("free the program", "core::ptr::drop_in_place<fluidc_transpiler::verify::Verified>"),
]
COMPILE_PHASES = [
    ("parse (rustpython_parser)", "rustpython_parser::parser::parse"),
    ("compile to bytecode, parse included (rustpython_compiler)", "rustpython_compiler::compile"),
    ("run the script on the VM, build the program (the two above included)", "fluidc::vm::run_main"),
    ("verify", "fluidc_transpiler::verify::check"),
    ("passes", "fluidc_transpiler::passes::Pipeline::run"),
    ("encode", "fluidc_transpiler::codec::encode_program"),
]


def callgrind_phases(label, cmd, phases):
    """Instructions of cmd by phase, from one callgrind run: rows of
    (command, phase, instructions, share of the whole process)."""
    if not shutil.which("valgrind"):
        return [(label, "valgrind is not installed", "", "")]
    out = os.path.join(WORK, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                   check=True, capture_output=True)
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                          check=True, capture_output=True, text=True).stdout
    total = None
    found = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+) \([^)]*\)\s+(.*)$", line)
        if not m:
            continue
        ir, what = int(m.group(1).replace(",", "")), m.group(2)
        if "PROGRAM TOTALS" in what:
            total = ir
        for _, fn in phases:
            # callgrind names code `file:function`, once per source file its
            # inlined parts come from; the largest is the whole function.
            if re.search(r"[:\s]" + re.escape(fn) + r"(\s|$)", what):
                found[fn] = max(found.get(fn, 0), ir)
    rows = [(label, name, f"{found.get(fn, 0) / 1e6:.0f} M", f"{found.get(fn, 0) / total * 100:.0f}%")
            for name, fn in phases]
    rows.append((label, "whole process", f"{total / 1e6:.0f} M", "100%"))
    return rows


def phases():
    script = generated_script(10_000)
    pb = os.path.join(WORK, f"generated_{LOAD_OPS}.pb")
    return (callgrind_phases(f"`fluidc run` of the {LOAD_OPS}-op .pb", [FLUIDC, "run", pb], LOAD_PHASES)
            + callgrind_phases("`fluidc compile` of 10000 ops",
                               [FLUIDC, "compile", script, "--passes", "lower_select",
                                "-o", os.path.join(WORK, "phases.pb")], COMPILE_PHASES))


def phase_table(rows):
    lines = ["### Where the instructions go (callgrind, one run of each command)", "",
             "Shares are of the whole process; what no phase names (start-up, reading and writing files) makes up the rest.", "",
             "| command | phase | instructions | share |", "|---|---|---|---|"]
    lines += [f"| {c} | {p} | {i} | {s} |" for c, p, i, s in rows]
    return "\n".join(lines) + "\n"


STEAL_ITERS = (10, 60)


def scheduling(reps):
    """Two goroutines of long one-thread kernels started on one worker: the run on
    two workers (where the idle one must steal) against one worker."""
    lo, hi = STEAL_ITERS
    pbs = {k: compile_pb(instantiate("steal", ITERS=k)) for k in (lo, hi)}
    res = {}
    for k in (lo, hi):
        res[k] = median_pair(
            reps,
            lambda: timed([FLUIDC, "run", pbs[k], "--workers", "2"])[0],
            lambda: timed([FLUIDC, "run", pbs[k], "--workers", "1"])[0],
        )
    two = (res[hi][0] - res[lo][0]) / (2 * (hi - lo)) * 1000
    one = (res[hi][1] - res[lo][1]) / (2 * (hi - lo)) * 1000
    return [("two goroutines of 1000×1000 softmaxes, started on one worker (per softmax)", f"{two:.2f} ms",
             f"{one:.2f} ms", one / two, "≈ 2× (the idle worker steals one)")]


# Iteration counts (low, high) per matrix size: enough for fluidc's
# difference to take a few tenths of a second (with fewer, a process's
# start-up noise was a tenth of it and a 1024 row read 113% of the peak).
GEMM_ITERS = {64: (1000, 21000), 256: (40, 1040), 1024: (4, 84)}
GEMM_ITERS_QUICK = {64: (100, 600), 256: (10, 60), 1024: (1, 4)}


def cpu_mhz():
    """The clock /proc/cpuinfo reports (the first core's), in MHz."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("cpu MHz"):
                    return float(line.split(":")[1])
    except OSError:
        pass
    return float("nan")


def cpu_flags():
    """The first core's feature flags from /proc/cpuinfo."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":")[1].split())
    except OSError:
        pass
    return set()


def fma_width():
    """(float32 FLOP per cycle per core, the ISA that gives it): two FMA
    units of the widest vectors the CPU has, 2 FLOP per lane per FMA.
    AVX-512: 2 x 16 lanes x 2 = 64 (CPUs that split a 512-bit FMA in two,
    as AMD's Zen 4 does, reach half of it); AVX2 with FMA: 2 x 8 x 2 = 32;
    otherwise SSE: 2 x 4 x 2 = 16."""
    flags = cpu_flags()
    if "avx512f" in flags:
        return 64, "AVX-512 FMA, 2 units x 16 lanes x 2"
    if "avx2" in flags and "fma" in flags:
        return 32, "AVX2 FMA, 2 units x 8 lanes x 2"
    return 16, "SSE, 2 units x 4 lanes x 2"


def measured_fma_peak():
    """(GFLOP/s of every core's multiply-adds, lanes per vector), the best of
    examples/fma_peak.rs's rounds on os.cpu_count() threads."""
    out = timed([FMA_PEAK, str(os.cpu_count()), "100000000"])[2].split()
    return float(out[0]), int(out[1])


def gemm_peak(measured):
    """A note on the machine's float32 peak: the measured one, and the
    figure the flags and clock in /proc/cpuinfo would give."""
    mhz = cpu_mhz()
    cores = os.cpu_count()
    flop, isa = fma_width()
    per_core = flop * mhz / 1000
    gflops, lanes = measured
    formula = cores * per_core
    # Cores that boost run above `cpu MHz`; cores whose wide units are
    # narrower than the flags say (Zen 4 runs AVX-512 as two 256-bit
    # halves) run below the formula: the table's percentages use the
    # measured peak either way.
    why = ("the cores boost above the reported clock" if gflops > formula else
           "the vector units deliver less than the flags' width at that clock")
    return (
        f"Peak measured: {gflops:.0f} GFLOP/s, {cores} threads of independent float32 multiply-adds on "
        f"{lanes}-lane vectors (`examples/fma_peak.rs`, the best of its rounds before and after the products). "
        f"From the flags and clock: {cores} cores × {flop} float32 FLOP/cycle ({isa}, from /proc/cpuinfo) × "
        f"{mhz:.0f} MHz (`cpu MHz`) = {formula:.0f} GFLOP/s; the measured peak differs from it because "
        f"{why}. Paddle's CPU matmul runs one thread; fluidc splits products of 128³ multiply-adds "
        "or more over two.\n"
    )


def gemm_section(title, args):
    rows, peak = gemm(args.reps, args.quick)
    return table(title, "Paddle", rows) + "\n" + gemm_peak(peak)


def gemm(reps, quick):
    rows = []
    iters = GEMM_ITERS_QUICK if quick else GEMM_ITERS
    paddle_time = os.path.join(ROOT, "bench", "paddle_time.py")
    products = []
    # The peak before and after the products: the better of the two is the
    # ceiling, whatever else the machine did meanwhile.
    before = measured_fma_peak()
    for op in ["mul", "matmul"]:
        for n, (lo, hi) in iters.items():
            pbs = {k: compile_pb(instantiate("gemm", OP=op, N=n, ITERS=k)) for k in (lo, hi)}
            # Each round runs both counts on both sides, alternating; a
            # round's difference is one measurement of a product's time.
            rounds = []
            for _ in range(reps):
                ours = {k: timed([FLUIDC, "run", pbs[k]])[0] for k in (lo, hi)}
                theirs = {k: float(timed([VENV_PY, paddle_time, pbs[k], "1"])[2]) for k in (lo, hi)}
                rounds.append(((ours[hi] - ours[lo]) / (hi - lo), (theirs[hi] - theirs[lo]) / (hi - lo)))
            o = statistics.median(r[0] for r in rounds)
            t = statistics.median(r[1] for r in rounds)
            spread = (min(r[0] for r in rounds), max(r[0] for r in rounds))
            flop = 2 * n**3
            products.append((op, n, o, t, flop, spread))
    peak = max(before, measured_fma_peak(), key=lambda m: m[0])
    for op, n, o, t, flop, (fast, slow) in products:
        share = (f"; {flop / o / 1e9 / peak[0] * 100:.0f}% of the measured peak, "
                 f"{flop / slow / 1e9 / peak[0] * 100:.0f}-{flop / fast / 1e9 / peak[0] * 100:.0f}% "
                 f"over the rounds (target ≥ 75%)") if n == 1024 else ""
        rows.append((
            f"{op} {n}×{n} float32",
            f"{o * 1000:.3f} ms ({flop / o / 1e9:.1f} GFLOP/s)",
            f"{t * 1000:.3f} ms ({flop / t / 1e9:.1f} GFLOP/s)",
            t / o,
            "≥ Paddle at 256 and 1024" + share,
        ))
    return rows, peak


def write_npy(path, descr, shape, values):
    """A .npy file (format 1.0) of little-endian values, without numpy."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}, " for d in shape).rstrip(" ") if len(shape) > 1 else f"{shape[0]},")
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    code = {"<f4": "f", "<i8": "q"}[descr]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(values)}{code}", *values))


# (batch, low and high step counts): the difference takes about a second.
TRAIN_STEPS = {1: (20, 1020), 64: (10, 210), 512: (4, 44)}
TRAIN_STEPS_QUICK = {1: (10, 210), 64: (5, 45), 512: (2, 10)}
# Multiply-adds of one sample through the MLP's three layers.
MLP_MACS = 784 * 256 + 256 * 256 + 256 * 10


# The MLP's parameters: three weights and their biases.
MLP_PARAMS = 784 * 256 + 256 + 256 * 256 + 256 + 256 * 10 + 10


def stream_floor_row(reps, ours_cmd, lo, hi):
    """Two rows: a batch-1 step against the floor of the bytes it must move
    (examples/stream_floor.rs: 4 reads and 3 writes of every parameter),
    and against those bytes with Adam's arithmetic, each alternating with
    the step's own measurement; the ratio is floor / step,
    so the target "step within 1.5× of the floor" is a ratio of 0.67 or
    more."""
    steps, floors, adam_floors = [], [], []
    for _ in range(reps):
        steps.append((timed(ours_cmd(hi))[0] - timed(ours_cmd(lo))[0]) / (hi - lo))
        floors.append(float(timed([STREAM_FLOOR, str(MLP_PARAMS), "1000"])[2]))
        adam_floors.append(float(timed([STREAM_FLOOR, str(MLP_PARAMS), "1000", "adam"])[2]))
    mb = 7 * 4 * MLP_PARAMS / 1e6
    rows = []
    for floor, what in [(floors, f"its streaming floor ({mb:.1f} MB a step: 4 reads and 3 writes of the "
                                 f"{MLP_PARAMS:,} parameters, `examples/stream_floor.rs`)"),
                        (adam_floors, "the same bytes with Adam's arithmetic (moments, square root and "
                                      "division per parameter, on the CPU's widest vectors: "
                                      "`stream_floor ... adam`)")]:
        ratios = [f / s for s, f in zip(steps, floor)]
        rows.append((f"MLP training step, batch 1, against {what}",
                     f"{statistics.median(steps) * 1000:.3f} ms", f"{statistics.median(floor) * 1000:.3f} ms (floor)",
                     f"{min(ratios):.2f}–{max(ratios):.2f}×", "≥ 0.67× (step ≤ 1.5× floor)"))
    return rows


def training(reps, quick):
    rows = []
    rss_rows = []
    paddle_train = os.path.join(ROOT, "bench", "paddle_train.py")
    rng = random.Random(0)
    for b, (lo, hi) in (TRAIN_STEPS_QUICK if quick else TRAIN_STEPS).items():
        script = instantiate("mlp_train", B=b)
        main_pb, startup_pb = script[:-3] + ".pb", script[:-3] + "_startup.pb"
        timed([FLUIDC, "compile", script, "-o", main_pb, "--startup-out", startup_pb])
        x, label = script[:-3] + "_x.npy", script[:-3] + "_label.npy"
        write_npy(x, "<f4", [b, 784], [rng.random() for _ in range(b * 784)])
        write_npy(label, "<i8", [b, 1], [rng.randrange(10) for _ in range(b)])
        ours_cmd = lambda n: [FLUIDC, "run", main_pb, "--startup", startup_pb, "--steps", str(n),
                              "--feed", f"x={x}", "--feed", f"label={label}"]
        ours, theirs, rss = [], [], []
        for _ in range(reps):
            t_lo = timed(ours_cmd(lo))[0]
            t_hi, m, _ = timed(ours_cmd(hi))
            ours.append((t_hi - t_lo) / (hi - lo))
            out = timed([VENV_PY, paddle_train, main_pb, startup_pb, x, label, str(lo), str(hi)])
            marks = json.loads(out[2])
            theirs.append((marks["high"] - marks["low"]) / (hi - lo))
            rss.append((m, out[1]))
        o, t = statistics.median(ours), statistics.median(theirs)
        ratios = [y / x for x, y in zip(ours, theirs)]
        flop = 6 * b * MLP_MACS  # forward and two products back, 2 FLOP each
        target = {1: "≥ 20× faster", 64: "≥ 2× faster", 512: "≥ 1.2× faster"}[b]
        rows.append((f"MLP training step, batch {b}",
                     f"{o * 1000:.3f} ms ({flop / o / 1e9:.1f} GFLOP/s)",
                     f"{t * 1000:.3f} ms ({flop / t / 1e9:.1f} GFLOP/s)",
                     f"{min(ratios):.2f}–{max(ratios):.2f}×", target))
        if b == 1:
            rows.extend(stream_floor_row(reps, ours_cmd, lo, hi))
        ours_rss, theirs_rss = max(r[0] for r in rss), max(r[1] for r in rss)
        rss_rows.append((f"peak RSS of {hi} training steps, batch {b} (whole process)",
                         f"{ours_rss / 1024:.1f} MiB", f"{theirs_rss / 1024:.1f} MiB",
                         theirs_rss / ours_rss, "report"))
    return rows + rss_rows


def training_profile(steps=200):
    """`fluidc run --profile` of batch-1 training steps (the files training()
    wrote): the op types that take 1% of the time or more."""
    base = os.path.join(WORK, "mlp_train_1")
    proc = subprocess.run([FLUIDC, "run", base + ".pb", "--startup", base + "_startup.pb", "--steps", str(steps),
                           "--feed", f"x={base}_x.npy", "--feed", f"label={base}_label.npy", "--profile"],
                          capture_output=True, text=True, check=True)
    lines = [f"### Where a training step's time goes (`fluidc run --profile`, batch 1, {steps} steps)", "",
             "| op | calls | mean | share |", "|---|---|---|---|"]
    for line in proc.stderr.splitlines()[1:]:
        parts = line.split()
        if len(parts) == 5 and parts[4].endswith("%") and float(parts[4][:-1]) >= 1:
            lines.append(f"| {parts[0]} | {parts[1]} | {parts[3]} µs | {parts[4]} |")
    return "\n".join(lines) + "\n"


GO_PROGRAMS = ["pingpong", "buffered", "fanin", "fibonacci", "daisy"]
# Issue 40's targets: unbuffered ping-pong within 1.2x of Go, buffered
# channels within 2x, select (fan-in, Fibonacci) within 1.5x.
CHANNEL_TARGETS = {
    "pingpong": "within 1.2× of Go",
    "buffered": "within 2× of Go",
    "fanin": "within 1.5× of Go",
    "fibonacci": "within 1.5× of Go",
}


def build_go():
    bins = {}
    for name in GO_PROGRAMS:
        exe = os.path.join(WORK, "go_" + name)
        subprocess.run(["go", "build", "-o", exe, os.path.join(ROOT, "bench", "go", name + ".go")], check=True,
                       env={**os.environ, "GOCACHE": os.path.join(WORK, "gocache"), "GOFLAGS": "-mod=mod", "GO111MODULE": "off"})
        bins[name] = exe
    return bins


def channels(reps, quick):
    bins = build_go()
    go_env = {**os.environ, "GOMAXPROCS": WORKERS}
    rows = []
    # The select workloads run twice: with the runtime's direct dispatch of
    # the lowered cases block (the default), and with it off
    # (`--select-dispatch ops`), which runs the lowered ops themselves.
    # (workload, parameter, unit, select dispatch, size multiplier): Go
    # passes a buffered value in tens of nanoseconds, so that workload runs
    # ten times the values for the difference to stand above the noise of
    # starting a process.
    items = [
        ("pingpong", "N", "round trip", "", 1),
        ("buffered", "N", "value", "", 10),
        ("fanin", "HALF", "value", "direct", 1),
        ("fanin", "HALF", "value", "ops", 1),
        ("fibonacci", "N", "value", "direct", 1),
        ("fibonacci", "N", "value", "ops", 1),
    ]
    for name, param, unit, dispatch, times in items:
        small, big = (2_000 * times, 20_000 * times) if quick else (10_000 * times, 100_000 * times)
        flags = ["--select-dispatch", dispatch] if dispatch else []
        res = {}
        for n in (small, big):
            value = n // 2 if param == "HALF" else n
            pb = compile_pb(instantiate(name, **{param: value}))
            res[n] = median_pair(
                reps,
                lambda: timed([FLUIDC, "run", pb, "--workers", WORKERS] + flags)[0],
                lambda: timed([bins[name], str(value)], env=go_env)[0],
            )
        o = (res[big][0] - res[small][0]) / (big - small) * 1e9
        g = (res[big][1] - res[small][1]) / (big - small) * 1e9
        how = {"": "", "direct": ", select dispatched directly", "ops": ", select cases run op by op"}[dispatch]
        rows.append((f"{name} (per {unit}{how})", f"{o:.0f} ns", f"{g:.0f} ns", g / o, CHANNEL_TARGETS[name]))
    sizes = [1_000, 10_000] if quick else [1_000, 10_000, 100_000]
    rss = {}
    for n in sizes:
        pb = compile_pb(instantiate("daisy", N=n))
        ours, theirs = [], []
        for _ in range(reps):
            t, m, _ = timed([FLUIDC, "run", pb, "--workers", WORKERS])
            ours.append((t, m))
            t, m, _ = timed([bins["daisy"], str(n)], env=go_env)
            theirs.append((t, m))
        o = statistics.median(x[0] for x in ours)
        g = statistics.median(x[0] for x in theirs)
        rss[n] = (max(x[1] for x in ours), max(x[1] for x in theirs))
        rows.append((f"daisy chain {n} goroutines", f"{o * 1000:.1f} ms", f"{g * 1000:.1f} ms", g / o, "within 2× of Go"))
    lo, hi = sizes[0], sizes[-1]
    per_o = (rss[hi][0] - rss[lo][0]) * 1024 / (hi - lo)
    per_g = (rss[hi][1] - rss[lo][1]) * 1024 / (hi - lo)
    rows.append(("peak RSS per parked goroutine", f"{per_o:.0f} B", f"{per_g:.0f} B", per_g / per_o if per_o else float("nan"), "≤ 1 KiB"))
    return rows


def table(title, peer, rows):
    lines = [f"### {title}", "", f"| workload | fluidc | {peer} | {peer} / fluidc | target |", "|---|---|---|---|---|"]
    for name, ours, theirs, ratio, target in rows:
        if isinstance(ratio, str):
            r = ratio
        else:
            r = "" if ratio != ratio else f"{ratio:.2f}×"
        lines.append(f"| {name} | {ours} | {theirs} | {r} | {target} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, for a fast check")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--write", help="write the tables to this Markdown file")
    ap.add_argument("--only", choices=["scripts", "executor", "compile", "load", "gemm", "training", "channels", "scheduling"],
                    help="run one section and print it")
    args = ap.parse_args()
    os.makedirs(WORK, exist_ok=True)
    exec_sizes = (2_000, 20_000) if args.quick else (10_000, 100_000)
    compile_sizes = [1_000, 5_000, 10_000] if args.quick else [1_000, 10_000, 100_000]
    if args.only:
        sections = {
            "scripts": lambda: table("Scripts", "CPython", scripts_bench(args.reps)),
            "executor": lambda: table("Executor", "Paddle", executor(args.reps, exec_sizes)),
            "compile": lambda: table("Compile", "Paddle", compile_bench(args.reps, compile_sizes)),
            "load": lambda: table("Load", "Paddle", load_bench(args.reps)) + "\n" + phase_table(phases()),
            "gemm": lambda: gemm_section("GEMM", args),
            "training": lambda: table("Training", "Paddle", training(args.reps, args.quick)) + "\n" + training_profile(),
            "channels": lambda: table("Channels", "Go", channels(args.reps, args.quick)),
            "scheduling": lambda: table("Scheduling", "1 worker", scheduling(args.reps)),
        }
        print(sections[args.only]())
        return
    parts = [
        table("Scripts on the VM: fluidc vs CPython (+ Paddle 3.3.1)", "CPython", scripts_bench(args.reps)),
        table("Executor: fluidc vs Paddle 3.3.1 on the same .pb", "Paddle", executor(args.reps, exec_sizes)),
        table("Compile: fluidc's whole process vs Paddle building and serializing the same ops in process", "Paddle", compile_bench(args.reps, compile_sizes)),
        table("Load: fluidc's whole process vs Paddle's parse and first run, on the same .pb", "Paddle",
              load_bench(args.reps)),
        phase_table(phases()),
        gemm_section("GEMM: fluidc vs Paddle 3.3.1 on the same .pb (mul and matmul, time per product)", args),
        table("Training: fluidc vs Paddle 3.3.1 on the same main.pb + startup.pb (time per step)", "Paddle",
              training(args.reps, args.quick)),
        training_profile(),
        table(f"Channels: fluidc vs Go ({WORKERS} workers / GOMAXPROCS={WORKERS})", "Go", channels(args.reps, args.quick)),
        table("Scheduling: fluidc on 2 workers vs 1 worker", "1 worker", scheduling(args.reps)),
    ]
    go_version = subprocess.run(["go", "version"], capture_output=True, text=True).stdout.strip()
    header = (
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Linux {platform.release()}; {go_version}; "
        f"paddlepaddle 3.3.1 (CPU); fluidc release build.\n"
        f"Command: `bench/run.sh{' --quick' if args.quick else ''}` (medians of {args.reps} alternating runs).\n"
        f"Ratios above 1 mean fluidc is faster.\n"
    )
    report = header + "\n" + "\n".join(parts)
    notes = os.path.join(ROOT, "bench", "notes.md")
    if os.path.exists(notes):
        with open(notes) as f:
            report += "\n" + f.read()
    print(report)
    if args.write:
        with open(args.write, "w") as f:
            f.write("# Benchmarks\n\n" + report)


if __name__ == "__main__":
    main()
