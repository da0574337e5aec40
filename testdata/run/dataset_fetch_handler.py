# Paddle 1.6's FetchHandler: a CTR job hands train_from_dataset a handler
# that would report the AUC and the loss every few minutes of a long pass.
# When a handler runs depends on the clock (1.6 polled from a thread), so
# this prints what does not: the class's own behaviour (the assertion,
# help(), the default handler's line), and passes shorter than the period,
# during which neither 1.6 nor fluidc calls it (when fluidc calls it:
# testdata/fluidc_only/dataset_fetch_handler_period.py).
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import paddle.fluid as fluid
from paddle.fluid.executor import FetchHandler

work_dir = tempfile.mkdtemp()
rng = np.random.RandomState(3)
path = os.path.join(work_dir, "part-0")
with open(path, "w") as f:
    for i in range(9):
        ids = rng.randint(1, 30, size=rng.randint(1, 4))
        f.write("%d %s 3 %s 1 %d\n" % (len(ids), " ".join(str(v) for v in ids),
                                       " ".join("%.2f" % v for v in rng.uniform(-1, 1, size=3)),
                                       i % 2))

try:
    FetchHandler()
except AssertionError:
    print("FetchHandler() without var_dict: AssertionError")
FetchHandler.help()

# The default handler prints each array's first element on one line.
default = FetchHandler(var_dict={"auc": None}, period_secs=5)
print("period_secs:", default.period_secs, "var_dict keys:", sorted(default.var_dict))
default.handler({"auc": np.array([0.625], dtype="float32"),
                 "loss": np.array([[1.5], [2.25]], dtype="float32"),
                 "step": np.array([7, 8], dtype="int64"),
                 "missing": None})

ids = fluid.layers.data(name="ids", shape=[1], dtype="int64", lod_level=1)
dense = fluid.layers.data(name="dense", shape=[3], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")
emb = fluid.layers.embedding(ids, size=[30, 4], param_attr=fluid.ParamAttr(
    name="emb", initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=2)))
feature = fluid.layers.concat([fluid.layers.sequence_pool(emb, "sum"), dense], axis=1)
predict = fluid.layers.fc(feature, size=2, act="softmax", param_attr=fluid.ParamAttr(
    name="fc_w", initializer=fluid.initializer.Normal(scale=0.4, seed=4)))
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
auc, _, _ = fluid.layers.auc(input=predict, label=label)
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.SGD(learning_rate=0.2).minimize(avg_cost)


class AucHandler(FetchHandler):
    def __init__(self, var_dict, period_secs):
        super(AucHandler, self).__init__(var_dict=var_dict, period_secs=period_secs)
        self.calls = 0

    def handler(self, res_dict):
        self.calls += 1
        print("auc %s, loss %s" % (res_dict["auc"], res_dict["loss"]))


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
dataset = fluid.DatasetFactory().create_dataset("InMemoryDataset")
dataset.set_use_var([ids, dense, label])
dataset.set_batch_size(4)
dataset.set_filelist([path])
dataset.load_into_memory()

handler = AucHandler({"auc": auc, "loss": avg_cost}, period_secs=600)
for epoch in range(2):
    exe.train_from_dataset(fluid.default_main_program(), dataset, fetch_list=[avg_cost],
                           fetch_info=["cost"], print_period=3, fetch_handler=handler)
print("handler calls during training:", handler.calls)

queue = fluid.DatasetFactory().create_dataset("QueueDataset")
queue.set_use_var([ids, dense, label])
queue.set_batch_size(5)
queue.set_filelist([path])
# A value that is not a Variable is logged (stderr) and given as None.
exe.infer_from_dataset(test_program, queue, fetch_handler=AucHandler(
    {"auc": auc, "loss": "avg_cost"}, period_secs=600))
# 1.6's own test passed a variable's name as var_dict: its monitor thread
# died reading it (the traceback on stderr) and the pass ran on.
exe.train_from_dataset(fluid.default_main_program(), dataset,
                       fetch_handler=FetchHandler(avg_cost.name, period_secs=1))
print("trained with a name for var_dict")
print("fc_w after training:", " ".join(
    "%.4f" % v for v in np.array(fluid.global_scope().find_var("fc_w").get_tensor()).ravel()))

shutil.rmtree(work_dir)
