"""Times Paddle 3.3.1 building and serializing, in process, the program of
bench/run.py's generated compile scripts: K ops, a fill_constant then
alternating `scale` and `elementwise_add` on one variable.

Usage: paddle_build.py K
Prints the wall time (seconds) of building the program through Paddle's own
static API (each op through `LayerHelper.append_op`) and of
`serialize_to_string`: not Python's start, `import paddle`, or the
fluid2018 shim's bookkeeping (issue 17).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "interop"))
import paddle_helper  # noqa: E402,F401  (sets legacy static mode before importing paddle)
import paddle  # noqa: E402


def main():
    k = int(sys.argv[1])
    start = time.perf_counter()
    main_program, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main_program, startup):
        x = paddle.full(shape=[1], fill_value=1.0, dtype="float32")
        for i in range(k - 2):
            x = paddle.add(x, x) if i % 2 else paddle.scale(x, scale=0.5, bias=float(i % 7))
    data = main_program.desc.serialize_to_string()
    elapsed = time.perf_counter() - start
    ops = len(main_program.global_block().ops)
    if ops != k - 1:
        sys.exit(f"built {ops} ops, expected {k - 1}")
    print(elapsed, len(data))


if __name__ == "__main__":
    main()
