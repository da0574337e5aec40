# re edge cases: invalid patterns raise re.error, greedy vs lazy, alternation order, optional groups in sub, unicode \w.
import re

try:
    re.compile(r"(unclosed")
except re.error as e:
    print("re.error")
print(re.findall(r"<.*>", "<a><b>"), re.findall(r"<.*?>", "<a><b>"), re.match(r"a|ab", "ab").group())
print(re.sub(r"(a)|b", lambda m: m.group(1) or "B", "abab"), re.findall(r"\w+", "naïve café"), re.findall(r"(?a)\w+", "naïve"))
print(re.match(r"(?:ab)+", "ababc").group(), re.findall(r"(a|b)+", "abab"), re.search(r"(\d)\1", "12334").group())
print(re.sub(r"\s+", " ", "  many   spaces\there \n"), re.sub("^", ">", "a\nb", flags=re.M))
print(repr(re.compile(r"\d+")), re.compile(r"ab", re.I).pattern, re.I == re.IGNORECASE, type(re.compile("x")).__name__)
