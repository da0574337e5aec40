# Reading sys.argv by hand as 2018 scripts do: the script name, len checks with defaults, and argparse's parse_args on sys.argv[1:] (empty in the test).
import argparse
import os
import sys

script = os.path.basename(sys.argv[0])
epochs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
mode = sys.argv[2] if len(sys.argv) > 2 else "train"
print(script, epochs, mode, sys.argv[1:])
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=epochs)
args, unknown = parser.parse_known_args(sys.argv[1:])
print(args, unknown, parser.prog)
if len(sys.argv) < 2:
    print("usage: python %s EPOCHS [MODE]" % script)
