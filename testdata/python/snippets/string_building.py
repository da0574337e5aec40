# Building strings: join vs concatenation in loops, io.StringIO builders, str.format with lists, %-format tables, ljust/rjust columns, textwrap-free wrapping.
import io

parts = []
for i in range(5):
    parts.append("item%d" % i)
print(",".join(parts), "+".join(str(i) for i in range(3)))
s = ""
for w in ["a", "b", "c"]:
    s += w * 2
print(s)
buf = io.StringIO()
for row in [("name", "acc"), ("lenet", 0.9913), ("resnet", 0.9951)]:
    buf.write("%-8s %8s\n" % (row[0], row[1] if isinstance(row[1], str) else "%.2f%%" % (row[1] * 100)))
print(buf.getvalue(), end="")
header = ["epoch", "loss", "acc"]
rows = [[1, 0.69314, 0.5], [10, 0.01234, 0.99]]
widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
print(" | ".join(h.ljust(w) for h, w in zip(header, widths)))
for r in rows:
    print(" | ".join(str(v).rjust(w) for v, w in zip(r, widths)))
print("{} items: {}".format(len(parts), parts[:2]), "-" * 10, "=" * len("title"))
