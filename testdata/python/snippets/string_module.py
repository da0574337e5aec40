# string module: constants, Template substitute/safe_substitute, capwords, Formatter.
import string

print(string.ascii_letters, string.ascii_lowercase, string.ascii_uppercase)
print(string.digits, string.hexdigits, string.octdigits, repr(string.whitespace), string.punctuation)
print(len(string.printable), string.printable[:20])
t = string.Template("$model trained for ${epochs} epochs at $$${cost}")
print(t.substitute(model="lenet", epochs=5, cost=3), t.safe_substitute(model="x"))
try:
    t.substitute(model="m")
except KeyError as e:
    print("KeyError", e)
print(string.capwords("hello   big world"), string.capwords("a-b c", "-"))
f = string.Formatter()
print(f.format("{0}-{x:>4}", 1, x="y"), list(f.parse("a{b}c{d:>3}")))
print("".join(c for c in "Hello, World! 123" if c in string.ascii_letters))
