# Mixins and multiple inheritance: method resolution, shared helper mixins, super() chains through mixins.
import json


class JsonMixin:
    def to_json(self):
        return json.dumps(self.__dict__, sort_keys=True)


class ReprMixin:
    def __repr__(self):
        fields = ", ".join("%s=%r" % kv for kv in sorted(self.__dict__.items()))
        return "%s(%s)" % (type(self).__name__, fields)


class LoggingMixin:
    def save(self):
        print("saving", type(self).__name__)
        return super().save()


class Model:
    def __init__(self, name, size):
        self.name, self.size = name, size

    def save(self):
        return "saved"


class Net(LoggingMixin, JsonMixin, ReprMixin, Model):
    pass


n = Net("resnet", 50)
print(n, n.to_json(), n.save())
print([c.__name__ for c in Net.__mro__])
