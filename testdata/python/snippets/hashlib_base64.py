# hashlib digests (md5, sha1, sha256, update in pieces) and base64/binascii encodings used to verify and ship data files.
import base64
import binascii
import hashlib

data = b"The quick brown fox jumps over the lazy dog"
print(hashlib.md5(data).hexdigest(), hashlib.sha1(data).hexdigest())
print(hashlib.sha256(data).hexdigest(), hashlib.sha512(b"").hexdigest()[:32])
h = hashlib.md5()
for chunk in [data[:10], data[10:]]:
    h.update(chunk)
print(h.hexdigest() == hashlib.md5(data).hexdigest(), h.digest_size, h.name, hashlib.new("sha1", b"x").hexdigest())
print(base64.b64encode(data), base64.b64decode(base64.b64encode(data)) == data, base64.urlsafe_b64encode(b"\xfb\xff"))
print(base64.b16encode(b"hi"), base64.b32encode(b"hi"), base64.b64encode(b""), base64.b85encode(b"abc") if hasattr(base64, "b85encode") else None)
print(binascii.hexlify(b"\x01\xab"), binascii.unhexlify("01ab"), binascii.crc32(data), hex(binascii.crc32(b"")))
try:
    base64.b64decode("abc")
except binascii.Error as e:
    print("binascii.Error")
