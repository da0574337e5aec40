# The exact bytes of pickled class instances and nested containers at protocols 2 and 4 (a C pickler and a Python pickler must agree).
import pickle


class Weights:
    def __init__(self):
        self.name = "fc_0.w_0"
        self.shape = (2, 3)
        self.data = [0.5, -1.0]


w = Weights()
print(pickle.dumps(w, 2))
print(pickle.dumps(w, 4))
print(pickle.dumps([w, w], 2))
print(pickle.dumps({"a": (1, [2.5, "x"]), "b": {None: True}}, 2))
print(pickle.dumps({"a": (1, [2.5, "x"]), "b": {None: True}}, 4))
