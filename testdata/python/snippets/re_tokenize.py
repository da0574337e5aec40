# Tokenizing text with re for NLP preprocessing: lowercasing, splitting punctuation, keeping numbers, a scanner built from alternations with lastgroup.
import re

text = "The model's accuracy was 98.5% on 10,000 images -- not bad!"
print(re.findall(r"\w+|[^\w\s]", text.lower()))
print(re.findall(r"\d+(?:[.,]\d+)*", text), re.sub(r"[^\w\s]", " ", text).split())
spec = [("NUM", r"\d+(?:\.\d+)?"), ("ID", r"[A-Za-z_]\w*"), ("OP", r"[+\-*/=()]"), ("WS", r"\s+")]
scanner = re.compile("|".join("(?P<%s>%s)" % p for p in spec))
print([(m.lastgroup, m.group()) for m in scanner.finditer("lr = 0.1 * (decay + 2)") if m.lastgroup != "WS"])
print(re.split(r"(?<=[.!?])\s+", "One. Two! Three? Four"), re.findall(r"(?i)\bthe\b", text))
