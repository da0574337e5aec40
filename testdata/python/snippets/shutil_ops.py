# shutil: copyfile/copy/copy2, copytree (with ignore), move, rmtree, make_archive of a directory, disk_usage type.
import os
import shutil
import tempfile

d = tempfile.mkdtemp()
src = os.path.join(d, "src")
os.makedirs(os.path.join(src, "sub"))
for rel, text in [("a.txt", "alpha"), ("b.log", "beta"), ("sub/c.txt", "gamma")]:
    with open(os.path.join(src, rel), "w") as f:
        f.write(text)
print(os.path.basename(shutil.copyfile(os.path.join(src, "a.txt"), os.path.join(d, "copy.txt"))))
shutil.copy(os.path.join(src, "a.txt"), os.path.join(d, "copy2.txt"))
shutil.copy2(os.path.join(src, "b.log"), d)
dst = shutil.copytree(src, os.path.join(d, "dst"), ignore=shutil.ignore_patterns("*.log"))
tree = sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)
print(tree)
shutil.move(os.path.join(d, "copy.txt"), os.path.join(d, "dst", "moved.txt"))
print(sorted(os.listdir(os.path.join(d, "dst"))), os.path.basename(dst))
with open(os.path.join(d, "dst", "moved.txt")) as f:
    print(f.read())
archive = shutil.make_archive(os.path.join(d, "backup"), "tar", root_dir=src)
print(os.path.basename(archive), os.path.getsize(archive) > 0)
shutil.rmtree(os.path.join(d, "dst"))
print(os.path.exists(os.path.join(d, "dst")))
shutil.rmtree(d)
print(os.path.exists(d))
try:
    shutil.rmtree(d)
except FileNotFoundError:
    print("FileNotFoundError")
shutil.rmtree(d, ignore_errors=True)
