# os.walk topdown and bottom-up, pruning dirnames in place, os.replace, os.path.getsize of many files, sorted traversal for determinism.
import os
import shutil
import tempfile

root = tempfile.mkdtemp()
for rel in ["a/x.txt", "a/skip/y.txt", "b/c/z.txt", "top.txt"]:
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(rel)
found = []
for dirpath, dirnames, filenames in os.walk(root):
    dirnames[:] = sorted(d for d in dirnames if d != "skip")
    for name in sorted(filenames):
        found.append(os.path.relpath(os.path.join(dirpath, name), root))
print(sorted(found))
bottom_up = [os.path.relpath(d, root) for d, _, _ in os.walk(root, topdown=False)]
print(bottom_up.index("b/c") < bottom_up.index("b"), bottom_up[-1])
os.replace(os.path.join(root, "top.txt"), os.path.join(root, "a", "top.txt"))
print(sorted(os.listdir(os.path.join(root, "a"))), sum(os.path.getsize(os.path.join(root, p)) for p in ["a/x.txt", "a/top.txt"]))
shutil.rmtree(root)
