# zlib streams as zipfile and gzip read them: members past RustPython's 48 KB
# buffer, limited reads, unused data after the end, errors.
import io, zipfile, zlib, gzip
data = bytes(range(256)) * 400 + b"tail" * 9000
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("a.dat", data)
    z.writestr("b.txt", "x" * 70000)
with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as z:
    print(len(z.read("a.dat")), z.read("a.dat") == data, len(z.open("b.txt").read()))
g = gzip.compress(data)
print(len(gzip.decompress(g)), gzip.GzipFile(fileobj=io.BytesIO(g)).read() == data)
d = zlib.decompressobj()
out = d.decompress(zlib.compress(data)) + d.flush()
print(len(out), d.eof, d.unused_data, d.unconsumed_tail)
d = zlib.decompressobj(-15)
c = zlib.compressobj(6, zlib.DEFLATED, -15)
raw = c.compress(data) + c.flush()
parts = [d.decompress(raw[i:i + 100], 500) for i in range(0, len(raw), 100)]
print(sum(map(len, parts)) + len(d.flush()) <= len(data))
d = zlib.decompressobj()
print(len(d.decompress(zlib.compress(b"abc") + b"extra")), d.eof, d.unused_data)
try:
    zlib.decompressobj().decompress(b"not zlib")
except zlib.error as e:
    print("error", type(e).__name__)
