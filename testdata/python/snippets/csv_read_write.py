# csv: writer/reader round trip with quoting, DictWriter/DictReader, delimiters, newline='' files, reading numbers from rows.
import csv
import io
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "data.csv")
rows = [["id", "text", "score"], [1, "plain", 0.5], [2, "with,comma", 1.25], [3, 'quote "q"', -3]]
with open(path, "w", newline="") as f:
    w = csv.writer(f)
    w.writerows(rows)
with open(path, "rb") as f:
    print(f.read())
with open(path, newline="") as f:
    r = csv.reader(f)
    header = next(r)
    print(header)
    for row in r:
        print(row, float(row[2]) * 2)
with open(path, "w", newline="") as f:
    dw = csv.DictWriter(f, fieldnames=["name", "value"])
    dw.writeheader()
    dw.writerow({"name": "lr", "value": 0.1})
    dw.writerows([{"name": "bs", "value": 32}, {"name": "opt"}])
with open(path, newline="") as f:
    for rec in csv.DictReader(f):
        print(dict(rec))
out = io.StringIO()
csv.writer(out, delimiter="\t", quoting=csv.QUOTE_NONNUMERIC).writerow(["a", 1, 2.5, None])
print(repr(out.getvalue()))
print(list(csv.reader(io.StringIO("a;b;'c;d'\n1;2;3\n"), delimiter=";", quotechar="'")))
print(list(csv.reader(["x, y,z", "  1, 2,3"], skipinitialspace=True)))
os.remove(path)
os.rmdir(d)
