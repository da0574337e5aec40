# A 2019 PaddleRec-style CTR job on Paddle 1.5-1.6's Dataset API: raw
# Criteo-like lines (label, dense features, sparse ids) go through a
# MultiSlotDataGenerator script run as the dataset's pipe command, an
# InMemoryDataset loads them once, and exe.train_from_dataset trains over
# them twice, printing the fetched loss and AUC every print_period
# batches. A QueueDataset then evaluates with infer_from_dataset. One
# thread and no shuffle while training, so the batches come in file
# order; the shuffles at the end only count.
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import paddle.fluid as fluid

HASH_DIM = 23
work_dir = tempfile.mkdtemp()

# The raw logs: "label<TAB>d1,d2,d3<TAB>id id ...".
rng = np.random.RandomState(11)
filelist = []
for part, rows in enumerate([10, 7]):
    path = os.path.join(work_dir, "part-%d" % part)
    with open(path, "w") as f:
        for _ in range(rows):
            dense = rng.randint(0, 20, size=3)
            ids = rng.randint(0, 200, size=rng.randint(1, 5))
            label = int(dense[0] + ids[0] % 7 > 12)
            f.write("%d\t%s\t%s\n" % (label, ",".join(str(d) for d in dense),
                                      " ".join(str(i) for i in ids)))
    filelist.append(path)

GENERATOR = '''
import sys
import paddle.fluid.incubate.data_generator as dg


class CriteoDataset(dg.MultiSlotDataGenerator):
    def __init__(self, hash_dim):
        super(CriteoDataset, self).__init__()
        self.hash_dim = hash_dim

    def generate_sample(self, line):
        def reader():
            fields = line.rstrip("\\n").split("\\t")
            dense = [float(x) / 20.0 for x in fields[1].split(",")]
            sparse = [int(x) % self.hash_dim for x in fields[2].split()]
            yield [("dense_input", dense), ("sparse", sparse), ("label", [int(fields[0])])]
        return reader


if __name__ == "__main__":
    CriteoDataset(int(sys.argv[1])).run_from_stdin()
'''
generator_path = os.path.join(work_dir, "criteo_reader.py")
with open(generator_path, "w") as f:
    f.write(GENERATOR)

dense_input = fluid.layers.data(name="dense_input", shape=[3], dtype="float32")
sparse = fluid.layers.data(name="sparse", shape=[1], dtype="int64", lod_level=1)
label = fluid.layers.data(name="label", shape=[1], dtype="int64")

emb = fluid.layers.embedding(
    input=sparse, size=[HASH_DIM, 4], is_sparse=True,
    param_attr=fluid.ParamAttr(name="SparseFeatFactors",
                               initializer=fluid.initializer.Uniform(-0.1, 0.1, seed=3)))
pooled = fluid.layers.sequence_pool(input=emb, pool_type="sum")
feature = fluid.layers.concat([pooled, dense_input], axis=1)
fc1 = fluid.layers.fc(input=feature, size=8, act="relu",
                      param_attr=fluid.ParamAttr(
                          initializer=fluid.initializer.Normal(scale=0.3, seed=5)))
predict = fluid.layers.fc(input=fc1, size=2, act="softmax",
                          param_attr=fluid.ParamAttr(
                              initializer=fluid.initializer.Normal(scale=0.3, seed=6)))
cost = fluid.layers.cross_entropy(input=predict, label=label)
avg_cost = fluid.layers.mean(cost)
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.Adam(learning_rate=0.05).minimize(avg_cost)

dataset = fluid.DatasetFactory().create_dataset("InMemoryDataset")
dataset.set_use_var([dense_input, sparse, label])
dataset.set_pipe_command("python %s %d" % (generator_path, HASH_DIM))
dataset.set_batch_size(4)
dataset.set_thread(1)
dataset.set_filelist(filelist)
dataset.set_hdfs_config("hdfs://localhost:9000", "user,passwd")
dataset.load_into_memory()
print("instances in memory:", dataset.get_memory_data_size())

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for epoch in range(2):
    exe.train_from_dataset(program=fluid.default_main_program(), dataset=dataset,
                           fetch_list=[avg_cost], fetch_info=["avg_cost"], print_period=2,
                           debug=False)
    print("epoch %d done" % epoch)

# Evaluation on the second file, streamed.
eval_set = fluid.DatasetFactory().create_dataset("QueueDataset")
eval_set.set_use_var([dense_input, sparse, label])
eval_set.set_pipe_command("python %s %d" % (generator_path, HASH_DIM))
eval_set.set_batch_size(3)
eval_set.set_thread(2)
eval_set.set_filelist(filelist[1:])
exe.infer_from_dataset(program=test_program, dataset=eval_set, fetch_list=[avg_cost, predict],
                       fetch_info=["test_cost", "predict"], print_period=1)

# A fixed batch after training.
ids = fluid.create_lod_tensor(np.array([[3], [5], [7], [11], [13]], dtype="int64"), [[2, 3]],
                              fluid.CPUPlace())
feed = {"dense_input": np.array([[0.1, 0.5, 0.2], [0.7, 0.0, 0.3]], dtype="float32"),
        "sparse": ids, "label": np.array([[1], [0]], dtype="int64")}
loss, prob = exe.run(test_program, feed=feed, fetch_list=[avg_cost, predict])
print("fixed batch loss %.5f" % np.array(loss).reshape(-1)[0])
print("fixed batch predict", " ".join("%.4f" % p for p in np.array(prob).reshape(-1)))
table = np.array(fluid.global_scope().find_var("SparseFeatFactors").get_tensor())
print("embedding rows 3 and 5", " ".join("%.4f" % v for v in table[[3, 5]].reshape(-1)))

# After a pass the instances have left memory for the trainer's channel.
print("after training: memory %d, shuffle %d" % (dataset.get_memory_data_size(),
                                                 dataset.get_shuffle_data_size()))
dataset.release_memory()

# A day's data loaded again and shuffled (the shuffle only counts here).
day2 = fluid.DatasetFactory().create_dataset("InMemoryDataset")
day2.set_use_var([dense_input, sparse, label])
day2.set_pipe_command("python %s %d" % (generator_path, HASH_DIM))
day2.set_batch_size(4)
day2.set_thread(1)
day2.set_filelist(filelist)
day2.load_into_memory()
day2.local_shuffle()
print("after local_shuffle:", day2.get_memory_data_size())
day2.release_memory()

shutil.rmtree(work_dir)
