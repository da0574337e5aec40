# str.encode/bytes.decode with utf-8, latin-1, ascii, error handlers, utf-16, len of encoded text.
s = "naïve café — 日本"
for enc in ["utf-8", "utf-16-le", "latin-1"]:
    try:
        b = s.encode(enc)
        print(enc, len(b), b[:12], b.decode(enc) == s)
    except UnicodeEncodeError as e:
        print(enc, "UnicodeEncodeError", e.start, e.end, e.reason)
print(s.encode("ascii", "ignore"), s.encode("ascii", "replace"), s.encode("ascii", "xmlcharrefreplace"))
print(s.encode("ascii", "backslashreplace"), "é".encode("utf-8").hex(), "😀".encode("utf-8"), len("😀"))
print("abc".encode(), b"abc".decode(), str(b"abc", "ascii"), str(b"abc"), bytes("x", "utf-8"))
print(s.encode("utf-8").decode("latin-1").encode("latin-1").decode("utf-8") == s)
print(ascii(s), repr(s), "\u00e9" == "é", "e\u0301" == "é", len("e\u0301"))
