# copy.copy vs copy.deepcopy on nested lists/dicts, shared references and cycles, custom __copy__/__deepcopy__, copying instances.
import copy

orig = {"layers": [1, 2, [3, 4]], "name": "net"}
shallow = copy.copy(orig)
deep = copy.deepcopy(orig)
orig["layers"][2].append(5)
orig["name"] = "changed"
print(shallow, deep)
shared = [1]
pair = [shared, shared]
dc = copy.deepcopy(pair)
print(dc[0] is dc[1], dc[0] is shared)
cyc = [1]
cyc.append(cyc)
cc = copy.deepcopy(cyc)
print(cc[1] is cc, cc is not cyc)


class Model:
    def __init__(self, weights):
        self.weights = weights
        self.cache = {"x": 1}

    def __deepcopy__(self, memo):
        print("custom deepcopy")
        m = Model(copy.deepcopy(self.weights, memo))
        return m


m = Model([0.1, 0.2])
m2 = copy.deepcopy(m)
m3 = copy.copy(m)
m.weights.append(0.3)
print(m2.weights, m3.weights, m3.cache is m.cache)
print(copy.copy((1, 2)) == (1, 2), copy.deepcopy("s"), copy.copy([1, [2]])[1] is copy.copy([1, [2]])[1])
