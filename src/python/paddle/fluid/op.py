"""paddle.fluid.op: 1.x's `Operator("type", X="x", Out="out", attr=...)`,
one op over a scope's variables, as 1.x's own unit tests ran single ops:

    scope = core.Scope()
    scope.var("x").get_tensor().set(x_value, place)
    op = Operator("scale", X="x", Out="out", scale=2.0)
    op.run(scope, place)
    np.array(scope.find_var("out").get_tensor())

Keyword arguments name the op's input and output slots (a variable name
or a list of names) and set its attributes. 1.x made a C++ operator from
the OpDesc and ran it on the scope; fluidc builds a one-op program whose
variables are the scope's (declared from what the scope holds, and
persistable, so the outputs stay in the scope as 1.x's did) and runs it
with the executor in that scope.
"""
import _fluidc
import numpy as np

from . import core
from . import framework

__all__ = ["Operator"]

_FRAMEWORK_ATTRS = ("op_role", "op_role_var", "op_namescope", "op_callstack", "op_device",
                    "with_quant_attr")


def _is_str(s):
    return isinstance(s, str)


# Attributes 1.x's op protos declared and Paddle 3.3.1's dropped, which 1.x's
# op tests pass to every op: kernel choices that give the same numbers on a
# CPU whatever their value (None), and fused kernels, accepted only off.
_KERNEL_CHOICES = {"use_cudnn": None, "use_mkldnn": None, "exhaustive_search": None,
                   "workspace_size_MB": None, "fuse_with_relu": False, "fuse_relu": False,
                   "fuse_residual_connection": False}


class _OpInfo(object):
    def __init__(self, name):
        self.name = name
        self.inputs = [(s[0], s[1]) for s in _fluidc.op_slot_names(name, False)]
        self.outputs = [(s[0], s[1]) for s in _fluidc.op_slot_names(name, True)]
        self.attrs = [a for a in _fluidc.op_attr_names(name) if a not in _FRAMEWORK_ATTRS]


class _SingleOp(object):
    """One op (1.x's `core.Operator`): its type, slots and attributes."""

    def __init__(self, info, inputs, outputs, attrs):
        self._info = info
        self._inputs = inputs
        self._outputs = outputs
        self._attrs = attrs

    def type(self):
        return self._info.name

    def input(self, name):
        if name not in self._inputs:
            raise ValueError("Operator %s has no input %s" % (self._info.name, name))
        args = self._inputs[name]
        if len(args) != 1:
            raise ValueError("Operator %s's input %s holds %d variables, not one"
                             % (self._info.name, name, len(args)))
        return args[0]

    def output(self, name):
        if name not in self._outputs:
            raise ValueError("Operator %s has no output %s" % (self._info.name, name))
        args = self._outputs[name]
        if len(args) != 1:
            raise ValueError("Operator %s's output %s holds %d variables, not one"
                             % (self._info.name, name, len(args)))
        return args[0]

    def inputs(self):
        return dict((k, list(v)) for k, v in self._inputs.items())

    def outputs(self):
        return dict((k, list(v)) for k, v in self._outputs.items())

    def input_vars(self):
        return [n for k in sorted(self._inputs) for n in self._inputs[k]]

    def output_vars(self):
        return [n for k in sorted(self._outputs) for n in self._outputs[k]]

    def no_intermediate_outputs(self):
        return self.output_vars()

    def support_gpu(self):
        return False

    def _declare(self, block, scope, name):
        """`name` in the one-op program, declared as the scope holds it."""
        if block.has_var(name):
            return
        var = scope.find_var(name) if scope is not None else None
        kwargs = {}
        if var is not None:
            session = scope._session
            got = session.tensor(name)
            if got is not None:
                h, lod = got
                value = np.ndarray._wrap(h)
                kwargs = dict(shape=list(value.shape), dtype=value.dtype, lod_level=len(lod))
            elif session.tensor_array(name) is not None:
                kwargs = dict(type=core.VarDesc.VarType.LOD_TENSOR_ARRAY)
        block.create_var(name=name, persistable=True, **kwargs)

    def _program(self, scope):
        program = framework.Program()
        block = program.global_block()
        for slot in sorted(self._inputs):
            for name in self._inputs[slot]:
                self._declare(block, scope, name)
        for slot in sorted(self._outputs):
            for name in self._outputs[slot]:
                if not block.has_var(name):
                    block.create_var(name=name, persistable=True)
        block.append_op(type=self._info.name, inputs=self._inputs, outputs=self._outputs,
                        attrs=self._attrs)
        return program

    def run(self, scope, place):
        """Runs the op on `scope`'s variables: its outputs are written
        there."""
        from .executor import Executor
        from .lod_tensor_core import Scope
        if not isinstance(scope, Scope):
            raise TypeError("Operator.run takes a core.Scope(), not %s" % type(scope).__name__)
        scope._push_arrays()
        Executor(place).run(self._program(scope), scope=scope)

    def __str__(self):
        def slots(d):
            return ", ".join("%s[%s]" % (k, ", ".join(d[k])) for k in sorted(d))
        return "Op(%s), inputs:{%s}, outputs:{%s}." % (
            self._info.name, slots(self._inputs), slots(self._outputs))

    __repr__ = __str__


