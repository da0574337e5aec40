# Compiled patterns and flags: IGNORECASE, MULTILINE, DOTALL, VERBOSE, pattern attributes, escape, purge-free caching.
import re

pat = re.compile(r"""
    (?P<key>[a-z_]+)   # a key
    \s*:\s*
    (?P<val>.+)        # its value
""", re.VERBOSE)
for line in ["batch_size: 32", "lr : 0.1", "bad line"]:
    m = pat.match(line)
    print(line, "->", m.groupdict() if m else None)
print(pat.flags & re.VERBOSE != 0, pat.groups, sorted(pat.groupindex.items()))
text = "First line\nsecond LINE\nthird"
print(re.findall(r"^\w+", text, re.M), re.findall(r"line$", text, re.I | re.M), re.findall(r"e.s", text, re.S))
print(re.escape("a.b*c?(d)"), re.escape("x-y z"), re.compile(re.escape("1+1")).match("1+1=2").group())
print(re.compile(r"\d").findall("a1b2"), re.compile(r"\d").sub("#", "a1b2", 1), re.compile("(?i)abc").match("ABC") is not None)
print(re.findall(r"(?<=\$)\d+", "cost $30 or $45"), re.findall(r"\d+(?= dollars)", "5 dollars 6 euros"), re.findall(r"a(?!b)", "ab ac ad"))
print(re.findall(r"[\u4e00-\u9fff]+", "abc中文def字"), re.match(r"(\d{3})-(\d{4})", "555-1234").groups(), re.findall(r"a{2,3}?", "aaaaa"))
