# inspect: signature/parameters/defaults, getsource-free introspection, isfunction/isclass/ismethod, getmembers of a class, getdoc.
import inspect


class Layer:
    """A layer.

    With details."""

    def forward(self, x, training=False, *args, scale: float = 1.0, **kw) -> "Tensor":
        return x

    @staticmethod
    def build():
        pass


sig = inspect.signature(Layer.forward)
print(sig)
for name, p in sig.parameters.items():
    print(name, p.kind.name, p.default if p.default is not inspect.Parameter.empty else "-", p.annotation if p.annotation is not inspect.Parameter.empty else "-")
print(sig.return_annotation, inspect.isfunction(Layer.forward), inspect.ismethod(Layer().forward), inspect.isclass(Layer))
print([n for n, _ in inspect.getmembers(Layer, inspect.isfunction)], inspect.getdoc(Layer))
b = sig.bind(None, 1, scale=2.0)
print(dict(b.arguments), inspect.signature(lambda a, b=2: None), inspect.isbuiltin(len), inspect.isgeneratorfunction(Layer.build))
print(inspect.signature(Layer.forward).replace(return_annotation=inspect.Signature.empty))
