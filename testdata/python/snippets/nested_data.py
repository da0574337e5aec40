# Nested data structures: list of dicts aggregation, grouping, sorting by multiple keys, deep access with get, json-like configs.
records = [
    {"model": "lenet", "epoch": 1, "acc": 0.91},
    {"model": "resnet", "epoch": 1, "acc": 0.88},
    {"model": "lenet", "epoch": 2, "acc": 0.95},
    {"model": "resnet", "epoch": 2, "acc": 0.93},
]
best = {}
for r in records:
    if r["acc"] > best.get(r["model"], {}).get("acc", 0):
        best[r["model"]] = r
print(best)
by_epoch = {}
for r in records:
    by_epoch.setdefault(r["epoch"], []).append(r["model"])
print(by_epoch)
print(sorted(records, key=lambda r: (r["model"], -r["epoch"]))[0], max(records, key=lambda r: r["acc"])["model"])
print({m: round(sum(r["acc"] for r in records if r["model"] == m) / 2, 3) for m in sorted({r["model"] for r in records})})
cfg = {"optimizer": {"type": "adam", "params": {"lr": 1e-3}}}
print(cfg.get("optimizer", {}).get("params", {}).get("lr"), cfg.get("scheduler", {}).get("type", "none"))
