# pickle.dump/pickle.load with files in a temp dir, several objects in one file, custom __getstate__/__setstate__, errors.
import os
import pickle
import tempfile


class Vocab:
    def __init__(self, words):
        self.words = words
        self.index = {w: i for i, w in enumerate(words)}

    def __getstate__(self):
        print("getstate")
        return {"words": self.words}

    def __setstate__(self, state):
        print("setstate")
        self.__init__(state["words"])


d = tempfile.mkdtemp()
path = os.path.join(d, "vocab.pkl")
with open(path, "wb") as f:
    pickle.dump(Vocab(["<s>", "a", "b"]), f)
    pickle.dump({"epoch": 3}, f, protocol=2)
with open(path, "rb") as f:
    v = pickle.load(f)
    meta = pickle.load(f)
    try:
        pickle.load(f)
    except EOFError:
        print("EOFError")
print(v.index, meta)
try:
    pickle.dumps(lambda x: x)
except (pickle.PicklingError, AttributeError) as e:
    print(type(e).__name__)
os.remove(path)
os.rmdir(d)
