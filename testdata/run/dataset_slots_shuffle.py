# Feature-importance evaluation the way 2019 CTR teams ran it on Paddle
# 1.6: an InMemoryDataset in fea_eval mode, slots_shuffle on the slot
# under study, one more pass. Which record lends its values is random (in
# 1.6 as in fluidc), so this prints what does not depend on the draw: a
# baseline pass, then for each shuffle whether the untouched slots kept
# their values, whether each shuffled record took the values of some
# loaded record, and that a later shuffle starts again from the records
# as loaded. One batch holds every record, and the program copies each
# record's slot statistics into a persistable variable read back after
# the pass.
from __future__ import print_function

import os
import shutil
import tempfile

import numpy as np
import paddle.fluid as fluid

N = 12
work_dir = tempfile.mkdtemp()
rng = np.random.RandomState(7)
path = os.path.join(work_dir, "day-0.txt")
with open(path, "w") as f:
    for i in range(N):
        user = rng.randint(1, 40, size=rng.randint(1, 4)).tolist()
        item = rng.randint(1, 40, size=rng.randint(1, 3)).tolist()
        ctx = [round(float(v), 1) for v in rng.uniform(0, 2, size=2)]
        click = int(i % 3 == 0)
        f.write("%d %s %d %s 2 %s 1 %d\n" % (len(user), " ".join(map(str, user)), len(item),
                                             " ".join(map(str, item)),
                                             " ".join("%.1f" % v for v in ctx), click))

user = fluid.layers.data(name="user", shape=[1], dtype="int64", lod_level=1)
item = fluid.layers.data(name="item", shape=[1], dtype="int64", lod_level=1)
ctx = fluid.layers.data(name="ctx", shape=[2], dtype="float32")
click = fluid.layers.data(name="click", shape=[1], dtype="int64")


def slot_stats(ids):
    values = fluid.layers.cast(ids, "float32")
    return [fluid.layers.sequence_pool(values, "sum"),
            fluid.layers.sequence_pool(values, "average")]


stats = fluid.layers.concat(slot_stats(user) + slot_stats(item) +
                            [ctx, fluid.layers.cast(click, "float32")], axis=1)
kept = fluid.layers.create_global_var(shape=[N, 7], value=0.0, dtype="float32",
                                      persistable=True, name="slot_stats")
fluid.layers.assign(stats, output=kept)

emb_u = fluid.layers.sequence_pool(fluid.layers.embedding(
    user, size=[40, 4], param_attr=fluid.ParamAttr(
        name="user_emb", initializer=fluid.initializer.Uniform(-0.2, 0.2, seed=1))), "sum")
emb_i = fluid.layers.sequence_pool(fluid.layers.embedding(
    item, size=[40, 4], param_attr=fluid.ParamAttr(
        name="item_emb", initializer=fluid.initializer.Uniform(-0.2, 0.2, seed=2))), "sum")
predict = fluid.layers.fc(fluid.layers.concat([emb_u, emb_i, ctx], axis=1), size=2,
                          act="softmax", param_attr=fluid.ParamAttr(
                              initializer=fluid.initializer.Normal(scale=0.3, seed=3)))
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=click))
fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

dataset = fluid.DatasetFactory().create_dataset("InMemoryDataset")
dataset.set_use_var([user, item, ctx, click])
dataset.set_batch_size(N)
dataset.set_thread(1)
dataset.set_filelist([path])
dataset.load_into_memory()
try:
    dataset.slots_shuffle(["user"])
except AttributeError as e:
    print("slots_shuffle before set_fea_eval:", type(e).__name__)


def one_pass(print_loss=False):
    if print_loss:
        exe.train_from_dataset(fluid.default_main_program(), dataset, fetch_list=[avg_cost],
                               fetch_info=["baseline cost"], print_period=1)
    else:
        exe.train_from_dataset(fluid.default_main_program(), dataset)
    return np.array(fluid.global_scope().find_var("slot_stats").get_tensor())


def pairs(table, col):
    return [(round(float(a), 4), round(float(b), 4)) for a, b in table[:, col:col + 2]]


base = one_pass(print_loss=True)
print("baseline user sum/avg:", pairs(base, 0))
print("baseline item sum/avg:", pairs(base, 2))
print("baseline ctx:", " ".join("%.1f,%.1f" % (a, b) for a, b in base[:, 4:6]))


def report(name, got, shuffled):
    for col, slot in ((0, "user"), (2, "item")):
        mine, original = pairs(got, col), pairs(base, col)
        if slot in shuffled:
            # Every record keeping its own values: a chance of about 2e-9.
            print("%s: %s values from loaded records: %s, record 0 keeps its own: %s, "
                  "others changed: %s" % (name, slot, all(p in original for p in mine),
                                          mine[0] == original[0], mine != original))
        else:
            print("%s: %s untouched: %s" % (name, slot, mine == original))
    # ctx is a float slot: 1.6 shuffled id slots only.
    print("%s: ctx and click untouched: %s" % (name, np.array_equal(got[:, 4:], base[:, 4:])))


dataset.set_fea_eval(5, True)
dataset.slots_shuffle(["user", "ctx"])
print("memory after slots_shuffle:", dataset.get_memory_data_size())
report("shuffle user+ctx", one_pass(), ["user"])

# The next shuffle starts from the records as loaded: user is back.
dataset.slots_shuffle(["item"])
item_shuffled = one_pass()
report("shuffle item", item_shuffled, ["item"])

# fea_eval off: slots_shuffle does nothing and the pass reads again what
# the last one read.
dataset.set_fea_eval(5, False)
dataset.slots_shuffle(["user"])
print("fea_eval off, same records:", np.array_equal(one_pass(), item_shuffled))

dataset.release_memory()
shutil.rmtree(work_dir)