class OperatorFactory(object):
    """`Operator(type, **slots_and_attrs)`: only keyword arguments besides
    the type, as in 1.x."""

    def __init__(self):
        self._infos = {}

    def get_op_info(self, t):
        info = self._infos.get(t)
        if info is None:
            if not _fluidc.has_op(t):
                raise ValueError("The operator: %s is not registered." % t)
            info = self._infos[t] = _OpInfo(t)
        return info

    def __call__(self, *args, **kwargs):
        if "type" in kwargs:
            if len(args) != 0:
                raise ValueError("Except the argument \"type\","
                                 "all of the other arguments should be keyword arguments.")
            t = kwargs.pop("type")
        else:
            if len(args) != 1:
                raise ValueError("Except the argument \"type\","
                                 "all of the other arguments should be keyword arguments.")
            t = args[0]
        info = self.get_op_info(t)
        known = set(n for n, _ in info.inputs) | set(n for n, _ in info.outputs) | set(info.attrs)
        for name, off in _KERNEL_CHOICES.items():
            if name in kwargs and name not in known:
                if off is not None and kwargs[name] not in (None, off):
                    raise ValueError("Operator %s: fluidc has no %s kernel; %s=%r is refused"
                                     % (t, name, name, kwargs[name]))
                known.add(name)
        unknown = sorted(k for k in kwargs if k not in known)
        if unknown:
            # 1.x dropped keywords its op proto did not declare; fluidc
            # says so rather than run the op without them.
            raise ValueError("Operator %s has no input, output or attribute %s (it has inputs %s, "
                             "outputs %s, attributes %s)"
                             % (t, ", ".join(unknown), [n for n, _ in info.inputs],
                                [n for n, _ in info.outputs], info.attrs))

        def slots(decl, what):
            out = {}
            for name, duplicable in decl:
                args = kwargs.get(name, [])
                if _is_str(args):
                    args = [args]
                args = list(args)
                for a in args:
                    if not _is_str(a):
                        raise TypeError("%s %s of %s takes variable names, not %s"
                                        % (what, name, t, type(a).__name__))
                if not duplicable and len(args) > 1:
                    raise ValueError("%s %s expects only one %s, but %d are given."
                                     % (what, name, what.lower(), len(args)))
                if args:
                    out[name] = args
            return out

        inputs = slots(info.inputs, "Input")
        outputs = slots(info.outputs, "Output")
        attrs = {}
        for name in info.attrs:
            value = kwargs.get(name)
            if value is None:
                continue
            if hasattr(value, "tolist"):  # a numpy array or scalar
                value = value.tolist()
            attrs[name] = value
        return _SingleOp(info, inputs, outputs, attrs)

    def types(self):
        raise NotImplementedError("Operator.types(): fluidc lists its ops with `fluidc api`")

    def get_op_input_names(self, type):
        return [x[0] for x in self.get_op_info(type).inputs]

    def get_op_inputs(self, type):
        return self.get_op_info(type).inputs

    def get_op_output_names(self, type):
        return [x[0] for x in self.get_op_info(type).outputs]

    def get_op_outputs(self, type):
        return self.get_op_info(type).outputs

    def get_op_attr_names(self, type):
        return list(self.get_op_info(type).attrs)


Operator = OperatorFactory()  # The default global factory
