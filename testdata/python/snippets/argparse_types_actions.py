# argparse details: custom type functions, append/extend actions, store_const, nargs counts, version-free help of types, defaults from set_defaults.
import argparse


def positive(text):
    v = int(text)
    if v <= 0:
        raise argparse.ArgumentTypeError("%s is not positive" % text)
    return v


def str2bool(v):
    return v.lower() in ("yes", "true", "t", "1")


p = argparse.ArgumentParser(prog="run")
p.add_argument("--steps", type=positive, default=10)
p.add_argument("--use_gpu", type=str2bool, default=False)
p.add_argument("--gpu", action="append", type=int, default=[])
p.add_argument("--tags", nargs="*", default=[])
p.add_argument("--shape", nargs=3, type=int)
p.add_argument("--fast", action="store_const", const="O2", dest="opt", default="O0")
p.add_argument("--no-shuffle", dest="shuffle", action="store_false")
p.set_defaults(mode="train")
print(p.parse_args([]))
print(p.parse_args(["--steps", "5", "--use_gpu", "True", "--gpu", "0", "--gpu", "1", "--tags", "a", "b", "--shape", "1", "2", "3", "--fast", "--no-shuffle"]))
for bad in [["--steps", "-1"], ["--shape", "1", "2"]]:
    try:
        p.parse_args(bad)
    except SystemExit as e:
        print("exit", e.code)
