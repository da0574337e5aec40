# A results table as 2019 scripts printed it: names cut to a column's
# width with a precision, padded with a width; Chinese class names too.
rows = [("cross_entropy_loss_mean", 0.6931), ("accuracy", 0.5), ("学习率", 0.001), ("猫", 1.0)]
for name, value in rows:
    print("{:<12.10}|{:>8.3}|{:^9.2}|".format(name, value, name))
print("{:.0}|{:.1}|{:5.1}|{:*^7.2}|".format("abc", "中文", "中文", "abcdef"))
print("%-8.3s|%8.1s|" % ("abcdef", "中文"), format("mnist", "10.2"), format("ab", ".5"))
print(f"{'dynamic_lstm':>10.6}|{'x':.3}|")
