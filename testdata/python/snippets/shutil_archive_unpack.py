# shutil.make_archive with zip and tar formats, unpack_archive of the zip, listing the unpacked tree, get_archive_formats names.
import os
import shutil
import tempfile

d = tempfile.mkdtemp()
src = os.path.join(d, "model")
os.makedirs(os.path.join(src, "params"))
with open(os.path.join(src, "params", "w.txt"), "w") as f:
    f.write("weights")
with open(os.path.join(src, "meta.json"), "w") as f:
    f.write("{}")
import tarfile
tar_archive = shutil.make_archive(os.path.join(d, "export"), "tar", root_dir=src)
with tarfile.open(tar_archive) as t:
    print("tar", sorted(n for n in t.getnames() if n != "."))
for fmt in ["zip"]:
    archive = shutil.make_archive(os.path.join(d, "export"), fmt, root_dir=src)
    out = os.path.join(d, "unpacked_" + fmt)
    shutil.unpack_archive(archive, out)
    tree = sorted(os.path.relpath(os.path.join(r, f), out) for r, _, fs in os.walk(out) for f in fs)
    print(fmt, os.path.basename(archive), tree)
print(sorted(name for name, _ in shutil.get_archive_formats() if name in ("gztar", "tar", "zip")))
shutil.rmtree(d)
