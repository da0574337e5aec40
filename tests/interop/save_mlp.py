"""Paddle 3.3.1 saves a 2-layer MLP with paddle.static.save_inference_model
(PREFIX.pdmodel + PREFIX.pdiparams) and prints its output for a fixed input
as JSON: the reference for `fluidc run PREFIX.pdmodel` (docs/models.md).

    save_mlp.py PREFIX
"""
import json
import os
import sys
import warnings

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

import numpy as np  # noqa: E402
import paddle  # noqa: E402


def main():
    prefix = sys.argv[1]
    paddle.enable_static()
    paddle.seed(7)
    main, startup = paddle.static.Program(), paddle.static.Program()
    main.random_seed = startup.random_seed = 7
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [-1, 4], "float32")
        bias = paddle.ParamAttr(initializer=paddle.nn.initializer.Normal(0.0, 0.5))
        hidden = paddle.static.nn.fc(x, size=8, activation="relu", bias_attr=bias)
        logits = paddle.static.nn.fc(hidden, size=3, bias_attr=bias)
        out = paddle.nn.functional.softmax(logits)
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
    paddle.static.save_inference_model(prefix, [x], [out], exe, program=main)
    feed = np.linspace(-1.0, 1.0, 8, dtype="float32").reshape(2, 4)
    program, feeds, fetches = paddle.static.load_inference_model(prefix, exe)
    result, = exe.run(program, feed={feeds[0]: feed}, fetch_list=fetches)
    print(json.dumps({"feed": feed.tolist(), "fetch": fetches[0].name,
                      "out": [float(v) for v in result.flatten()]}))


if __name__ == "__main__":
    main()
