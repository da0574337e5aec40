# os constants and misc: sep, linesep, curdir, pardir, name, getpid type, cpu_count type, urandom length, scandir.
import os
import tempfile

print(repr(os.sep), repr(os.linesep), os.curdir, os.pardir, os.name, repr(os.pathsep), repr(os.extsep), os.devnull)
print(type(os.getpid()).__name__, os.getpid() > 0, isinstance(os.cpu_count(), int), len(os.urandom(8)))
d = tempfile.mkdtemp()
for n in ["x.py", "y.txt"]:
    open(os.path.join(d, n), "w").close()
os.mkdir(os.path.join(d, "sub"))
entries = sorted(os.scandir(d), key=lambda e: e.name)
print([(e.name, e.is_file(), e.is_dir()) for e in entries])
print(os.path.isdir(d), os.access(d, os.R_OK), os.fspath(d) == d)
fd = os.open(os.path.join(d, "raw"), os.O_WRONLY | os.O_CREAT)
os.write(fd, b"raw bytes")
os.close(fd)
fd = os.open(os.path.join(d, "raw"), os.O_RDONLY)
print(os.read(fd, 3), os.read(fd, 100))
os.close(fd)
import shutil
shutil.rmtree(d)
print(os.path.exists(d))
