# Paddle 1.6's FileInstantDataset as a 2019 script set one up: made by
# the factory, configured as the other datasets, its DataFeedDesc
# printed, no shuffles. 1.6's CPU build had no data feed to train one
# with (MultiSlotFileInstantDataFeed was CUDA only), nor has Paddle
# 3.3.1's; fluidc reads its binary records:
# testdata/fluidc_only/dataset_file_instant_read.py.
from __future__ import print_function

import paddle.fluid as fluid

slot_ids = fluid.layers.data(name="slot_ids", shape=[1], dtype="int64", lod_level=1)
image = fluid.layers.data(name="image", shape=[3, 4], dtype="float32")
label = fluid.layers.data(name="label", shape=[1], dtype="int64")

dataset = fluid.DatasetFactory().create_dataset("FileInstantDataset")
print(type(dataset).__name__, isinstance(dataset, fluid.dataset.FileInstantDataset))
dataset.set_use_var([slot_ids, image, label])
dataset.set_batch_size(16)
dataset.set_thread(2)
dataset.set_filelist(["part-0.bin", "part-1.bin"])
print(dataset.desc())

for shuffle in (dataset.local_shuffle, dataset.global_shuffle):
    try:
        shuffle()
    except NotImplementedError as e:
        print("%s: NotImplementedError: %s" % (shuffle.__name__, e))

try:
    fluid.DatasetFactory().create_dataset("FileDataset")
except ValueError as e:
    print("ValueError:", e)
