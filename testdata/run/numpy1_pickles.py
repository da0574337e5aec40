# User code unpickling numpy arrays that Python 2 and numpy 1.x pickled
# (the CIFAR batches 1.0's high-level-API tests read with their own
# `pickle.load(f, encoding='bytes')`): the pickles name
# `numpy.core.multiarray._reconstruct`, `numpy.dtype` and
# `numpy.core.multiarray.scalar`. The bytes are built here opcode by
# opcode as Python 2's pickle protocol 2 wrote them (str as BINSTRING).
from __future__ import print_function

import io
import pickle
import struct

import numpy as np


def s(text):
    data = text if isinstance(text, bytes) else text.encode('latin1')
    if len(data) < 256:
        return b'U' + bytes([len(data)]) + data
    return b'T' + struct.pack('<i', len(data)) + data


def i(n):
    return b'J' + struct.pack('<i', n)


def glob(module, name):
    return b'c' + module.encode() + b'\n' + name.encode() + b'\n'


def dtype(code):
    # numpy.dtype(code, 0, 1) with its state (3, order, None, None, None, -1, -1, 0)
    order = '|' if code[-1] == '1' else '<'
    return (glob('numpy', 'dtype') + s(code) + i(0) + i(1) + b'\x87R('
            + i(3) + s(order) + b'NNN' + i(-1) + i(-1) + i(0) + b'tb')


def array(code, shape, raw, fortran=False):
    shape_t = b'(' + b''.join(i(n) for n in shape) + b't'
    return (glob('numpy.core.multiarray', '_reconstruct') + glob('numpy', 'ndarray')
            + i(0) + b'\x85' + s('b') + b'\x87R(' + i(1) + shape_t + dtype(code)
            + (b'\x88' if fortran else b'\x89') + s(raw) + b'tb')


def scalar(code, raw):
    return glob('numpy.core.multiarray', 'scalar') + dtype(code) + s(raw) + b'\x86R'


def load(body, encoding):
    return pickle.load(io.BytesIO(b'\x80\x02' + body + b'.'), encoding=encoding)


f32 = struct.pack('<6f', 0.5, 1.5, -2.25, 3.0, 4.125, 1e-3)
i64 = struct.pack('<6q', 1, -2, 3, 1 << 40, 5, 6)
u8 = bytes([0, 7, 255, 128])
cases = [
    ('uint8', array('u1', [2, 2], u8)),
    ('float32', array('f4', [2, 3], f32)),
    ('int64 fortran', array('i8', [2, 3], i64, fortran=True)),
    ('int32', array('i4', [3], struct.pack('<3i', 7, -8, 9))),
    ('float64', array('f8', [2], struct.pack('<2d', 0.1, -1e300))),
    ('bool', array('b1', [3], bytes([1, 0, 1]))),
    ('empty', array('f4', [0, 3], b'')),
]
for encoding in ('bytes', 'latin1'):
    for name, body in cases:
        a = load(body, encoding)
        print(encoding, name, type(a).__name__, a.dtype, a.shape, a.tolist())
    v = load(scalar('f4', struct.pack('<f', 2.5)), encoding)
    print(encoding, 'scalar', type(v).__name__, v, v * 2)
    w = load(scalar('i8', struct.pack('<q', -3)), encoding)
    print(encoding, 'scalar', type(w).__name__, w)

# A CIFAR-style batch: a dict of str keys, a uint8 image array and a list.
batch = (b'}(' + s('data') + array('u1', [2, 3], bytes(range(10, 16)))
         + s('labels') + b'](' + i(3) + i(8) + b'eu')
d = load(batch, 'bytes')
print(sorted(d), d[b'data'].dtype, (d[b'data'] / 255.0).round(3).tolist(), d[b'labels'])
print((d[b'data'].reshape(2, 3).astype('float32') * 2).sum(axis=1).tolist())
