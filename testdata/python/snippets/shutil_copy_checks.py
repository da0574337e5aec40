# shutil details: copyfileobj in chunks, copying over an existing file, SameFileError, copytree dirs_exist_ok, which() for a missing program.
import io
import os
import shutil
import tempfile

src = io.BytesIO(b"x" * 10000)
dst = io.BytesIO()
shutil.copyfileobj(src, dst, 1024)
print(len(dst.getvalue()))
d = tempfile.mkdtemp()
a, b = os.path.join(d, "a.txt"), os.path.join(d, "b.txt")
with open(a, "w") as f:
    f.write("new")
with open(b, "w") as f:
    f.write("old content")
shutil.copyfile(a, b)
with open(b) as f:
    print(f.read())
try:
    shutil.copyfile(a, a)
except shutil.SameFileError:
    print("SameFileError")
os.makedirs(os.path.join(d, "t1", "sub"))
os.makedirs(os.path.join(d, "t2"))
shutil.copytree(os.path.join(d, "t1"), os.path.join(d, "t2"), dirs_exist_ok=True)
print(os.listdir(os.path.join(d, "t2")), shutil.which("fluidc-no-such-program-xyz"))
shutil.rmtree(d)
