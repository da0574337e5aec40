# Chinese text walked by char index as 2019 readers and metrics did:
# s[i] forwards and backwards, slices in any order, find from a position,
# a regex scanning with pos, and json documents of Chinese records.
import json
import random
import re

random.seed(11)
text = "".join(random.choice("今天天气很好我们去北京大学看看abc 123，。") for _ in range(3000))
other = "零一二三四五六七八九" * 50
print(sum(1 for i in range(len(text)) if text[i] == "天"), text[-1], text[-7], text[1500])
picks = [random.randrange(len(text)) for _ in range(200)]
print("".join(text[i] for i in picks)[:40], "".join(other[i % len(other)] for i in picks)[:20])
spans = [sorted((random.randrange(len(text)), random.randrange(len(text)))) for _ in range(100)]
print(sum(len(text[a:b]) for a, b in spans), [text[a:a + 3] for a, b in spans[:5]], text[10:2], text[::-97][:5])
pos, hits = 0, []
while True:
    j = text.find("北京", pos)
    if j < 0:
        break
    hits.append(j)
    pos = j + 1
print(len(hits), hits[:5], text.rfind("大学", 0, 2000), text.count("天", 100, 900), text.index("看", 2500) if "看" in text[2500:] else -1)
word = re.compile(r"[\u4e00-\u9fff]{2}")
pos, found = 0, []
while len(found) < 50:
    m = word.search(text, pos)
    if m is None:
        break
    found.append((m.start(), m.group()))
    pos = m.end()
print(found[:4], found[-1], [m.span() for m in re.finditer("好我", text)][:3])
records = [{"id": i, "question": text[i * 7:i * 7 + 9], "answers": [other[i:i + 3]]} for i in range(300)]
doc = json.dumps(records, ensure_ascii=False)
back = json.loads(doc)
print(back == records, back[123], json.loads(json.dumps(records))[299]["question"] == records[299]["question"])
print(json.loads('{"键": "值\\u4e2d", "n": [1, 2.5, "三"]}'), json.decoder.scanstring('"中文"', 1))
