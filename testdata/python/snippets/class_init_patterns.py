# __init__ patterns: default mutable arguments avoided with None, **kwargs stored as attributes, validation, __repr__ built from __init__ args, class counters.
class Layer:
    count = 0

    def __init__(self, name=None, inputs=None, **attrs):
        Layer.count += 1
        self.name = name or "layer_%d" % Layer.count
        self.inputs = list(inputs) if inputs is not None else []
        for k, v in sorted(attrs.items()):
            setattr(self, k, v)

    def __repr__(self):
        extra = {k: v for k, v in vars(self).items() if k not in ("name", "inputs")}
        return "Layer(%r, inputs=%r, %s)" % (self.name, self.inputs, ", ".join("%s=%r" % kv for kv in sorted(extra.items())))


a = Layer()
b = Layer(inputs=("x",), size=128, act="relu")
a.inputs.append("y")
print(a, b, Layer().inputs, Layer.count)
