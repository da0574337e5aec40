# argparse as the Paddle book's and models' train.py scripts use it, run
# with the command-line words tests/python_subset.rs gives after `--`;
# every parse error is caught (SystemExit) so one run shows several.
from __future__ import print_function
import argparse
import distutils.util
import functools
import sys

import six


def add_arguments(argname, type, default, help, argparser, **kwargs):
    """The models repo's utility.add_arguments."""
    type = distutils.util.strtobool if type == bool else type
    argparser.add_argument(
        "--" + argname,
        default=default,
        type=type,
        help=help + ' Default: %(default)s.',
        **kwargs)


def print_arguments(args):
    print("-----------  Configuration Arguments -----------")
    for arg, value in sorted(six.iteritems(vars(args))):
        print("%s: %s" % (arg, value))
    print("------------------------------------------------")


def count_args(*values, **options):
    return len(values), sorted(options.items())


def build_parser():
    parser = argparse.ArgumentParser(
        "fit_a_line",
        description="Train a linear regression on the housing data, a "
        "model small enough to train on one CPU core in seconds.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument('--enable_ce', action='store_true',
                        help="If set, run the task with continuous evaluation logs.")
    parser.add_argument('--use_gpu', type=bool, default=False, help="Whether to use GPU or not.")
    parser.add_argument('--num_epochs', type=int, default=100, help="number of epochs.")
    parser.add_argument('--lr', '-l', type=float, default='0.01', help="learning rate")
    parser.add_argument('--mode', choices=['train', 'infer'], default='train')
    parser.add_argument('-v', '--verbose', action='count', default=0)
    parser.add_argument('--layer', dest='layers', action='append', type=int)
    parser.add_argument('files', nargs='*', help='input files')
    group = parser.add_argument_group('model', 'what the network looks like')
    add_arg = functools.partial(add_arguments, argparser=group)
    add_arg('batch_size', int, 32, "Minibatch size.")
    add_arg('use_cuda', bool, False, "Whether use GPU.")
    parser.set_defaults(model_dir='fit_a_line.inference.model')
    return parser


parser = build_parser()
args = parser.parse_args()
print(args)
print_arguments(args)
print(args.num_epochs * 2, args.lr, type(args.lr).__name__, type(args) is argparse.Namespace)
print(count_args(1, 2, 3, a=1, b=2), count_args())

known, rest = parser.parse_known_args(['--num_epochs', '7', '--unknown', 'x'])
print(known.num_epochs, rest)
print(parser.parse_args(['-vv', '--layer', '3', '--layer=4', '-l0.5', 'a.txt']))

for words in (['--mode', 'test'], ['--num_epochs'], ['--num_epochs', 'ten'],
              ['--use_cuda', 'maybe'], ['--bogus'], ['--enable_ce=yes']):
    try:
        parser.parse_args(words)
    except SystemExit as e:
        print('exit', e.code, 'for', words)

required = argparse.ArgumentParser(prog='infer')
required.add_argument('--model_dir', required=True, help='where the model is')
required.add_argument('image')
try:
    required.parse_args([])
except SystemExit as e:
    print('exit', e.code)
required.print_usage()
print(required.format_help())
parser.print_help()
sys.stdout.flush()

# A value that raised binds nothing, and an exception caught in a loop does
# not stop it.
value = 0
for word in ["3", "x", "5"]:
    try:
        value = int(word)
    except ValueError:
        pass
    if value > 2:
        print('value', value)

late = argparse.ArgumentParser(prog='late')
late.set_defaults(epochs=5)
late.add_argument('--epochs', type=int)
late.add_argument('-lr', type=float)
late.add_argument('-l', type=float)
late.add_argument('--opt', nargs='?', const='0.5', type=float)
late.add_argument('n', nargs='?', default='3', type=int)
late.add_argument('mode', choices=['train', 'test'], nargs='?')
untitled = late.add_argument_group()
untitled.add_argument('--x', help='in a group without a title')
print(late.parse_args(['-lr=0.01', '-l=0.1', '--opt']))
try:
    late.parse_args(['4', 'zz'])
except SystemExit as e:
    print('exit', e.code)
late.print_help()
