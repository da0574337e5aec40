# Finding data set shards with glob and sorting them naturally; pattern classes, negation, and glob on a directory that does not exist.
import glob
import os
import re
import shutil
import tempfile

d = tempfile.mkdtemp()
for i in [0, 1, 2, 10, 11]:
    open(os.path.join(d, "train-%d.recordio" % i), "w").close()
open(os.path.join(d, "test-0.recordio"), "w").close()
open(os.path.join(d, "train-x.txt"), "w").close()
shards = glob.glob(os.path.join(d, "train-*.recordio"))
natural = sorted(shards, key=lambda p: int(re.search(r"-(\d+)\.", p).group(1)))
print([os.path.basename(p) for p in natural])
print(sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "train-[!1]*"))))
print(sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*-[0-9].*"))), glob.glob(os.path.join(d, "nodir", "*")))
print(len(glob.glob(os.path.join(d, "*"))), sorted(glob.glob("*.py", root_dir=d)) if "root_dir" in glob.glob.__code__.co_varnames else [])
shutil.rmtree(d)
