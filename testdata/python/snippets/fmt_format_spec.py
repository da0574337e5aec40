# str.format and format(): alignment, fill, sign, width, precision, types e/E/f/g/%/n/c/x/X/o/b, grouping.
vals = [0, 1, -1, 3.14159265, -2.5e-5, 1e16, 123456789.0, 0.5, 1.5, 2.5, float("inf"), float("nan")]
for v in vals:
    print("{!r:>14} | {:10.3f} | {:.3e} | {:g} | {:.2%} | {:+.1f}".format(v, v, v, v, v, v))
print("{:*^20}|{:->10}|{:_<8}|".format("mid", "right", "left"))
print("{0}{1}{0}".format("ab", "-"), "{x}-{y}".format(x=1, y=2), "{0[1]} {1[k]}".format([5, 6], {"k": "v"}))
print(format(255, "x"), format(255, "#X"), format(255, "08b"), format(65, "c"), format(1e-7, ".2g"), format(1234.5678, "10.2f"))
print("{:,}".format(1234567), "{:_}".format(1234567), "{:,.3f}".format(9876.54321))
print(format(123, ""), format("s", ""), format(3.0), format(1e22), format(1e-5), format(0.1 + 0.2))
print("{:=+8.2f}".format(3.14), "{:08.3f}".format(-3.14), "{:e}".format(0.0), "{:.0f}".format(2.5), "{:.0f}".format(3.5))
print("{:.3}".format("abcdef"), "{:%Y}".format(__import__("datetime").date(2020, 1, 2)))
