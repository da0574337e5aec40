# os file and directory functions: makedirs (exist_ok), listdir, rename, remove, rmdir, stat sizes, chdir/getcwd, walk.
import os
import tempfile

root = tempfile.mkdtemp(prefix="snippet_")
model_dir = os.path.join(root, "output", "model", "epoch_1")
os.makedirs(model_dir)
os.makedirs(model_dir, exist_ok=True)
try:
    os.makedirs(model_dir)
except FileExistsError:
    print("FileExistsError")
for name in ["b.txt", "a.txt", "c.bin"]:
    with open(os.path.join(model_dir, name), "w") as f:
        f.write(name * 3)
print(sorted(os.listdir(model_dir)))
os.rename(os.path.join(model_dir, "c.bin"), os.path.join(model_dir, "d.bin"))
os.remove(os.path.join(model_dir, "a.txt"))
print(sorted(os.listdir(model_dir)), os.stat(os.path.join(model_dir, "b.txt")).st_size)
os.mkdir(os.path.join(root, "empty"))
for dirpath, dirnames, filenames in sorted(os.walk(root)):
    print(os.path.relpath(dirpath, root), sorted(dirnames), sorted(filenames))
old = os.getcwd()
os.chdir(model_dir)
print(os.path.basename(os.getcwd()), sorted(os.listdir(".")))
os.chdir(old)
print(os.getcwd() == old)
os.rmdir(os.path.join(root, "empty"))
try:
    os.rmdir(os.path.join(root, "output"))
except OSError as e:
    print(type(e).__name__)
import shutil
shutil.rmtree(root)
print(os.path.exists(root))
