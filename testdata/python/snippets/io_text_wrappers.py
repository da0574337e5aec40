# io text layers: TextIOWrapper encoding errors ('replace', 'ignore'), write_through, reading lines from BytesIO, StringIO as a fake file for csv/json.
import csv
import io
import json

data = b"ok\n\xffbad\nend\n"
print(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").read().splitlines())
print(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="ignore").readlines())
fake = io.StringIO()
json.dump({"a": [1, 2]}, fake)
fake.seek(0)
print(json.load(fake), fake.tell())
csv_buf = io.StringIO()
csv.writer(csv_buf).writerows([["x", 1], ["y", 2]])
print(repr(csv_buf.getvalue()), list(csv.reader(io.StringIO(csv_buf.getvalue()))))
b = io.BytesIO()
w = io.TextIOWrapper(b, encoding="latin-1", write_through=True)
w.write("café")
print(b.getvalue())
