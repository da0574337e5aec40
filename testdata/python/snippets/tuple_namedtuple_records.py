# Records as tuples and namedtuples: sorting records, grouping by field, _replace updates, converting to dicts and CSV-like lines.
from collections import namedtuple

Run = namedtuple("Run", ["model", "lr", "acc"])
runs = [Run("lenet", 0.1, 0.91), Run("lenet", 0.01, 0.95), Run("mlp", 0.1, 0.88), Run("mlp", 0.01, 0.90)]
best = {}
for r in runs:
    if r.model not in best or r.acc > best[r.model].acc:
        best[r.model] = r
print(best)
print(sorted(runs, key=lambda r: (-r.acc, r.model))[:2], [r._replace(acc=round(r.acc * 100, 1)) for r in runs[:1]])
print([r._asdict() for r in runs[2:]], ",".join(Run._fields), [",".join(map(str, r)) for r in runs[:2]])
model, lr, acc = runs[0]
print(model, lr, acc, runs[0] < runs[1], max(runs, key=lambda r: r.acc).model)
