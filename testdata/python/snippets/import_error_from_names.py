# `from helper import name` where the helper lacks the name (a 2019
# project's reader module renamed between versions): CPython's message
# names the module and its file.
import os
import sys
import tempfile

folder = tempfile.mkdtemp()
with open(os.path.join(folder, "reader_v2.py"), "w") as f:
    f.write("def train_reader():\n    return []\n")
sys.path.insert(0, folder)
try:
    from reader_v2 import test_reader
except ImportError as e:
    print(type(e).__name__, e.name, os.path.basename(e.path))
    print(str(e).replace(folder, "<dir>"))
from reader_v2 import train_reader
print(train_reader())
