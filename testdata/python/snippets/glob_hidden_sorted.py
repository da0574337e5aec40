# glob rules: * does not match dotfiles, explicit .* patterns do, trailing slash matches only directories, results sorted by the caller.
import glob
import os
import shutil
import tempfile

d = tempfile.mkdtemp()
os.makedirs(os.path.join(d, "sub_dir"))
for n in [".env", ".cache.txt", "z.txt", "a.txt"]:
    open(os.path.join(d, n), "w").close()
names = lambda pattern: sorted(os.path.basename(p.rstrip("/")) for p in glob.glob(os.path.join(d, pattern)))
print(names("*"), names(".*"), names("*/"), names("*.txt"), names("[az].txt"))
shutil.rmtree(d)
