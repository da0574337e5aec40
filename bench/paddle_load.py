"""Times Paddle 3.3.1 loading and first running a ProgramDesc file, in process.

Prints the wall time of `Program.parse_from_string` plus the first
`exe.run` (which prepares the program), so Python's import and Paddle's
start-up are not counted. Used by bench/run.py for the load comparison;
the program must have no feeds.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "interop"))
import paddle_helper  # noqa: E402  (sets legacy static mode before importing paddle)
import paddle  # noqa: E402


def main():
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    exe = paddle.static.Executor(paddle.CPUPlace())
    start = time.perf_counter()
    program = paddle.static.Program.parse_from_string(data)
    fetch = paddle_helper.fetch_targets(program)
    paddle_helper.strip_feed_fetch(program)
    exe.run(program, fetch_list=fetch, scope=paddle.static.Scope())
    print(time.perf_counter() - start)


if __name__ == "__main__":
    main()
