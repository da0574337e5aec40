# repr of strings with escapes and non-printables, choice of quotes, unicode escapes in repr, str of bytes with high bits, ascii().
samples = ["plain", "it's", 'say "hi"', "both '\"", "tab\t", "nl\n", "cr\r", "bell\a", "nul\0", "del\x7f", "é", "\u200b", "日本", "\U0001F600", "back\\slash", "\x80\x9f"]
for s in samples:
    print(repr(s), ascii(s), len(s))
print(repr(b"\x00\x7f\x80\xff'\""), str(b"caf\xc3\xa9"), repr(bytearray(b"\n")), repr("\N{DEGREE SIGN}"))
