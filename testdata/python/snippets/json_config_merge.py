# JSON configs: loading defaults and overrides from files in a temp dir, deep merging nested dicts, writing the result with sorted keys.
import json
import os
import tempfile


def deep_merge(base, over):
    out = dict(base)
    for k, v in over.items():
        out[k] = deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


d = tempfile.mkdtemp()
files = {"defaults.json": {"model": {"depth": 18, "act": "relu"}, "train": {"lr": 0.1, "epochs": 10}},
         "override.json": {"model": {"depth": 50}, "train": {"lr": 0.01}, "tag": "exp1"}}
for name, obj in files.items():
    with open(os.path.join(d, name), "w") as f:
        json.dump(obj, f)
loaded = [json.load(open(os.path.join(d, n))) for n in ["defaults.json", "override.json"]]
merged = deep_merge(*loaded)
print(json.dumps(merged, sort_keys=True, indent=2))
print(json.loads(json.dumps(merged)) == merged, sorted(os.listdir(d)))
for n in files:
    os.remove(os.path.join(d, n))
os.rmdir(d)
