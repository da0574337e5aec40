# Exception args, str() and repr() of builtin exceptions with zero, one and several args; KeyError's repr-str.
for e in [ValueError(), ValueError("msg"), ValueError("a", 2), KeyError("key"), KeyError(3),
          StopIteration(5), Exception(None), RuntimeError("")]:
    print(type(e).__name__, repr(e), "|", str(e), "|", e.args)
e = ValueError("x")
e.args = ("changed", 1)
print(e)
print(issubclass(BaseException, object), BaseException.__name__)
