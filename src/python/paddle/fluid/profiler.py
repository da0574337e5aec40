"""paddle.fluid.profiler: 1.x's op profiler, over fluidc's runtime timings.

`start_profiler(state)` turns timing on for every op any executor runs
(all scopes: the profiler is process-wide, as 1.x's was);
`stop_profiler(sorted_key=None, profile_path='/tmp/profile')` turns it
off, prints 1.x's report on stdout and writes the timeline file;
`reset_profiler()` forgets what was timed so far; `profiler(state,
sorted_key=None, profile_path='/tmp/profile')` is start then stop around
a `with` block.

The report is 1.2's `PrintProfiler` table: a banner, `Place: CPU`, `Time
unit: ms`, the sort order, then one line per op type, `thread0::<type>`,
with its calls, total, min., max. and average time in ms and its share of
the thread's total (C++'s default formatting of a double: 6 significant
digits), in the order each type first finished (`sorted_key` None) or by
`calls`, `total`, `max`, `min` or `ave`, largest first. fluidc's runtime
times each op's kernel; all of a script's ops count as its one thread.

1.2 also wrote, for every state, the timeline of the timed ops to
`profile_path` as a serialized `paddle.platform.proto.Profile` (what
`tools/timeline.py` reads); so does this module, with each op one CPU
event (`device_id` -1).

On a CPU-only 1.x, only the 'CPU' state worked: with 'GPU' or 'All' the
report read CUDA timers, and `stop_profiler` failed with `EnforceNotMet:
CUDA is not enabled`; and `cuda_profiler` failed as `core` had no
`nvprof_init`. fluidc is CPU-only, and does the same (with clearer
messages).

The timings come from the native runtime: `_fluidc.HOST.profiler_enable()`,
`profiler_disable()`, `profiler_enabled()`, `profiler_reset()` and
`profiler_records()`, the list of `(op_type, start_ns, end_ns)` of every op
run timed since the last reset, in the order the runs finished.
"""
import contextlib
import sys

import _fluidc

from . import core

__all__ = ["cuda_profiler", "reset_profiler", "profiler", "start_profiler", "stop_profiler"]

_HOST = _fluidc.HOST

NVPROF_CONFIG = [
    "gpustarttimestamp",
    "gpuendtimestamp",
    "gridsize3d",
    "threadblocksize",
    "streamid",
    "enableonstart 0",
    "conckerneltrace",
]

_state = None  # the state start_profiler was given while enabled
_start_ns = None


@contextlib.contextmanager
def cuda_profiler(output_file, output_mode=None, config=None):
    """The CUDA profiler (nvprof): fluidc has no CUDA, as a CPU-only 1.x
    had none; it raises once `output_mode` is checked."""
    if output_mode is None:
        output_mode = "csv"
    if output_mode not in ["kvp", "csv"]:
        raise ValueError("The output mode must be 'kvp' or 'csv'.")
    raise AttributeError(
        "cuda_profiler needs CUDA's profiler, and fluidc is not compiled with CUDA (a CPU-only "
        "Paddle 1.x failed here too: module 'paddle.fluid.core' has no attribute "
        "'nvprof_init'); use fluid.profiler.profiler('CPU') instead")
    yield  # never reached: this is a generator, as 1.x's was


def reset_profiler():
    """Forgets the ops timed so far."""
    _HOST.profiler_reset()


def start_profiler(state):
    """Starts timing ops: `state` is 'CPU', 'GPU' or 'All' (see the
    module's note on the last two). Does nothing if already started."""
    global _state, _start_ns
    if _HOST.profiler_enabled():
        return
    if state not in ["CPU", "GPU", "All"]:
        raise ValueError("The state must be 'CPU' or 'GPU' or 'All'.")
    _state = state
    _HOST.profiler_enable()
    _start_ns = _now_ns()


_SORT_DOMAINS = {
    "default": "event first end time", "calls": "number of calls", "total": "total time",
    "max": "maximum time", "min": "minimum time", "ave": "average time",
}


