# Hand-written config parsing like older scripts: key=value lines with comments, type inference, ast.literal_eval of lists/dicts, defaults merging.
import ast

text = """
# model config
model = resnet
depth = 50
lr = 0.001
use_gpu = False
layers = [64, 128, 256]
opts = {'momentum': 0.9, 'nesterov': True}
name = 'quoted name'
"""


def infer(value):
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return value


cfg = {}
for line in text.splitlines():
    line = line.split("#", 1)[0].strip()
    if not line:
        continue
    key, value = (part.strip() for part in line.split("=", 1))
    cfg[key] = infer(value)
print(cfg)
print({k: type(v).__name__ for k, v in cfg.items()})
defaults = {"depth": 18, "epochs": 10}
merged = dict(defaults)
merged.update(cfg)
print(sorted(merged.items())[:4], ast.literal_eval("(1, -2.5, 'x', None)"), ast.literal_eval("{1, 2}") == {1, 2})
try:
    ast.literal_eval("__import__('os')")
except ValueError as e:
    print("ValueError")
