# re substitution templates: \g<0>, \g<name>, escapes in replacement, callable replacements with counters, re.sub with flags.
import re

print(re.sub(r"\d+", r"<\g<0>>", "a1b22"), re.sub(r"(?P<k>\w+)=(?P<v>\w+)", r"\g<v>=\g<k>", "a=1 b=2"))
print(re.sub(r"a", r"\\", "banana"), re.sub(r"(a)", r"\1\n", "ab").split("\n"), re.sub("x", lambda m: "\\n", "x"))
n = [0]


def numbered(m):
    n[0] += 1
    return "%s#%d" % (m.group(), n[0])


print(re.sub(r"[aeiou]", numbered, "education"), re.sub(r"HELLO", "bye", "hello Hello", flags=re.I))
print(re.sub(r"^\s+|\s+$", "", "  trim me  "), re.sub(r"(?m)^", "# ", "line1\nline2"), re.subn(r"\s", "", "a b c"))
try:
    re.sub(r"(a)", r"\2", "a")
except re.error as e:
    print("re.error")