def stop_profiler(sorted_key=None, profile_path="/tmp/profile"):
    """Stops timing, prints the report and writes `profile_path` (see the
    module's note). Does nothing if not started."""
    global _state
    if not _HOST.profiler_enabled():
        return
    sorted_key = "default" if sorted_key is None else sorted_key
    if sorted_key not in ["default", "calls", "total", "max", "min", "ave"]:
        raise ValueError("The sorted_key must be None or in 'calls', 'total', "
                         "'max', 'min' and 'ave'")
    records = _HOST.profiler_records()
    end_ns = _now_ns()
    _HOST.profiler_disable()
    _HOST.profiler_reset()
    state, _state = _state, None
    if state != "CPU" and records:
        raise core.EnforceNotMet(
            "CUDA is not enabled: the profiler's '%s' state times ops with CUDA events, and "
            "fluidc runs on the CPU; use the 'CPU' state" % state)
    _print_report(records, sorted_key, "CPU")
    _write_profile(records, profile_path, _start_ns, end_ns)


@contextlib.contextmanager
def profiler(state, sorted_key=None, profile_path="/tmp/profile"):
    """Times the ops run in the `with` block, then reports (see
    `stop_profiler`)."""
    start_profiler(state)
    yield
    stop_profiler(sorted_key, profile_path)


def _now_ns():
    import time  # on first use, as the rest of the package imports lazily
    return int(time.time() * 1e9)


def _cpp_double(x):
    """`std::cout << x` for a double (%g, 6 significant digits)."""
    return "%g" % x


def _events(records):
    """One row per op type in first-end order: [name, calls, total, min,
    max] (ms), and the thread's total time."""
    rows, index, total = [], {}, 0.0
    for op_type, start, end in records:
        ms = (end - start) / 1e6
        total += ms
        name = "thread0::" + op_type
        k = index.get(name)
        if k is None:
            index[name] = len(rows)
            rows.append([name, 1, ms, ms, ms])
        else:
            row = rows[k]
            row[1] += 1
            row[2] += ms
            row[3] = min(row[3], ms)
            row[4] = max(row[4], ms)
    return rows, total


def _print_report(records, sorted_key, place):
    rows, total = _events(records)
    items = [(name, calls, tot, mn, mx, tot / calls, tot / total if total else float("nan"))
             for name, calls, tot, mn, mx in rows]
    column = {"calls": 1, "total": 2, "min": 3, "max": 4, "ave": 5}.get(sorted_key)
    if column is not None:
        items.sort(key=lambda item: item[column], reverse=True)
    name_width = max([len(item[0]) for item in items] + [0]) + 4
    width = 12
    out = ["\n------------------------->     Profiling Report     <-------------------------\n\n",
           "Place: %s\n" % place, "Time unit: ms\n",
           "Sorted by %s in descending order in the same thread\n\n" % _SORT_DOMAINS[sorted_key],
           "Event".ljust(name_width) + "".join(h.ljust(width) for h in
                                                 ("Calls", "Total", "Min.", "Max.", "Ave.",
                                                  "Ratio.")) + "\n"]
    for name, calls, tot, mn, mx, ave, ratio in items:
        out.append(name.ljust(name_width) + str(calls).ljust(width)
                   + "".join(_cpp_double(v).ljust(width) for v in (tot, mn, mx, ave, ratio))
                   + "\n")
    out.append("\n")
    sys.stdout.write("".join(out))
    sys.stdout.flush()


def _varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number, wire, payload):
    key = _varint((number << 3) | wire)
    if wire == 0:
        return key + _varint(payload)
    return key + _varint(len(payload)) + payload


def _write_profile(records, path, start_ns, end_ns):
    """`paddle.platform.proto.Profile`: events (1), start_ns (2), end_ns
    (3); an Event: name (1), start_ns (2), end_ns (3), device_id (5),
    sub_device_id (6), type (8, CPU = 0)."""
    data = bytearray()
    for op_type, start, end in records:
        event = (_field(1, 2, op_type.encode("utf-8")) + _field(2, 0, start)
                 + _field(3, 0, end) + _field(5, 0, -1) + _field(6, 0, 0) + _field(8, 0, 0))
        data += _field(1, 2, event)
    data += _field(2, 0, start_ns or 0) + _field(3, 0, end_ns)
    with open(path, "wb") as f:
        f.write(bytes(data))
