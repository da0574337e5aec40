# Number formatting edge cases: negative zero, rounding half-even in %-format and format(), huge and tiny exponents, nan/inf formats.
vals = [-0.0, 0.5, 1.5, 2.5, 0.125, 0.375, 1e-320, 1e300, float("nan"), float("-inf"), 123.456, -7.0]
for v in vals:
    print("%.0f|%.2f|%e|%g|%s" % (v, v, v, v, v), format(v, ".1f"), format(v, "+.3g"), format(v, "10.2e"), f"{v:.0%}")
print(format(2 ** 53 + 1, ",d"), format(-255, "#x"), format(255, "#010b"), format(3, "^5d"), format(-3, "=5d"), "%.3d" % 5, "%x" % -255)
print(round(0.5), round(1.5), round(-0.5), round(2.675 * 100) / 100, "%.1f" % 0.05, "%.1f" % 0.15, "%.1f" % 0.25, "%.2f" % 1.005)
print(int("  -0012  "), float("1_000.5"), float(".5"), float("5."), float("-iNF"), str(float("NaN")), int(-0.999))
