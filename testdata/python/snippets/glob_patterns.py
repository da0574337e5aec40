# glob: *, ?, [] patterns, recursive ** with recursive=True, hidden files, sorted results relative to a temp dir, fnmatch.
import fnmatch
import glob
import os
import tempfile

d = tempfile.mkdtemp()
for rel in ["a.txt", "b.txt", "c.py", "data/part-0.gz", "data/part-1.gz", "data/sub/x.gz", ".hidden.txt", "img1.png", "img2.png", "img10.png"]:
    p = os.path.join(d, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, "w").close()
rel = lambda paths: sorted(os.path.relpath(p, d) for p in paths)
print(rel(glob.glob(os.path.join(d, "*.txt"))))
print(rel(glob.glob(os.path.join(d, "img?.png"))), rel(glob.glob(os.path.join(d, "img[12]*.png"))))
print(rel(glob.glob(os.path.join(d, "data", "*.gz"))), rel(glob.glob(os.path.join(d, "**", "*.gz"), recursive=True)))
print(rel(glob.glob(os.path.join(d, "*"))))
print(rel(glob.iglob(os.path.join(d, "data", "*"))), glob.glob(os.path.join(d, "nothing*")))
print(glob.escape("a[b]*.txt"), fnmatch.fnmatch("file.TXT", "*.txt"), fnmatch.fnmatchcase("file.TXT", "*.txt"))
print(fnmatch.filter(["a.py", "b.txt", "c.py"], "*.py"), fnmatch.translate("*.py"))
import shutil
shutil.rmtree(d)
