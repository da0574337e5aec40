# f-string details: nested quotes and expressions, !r/!s/!a with format specs, = with format specs and spaces, dict and method calls, multiline, escaping.
data = {"loss": 0.123456, "name": "é"}
x = 42
print(f"{data['loss']:.3f} {data['name']!r} {data['name']!a} {x!r:>6} {x!s:<4}|")
print(f"{x = }", f"{x=:#x}", f"{ x + 1 = }", f"{data['loss']=:.2%}")
print(f"{'nested {braces}'}", f"{{x}}", f"{'{'}{x}{'}'}", f"{x:{'>'}{10}}")
items = ["a", "b"]
print(f"{', '.join(items)}", f"{len(items) * 'ab'}", f"{[i * 2 for i in range(3)]}", f"{ {'k': 1}['k'] }")
name = "world"
msg = (
    f"hello {name}, "
    f"{x:05d} "
    "plain"
)
print(msg, f"{3.14159:.{x // 10}f}", f"{'left':<8}|{'right':>8}|")
import math
print(f"{math.pi:.10f}", f"{1e-9:.2e}", f"{1234567:_d}", f"{0.5:.0%}", f"{-1:+}", f"{True}", f"{None!r}")
