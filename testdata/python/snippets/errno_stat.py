# errno codes on OSError and stat module helpers on os.stat results of files and directories in a temp dir.
import errno
import os
import stat
import tempfile

d = tempfile.mkdtemp()
try:
    os.open(os.path.join(d, "missing"), os.O_RDONLY)
except OSError as e:
    print(e.errno == errno.ENOENT, errno.errorcode[e.errno])
try:
    os.mkdir(d)
except OSError as e:
    print(e.errno == errno.EEXIST, type(e).__name__)
f = os.path.join(d, "f")
open(f, "w").close()
os.chmod(f, 0o640)
st = os.stat(f)
print(stat.S_ISREG(st.st_mode), stat.S_ISDIR(os.stat(d).st_mode), oct(stat.S_IMODE(st.st_mode)), stat.filemode(st.st_mode))
os.remove(f)
os.rmdir(d)
