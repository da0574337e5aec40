# strip/lstrip/rstrip with char sets, join of various iterables, translate/maketrans, str * int, in, comparisons.
s = "xx--hello--xx"
print(s.strip("x"), s.strip("x-"), s.lstrip("x"), s.rstrip("-x"), "  pad  ".strip(), "\n\tt\n".strip())
print(", ".join(["a", "b", "c"]), "".join(map(str, range(5))), "-".join(sorted({"z", "a"})), " ".join(("t", "u")))
try:
    ",".join([1, 2])
except TypeError as e:
    print("TypeError")
table = str.maketrans("abc", "xyz", "d")
print("abcdabcd".translate(table), "hello".translate({ord("l"): None, ord("o"): "0"}))
print("ab" * 3, 3 * "-", "a" in "cat", "at" not in "cat", "apple" < "banana", "Z" < "a", "a" * 0 == "")
print(sorted(["banana", "Apple", "cherry", "apple"]), sorted(["b", "A", "a"], key=str.lower))
print(min("hello"), max("hello"), list("abc"), tuple("ab"), ord("a"), chr(8364), "\N{GREEK SMALL LETTER ALPHA}")
