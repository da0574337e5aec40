# argparse help and usage text (COLUMNS=80 in the test's environment), groups, metavar, nargs, defaults formatter.
import argparse

p = argparse.ArgumentParser(prog="train.py", description="Trains the network on the data set.",
                            epilog="See the docs.", formatter_class=argparse.ArgumentDefaultsHelpFormatter)
p.add_argument("data", help="the data directory")
p.add_argument("--layers", nargs="+", type=int, default=[64, 32], metavar="N", help="hidden sizes")
p.add_argument("--opt", nargs="?", const="sgd", default="adam", help="optimizer")
g = p.add_argument_group("training", "options of the training loop")
g.add_argument("--epochs", type=int, default=10, help="number of passes over the data set, a long help text that needs wrapping to fit in the terminal")
g.add_argument("-v", "--verbose", action="count", default=0)
mx = p.add_mutually_exclusive_group()
mx.add_argument("--gpu", action="store_true")
mx.add_argument("--cpu", action="store_true")
p.print_help()
print("---")
p.print_usage()
print(p.format_usage().strip())
print(p.parse_args(["d", "--layers", "1", "2", "3", "-vvv", "--opt"]))
