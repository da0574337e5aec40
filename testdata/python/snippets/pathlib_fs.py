# pathlib filesystem use: mkdir(parents, exist_ok), write_text/read_text, write_bytes, exists/is_file/is_dir, iterdir, glob/rglob, stat, unlink, rename.
import tempfile
from pathlib import Path

root = Path(tempfile.mkdtemp())
out = root / "output" / "run1"
out.mkdir(parents=True)
out.mkdir(parents=True, exist_ok=True)
(out / "log.txt").write_text("step 1\nstep 2\n")
(out / "w.bin").write_bytes(b"\x00\x01")
(root / "output" / "notes.md").write_text("# notes")
print((out / "log.txt").read_text().splitlines(), (out / "w.bin").read_bytes(), (out / "log.txt").stat().st_size)
print(out.exists(), out.is_dir(), (out / "log.txt").is_file(), (out / "nope").exists())
print(sorted(p.name for p in out.iterdir()), sorted(str(p.relative_to(root)) for p in root.rglob("*.txt")))
print(sorted(p.name for p in (root / "output").glob("*")), sorted(p.suffix for p in root.glob("**/*.*")))
(out / "log.txt").rename(out / "old.txt")
(out / "w.bin").unlink()
print(sorted(p.name for p in out.iterdir()))
with (out / "old.txt").open() as f:
    print(f.readline().strip())
import shutil
shutil.rmtree(root)
print(root.exists(), Path.cwd() == Path(".").resolve(), Path("rel").resolve().is_absolute())
