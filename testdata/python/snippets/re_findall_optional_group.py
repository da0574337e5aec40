# re.findall with one group that may take no part in a match, as 2019
# text cleaners split numbers and words: CPython gives '' for it.
import re

print(re.findall(r"(\d+)?[a-z]", "1a b 2c"))
print(re.findall(r"(a)|b", "ab"), "".join(re.findall(r"(中)|文", "中文")))
print(re.findall(rb"(x)?y", b"xy y"), re.findall(r"(?:(\w)-)?\d", "a-1 2 b-3"))
print(re.findall(r"(\d)(x)?", "1x2"), [m.group(1) for m in re.finditer(r"(a)?b", "ab b")])
