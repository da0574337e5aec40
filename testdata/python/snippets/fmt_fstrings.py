# f-strings: expressions, nested quotes, format specs, conversions, = debugging, nested replacement fields, braces.
name, lr, step = "resnet", 0.001234, 42
print(f"{name} lr={lr} step={step}")
print(f"{name!r:>10} {name.upper()} {len(name) * 2}")
print(f"{lr:.2e} {lr:.4f} {lr:%} {lr:g} {step:05d} {step:x} {step:#o} {step:b}")
width, prec = 12, 3
print(f"[{3.14159:{width}.{prec}f}] [{'left':<{width}}] [{'mid':^{width}}]")
print(f"{step=} {lr=:.3f} {name = }")
d = {"a": 1}
print(f"{d['a']} {'quoted'} {{literal}} {'{'}")
print(f"{'%d items' % 3}", f"{[i ** 2 for i in range(4)]}", f"{(lambda v: v + 1)(1)}")
print(f"{3 if step > 10 else 4}", f"{step:,}", f"{1234567.891:,.2f}", f"{-5:+d} {5:+d} {5: d}")
import datetime
print(f"{datetime.date(2019, 3, 4):%Y/%m/%d}")
print(f"""multi
{name}""")
