# io.StringIO: write/read/seek/tell, readline/readlines, iteration, getvalue, truncate, initial value, newline handling.
import io

s = io.StringIO()
print(s.write("line one\n"), s.write("line two\nline three"), s.tell())
print(repr(s.getvalue()))
s.seek(0)
print(repr(s.readline()), repr(s.read(4)), repr(s.read()), repr(s.read()))
s.seek(0)
print(s.readlines())
s.seek(5)
s.truncate()
print(repr(s.getvalue()))
t = io.StringIO("a\nb\r\nc")
print([line for line in t], t.closed)
t.close()
print(t.closed)
try:
    t.read()
except ValueError as e:
    print("ValueError:", e)
u = io.StringIO("initial")
u.write("XY")
print(u.getvalue(), u.seekable(), u.readable(), u.writable())
