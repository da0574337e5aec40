# os.path string operations: join, split, splitext, basename, dirname, normpath, relpath, isabs, commonprefix, expanduser of a non-~ path.
import os.path as osp
import os

print(osp.join("data", "train", "images"), osp.join("/abs", "x"), osp.join("a", "/b", "c"), osp.join("a", ""), osp.join("a/", "b"))
for p in ["/home/user/data/train.txt", "model.tar.gz", "dir/", "/", "", "a/b/.hidden", "noext", "../x.py", "a//b"]:
    print(repr(p), osp.split(p), osp.splitext(p), osp.basename(p), osp.dirname(p))
print(osp.normpath("a/./b/../c//d/"), osp.normpath("/../x"), osp.normpath(""), osp.normpath("./"))
print(osp.relpath("/a/b/c", "/a"), osp.relpath("/a", "/a/b/c"), osp.isabs("/x"), osp.isabs("x"))
print(osp.commonprefix(["/usr/lib", "/usr/local"]), osp.commonpath(["/usr/lib", "/usr/local"]))
print(osp.expanduser("plain/path"), osp.splitdrive("/x/y"), osp.sep, os.path is osp)
print(osp.abspath("/a/b/../c"), osp.abspath("rel") == osp.join(os.getcwd(), "rel"))
