# A digit classifier's inference model as Fluid 1.1-1.5 saved it, loaded
# for prediction (2019 users committed such `__model__` files with their
# repositories): 1.x's Operator wrote every slot of an op, so conv2d keeps
# an empty `Bias` and `ResidualData`, and `is_test` was set through the C++
# OpDesc as an INT. The model is saved here, rewritten the way 1.x wrote
# it, and both files are loaded and run on the same image.
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import paddle.fluid as fluid

img = fluid.layers.data(name='img', shape=[1, 6, 6], dtype='float32')
conv = fluid.layers.conv2d(img, num_filters=2, filter_size=3, act='relu',
                           param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)),
                           bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
bn = fluid.layers.batch_norm(conv)
drop = fluid.layers.dropout(bn, dropout_prob=0.5)
weights = np.sin(np.arange(32 * 3)).reshape(32, 3).astype('float32')
pred = fluid.layers.fc(drop, size=3, act='softmax',
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(weights)))
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
root = tempfile.mkdtemp()
saved = os.path.join(root, 'model')
fluid.io.save_inference_model(saved, ['img'], [pred], exe)


def varint(n):
    out = bytearray()
    while True:
        low, n = n & 0x7f, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(buf, i):
    n, shift = 0, 0
    while True:
        c = buf[i]
        i += 1
        n |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return n, i


def fields(buf):
    """The (number, wire type, value) of each field of a message."""
    i, out = 0, []
    while i < len(buf):
        key, i = read_varint(buf, i)
        if key & 7 == 0:
            value, i = read_varint(buf, i)
        elif key & 7 in (1, 5):  # fixed 64 and 32 bits
            width = 8 if key & 7 == 1 else 4
            value, i = buf[i:i + width], i + width
        else:
            size, i = read_varint(buf, i)
            value, i = buf[i:i + size], i + size
        out.append((key >> 3, key & 7, value))
    return out


def message(items):
    out = bytearray()
    for no, wire, value in items:
        out += varint(no << 3 | wire)
        if wire == 0:
            out += varint(value)
        elif wire in (1, 5):
            out += value
        else:
            out += varint(len(value)) + value
    return bytes(out)


def as_1x(op):
    """An OpDesc as 1.x wrote it: conv2d's unused slots listed empty, a
    BOOLEAN is_test as the INT 1.x's C++ set."""
    items = fields(op)
    kind = [v for no, _, v in items if no == 3][0]
    rewritten = []
    for no, wire, value in items:
        if no == 4:
            attr = fields(value)
            if [v for n, _, v in attr if n == 1] == [b'is_test']:
                flag = [v for n, _, v in attr if n == 10][0]
                value = message([(1, 2, b'is_test'), (2, 0, 0), (3, 0, flag)])
        rewritten.append((no, wire, value))
    if kind == b'conv2d':
        for slot in [b'Bias', b'ResidualData']:
            rewritten.insert(0, (1, 2, message([(1, 2, slot)])))
    return message(rewritten)


with open(os.path.join(saved, '__model__'), 'rb') as f:
    program = fields(f.read())
blocks = []
for no, wire, block in program:
    if no == 1:
        block = message([(n, w, as_1x(v) if n == 4 else v) for n, w, v in fields(block)])
    blocks.append((no, wire, block))
old = os.path.join(root, 'model_1x')
shutil.copytree(saved, old)
with open(os.path.join(old, '__model__'), 'wb') as f:
    f.write(message(blocks))

x = np.linspace(-1, 1, 36).reshape(1, 1, 6, 6).astype('float32')
for d in [saved, old]:
    prog, feeds, fetches = fluid.io.load_inference_model(d, exe)
    ops = [op for op in prog.global_block().ops if op.type == 'conv2d']
    print(os.path.basename(d), feeds, len(ops))
    print(np.round(exe.run(prog, feed={feeds[0]: x}, fetch_list=fetches)[0], 5).tolist())
shutil.rmtree(root)
