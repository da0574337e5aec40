# pathlib pure path operations: parts, name/stem/suffix(es), parent(s), joinpath and /, with_suffix/with_name, relative_to, match, as_posix.
from pathlib import Path, PurePosixPath

p = PurePosixPath("/data/models/resnet50.tar.gz")
print(p.name, p.stem, p.suffix, p.suffixes, p.parent, list(p.parents)[:2], p.parts, p.anchor, p.is_absolute())
print(p.with_suffix(".zip"), p.with_name("x.txt"), p.relative_to("/data"), p.match("*.gz"), p.match("models/*.gz"))
q = Path("output") / "epoch_1" / "params"
print(q, repr(q), q.as_posix(), str(q.joinpath("fc.w")), q.parent.name, Path("a/b/../c"), Path("./x/./y"))
print(Path("a") == Path("a/"), Path("/") / "etc", sorted([Path("b"), Path("a/z"), Path("a")]), Path("file.tar.gz").stem)
print(PurePosixPath("a/b").with_stem("c") if hasattr(PurePosixPath, "with_stem") else "a/c", Path("x.py").suffix == ".py", Path("").parts)
try:
    p.relative_to("/other")
except ValueError:
    print("ValueError")
