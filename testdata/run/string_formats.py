# The ways 2018 scripts print their numbers: str.format with general,
# fixed, exponent, percent and grouped specs (`{0:2.2}` as the book's
# fit_a_line prints a loss), `%` conversions with flags, f-strings,
# `format()`, `!r`, and fetched numpy values inside all of them.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
loss = fluid.layers.reduce_mean(fluid.layers.square(x))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step, scale in enumerate([0.5, 30.0, 2000.0]):
    out, = exe.run(feed={'x': np.full((2, 3), scale, dtype='float32')},
                   fetch_list=[loss])
    value = float(out)
    print("step {0}: loss {1:2.2}, {1:.3e}, {1:g}, {1:,.1f}".format(step, value))
    print("Pass %d, Cost %f, %8.3f|%-10.2e|%+g|%5.1f%%" % (step, value, value, value, value, 12.5))
    print(f"{step:03d} {value:>12.4f} {out!r} {value:.2%}")

print("cost is too large, {0:2.2}".format(411.01))
print("Test Loss {0:2.2}, Acc {1:2.2}".format(3.5432, 0.25))
print("{:.2e} {:g} {:+.3f} {:,} {:>8} {:<6}| {:^7}|".format(
    123.456, 0.00001234, 2.5, 1234567, 'ab', 3, 'mid'))
print("%5.2f|%-8s|%05d|%x|%e|%g|%.3g|%10.4f|%r|%s" % (
    3.14159, 'hi', 42, 255, 12345.678, 0.0001, 1234.5, -2.5, 'q', [1, 2]))
print("%d %i" % (3.7, -2.2), "%s" % np.float32(1.5), "%.4f" % np.float32(0.1))
print("{0!r} {1!s} {0!r:>6}".format('a', 'b'))
print(format(0.5, '.0%'), format(1234.5678, '_.2f'), format(10, 'b'), format(255, '#X'))
print("{:10.3}|{:.3}|{:e}|{:.0f}|{:#x}".format(3.14159, 'abcdef', 0.0, 2.5, 255))

# Named fields, items, and Paddle 1.x's paddle.compat helpers.
import paddle.compat as cpt
cfg = {'lr': 0.01, 'name': 'fc'}
print("{name} lr={lr:.3f} {0} {1[0]} {cfg[lr]}".format('pos', [7, 8], name='net', lr=0.5, cfg=cfg))
print("epoch {epoch:>3d}, loss {loss:.4f}".format(epoch=3, loss=0.123456))
print(cpt.to_text("abc"), cpt.to_text(["a", "b"]), cpt.floor_division(7, 2), cpt.round(2.5), cpt.round(-1.5), cpt.round(1.234, 2))
try:
    raise ValueError("bad value")
except ValueError as e:
    print(cpt.get_exception_message(e))

# `%` with a dict, `*` widths, length modifiers, `%c`, text right-aligned,
# and the errors CPython raises for a bad format.
acc = np.float32(0.8125)
print("%10s|%-6s|%5r|%.3s" % ('right', 'left', 'r', 'truncated'))
print("%*d|%-*.*f|%.*e|%*s|" % (5, 3, 8, 2, 3.14159, 1, 12345.6, -4, 'x'))
print("%(pass_id)d %(name)s %(acc).3f %(acc)08.2f %%" % {'pass_id': 2, 'name': 'fc', 'acc': acc})
print("%ld %c%c %5c|%-3c|" % (7, 65, 'z', 'q', 'w'))
print("%s" % {'k': 1}, "no fields" % {'k': 1}, "%5.1f%%" % 99.44)
for fmt, args in [("%s %s", (1,)), ("%s", (1, 2)), ("abc", 5), ("%y", 1),
                  ("ab %", ()), ("%(a)s", (1,)), ("%*d", ('x', 1)),
                  ("%c", 'ab'), ("%(a)s", {})]:
    try:
        print(repr(fmt % args))
    except (TypeError, ValueError, KeyError) as e:
        print(type(e).__name__, e)

# The string methods scripts use to read dict and data files.
line = "  12\tthe\tcat \n"
print(repr(line.strip()), repr(line.rstrip('\n')), repr(line.lstrip()), repr(line.rstrip()))
print(repr("xxabcxx".strip('x')), repr("--a-".lstrip('-')), repr("a\r\nb\rc\n\nd".splitlines()), "".splitlines())
print(line.find('the'), "né ab".find('ab'), line.find('dog'), line.count('\t'), "aaaa".count('aa'))
print("123".isdigit(), "12a".isdigit(), "".isdigit(), [w for w in line.strip().split('\t') if w.isdigit()])
