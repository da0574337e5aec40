# distutils.util.strtobool, which 2018 scripts use for boolean command-line flags (still in CPython 3.11).
import argparse
import distutils.util

print([distutils.util.strtobool(v) for v in ["y", "yes", "t", "true", "on", "1", "n", "no", "f", "false", "off", "0", "TRUE"]])
try:
    distutils.util.strtobool("maybe")
except ValueError as e:
    print("ValueError:", e)
p = argparse.ArgumentParser()
p.add_argument("--use_gpu", type=distutils.util.strtobool, default=False)
print(p.parse_args(["--use_gpu", "True"]).use_gpu, p.parse_args([]).use_gpu)
