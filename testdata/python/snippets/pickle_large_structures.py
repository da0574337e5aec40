# pickle of larger structures: exact bytes length and round trip of a list of dicts at protocol 2, shared sub-objects, recursive lists, big byte strings with framing.
import hashlib
import pickle

rows = [{"id": i, "name": "row%d" % i, "vals": [i * 0.5, -i], "flag": i % 2 == 0} for i in range(200)]
for proto in (2, 3, 4, 5):
    data = pickle.dumps(rows, protocol=proto)
    print(proto, len(data), hashlib.md5(data).hexdigest(), pickle.loads(data) == rows)
shared = {"w": [1.0, 2.0]}
pair = pickle.loads(pickle.dumps([shared, shared], 2))
print(pair[0] is pair[1])
rec = [1]
rec.append(rec)
back = pickle.loads(pickle.dumps(rec))
print(back[1] is back, len(pickle.dumps(b"x" * 100000, 4)), pickle.loads(pickle.dumps(b"x" * 100000, 5)) == b"x" * 100000)
