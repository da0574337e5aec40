# Exception chaining: raise from, implicit __context__, from None, __cause__/__suppress_context__.
class ConfigError(Exception):
    pass


def load(d, key):
    try:
        return d[key]
    except KeyError as e:
        raise ConfigError("missing %s" % key) from e


try:
    load({}, "lr")
except ConfigError as e:
    print(repr(e), repr(e.__cause__), e.__suppress_context__, repr(e.__context__))

try:
    try:
        int("x")
    except ValueError:
        raise RuntimeError("while parsing")
except RuntimeError as e:
    print(repr(e), e.__cause__, type(e.__context__).__name__, e.__suppress_context__)

try:
    try:
        [][1]
    except IndexError:
        raise TypeError("clean") from None
except TypeError as e:
    print(repr(e), e.__cause__, type(e.__context__).__name__, e.__suppress_context__)
