# JSON Lines data files: writing one object per line, reading with a generator, skipping blank lines, and counting records per label.
import json
import os
import tempfile
from collections import Counter

d = tempfile.mkdtemp()
path = os.path.join(d, "data.jsonl")
with open(path, "w") as f:
    for i in range(6):
        f.write(json.dumps({"id": i, "label": ["cat", "dog"][i % 2], "feat": [i, i * 0.5]}) + "\n")
    f.write("\n")


def records(p):
    with open(p) as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


print(next(records(path)), sum(1 for _ in records(path)), Counter(r["label"] for r in records(path)))
print([r["feat"][1] for r in records(path) if r["label"] == "dog"])
os.remove(path)
os.rmdir(d)
