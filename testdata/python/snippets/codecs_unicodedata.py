# codecs (encode/decode, lookup names, BOM constants, utf-8-sig) and unicodedata (name, category, normalize).
import codecs
import unicodedata

print(codecs.encode("abc", "rot13"), codecs.decode(b"68656c6c6f", "hex"), codecs.lookup("UTF8").name, codecs.lookup("latin1").name)
print(codecs.BOM_UTF8, "x".encode("utf-8-sig"), b"\xef\xbb\xbfdata".decode("utf-8-sig"), codecs.encode(b"hi", "base64"))
print(unicodedata.name("é"), unicodedata.category("A"), unicodedata.category("1"), unicodedata.lookup("SNOWMAN"))
print(unicodedata.normalize("NFC", "e\u0301") == "é", len(unicodedata.normalize("NFD", "é")))
