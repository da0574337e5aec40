# What a 1.5-1.6 Dataset feeds, batch by batch, checked against what
# 1.6's C++ data feeds (MultiSlotDataFeed, MultiSlotInMemoryDataFeed)
# built: a sparse slot's values with the instances' offsets as LoD, a dense
# slot in its variable's shape, InMemoryDataset dropping a sparse slot's
# zeros (an instance left with none gets one 0) and QueueDataset keeping
# them, the last short batch run. Paddle 3.3.1's DataLoader.from_dataset
# yields no batch from a 1.x dataset, so this runs in fluidc only; the
# training path is testdata/run/dataset_train_from_dataset.py.
import os
import shutil
import sys
import tempfile

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.incubate.data_generator as dg

work_dir = tempfile.mkdtemp()
ids = fluid.layers.data(name="ids", shape=[1], dtype="int64", lod_level=1)
dense = fluid.layers.data(name="dense", shape=[2], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")

# MultiSlot text as a generator prints it: "<n> v1 .. vn" per slot.
raw = os.path.join(work_dir, "part-0")
with open(raw, "w") as f:
    f.write("3 5 0 7 2 0.5 1.5 1 1\n")
    f.write("1 0 2 2.5 3.5 1 0\n")
    f.write("2 9 4 2 4.5 5.5 1 1\n")


def loader_of(kind, batch_size, drop_last):
    dataset = fluid.DatasetFactory().create_dataset(kind)
    dataset.set_use_var([ids, dense, label])
    dataset.set_pipe_command("cat")
    dataset.set_batch_size(batch_size)
    dataset.set_filelist([raw])
    if kind == "InMemoryDataset":
        dataset.load_into_memory()
    return fluid.io.DataLoader.from_dataset(dataset, fluid.cpu_places(1), drop_last)


def batches(kind, batch_size=2, drop_last=False):
    out = []
    for data in loader_of(kind, batch_size, drop_last)():
        assert len(data) == 1
        feed = data[0]
        out.append({name: (np.array(t), t.lod()) for name, t in feed.items()})
    return out


queue = batches("QueueDataset")
assert len(queue) == 2, len(queue)
values, lod = queue[0]["ids"]
assert values.dtype == np.int64 and values.shape == (4, 1), values
assert values.reshape(-1).tolist() == [5, 0, 7, 0] and lod == [[0, 3, 4]], (values, lod)
values, lod = queue[0]["dense"]
assert values.dtype == np.float32 and values.tolist() == [[0.5, 1.5], [2.5, 3.5]], values
assert lod == [], lod
assert queue[0]["label"][0].tolist() == [[1], [0]]
assert queue[1]["ids"][0].reshape(-1).tolist() == [9, 4] and queue[1]["ids"][1] == [[0, 2]]

memory = batches("InMemoryDataset")
values, lod = memory[0]["ids"]
assert values.reshape(-1).tolist() == [5, 7, 0] and lod == [[0, 2, 3]], (values, lod)
assert len(batches("InMemoryDataset", drop_last=True)) == 1
assert len(batches("QueueDataset", batch_size=3, drop_last=True)) == 1

# The program runs on each batch; thread 2 still reads in order.
total = fluid.layers.reduce_sum(fluid.layers.cast(ids, "float32"))
exe = fluid.Executor(fluid.CPUPlace())
dataset = fluid.DatasetFactory().create_dataset("InMemoryDataset")
dataset.set_use_var([ids, dense, label])
dataset.set_batch_size(1)
dataset.set_thread(2)
dataset.set_filelist([raw, raw])
dataset.load_into_memory()
assert dataset.get_memory_data_size() == 6
exe.train_from_dataset(fluid.default_main_program(), dataset, fetch_list=[total],
                       fetch_info=["sum"], print_period=3)
assert dataset.get_memory_data_size() == 0 and dataset.get_shuffle_data_size() == 6

# Generators print MultiSlot text; the first sample fixes the slots.
class Gen(dg.MultiSlotDataGenerator):
    def generate_sample(self, line):
        def reader():
            words = [int(w) for w in line.split()]
            yield [("words", words), ("score", [len(words) / 2.0])]
        return reader


g = Gen()
assert g._gen_str([("words", [3, 4]), ("score", [1.0])]) == "2 3 4 1 1.0\n"
assert g._proto_info == [("words", "uint64"), ("score", "float")]
for bad, message in [([("words", [3])], "inconsistent"), ([("w", [3]), ("score", [1.0])],
                                                           "not match"),
                     ([("words", []), ("score", [1.0])], "can not be empty")]:
    try:
        g._gen_str(bad)
    except ValueError as e:
        assert message in str(e), str(e)
    else:
        raise AssertionError(bad)
s = dg.MultiSlotStringDataGenerator()
assert s._gen_str([("a", ["x", "y"]), ("b", ["1"])]) == "2 x y 1 1\n"

script = os.path.join(work_dir, "gen.py")
with open(script, "w") as f:
    f.write("import sys\nimport paddle.fluid.incubate.data_generator as dg\n"
            "class G(dg.MultiSlotDataGenerator):\n"
            "    def generate_sample(self, line):\n"
            "        def r():\n"
            "            v = [int(x) * int(sys.argv[1]) for x in line.split()]\n"
            "            yield [('ids', v), ('dense', [0.5, 1.0]), ('label', [len(v)])]\n"
            "        return r\n"
            "    def generate_batch(self, samples):\n"
            "        def r():\n"
            "            for s in samples:\n"
            "                yield s\n"
            "            yield [('ids', [99]), ('dense', [0.0, 0.0]), ('label', [len(samples)])]\n"
            "        return r\n"
            "g = G()\ng.set_batch(2)\ng.run_from_stdin()\n")
words = os.path.join(work_dir, "words")
with open(words, "w") as f:
    f.write("1 2\n3\n4 5 6\n")
dataset = fluid.DatasetFactory().create_dataset("QueueDataset")
dataset.set_use_var([ids, dense, label])
dataset.set_pipe_command("python %s 10" % script)
dataset.set_batch_size(10)
dataset.set_filelist([words])
feed, = list(fluid.io.DataLoader.from_dataset(dataset, fluid.cpu_places(1), False))[0]
assert np.array(feed["ids"]).reshape(-1).tolist() == [10, 20, 30, 99, 40, 50, 60, 99]
assert np.array(feed["label"]).reshape(-1).tolist() == [2, 1, 2, 3, 1]
assert sys.argv[0].endswith("dataset_feed_1x.py"), sys.argv

# What fluidc cannot run, and what 1.x refused.
for command, error in [("python %s 10 | sort" % script, ValueError), ("awk '{print}'", ValueError)]:
    dataset.set_pipe_command(command)
    try:
        exe.train_from_dataset(fluid.default_main_program(), dataset)
    except error as e:
        assert "pipe_command" in str(e), str(e)
    else:
        raise AssertionError(command)
with open(raw, "w") as f:
    f.write("0 1 0.5 1 1\n")
dataset.set_pipe_command("cat")
dataset.set_filelist([raw])
try:
    exe.train_from_dataset(fluid.default_main_program(), dataset)
except fluid.core.EnforceNotMet as e:
    assert "The number of ids can not be zero" in str(e), str(e)
else:
    raise AssertionError("a zero count was read")
try:
    fluid.DatasetFactory().create_dataset("QueueDataset").local_shuffle()
except NotImplementedError as e:
    assert "QueueDataset does not support local shuffle" in str(e)
try:
    fluid.DatasetFactory().create_dataset("FooDataset")
except ValueError as e:
    assert str(e) == "datafeed class FooDataset does not exist"

# Hashed uint64 ids (2^63 and up) keep their bits in the int64 tensor, as
# 1.x's strtoull read them.
with open(raw, "w") as f:
    f.write("2 18446744073709551615 9223372036854775808 2 0.5 1.5 1 1\n")
big = batches("QueueDataset", batch_size=1)[0]["ids"][0].reshape(-1).tolist()
assert big == [-1, -9223372036854775808], big

# debug=True: 1.6's per-op report on stderr every 100 batches (here 200
# batches of one instance: two reports), each op by its place in the program.
import io
with open(raw, "w") as f:
    for i in range(200):
        f.write("1 %d 2 %d.5 1.5 1 %d\n" % (i % 7 + 1, i % 3, i % 2))
main = fluid.Program()
with fluid.program_guard(main, fluid.Program()):
    ids = fluid.layers.data(name="ids", shape=[1], dtype="int64", lod_level=1)
    dense = fluid.layers.data(name="dense", shape=[2], dtype="float32")
    label = fluid.layers.data(name="label", shape=[1], dtype="int64")
    dataset = fluid.DatasetFactory().create_dataset("QueueDataset")
    dataset.set_use_var([ids, dense, label])
    dataset.set_pipe_command("cat")
    dataset.set_batch_size(1)
    dataset.set_filelist([raw])
    total = fluid.layers.reduce_sum(fluid.layers.elementwise_add(
        dense, fluid.layers.cast(label, "float32")))
captured, sys.stderr = sys.stderr, io.StringIO()
try:
    exe.train_from_dataset(main, dataset, debug=True, fetch_list=[total], fetch_info=["total"],
                           print_period=1000)
finally:
    captured, sys.stderr = sys.stderr.getvalue(), captured
lines = captured.splitlines()
types = [op.type for op in main.global_block().ops]
assert len(lines) == 2 * (len(types) + 3), lines
for i, t in enumerate(types):
    assert lines[i].startswith("op_name:[%d][%s], op_mean_time:[" % (i, t)), (lines[i], t)
assert lines[len(types)].startswith("mean read time: "), lines
assert lines[len(types) + 1].startswith("IO percent: "), lines
assert lines[len(types) + 2].endswith(" instances/s"), lines

shutil.rmtree(work_dir)
print("ok")
