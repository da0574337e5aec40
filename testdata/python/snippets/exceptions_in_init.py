# Exceptions in __init__, in properties and in __del__-free cleanup; exceptions with keyword attributes; catching by tuple from a variable.
class Layer:
    def __init__(self, size):
        if size <= 0:
            raise ValueError("size must be positive, got %d" % size)
        self.size = size

    @property
    def params(self):
        raise NotImplementedError("params of " + type(self).__name__)


try:
    Layer(0)
except ValueError as e:
    print("ValueError:", e)
try:
    Layer(3).params
except NotImplementedError as e:
    print("NotImplementedError:", e)


class HTTPError(Exception):
    def __init__(self, code, *, reason="unknown"):
        super().__init__(code, reason)
        self.code, self.reason = code, reason


try:
    raise HTTPError(404, reason="not found")
except HTTPError as e:
    print(e.code, e.reason, e.args, str(e))
recoverable = (KeyError, IndexError)
for thunk in (lambda: {}["x"], lambda: [][1], lambda: 1 / 0):
    try:
        thunk()
    except recoverable as e:
        print("recovered", type(e).__name__)
    except Exception as e:
        print("other", type(e).__name__)
