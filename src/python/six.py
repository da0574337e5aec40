"""six: the Python 2/3 compatibility names 2018 Paddle scripts import
(`six.moves.xrange`, `six.iteritems`, `six.string_types`, ...), for
Python 3. fluidc provides it because the VM runs no third-party packages
and Paddle 1.x itself depended on it."""
import functools
import io
import itertools
import sys
import types

PY2 = False
PY3 = True
PY34 = True

string_types = (str,)
integer_types = (int,)
class_types = (type,)
text_type = str
binary_type = bytes
MAXSIZE = sys.maxsize

StringIO = io.StringIO
BytesIO = io.BytesIO
next = next
advance_iterator = next
callable = callable
print_ = print
exec_ = exec
unichr = chr


def b(s):
    return s.encode("latin-1")


def u(s):
    return s


def iteritems(d, **kw):
    return iter(d.items(**kw))


def iterkeys(d, **kw):
    return iter(d.keys(**kw))


def itervalues(d, **kw):
    return iter(d.values(**kw))


def viewitems(d):
    return d.items()


def viewkeys(d):
    return d.keys()


def viewvalues(d):
    return d.values()


def ensure_str(s, encoding="utf-8", errors="strict"):
    return s.decode(encoding, errors) if isinstance(s, bytes) else s


ensure_text = ensure_str


def ensure_binary(s, encoding="utf-8", errors="strict"):
    return s.encode(encoding, errors) if isinstance(s, str) else s


def reraise(tp, value, tb=None):
    if value is None:
        value = tp()
    if value.__traceback__ is not tb:
        raise value.with_traceback(tb)
    raise value


def raise_from(value, from_value):
    raise value from from_value


def with_metaclass(meta, *bases):
    """A base class whose metaclass is `meta` (`class C(with_metaclass(M, B))`)."""
    class metaclass(type):
        def __new__(cls, name, this_bases, d):
            return meta(name, bases, d)

        @classmethod
        def __prepare__(cls, name, this_bases):
            return meta.__prepare__(name, bases)

    return type.__new__(metaclass, "temporary_class", (), {})


def add_metaclass(metaclass):
    """The class decorator form of `with_metaclass`."""
    def wrapper(cls):
        body = dict(cls.__dict__)
        body.pop("__dict__", None)
        body.pop("__weakref__", None)
        return metaclass(cls.__name__, cls.__bases__, body)

    return wrapper


def _moves():
    """`six.moves`: Python 3's names under their Python 2 spellings."""
    import builtins
    import pickle
    import queue
    moves = types.ModuleType(__name__ + ".moves")
    moves.__dict__.update(
        builtins=builtins, range=range, xrange=range, zip=zip, map=map, filter=filter,
        input=input, reduce=functools.reduce, zip_longest=itertools.zip_longest,
        cPickle=pickle, queue=queue, StringIO=io.StringIO, intern=sys.intern,
        reload_module=__import__("importlib").reload)
    sys.modules[moves.__name__] = moves
    sys.modules[moves.__name__ + ".cPickle"] = pickle
    sys.modules[moves.__name__ + ".queue"] = queue
    # Modules imported when a script first uses them, as six's lazy ones
    # (keras' `data_utils` reads `six.moves.urllib.request.urlretrieve`).
    for short, target in [("urllib_parse", "urllib.parse"), ("urllib_error", "urllib.error"),
                          ("urllib_request", "urllib.request"),
                          ("urllib_response", "urllib.response"),
                          ("urllib_robotparser", "urllib.robotparser"),
                          ("http_client", "http.client"), ("configparser", "configparser"),
                          ("html_parser", "html.parser"), ("http_cookiejar", "http.cookiejar"),
                          ("copyreg", "copyreg"), ("socketserver", "socketserver"),
                          ("_thread", "_thread")]:
        setattr(moves, short, _lazy_module(moves.__name__ + "." + short, target))
    urllib = types.ModuleType(moves.__name__ + ".urllib")
    urllib.__path__ = []
    for part in ["parse", "error", "request", "response", "robotparser"]:
        setattr(urllib, part, _lazy_module(urllib.__name__ + "." + part, "urllib." + part))
    moves.urllib = urllib
    sys.modules[urllib.__name__] = urllib
    return moves


def _lazy_module(name, target):
    """A module `name` whose attributes are those of `target`, imported
    when the first one is read."""
    module = types.ModuleType(name)

    def __getattr__(attr):
        return getattr(__import__("importlib").import_module(target), attr)

    module.__getattr__ = __getattr__
    sys.modules[name] = module
    return module


moves = _moves()
