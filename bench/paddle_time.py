"""Times Paddle 3.3.1's executor on a ProgramDesc file, in process.

Prints the median wall time of `exe.run` over REPS runs (after one warm-up
run), so Python's import and Paddle's start-up are not counted. Used by
bench/run.py for the executor comparison; the program must have no feeds.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "interop"))
import paddle_helper  # noqa: E402  (sets legacy static mode before importing paddle)
import paddle  # noqa: E402


def main():
    path, reps = sys.argv[1], int(sys.argv[2])
    with open(path, "rb") as f:
        program = paddle.static.Program.parse_from_string(f.read())
    fetch = paddle_helper.fetch_targets(program)
    paddle_helper.strip_feed_fetch(program)
    exe = paddle.static.Executor(paddle.CPUPlace())
    times = []
    for i in range(reps + 1):
        scope = paddle.static.Scope()
        start = time.perf_counter()
        exe.run(program, fetch_list=fetch, scope=scope)
        if i > 0:
            times.append(time.perf_counter() - start)
    print(statistics.median(times))


if __name__ == "__main__":
    main()
