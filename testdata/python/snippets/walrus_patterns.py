# More assignment-expression patterns: reading chunks, regex matches, reusing computed values in comprehensions and any().
import io
import re

stream = io.BytesIO(b"abcdefghij")
chunks = []
while chunk := stream.read(4):
    chunks.append(chunk)
print(chunks)
for line in ["lr=0.1", "bad", "epochs=5"]:
    if m := re.match(r"(\w+)=(\S+)", line):
        print(m.group(1), m.group(2))
    else:
        print("no match", line)
data = [1, 5, 9, 12]
print([(x, y) for x in data if (y := x * x) > 20], [last := v for v in data][-1], last)
print(any((bad := v) > 10 for v in data), bad)
