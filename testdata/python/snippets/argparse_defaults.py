# argparse as training scripts use it: parse_args() of the real (empty) sys.argv, types, defaults, store_true, choices, dest.
import argparse
import sys

parser = argparse.ArgumentParser(description="Train a model.")
parser.add_argument("--batch_size", type=int, default=32, help="batch size")
parser.add_argument("--lr", "--learning-rate", type=float, default=0.001)
parser.add_argument("--use_cuda", action="store_true")
parser.add_argument("--model", choices=["lenet", "resnet"], default="lenet")
parser.add_argument("--save-dir", default="output")
parser.add_argument("-n", "--num-epochs", dest="epochs", type=int, default=5)
args = parser.parse_args()
print(sys.argv[1:], args)
print(args.batch_size, args.lr, args.use_cuda, args.model, args.save_dir, args.epochs)
for k, v in sorted(vars(args).items()):
    print("%s=%r" % (k, v))
args2 = parser.parse_args(["--batch_size", "64", "--lr=0.1", "--use_cuda", "--model", "resnet", "-n3", "--learning-rate", "2"])
print(args2)
print(parser.parse_known_args(["--unknown", "--batch_size", "1", "extra"]))
