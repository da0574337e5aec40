# When fluidc calls a 1.6 FetchHandler (docs/training.md, Dataset): after
# a batch, the first batch to begin once period_secs have passed since the
# pass began or the handler last returned, with the values that batch left
# (1.6's thread polled the worker scope, which kept them); never at the
# end of a pass for its own sake. Paddle's calls depend on its thread's
# timing, so this is fluidc only; testdata/run/dataset_fetch_handler.py
# is the peer-compared part.
import os
import shutil
import tempfile
import time

import numpy as np
import paddle.fluid as fluid
from paddle.fluid.executor import FetchHandler

work_dir = tempfile.mkdtemp()
files = []
for part in range(4):
    path = os.path.join(work_dir, "part-%d" % part)
    with open(path, "w") as f:
        for i in range(3):
            v = part * 3 + i
            f.write("2 %d %d 1 %.1f 1 %d\n" % (v % 7 + 1, v % 5 + 1, v * 0.25, v % 2))
    files.append(path)

# A pipe command that takes a while per file, as a real generator over
# big logs does: QueueDataset reads each file when the pass reaches it.
slow = os.path.join(work_dir, "slow_cat.py")
with open(slow, "w") as f:
    f.write("import sys, time\ntime.sleep(0.6)\nsys.stdout.write(sys.stdin.read())\n")

ids = fluid.layers.data(name="ids", shape=[1], dtype="int64", lod_level=1)
x = fluid.layers.data(name="x", shape=[1], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")
pooled = fluid.layers.sequence_pool(fluid.layers.embedding(ids, size=[10, 3]), "sum")
predict = fluid.layers.fc(fluid.layers.concat([pooled, x], axis=1), size=2, act="softmax")
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
infer_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)
fc_w = [p for p in fluid.default_main_program().global_block().all_parameters()
        if p.shape == (4, 2)][0]

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())


class Recorder(FetchHandler):
    def __init__(self, var_dict, period_secs):
        super(Recorder, self).__init__(var_dict=var_dict, period_secs=period_secs)
        self.calls = []

    def handler(self, res_dict):
        self.calls.append((time.monotonic(), dict(res_dict)))


def dataset(kind, pipe="cat", batch_size=3):
    ds = fluid.DatasetFactory().create_dataset(kind)
    ds.set_use_var([ids, x, label])
    ds.set_batch_size(batch_size)
    ds.set_filelist(files)
    ds.set_pipe_command(pipe)
    if kind == "InMemoryDataset":
        ds.load_into_memory()
    return ds


# period_secs=0: after every batch, with that batch's values. The
# inference program changes nothing, so each loss can be checked by
# running the batch again.
# A variable of the program no op writes: None, as in 1.6's worker scope.
unwritten = infer_program.global_block().create_var(name="never_written", shape=[1],
                                                    dtype="float32")
rec = Recorder({"loss": avg_cost, "pool": pooled, "w": fc_w, "nowhere": "x",
                "unwritten": unwritten}, period_secs=0)
exe.infer_from_dataset(infer_program, dataset("QueueDataset", batch_size=5), fetch_handler=rec)
assert len(rec.calls) == 3, len(rec.calls)                     # 12 records, batches of 5
assert [c[1]["pool"].shape for c in rec.calls] == [(5, 3), (5, 3), (2, 3)]
w_now = np.array(fluid.global_scope().find_var(fc_w.name).get_tensor())
for _, res in rec.calls:
    assert sorted(res) == ["loss", "nowhere", "pool", "unwritten", "w"], sorted(res)
    assert res["nowhere"] is None                              # not a Variable: None
    assert res["unwritten"] is None
    assert isinstance(res["loss"], np.ndarray) and res["loss"].shape == (1,)
    assert np.array_equal(res["w"], w_now)
batches = list(dataset("QueueDataset", batch_size=5)._batches())
for (_, res), feed in zip(rec.calls, batches):
    loss, = exe.run(infer_program, feed=feed, fetch_list=[avg_cost])
    assert np.allclose(res["loss"], loss), (res["loss"], loss)

# Training: the handler sees the parameters as the batch left them.
rec = Recorder({"w": fc_w, "loss": avg_cost}, period_secs=0)
exe.train_from_dataset(fluid.default_main_program(), dataset("InMemoryDataset"),
                       fetch_handler=rec)
assert len(rec.calls) == 4, len(rec.calls)
last_w = rec.calls[-1][1]["w"]
assert np.array_equal(last_w, np.array(fluid.global_scope().find_var(fc_w.name).get_tensor()))
assert not np.array_equal(rec.calls[0][1]["w"], last_w)

# A pass shorter than period_secs: no call, not even at its end.
rec = Recorder({"loss": avg_cost}, period_secs=60)
exe.train_from_dataset(fluid.default_main_program(), dataset("InMemoryDataset"),
                       fetch_handler=rec)
assert rec.calls == [], rec.calls

# period_secs=1 over a pass of 4 slow files (0.6 s each, one batch per
# file): called at least once, never sooner than a period after the pass
# began or the last call.
rec = Recorder({"loss": avg_cost}, period_secs=1)
start = time.monotonic()
exe.train_from_dataset(fluid.default_main_program(),
                       dataset("QueueDataset", pipe="python " + slow), fetch_handler=rec)
times = [t for t, _ in rec.calls]
assert 1 <= len(times) <= 4, times
previous = start
for t in times:
    assert t - previous >= 1.0, (t - previous)
    previous = t

# What the handler raises stops the pass.
class Broken(FetchHandler):
    def handler(self, res_dict):
        raise ValueError("handler failed")


try:
    exe.train_from_dataset(fluid.default_main_program(), dataset("InMemoryDataset"),
                           fetch_handler=Broken({"loss": avg_cost}, period_secs=0))
    raise SystemExit("the handler's error was lost")
except ValueError as e:
    assert str(e) == "handler failed", e

# A variable with LoD is refused, as 1.6's monitor refused it.
try:
    exe.train_from_dataset(fluid.default_main_program(), dataset("InMemoryDataset"),
                           fetch_handler=Recorder({"ids": ids}, period_secs=0))
    raise SystemExit("a LoD variable was handed to the handler")
except RuntimeError as e:
    assert "LoD" in str(e), e

shutil.rmtree(work_dir)
print("fetch handler timing holds")
