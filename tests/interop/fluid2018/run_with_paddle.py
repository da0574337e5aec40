"""Run a fluid script as CPython + Paddle 3.3.1 would: the reference for
`fluidc run script.py` (README, "Run mode").

    run_with_paddle.py SCRIPT [ARGS...]

The script runs with the `paddle.fluid` shim (paddle_fluid_shim.py) in run
mode: `Executor.run` runs each program in Paddle's legacy static executor and
returns numpy arrays. The script's stdout is this process's stdout, so the
differential test compares it with fluidc's byte for byte.
"""

import os
import runpy
import sys
import warnings
from pathlib import Path

os.environ["FLAGS_enable_pir_api"] = "0"  # must precede `import paddle`
os.environ.setdefault("GLOG_minloglevel", "2")
warnings.filterwarnings("ignore")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import paddle_fluid_shim as shim  # noqa: E402


def main():
    script = sys.argv[1]
    # The script sees `python SCRIPT ARGS...`'s argv (what argparse parses).
    sys.argv = sys.argv[1:]
    shim.install(run=True)
    sys.path.insert(0, str(Path(script).resolve().parent))
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
