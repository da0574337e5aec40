"""Times Paddle 3.3.1's training steps on the program files fluidc compiled
(main.pb + startup.pb, as `fluidc run --startup --steps` runs them).

Usage: paddle_train.py MAIN STARTUP X.npy LABEL.npy LOW HIGH
Runs the startup program, one warm-up step, then HIGH steps, feeding the
same batch every step (the .npy files hold one batch), and prints the wall
time of LOW and of HIGH steps in process (JSON), so bench/run.py divides
the difference as it does for fluidc. Import and start-up are not counted.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "interop"))
import paddle_helper  # noqa: E402  (sets legacy static mode before importing paddle)
import numpy as np  # noqa: E402
import paddle  # noqa: E402


def load(path):
    with open(path, "rb") as f:
        return paddle.static.Program.parse_from_string(f.read())


def main():
    main_pb, startup_pb, x_npy, label_npy, low, high = sys.argv[1:]
    low, high = int(low), int(high)
    program, startup = load(main_pb), load(startup_pb)
    fetch = paddle_helper.fetch_targets(program)
    paddle_helper.strip_feed_fetch(program)
    paddle_helper.strip_feed_fetch(startup)
    feed = {"x": np.load(x_npy), "label": np.load(label_npy)}
    exe = paddle.static.Executor(paddle.CPUPlace())
    scope = paddle.static.Scope()
    exe.run(startup, scope=scope)
    exe.run(program, feed=feed, fetch_list=fetch, scope=scope)
    marks = {}
    start = time.perf_counter()
    for step in range(1, high + 1):
        exe.run(program, feed=feed, fetch_list=fetch, scope=scope)
        if step in (low, high):
            marks[step] = time.perf_counter() - start
    print(json.dumps({"low": marks[low], "high": marks[high]}))


if __name__ == "__main__":
    main()
