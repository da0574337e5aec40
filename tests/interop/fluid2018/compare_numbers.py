"""Compare two program outputs number by number, within a tolerance.

    compare_numbers.py A B [--rtol R] [--atol A]

A and B are files holding what two runs printed (`-` reads stdin), e.g.
`fluidc run train.py` and `run_with_paddle.py train.py`. Training losses
agree only within float32 rounding (docs/training.md, "Kernels"), so they are not compared
byte for byte: both texts are cut into tokens at whitespace and at the
characters `[ ] ( ) { } , ; : =` (each of those is a token of its own), so
numpy's `[0.1234 5.6]`, `array(16.135, dtype=float32)` and `step 3, loss
0.5` all split cleanly and line wrapping does not matter. Tokens that read
as numbers (Python's float(): `3`, `-1.5e-05`, `2.`, `nan`, `inf`) must
agree within max(rtol * max(|a|, |b|), atol) (nan only with nan, infinities
by sign); every other token must be equal. Exits 0 and prints a one-line
summary when they agree, else prints each difference (with line numbers)
and exits 1.
"""

import argparse
import math
import re
import sys

DELIMITERS = "[](){},;:="
TOKEN = re.compile(r"[%s]|[^\s%s]+" % (re.escape(DELIMITERS), re.escape(DELIMITERS)))
MAX_REPORTED = 20


def tokens(text):
    """[(token, line number)] of `text`."""
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        out += [(m.group(0), lineno) for m in TOKEN.finditer(line)]
    return out


def number(token):
    try:
        return float(token)
    except ValueError:
        return None


def close(a, b, rtol, atol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(rtol * max(abs(a), abs(b)), atol)


def read(path):
    if path == "-":
        return sys.stdin.read()
    with open(path) as f:
        return f.read()


def compare(text_a, text_b, rtol, atol, name_a="A", name_b="B"):
    """(differences as messages, numbers compared, largest relative difference)."""
    ta, tb = tokens(text_a), tokens(text_b)
    lines_a, lines_b = text_a.splitlines(), text_b.splitlines()
    diffs, compared, worst = [], 0, 0.0

    def where(la, lb):
        return (f"  {name_a} line {la}: {lines_a[la - 1].strip()}\n"
                f"  {name_b} line {lb}: {lines_b[lb - 1].strip()}")

    for (a, la), (b, lb) in zip(ta, tb):
        na, nb = number(a), number(b)
        if na is not None and nb is not None:
            compared += 1
            if math.isfinite(na) and math.isfinite(nb) and max(abs(na), abs(nb)) > atol:
                worst = max(worst, abs(na - nb) / max(abs(na), abs(nb)))
            if not close(na, nb, rtol, atol):
                rel = abs(na - nb) / max(abs(na), abs(nb)) if math.isfinite(na - nb) else math.inf
                diffs.append(f"number {a} vs {b} (relative difference {rel:.3g} > rtol {rtol:g})\n"
                             + where(la, lb))
        elif a != b:
            diffs.append(f"token {a!r} vs {b!r}\n" + where(la, lb))
    if len(ta) != len(tb):
        if len(ta) > len(tb):
            longer, name, shorter = ta, name_a, len(tb)
        else:
            longer, name, shorter = tb, name_b, len(ta)
        token, lineno = longer[shorter]
        diffs.append(f"{name_a} has {len(ta)} tokens, {name_b} has {len(tb)}: "
                     f"{name} goes on with {token!r} at its line {lineno}")
    return diffs, compared, worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--rtol", type=float, default=1e-5,
                        help="relative tolerance for numbers (default 1e-5)")
    parser.add_argument("--atol", type=float, default=1e-6,
                        help="absolute floor of the tolerance (default 1e-6)")
    args = parser.parse_args()
    diffs, compared, worst = compare(read(args.a), read(args.b), args.rtol, args.atol,
                                     args.a, args.b)
    if diffs:
        for d in diffs[:MAX_REPORTED]:
            print(d)
        if len(diffs) > MAX_REPORTED:
            print(f"... and {len(diffs) - MAX_REPORTED} more")
        print(f"MISMATCH: {len(diffs)} difference(s) ({compared} numbers compared, "
              f"rtol {args.rtol:g}, atol {args.atol:g})")
        sys.exit(1)
    print(f"OK: {compared} numbers agree (largest relative difference {worst:.3g}, "
          f"rtol {args.rtol:g})")


if __name__ == "__main__":
    main()
