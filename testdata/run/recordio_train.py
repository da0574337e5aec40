# Paddle 1.0-1.2's RecordIO path, as 2018 training scripts used it: a
# Python reader written through a DataFeeder to RecordIO files
# (fluid.recordio_writer), read back in the program with
# fluid.layers.open_files / open_recordio_file, batch and double_buffer,
# and trained until fluid.core.EOFException, then reset() for the next
# pass. random_data_generator feeds a network random data without files.
from __future__ import print_function

import os
import shutil
import struct
import tempfile
import zlib

import numpy as np
import paddle
import paddle.fluid as fluid

DICT_SIZE = 10


def sample_reader():
    # 20 samples: 4 features, a sequence of word ids, a class label
    for i in range(20):
        x = np.array([(i % 7) * 0.1, (i % 3) * 0.2, 1.0, i * 0.05], dtype='float32')
        words = [(i + k) % DICT_SIZE for k in range(1 + i % 3)]
        label = (i * 2 + (i % 7)) % 3
        yield x, words, label


def describe(path):
    with open(path, 'rb') as f:
        data = f.read()
    magic, num, checksum, compressor, size = struct.unpack('<5I', data[:20])
    print(os.path.basename(path), 'magic ok:', data[:4] == b'\x04\x03\x02\x01',
          'first chunk records:', num, 'compressor:', compressor,
          'size:', len(data), 'crc32:', zlib.crc32(data) & 0xffffffff)


tmp_dir = tempfile.mkdtemp()
try:
    file_a = os.path.join(tmp_dir, 'train_a.recordio')
    file_b = os.path.join(tmp_dir, 'train_b.recordio')
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        x = fluid.layers.data(name='x', shape=[4], dtype='float32')
        words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
        label = fluid.layers.data(name='label', shape=[1], dtype='int64')
        feeder = fluid.DataFeeder(feed_list=[x, words, label], place=fluid.CPUPlace())
        batched = paddle.batch(sample_reader, batch_size=4)
        n_a = fluid.recordio_writer.convert_reader_to_recordio_file(file_a, batched, feeder)
        n_b = fluid.recordio_writer.convert_reader_to_recordio_file(
            file_b, batched, feeder,
            compressor=fluid.core.RecordIOWriter.Compressor.NoCompress, max_num_records=2)
        n_parts = fluid.recordio_writer.convert_reader_to_recordio_files(
            os.path.join(tmp_dir, 'part.recordio'), 2, batched, feeder)
    print('records written:', n_a, n_b, n_parts)
    print('part files:', sorted(f for f in os.listdir(tmp_dir) if f.startswith('part')))
    describe(file_a)
    describe(file_b)
    describe(os.path.join(tmp_dir, 'part-00000.recordio'))

    def network(reader):
        img, seq, lbl = fluid.layers.read_file(reader)
        emb = fluid.layers.embedding(input=seq, size=[DICT_SIZE, 3],
                                     param_attr=fluid.ParamAttr(name='emb'))
        pooled = fluid.layers.sequence_pool(input=emb, pool_type='sum')
        feature = fluid.layers.concat(input=[img, pooled], axis=1)
        predict = fluid.layers.fc(input=feature, size=3, act='softmax',
                                  param_attr=fluid.ParamAttr(name='fc_w'),
                                  bias_attr=fluid.ParamAttr(name='fc_b'))
        cost = fluid.layers.cross_entropy(input=predict, label=lbl)
        return fluid.layers.mean(cost), img

    main = fluid.Program()
    startup = fluid.Program()
    startup.random_seed = 7
    with fluid.program_guard(main, startup):
        data_file = fluid.layers.open_files(
            filenames=[file_a, file_b],
            shapes=[[-1, 4], [-1, 1], [-1, 1]],
            lod_levels=[0, 1, 0],
            dtypes=['float32', 'int64', 'int64'],
            thread_num=1)
        data_file = fluid.layers.double_buffer(fluid.layers.batch(data_file, batch_size=3))
        avg_cost, img = network(data_file)
        fluid.optimizer.SGD(learning_rate=0.2).minimize(avg_cost)

    test_main = fluid.Program()
    test_startup = fluid.Program()
    with fluid.program_guard(test_main, test_startup):
        test_file = fluid.layers.io.open_recordio_file(
            os.path.join(tmp_dir, 'part-00000.recordio'),
            shapes=[[-1, 4], [-1, 1], [-1, 1]],
            lod_levels=[0, 1, 0],
            dtypes=['float32', 'int64', 'int64'],
            pass_num=2)
        test_cost, _ = network(test_file)

    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    # the test program's startup first: it makes the test reader, and the
    # training startup then sets the shared parameters
    exe.run(test_startup)
    exe.run(startup)
    for pass_id in range(2):
        sizes, losses = [], []
        try:
            while True:
                loss, images = exe.run(main, fetch_list=[avg_cost, img])
                sizes.append(images.shape[0])
                losses.append(round(float(loss[0]), 5))
        except fluid.core.EOFException:
            data_file.reset()
        print('pass', pass_id, 'batch sizes', sizes, 'losses', losses)

    test_losses = []
    try:
        while True:
            loss, = exe.run(test_main, fetch_list=[test_cost])
            test_losses.append(round(float(loss[0]), 5))
    except fluid.core.EOFException:
        test_file.reset()
    print('test losses over 2 passes', test_losses)

    scope = fluid.global_scope()
    for name in ['fc_w', 'fc_b', 'emb']:
        value = np.array(scope.find_var(name).get_tensor())
        print(name, value.shape, round(float(value.sum()), 4))
finally:
    shutil.rmtree(tmp_dir)

# Random data without a file: never ends, float32 in [low, high).
rand_main = fluid.Program()
rand_startup = fluid.Program()
with fluid.program_guard(rand_main, rand_startup):
    rand_reader = fluid.layers.random_data_generator(
        low=-1.0, high=2.0, shapes=[[5, 3], [5, 1]], lod_levels=[0, 0])
    a, b = fluid.layers.read_file(rand_reader)
    total = fluid.layers.reduce_sum(fluid.layers.elementwise_add(a, b))
exe.run(rand_startup)
for step in range(3):
    va, vb, vt = exe.run(rand_main, fetch_list=[a, b, total])
    print('random step', step, va.shape, vb.shape, va.dtype,
          bool(va.min() >= -1.0 and va.max() < 2.0), bool(vb.min() >= -1.0 and vb.max() < 2.0),
          abs(float(vt[0]) - float((va + vb).sum())) < 1e-3)
