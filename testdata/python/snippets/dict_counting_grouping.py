# Counting and grouping with plain dicts: get with default, setdefault lists, nested counts, inverting, sorting by count then key.
text = "the quick brown fox jumps over the lazy dog the end"
counts = {}
for w in text.split():
    counts[w] = counts.get(w, 0) + 1
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:4])
by_len = {}
for w in sorted(set(text.split())):
    by_len.setdefault(len(w), []).append(w)
print(dict(sorted(by_len.items())))
pairs = {}
for a, b in zip(text.split(), text.split()[1:]):
    pairs.setdefault(a, {}).setdefault(b, 0)
    pairs[a][b] += 1
print(pairs["the"])
inverted = {}
for w, c in counts.items():
    inverted.setdefault(c, set()).add(w)
print({c: sorted(ws) for c, ws in sorted(inverted.items())})
