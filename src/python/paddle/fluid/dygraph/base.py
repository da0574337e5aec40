"""paddle.fluid.dygraph.base: 1.x's `guard`, `to_variable`, `no_grad`,
`enabled`.

fluidc runs static Fluid programs (Program and Executor), not dygraph
(imperative) ones, so `fluid.dygraph` has 1.5-1.6's names for scripts to
import, and classes to subclass, but using any of them (calling `guard()`,
`to_variable`, making a `Layer`, ...) raises NotImplementedError
(docs/choices.md)."""
import functools

from .. import framework

__all__ = ['enabled', 'no_grad', 'guard', 'to_variable']


def _refuse(api):
    raise NotImplementedError(
        "%s: fluidc runs static Fluid programs (fluid.Program and fluid.Executor) only, "
        "not dygraph (imperative) programs" % api)


class _Refused(object):
    """The dygraph classes: a script may subclass them, but making one
    (a subclass's too) raises NotImplementedError naming the 1.x class."""
    _fluidc_api = None

    def __new__(cls, *args, **kwargs):
        _refuse(cls._fluidc_api)


def _refused_class(module, name, bases=(_Refused,)):
    """A refused 1.x class `name` of `paddle.fluid.dygraph.<module>`."""
    return type(name, bases, {
        '__module__': 'paddle.fluid.dygraph.' + module,
        '__doc__': "1.x's fluid.dygraph.%s: fluidc does not run dygraph programs." % name,
        '_fluidc_api': 'fluid.dygraph.' + name,
    })


def _refused_function(module, name):
    """A refused 1.x function `name` of `paddle.fluid.dygraph.<module>`."""
    def refused(*args, **kwargs):
        _refuse('fluid.dygraph.%s' % name)
    refused.__name__ = refused.__qualname__ = name
    refused.__module__ = 'paddle.fluid.dygraph.' + module
    refused.__doc__ = "1.x's fluid.dygraph.%s: fluidc does not run dygraph programs." % name
    return refused


def enabled():
    """Whether dygraph mode is on: never, in fluidc."""
    return framework.in_dygraph_mode()


def no_grad(func):
    """1.x's `@fluid.dygraph.no_grad`: outside dygraph mode (always, in
    fluidc) the function runs as it is, as it did in 1.x's static mode."""
    @functools.wraps(func)
    def __impl__(*args, **kwargs):
        return func(*args, **kwargs)
    return __impl__


guard = _refused_function('base', 'guard')
to_variable = _refused_function('base', 'to_variable')
