# os.path filesystem queries: exists, isfile, isdir, getsize, islink, realpath relative to a temp dir, samefile.
import os
import tempfile

d = tempfile.mkdtemp()
f = os.path.join(d, "params.bin")
with open(f, "wb") as out:
    out.write(b"\x00" * 1234)
print(os.path.exists(f), os.path.isfile(f), os.path.isdir(f), os.path.getsize(f))
print(os.path.exists(d), os.path.isfile(d), os.path.isdir(d))
missing = os.path.join(d, "missing")
print(os.path.exists(missing), os.path.isfile(missing), os.path.isdir(missing), os.path.islink(f))
try:
    os.path.getsize(missing)
except FileNotFoundError:
    print("FileNotFoundError")
link = os.path.join(d, "link")
os.symlink(f, link)
print(os.path.islink(link), os.path.exists(link), os.path.realpath(link) == os.path.realpath(f), os.path.samefile(link, f))
print(os.path.getmtime(f) > 0, isinstance(os.path.getmtime(f), float))
import shutil
shutil.rmtree(d)
