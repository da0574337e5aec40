# json.dump/json.load round trip through files in a temp dir, with indent; default= for custom objects; JSONEncoder subclass.
import json
import os
import tempfile


class Params:
    def __init__(self):
        self.lr = 0.1
        self.epochs = 5


d = tempfile.mkdtemp()
path = os.path.join(d, "config.json")
config = {"model": "lenet", "params": {"lr": 0.01, "epochs": 10}, "tags": ["a", "b"]}
with open(path, "w") as f:
    json.dump(config, f, indent=4, sort_keys=True)
with open(path) as f:
    text = f.read()
print(text)
with open(path) as f:
    print(json.load(f) == config)
print(json.dumps(Params(), default=lambda o: o.__dict__))


class SetEncoder(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, set):
            return sorted(o)
        return super().default(o)


print(json.dumps({"ids": {3, 1, 2}}, cls=SetEncoder))
lines = [json.dumps({"step": i, "loss": round(1.0 / (i + 1), 4)}) for i in range(3)]
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
with open(path) as f:
    print([json.loads(l)["loss"] for l in f])
os.remove(path)
os.rmdir(d)
