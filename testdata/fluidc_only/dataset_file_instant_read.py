# What a 1.6 FileInstantDataset feeds from its binary files, checked
# against the layout 1.6's MultiSlotFileInstantDataFeed read (a CUDA-only
# feed, so neither 1.6's CPU build nor Paddle 3.3.1 trains one; the
# peer-compared API part is testdata/run/dataset_file_instant.py). Per
# record, for each slot in order: a uint16 count, then for a dense slot
# one uint64 per -1 of its shape (the dims of the batch the record
# begins; counted), then the values, float32 or int64, little-endian.
# Batches do not run across files; the pipe command is not used.
import os
import shutil
import struct
import tempfile

import numpy as np
import paddle.fluid as fluid

work_dir = tempfile.mkdtemp()
ids = fluid.layers.data(name="ids", shape=[1], dtype="int64", lod_level=1)
feat = fluid.layers.data(name="feat", shape=[2], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")


def record(id_values, feat_values, label_value, batch_rows):
    out = struct.pack("<H", len(id_values)) + struct.pack("<%dq" % len(id_values), *id_values)
    out += struct.pack("<HQ2f", 3, batch_rows, *feat_values)
    out += struct.pack("<HQq", 2, batch_rows, label_value)
    return out


def write(name, records):
    path = os.path.join(work_dir, name)
    with open(path, "wb") as f:
        for r in records:
            f.write(record(*r))
    return path


# Batches of 2: part-0 is two batches (2 records, then 1), part-1 one.
part0 = write("part-0.bin", [([3, 5, 7], [0.5, 1.5], 1, 2), ([2], [2.5, -1.0], 0, 0),
                             ([9, -4], [3.0, 0.25], 1, 1)])
part1 = write("part-1.bin", [([1, 1], [4.0, 4.5], 0, 2), ([6], [5.0, 5.5], 1, 0)])


def dataset(files, batch_size=2):
    ds = fluid.DatasetFactory().create_dataset("FileInstantDataset")
    ds.set_use_var([ids, feat, label])
    ds.set_batch_size(batch_size)
    ds.set_filelist(files)
    ds.set_pipe_command("python no_such_generator.py")  # not run for this dataset
    return ds


def batches(ds, drop_last=False):
    out = []
    for data in fluid.io.DataLoader.from_dataset(ds, fluid.cpu_places(1), drop_last)():
        out.append({name: (np.array(t), t.lod()) for name, t in data[0].items()})
    return out


got = batches(dataset([part0, part1]))
assert len(got) == 3, len(got)
values, lod = got[0]["ids"]
assert values.dtype == np.int64 and values.reshape(-1).tolist() == [3, 5, 7, 2], values
assert lod == [[0, 3, 4]], lod
assert got[1]["ids"][0].reshape(-1).tolist() == [9, -4] and got[1]["ids"][1] == [[0, 2]]
assert got[0]["feat"][0].dtype == np.float32
assert got[0]["feat"][0].tolist() == [[0.5, 1.5], [2.5, -1.0]], got[0]["feat"]
assert got[1]["feat"][0].tolist() == [[3.0, 0.25]] and got[1]["feat"][1] == []
assert got[2]["feat"][0].tolist() == [[4.0, 4.5], [5.0, 5.5]]
assert [b["label"][0].reshape(-1).tolist() for b in got] == [[1, 0], [1], [0, 1]]
assert [b["label"][0].shape for b in got] == [(2, 1), (1, 1), (2, 1)]
assert len(batches(dataset([part0, part1]), drop_last=True)) == 2

# A batch's first record gives its dense dims: a wrong one is refused.
bad = write("bad-dims.bin", [([1], [0.0, 1.0], 0, 3), ([2], [2.0, 3.0], 1, 0)])
try:
    batches(dataset([bad]))
    raise SystemExit("a batch dim that does not hold the values was taken")
except fluid.core.EnforceNotMet as e:
    assert "doesn't match its declaration" in str(e), e

# A count of 0 and a file cut inside a record are errors, as in 1.6.
zero = os.path.join(work_dir, "zero.bin")
with open(zero, "wb") as f:
    f.write(struct.pack("<H", 0))
cut = os.path.join(work_dir, "cut.bin")
with open(cut, "wb") as f:
    f.write(record([4, 5], [1.0, 2.0], 1, 1)[:-3])
for path, words in ((zero, "can not be zero"), (cut, "ends inside a record")):
    try:
        batches(dataset([path]))
        raise SystemExit("%s was read" % path)
    except fluid.core.EnforceNotMet as e:
        assert words in str(e), e

# No records held: slots_shuffle has nothing to shuffle.
ds = dataset([part0])
ds.set_fea_eval(10, True)
ds.slots_shuffle(["ids"])
assert len(batches(ds)) == 2

# Training from it, with the fetch printed each batch.
pooled = fluid.layers.sequence_pool(
    fluid.layers.embedding(ids, size=[16, 3], param_attr=fluid.ParamAttr(name="emb")), "sum")
predict = fluid.layers.fc(fluid.layers.concat([pooled, feat], axis=1), size=2, act="softmax")
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
# Ids of 0..15 only: the -4 above would be out of the table.
train = write("train.bin", [([i % 16, (i * 3) % 16], [i * 0.1, 1.0 - i * 0.1], i % 2,
                             2 if i % 2 == 0 else 0) for i in range(8)])
before = np.array(fluid.global_scope().find_var("emb").get_tensor()).copy()
exe.train_from_dataset(fluid.default_main_program(), dataset([train]))
after = np.array(fluid.global_scope().find_var("emb").get_tensor())
assert not np.array_equal(before, after)

shutil.rmtree(work_dir)
print("FileInstantDataset reads 1.6's records")
