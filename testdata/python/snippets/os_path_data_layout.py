# Building data set paths like training scripts: dirname(__file__) relative paths, join with the cwd, splitting extensions of shards, checking existence.
import os

here = os.path.dirname(os.path.abspath(__file__))
print(os.path.basename(here), os.path.isdir(here), os.path.exists(os.path.join(here, os.path.basename(__file__))))
data_dir = os.path.join(here, "..", "data")
print(os.path.normpath(data_dir).endswith(os.path.join("python", "data")), os.path.relpath(os.path.join(here, "x", "y"), here))
shards = ["train-00000-of-00004.tfrecord", "valid.txt.gz", "README"]
print([os.path.splitext(s) for s in shards], [s.split(".", 1)[0] for s in shards])
save = os.path.join("output", "epoch_%d" % 3, "model.pdparams")
print(save, os.path.dirname(save), os.path.splitext(os.path.basename(save))[0], os.path.isabs(save), save.count(os.sep))
