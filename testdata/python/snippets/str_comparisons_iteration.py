# String comparison (lexicographic, code points), iteration, membership, ord/chr ranges, min/max, sorted with unicode.
print("abc" < "abd", "abc" < "abcd", "Z" < "a", "é" > "z", "10" < "9", "a" == "a", "a" != None)
print(sorted(["banana", "Apple", "cherry", "apple", "éclair", "Zebra", "10", "9"]))
print([c for c in "héllo"], [ord(c) for c in "aZ09 é"], "".join(chr(c) for c in range(97, 102)))
print(max("hello world"), min("hello world".replace(" ", "")), "lo" in "hello", "" in "x", "x" in "")
counts = {}
for ch in "abracadabra":
    counts[ch] = counts.get(ch, 0) + 1
print(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
print(list(reversed("abc")), list(enumerate("ab")), list(zip("abc", "12")), "abc" * 2 < "abd")
