# A 2020 course's data preparation: the list files are opened for writing,
# emptied with seek(0) + truncate(), then refilled; truncate also trims a
# file to a length, and a file opened for reading refuses it.
import io
import os
import tempfile

root = tempfile.mkdtemp()
train_list = os.path.join(root, 'train_list.txt')
with open(train_list, 'w') as f:
    f.write('stale\tline\n' * 3)
with open(train_list, 'w') as f_train:
    f_train.seek(0)
    print(f_train.truncate())
    for i in range(4):
        f_train.write('%d\t%d\n' % (i, i % 2))
print(open(train_list).read().splitlines())

with open(train_list, 'r+') as f:
    print(f.truncate(6), f.tell())
print(repr(open(train_list).read()))
with open(train_list, 'a') as f:
    f.write('tail')
    print(f.truncate())
print(repr(open(train_list).read()))

with open(train_list) as f:
    try:
        f.truncate()
    except io.UnsupportedOperation as e:
        print(type(e).__name__, e, isinstance(e, OSError), isinstance(e, ValueError))
try:
    io.StringIO().fileno()
except io.UnsupportedOperation as e:
    print(io.UnsupportedOperation.__name__, io.UnsupportedOperation, e)
buf = io.BytesIO(b'abcdef')
print(buf.truncate(3), buf.getvalue())
os.remove(train_list)
os.rmdir(root)
