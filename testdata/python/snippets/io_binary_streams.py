# Binary streams: BytesIO read/write positions, readline on bytes, iterating byte lines, readinto a bytearray, getbuffer views, truncate.
import io

b = io.BytesIO()
b.write(b"line1\nline2\n")
b.write(b"tail")
print(b.tell(), b.getvalue())
b.seek(0)
print(b.readline(), b.read(3), list(b))
b.seek(0)
buf = bytearray(5)
print(b.readinto(buf), buf, b.tell())
b.truncate(8)
print(b.getvalue(), b.seek(0, 2))
view = io.BytesIO(b"abc").getbuffer()
print(bytes(view[1:]), len(view), io.BytesIO(b"x\ny").readlines())
