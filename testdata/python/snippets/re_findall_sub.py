# re.findall/finditer/sub/subn with groups, backreferences, callables, counts; split with groups and maxsplit.
import re

log = "step 1 loss 0.693, step 2 loss 0.512, step 10 loss 0.1003"
print(re.findall(r"loss (\d+\.\d+)", log))
print(re.findall(r"step (\d+) loss ([\d.]+)", log))
print([(m.start(), m.group(1)) for m in re.finditer(r"step (\d+)", log)])
print(re.sub(r"\d+\.\d+", "X", log), re.sub(r"(\w+) (\d+)", r"\2:\1", "step 1 epoch 2"))
print(re.sub(r"\d+", lambda m: str(int(m.group()) * 2), "a1 b22 c333"), re.subn(r"o", "0", "foo boo"))
print(re.sub(r"a", "b", "aaaa", count=2), re.sub(r"(?P<w>\w)", r"\g<w>\g<w>", "ab"), re.sub(r"x*", "-", "abc"))
print(re.split(r"[,;]\s*", "a, b;c,  d"), re.split(r"(,)", "a,b,c"), re.split(r"\s+", "a b  c", maxsplit=1))
print(re.split(r"\W+", "Words, words, words."), re.findall(r"\b\w", "hello big world"), re.findall(r"", "ab"))
