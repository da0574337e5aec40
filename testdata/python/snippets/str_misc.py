# Other str behaviour: immutability, indexing errors, str() of builtins, repr quoting, raw strings, escapes, implicit concatenation.
s = "hello"
try:
    s[0] = "H"
except TypeError as e:
    print("TypeError")
print(repr("it's"), repr('say "hi"'), repr("both ' and \""), repr("tab\there"), repr("\x00\x1f\x7f\u200b"))
print(r"raw\nstring", len(r"\n"), "con" "cat" "enation", "\x41\u0042\U00000043", "\101", "a\
b")
print(str(None), str(True), str(1.0), str([1, "a"]), str({"k": (1,)}), str(b"x"), str(range(3)))
print("Hello %s" % "x", "hello".__len__(), "abc"[1], "abc"[-1], "abc" + "def")
print(len("日本語"), "日本語"[1], "日本語".encode("utf-8")[:3], "a\u0000b", repr("a\u0000b"))
print("{} {}".format(*"ab"), "%s" % "%s", "%%", "%%" % ())
print(isinstance("s", str), type("s") is str, str.__name__, "abc".upper.__name__)
