# textwrap (wrap, fill, dedent, indent, shorten) and pprint of nested structures with width and sort order.
import pprint
import textwrap

text = "PaddlePaddle Fluid programs are built layer by layer and then run by an executor over many mini-batches."
print(textwrap.wrap(text, 30))
print(textwrap.fill(text, width=40, initial_indent="* ", subsequent_indent="  "))
print(repr(textwrap.dedent("""
    def f():
        return 1
""")))
print(textwrap.indent("a\nb\n\nc", "> "), textwrap.shorten(text, 40), textwrap.shorten("short", 10))
data = {"model": {"layers": [{"type": "fc", "size": 128, "act": "relu"}, {"type": "fc", "size": 10, "act": "softmax"}]},
        "optimizer": {"name": "adam", "lr": 0.001, "betas": (0.9, 0.999)}, "zeta": list(range(30))}
pprint.pprint(data)
pprint.pprint(data, width=120, compact=True)
print(pprint.pformat({"b": 1, "a": [1, 2]}, width=10), pprint.pformat("x" * 5), pprint.isreadable([1]))
pprint.pprint([{"z": 1, "a": 2}], sort_dicts=False)
