# Saving and restoring a training checkpoint with pickle: params dict of lists, optimizer state, epoch; resume continues from the saved state.
import os
import pickle
import tempfile

d = tempfile.mkdtemp()
ckpt = os.path.join(d, "checkpoint.pkl")
state = {"epoch": 3, "params": {"fc.w": [[0.1, -0.2], [0.3, 0.4]], "fc.b": [0.0, 0.1]}, "opt": {"lr": 0.01, "moments": {"fc.w": [0.0, 0.0]}}}
with open(ckpt, "wb") as f:
    pickle.dump(state, f, protocol=2)
with open(ckpt, "rb") as f:
    restored = pickle.load(f)
print(restored == state, restored["epoch"], sorted(restored["params"]), os.path.getsize(ckpt))
for epoch in range(restored["epoch"] + 1, 6):
    restored["params"]["fc.b"] = [round(v - restored["opt"]["lr"], 4) for v in restored["params"]["fc.b"]]
    print("epoch", epoch, restored["params"]["fc.b"])
os.remove(ckpt)
os.rmdir(d)
