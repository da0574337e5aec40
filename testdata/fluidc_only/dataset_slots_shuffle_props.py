# InMemoryDataset.slots_shuffle (1.6's feature evaluation), checked on
# the records themselves, which only fluidc's DataLoader.from_dataset
# hands back (Paddle 3.3.1's yields no batch from a 1.x dataset; the
# peer-compared pass is testdata/run/dataset_slots_shuffle.py). Which
# record lends its values is random, so these are 1.6's rules, not its
# draws: the records keep their count and order, the named id slots of a
# record all come from one record loaded at or before it (1.6's reservoir
# of candidates), float slots and unnamed slots keep their values, each
# shuffle starts from the records as loaded, and nothing happens without
# fea_eval or on a dataset that holds no records.
import os
import random
import shutil
import tempfile

import numpy as np
import paddle.fluid as fluid

work_dir = tempfile.mkdtemp()
N = 40
path = os.path.join(work_dir, "part-0")
loaded = []
with open(path, "w") as f:
    for i in range(N):
        # Distinct values per record, so a value tells its record.
        a = [1000 * (i + 1) + k for k in range(1 + i % 3)]
        b = [50000 + i]
        w = [float(i) + 0.5]
        loaded.append((a, b, w))
        f.write("%d %s 1 %d 1 %.1f\n" % (len(a), " ".join(map(str, a)), b[0], w[0]))

a = fluid.layers.data(name="a", shape=[1], dtype="int64", lod_level=1)
b = fluid.layers.data(name="b", shape=[1], dtype="int64", lod_level=1)
w = fluid.layers.data(name="w", shape=[1], dtype="float32", lod_level=1)


def records(dataset):
    """Every record a pass reads, as (a, b, w) value lists."""
    out = []
    for data in fluid.io.DataLoader.from_dataset(dataset, fluid.cpu_places(1), False)():
        feed = data[0]
        columns = []
        for name in ("a", "b", "w"):
            values = np.array(feed[name]).reshape(-1).tolist()
            offsets = feed[name].lod()[0]
            columns.append([values[offsets[k]:offsets[k + 1]] for k in range(len(offsets) - 1)])
        out.extend(zip(*columns))
    return [tuple(list(c) for c in r) for r in out]


def new_dataset(kind="InMemoryDataset"):
    dataset = fluid.DatasetFactory().create_dataset(kind)
    dataset.set_use_var([a, b, w])
    dataset.set_batch_size(7)
    dataset.set_filelist([path])
    return dataset


def owner(values):
    return values[0] // 1000 - 1 if values[0] < 50000 else values[0] - 50000


def check_shuffled(got, shuffled):
    assert len(got) == N, len(got)
    changed = 0
    for i, (ra, rb, rw) in enumerate(got):
        src = loaded[i]
        assert rw == src[2], (i, rw)                  # float slot: kept
        lenders = set()
        for name, values, original in (("a", ra, src[0]), ("b", rb, src[1])):
            if name in shuffled:
                j = owner(values)
                assert j <= i, (i, j)                 # from a record loaded so far
                assert values == loaded[j][0 if name == "a" else 1], (i, values)
                lenders.add(j)
                changed += j != i
            else:
                assert values == original, (i, name, values)
        assert len(lenders) <= 1, (i, lenders)        # one candidate per record
    assert got[0] == tuple(list(c) for c in loaded[0])  # the first has only itself
    return changed


random.seed(5)
dataset = new_dataset()
dataset.load_into_memory()
try:
    dataset.slots_shuffle(["a"])
    raise SystemExit("slots_shuffle before set_fea_eval did not raise")
except AttributeError as e:
    assert "fea_eval" in str(e), e

dataset.set_fea_eval(8, True)
dataset.slots_shuffle(["a", "b", "w"])
assert dataset.get_memory_data_size() == N
got = records(dataset)
assert check_shuffled(got, {"a", "b"}) > 0
# The next pass reads the same shuffled records again.
assert records(dataset) == got

# A second shuffle starts from the loaded records: only b is moved.
dataset.slots_shuffle(["b"])
second = records(dataset)
assert check_shuffled(second, {"b"}) > 0

# One candidate: each record takes the values of the last record the
# reservoir kept, still one loaded at or before it.
dataset.set_fea_eval(1, True)
dataset.slots_shuffle(["a"])
check_shuffled(records(dataset), {"a"})

# fea_eval off: nothing changes; the pass reads what it read last.
dataset.set_fea_eval(8, False)
before = records(dataset)
dataset.slots_shuffle(["a"])
assert records(dataset) == before

# release_memory keeps the loaded records for slots_shuffle, as 1.6 did.
dataset.set_fea_eval(8, True)
dataset.release_memory()
dataset.slots_shuffle(["a"])
check_shuffled(records(dataset), {"a"})

# A slot name the dataset does not have changes nothing.
fresh = new_dataset()
fresh.load_into_memory()
fresh.set_fea_eval(4, True)
fresh.slots_shuffle(["no_such_slot"])
assert records(fresh) == [tuple(list(c) for c in r) for r in loaded]

# Nothing loaded yet: nothing to shuffle, and the load then is as read.
empty = new_dataset()
empty.set_fea_eval(4, True)
empty.slots_shuffle(["a"])
empty.load_into_memory()
assert records(empty) == [tuple(list(c) for c in r) for r in loaded]

# A QueueDataset reads its files at each pass: slots_shuffle does nothing.
queue = new_dataset("QueueDataset")
queue.set_fea_eval(4, True)
queue.slots_shuffle(["a", "b"])
assert records(queue) == [tuple(list(c) for c in r) for r in loaded]

# record_candidate_size must be positive (1.6's CHECK aborted).
try:
    new_dataset().set_fea_eval(0, True)
    raise SystemExit("set_fea_eval(0) did not raise")
except fluid.core.EnforceNotMet as e:
    assert "record_candidate_size" in str(e), e

shutil.rmtree(work_dir)
print("slots_shuffle properties hold")
