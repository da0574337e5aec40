# argparse: positionals mixed with options, "--" ending options, nargs='+' positionals, negative numbers as values, prefix matching of long options.
import argparse

p = argparse.ArgumentParser(prog="predict")
p.add_argument("model")
p.add_argument("inputs", nargs="+")
p.add_argument("--threshold", type=float, default=0.5)
p.add_argument("--verbose", action="store_true")
print(p.parse_args(["m.pb", "a.jpg", "b.jpg", "--threshold", "-0.25"]))
print(p.parse_args(["--verbose", "m.pb", "--", "--not-an-option.jpg"]))
print(p.parse_args(["m.pb", "x", "--thr", "0.9"]))
print(p.parse_intermixed_args(["m.pb", "x", "--verbose", "y"]))
try:
    p.parse_args(["m.pb"])
except SystemExit as e:
    print("exit", e.code)
