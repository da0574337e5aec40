# argparse subcommands with set_defaults(func=...), required subparsers, and Namespace behaviour.
import argparse


def train(args):
    return "train %d epochs" % args.epochs


def infer(args):
    return "infer on %s" % args.image


p = argparse.ArgumentParser(prog="tool")
sub = p.add_subparsers(dest="command")
t = sub.add_parser("train", help="train a model")
t.add_argument("--epochs", type=int, default=1)
t.set_defaults(func=train)
i = sub.add_parser("infer", help="run inference")
i.add_argument("image")
i.set_defaults(func=infer)
for argv in [["train", "--epochs", "3"], ["infer", "cat.png"], []]:
    a = p.parse_args(argv)
    print(a.command, a.func(a) if hasattr(a, "func") else None)
ns = argparse.Namespace(a=1, b="x")
print(ns, ns.a, vars(ns), ns == argparse.Namespace(a=1, b="x"), "a" in ns)
p.print_help()
