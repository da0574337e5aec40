# Lexical details: numeric literals with underscores and bases, imaginary literals, string prefixes (r, b, rb, f), line continuation, comments.
print(1_000_000, 0x_FF, 0o_17, 0b_1010, 1_0.0_1, 1e1_0, 3j, 1.5J, 0.0, .5, 5., 00, 0e0)
print(r"\d+\n", b"\x00\x41", rb"\x00", Rb"r", f"{1 + 1}", rf"\{2}", "a" 'b' """c""" '''d''')
total = 1 + \
    2 + \
    3
items = [
    1,  # a comment inside brackets
    2,
]
print(total, items, "no # comment in string", len("""
"""))
x = 1; y = 2; print(x + y)
if x: print("one-line if")
print("\t|\x41|\u00e9|\U0001F600|\N{BULLET}|\101|\0|".encode("unicode_escape"))
print(type(0x10).__name__, type(1e3).__name__, type(2j).__name__, 1e3 == 1000, 0b11 == 3)
