# gzip.compress/decompress round trips, GzipFile reading over BytesIO, concatenated members, and bad data errors.
import gzip
import io

data = b"hello gzip " * 100
c = gzip.compress(data)
print(len(data), gzip.decompress(c) == data, c[:3], len(gzip.compress(b"")) > 0)
buf = io.BytesIO(gzip.compress(b"first\nsecond\n"))
with gzip.GzipFile(fileobj=buf, mode="rb") as g:
    print(g.readlines())
two = gzip.compress(b"part1-") + gzip.compress(b"part2")
print(gzip.decompress(two))
try:
    gzip.decompress(b"not gzip data")
except OSError as e:
    print(type(e).__name__)
print(gzip.decompress(gzip.compress(bytes(range(256)), compresslevel=1)) == bytes(range(256)))
