# The exact bytes pickle writes for small objects at protocols 0-5 (files written by one Python are read by another).
import pickle

for proto in range(6):
    print(proto, pickle.dumps(None, proto), pickle.dumps(True, proto), pickle.dumps(300, proto), pickle.dumps(1.5, proto))
    print(proto, pickle.dumps("ab", proto), pickle.dumps(b"ab", proto), pickle.dumps((1, 2), proto), pickle.dumps({"a": [1]}, proto))
print(pickle.dumps(2 ** 70, 2), pickle.dumps(-1, 2), pickle.dumps([[], []], 2), pickle.dumps({1, 2}, 4))
