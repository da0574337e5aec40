# zipfile: writing an archive in a temp dir (stored and deflated), listing infos, reading members, namelist order, testzip.
import os
import tempfile
import zipfile

d = tempfile.mkdtemp()
path = os.path.join(d, "data.zip")
with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
    z.writestr("readme.txt", "hello zip\n" * 10)
    z.writestr("data/values.csv", "a,b\n1,2\n")
    z.writestr(zipfile.ZipInfo("stored.bin", date_time=(2019, 1, 2, 3, 4, 6)), b"\x00\x01", compress_type=zipfile.ZIP_STORED)
with zipfile.ZipFile(path) as z:
    print(z.namelist())
    for info in z.infolist():
        print(info.filename, info.file_size, info.compress_type)
    print(z.read("data/values.csv"), z.testzip())
    with z.open("readme.txt") as f:
        print(f.readline())
print(zipfile.is_zipfile(path), zipfile.is_zipfile(__file__))
os.remove(path)
os.rmdir(d)
