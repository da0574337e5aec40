# re: match vs search vs fullmatch, groups, named groups, groupdict, span, None results.
import re

m = re.match(r"(\w+)-(\d+)", "resnet-50 and vgg-16")
print(m.group(0), m.group(1), m.group(2), m.groups(), m.span(), m.start(2), m.end(2))
print(re.match(r"\d+", "abc 123"), re.search(r"\d+", "abc 123").group())
print(re.fullmatch(r"[a-z]+", "abc") is not None, re.fullmatch(r"[a-z]+", "abc1"))
m = re.search(r"(?P<name>\w+)=(?P<value>[\d.]+)", "set lr=0.01 now")
print(m.group("name"), m["value"], m.groupdict(), m.lastgroup, m.re.pattern)
m = re.match(r"(a)(b)?", "a")
print(m.groups(), m.groups("default"), m.group(2), m.lastindex)
print(bool(re.search(r"^epoch", "EPOCH 1", re.I)), re.search(r"x$", "ax\n").group(), re.search(r"\bis\b", "this is").start())
