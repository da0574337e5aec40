# configparser: reading an INI string, sections, typed getters, defaults, interpolation, writing back to a string.
import configparser
import io

text = """
[DEFAULT]
base_dir = /data

[train]
epochs = 10
lr = 0.01
use_gpu = yes
data = %(base_dir)s/train

[infer]
batch_size = 8
"""
cp = configparser.ConfigParser()
cp.read_string(text)
print(cp.sections(), cp.has_section("train"), cp.has_option("infer", "base_dir"))
print(cp.getint("train", "epochs"), cp.getfloat("train", "lr"), cp.getboolean("train", "use_gpu"), cp.get("train", "data"))
print(cp["infer"]["batch_size"], cp["infer"].get("missing", "fallback"), sorted(cp["infer"].keys()))
cp["new"] = {"key": "value"}
cp.set("train", "epochs", "20")
out = io.StringIO()
cp.write(out)
print(out.getvalue())
try:
    cp.get("nosection", "x")
except configparser.NoSectionError as e:
    print("NoSectionError:", e)
