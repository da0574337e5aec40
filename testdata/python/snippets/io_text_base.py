# Log capture as 2019 training scripts did it: a StringIO that stands in
# for sys.stdout, handed to code that probes the stream (detach, errors,
# newlines) before writing; and a custom text stream subclassing
# io.TextIOBase that only implements what it needs.
import io
import sys

buf = io.StringIO('epoch 0 loss 1.25\n')
try:
    buf.detach()
except io.UnsupportedOperation as e:
    print('detach:', type(e).__name__, e)
print(buf.errors, buf.newlines, repr(buf.read()))


class Tee(io.TextIOBase):
    def __init__(self):
        self.lines = []


t = Tee()
for name in ['read', 'readline', 'detach']:
    try:
        getattr(t, name)()
    except io.UnsupportedOperation as e:
        print(name, 'unsupported:', e)
try:
    t.write('step 1\n')
except io.UnsupportedOperation as e:
    print('write unsupported:', e)
print(t.encoding, t.errors, t.newlines, t.readable(), t.writable())
try:
    io.BytesIO(b'\x00').detach()
except io.UnsupportedOperation as e:
    print('BytesIO detach:', e)
print(isinstance(sys.stdout, io.TextIOBase))
